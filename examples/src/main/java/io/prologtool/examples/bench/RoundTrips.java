package io.prologtool.examples.bench;

import io.prologtool.Outcome;
import io.prologtool.PrologBackend;
import io.prologtool.PrologSession;
import io.prologtool.jpl.JplBackend;
import io.prologtool.process.ProcessBackend;

import java.io.PrintStream;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import java.util.OptionalDouble;

/**
 * Measurement 2, the fixed cost of a call: the goal {@code true} on a session that is open and holds
 * the 20-clause program, each backend against its floor measured in the same run (issue 16): on JPL,
 * JPL's own bare query ({@link Floors#bareJplQuery}); on the process backend, a bare {@code swipl} in a
 * read/call/reply loop over a pipe, the floor of any process behind a pipe. A third row is the
 * harness's own share of each call, measured inside Prolog ({@link Floors#harnessWork}), and a fourth
 * the same without goal expansion, output capture and the reply text: a lower bound of that share.
 */
final class RoundTrips {

    private static final String WHAT = "round trip: goal `true` on an open session";
    private static final String JPL_FLOOR = "bare JPL query: Query(\"true\").hasSolution() on the embedded Prolog (floor)";
    private static final String PIPE_FLOOR = "bare swipl read/call loop over a pipe (floor)";

    private RoundTrips() {
    }

    static List<Row> measure(Plan plan, Path swipl, PrintStream log) throws Exception {
        Timer.progress(log, "round trip, jpl", plan.roundTrip());
        Summary jpl;
        Summary jplFloor;
        try (JplBackend backend = JplBackend.get()) {
            jpl = measure(plan, backend);
            Timer.progress(log, "round trip, jpl floor: bare JPL query", plan.roundTrip());
            jplFloor = Floors.bareJplQuery(plan, backend);
        }
        Timer.progress(log, "round trip, process", plan.roundTrip());
        Summary process;
        try (ProcessBackend backend = ProcessBackend.builder().build()) {
            process = measure(plan, backend);
        }
        Timer.progress(log, "round trip, process floor: bare swipl loop", plan.roundTrip());
        Summary pipeFloor;
        try (BareSwipl.ReadLoop loop = new BareSwipl.ReadLoop(swipl)) {
            pipeFloor = Summary.ofNanos(Timer.time(plan.roundTrip(), () -> loop.call("true")), Unit.MICROS);
        }
        log.printf(java.util.Locale.ROOT, "[bench] harness work per goal request, in Prolog: %d batches of %,d%n",
                plan.harnessBatches(), plan.harnessRequests());
        Summary harness = Floors.harnessWork(swipl, plan.harnessBatches(), plan.harnessRequests(),
                Floors.HarnessProbe.WHOLE);
        log.printf(java.util.Locale.ROOT, "[bench] the same without goal expansion, output capture and reply: "
                + "%d batches of %,d%n", plan.harnessBatches(), plan.harnessRequests());
        Summary remainder = Floors.harnessWork(swipl, plan.harnessBatches(), plan.harnessRequests(),
                Floors.HarnessProbe.WITHOUT_THREE);
        String details = "session.goal(\"true\").run() on a session that holds the 20-clause program; back to back";
        return List.of(
                Row.of("roundtrip", WHAT, "jpl", jpl, Unit.MICROS, details, JPL_FLOOR, jplFloor),
                Row.of("roundtrip", WHAT, "process", process, Unit.MICROS, details + "; one child, no pool", PIPE_FLOOR,
                        pipeFloor),
                new Row("harness_work", "harness work per goal request `true` (Prolog CPU time)", "harness",
                        harness.median(), OptionalDouble.of(harness.p90()), Unit.MICROS,
                        "handle_request/2 on a goal request for true, in a loop inside a swipl that loaded the harness "
                                + "and consulted the 20-clause program (no transport; every reply checked); "
                                + "statistics(cputime) per request, one value per batch of " + plan.harnessRequests(),
                        "", OptionalDouble.empty(), Optional.empty()),
                new Row("harness_work_without_three", "harness work per goal request `true` without goal expansion, "
                        + "output capture and reply text (a lower bound)", "harness",
                        remainder.median(), OptionalDouble.of(remainder.p90()), Unit.MICROS,
                        "the harness work probe with those three parts replaced by no-ops in the probe's swipl: not a "
                                + "valid request; what the other parts of a goal request cost (reading it, the "
                                + "session's bookkeeping, limits, parsing, the isolation check, the search, the "
                                + "answer); while it costs more than 15 µs, so does every valid request",
                        "", OptionalDouble.empty(), Optional.empty()));
    }

    private static Summary measure(Plan plan, PrologBackend backend) throws Exception {
        try (PrologSession s = backend.open()) {
            if (s.consult(SessionCycles.PROGRAM).hasErrors()) {
                throw new IllegalStateException("the bench program does not load on " + backend.name());
            }
            return Summary.ofNanos(Timer.time(plan.roundTrip(), () -> {
                if (s.goal("true").run().outcome() != Outcome.SUCCESS) {
                    throw new IllegalStateException("true did not succeed on " + backend.name());
                }
            }), Unit.MICROS);
        }
    }
}

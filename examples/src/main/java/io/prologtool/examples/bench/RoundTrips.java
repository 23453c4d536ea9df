package io.prologtool.examples.bench;

import io.prologtool.Outcome;
import io.prologtool.PrologBackend;
import io.prologtool.PrologSession;
import io.prologtool.jpl.JplBackend;
import io.prologtool.process.ProcessBackend;

import java.io.PrintStream;
import java.nio.file.Path;
import java.util.List;

/**
 * Measurement 2, the fixed cost of a call: the goal {@code true} on a session that is open and holds
 * the 20-clause program. The baseline is the floor of any process behind a pipe: a bare {@code swipl}
 * in a read/call/reply loop. Against it the process backend's ratio is below 1; the gap is what the
 * harness and the JSON protocol add.
 */
final class RoundTrips {

    private static final String WHAT = "round trip: goal `true` on an open session";
    private static final String BASELINE = "bare swipl read/call loop over a pipe (floor)";

    private RoundTrips() {
    }

    static List<Row> measure(Plan plan, Path swipl, PrintStream log) throws Exception {
        Timer.progress(log, "round trip, jpl", plan.roundTrip());
        Summary jpl;
        try (JplBackend backend = JplBackend.get()) {
            jpl = measure(plan, backend);
        }
        Timer.progress(log, "round trip, process", plan.roundTrip());
        Summary process;
        try (ProcessBackend backend = ProcessBackend.builder().build()) {
            process = measure(plan, backend);
        }
        Timer.progress(log, "round trip, baseline: bare swipl loop", plan.roundTrip());
        Summary floor;
        try (BareSwipl.ReadLoop loop = new BareSwipl.ReadLoop(swipl)) {
            floor = Summary.ofNanos(Timer.time(plan.roundTrip(), () -> loop.call("true")), Unit.MICROS);
        }
        String details = "session.goal(\"true\").run() on a session that holds the 20-clause program; back to back";
        return List.of(
                Row.of("roundtrip", WHAT, "jpl", jpl, Unit.MICROS, details, BASELINE, floor).withTarget(Target.below(50)),
                Row.of("roundtrip", WHAT, "process", process, Unit.MICROS, details + "; one child, no pool", BASELINE, floor)
                        .withTarget(Target.below(150)));
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

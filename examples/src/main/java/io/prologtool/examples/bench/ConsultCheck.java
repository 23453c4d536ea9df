package io.prologtool.examples.bench;

import io.prologtool.ConsultResult;
import io.prologtool.PrologBackend;
import io.prologtool.PrologSession;
import io.prologtool.SessionOptions;
import io.prologtool.jpl.JplBackend;
import io.prologtool.process.Isolation;
import io.prologtool.process.ProcessBackend;

import java.io.PrintStream;
import java.util.List;

/**
 * The cost of the static check (issue 17): the consult of the 20-clause program ({@link SessionCycles#PROGRAM})
 * into a fresh session with the check, against the same consult into a session opened with
 * {@link SessionOptions.Builder#staticCheck(boolean) staticCheck(false)}, on both backends. The target:
 * at most 1.2 times the consult without it.
 *
 * <p>Only the consult is timed; each iteration opens its session before, untimed, and closes it after.
 * The two sides run in alternating blocks, so that drift (another process on the machine, the JIT) falls
 * on both. The process backend keeps one child and reuses it ({@link ProcessBackend.Builder#reuseChildren}),
 * so that opening a session does not start a process.
 */
final class ConsultCheck {

    private static final String ID = "consult_check";
    private static final String WHAT = "consult 20 clauses with the static check";
    private static final String BASELINE = "the same consult in a session opened with staticCheck(false)";
    /** Blocks per side; each block warms up, then times. */
    private static final int BLOCKS = 4;

    private ConsultCheck() {
    }

    static List<Row> measure(Plan plan, PrintStream log) throws Exception {
        Plan.Iterations block = plan.quick() ? new Plan.Iterations(5, 10) : new Plan.Iterations(25, 100);
        Timer.progress(log, "consult with and without the static check, jpl (" + BLOCKS + " blocks per side)", block);
        Summary[] jpl;
        try (JplBackend backend = JplBackend.get()) {
            jpl = measure(backend, block);
        }
        Timer.progress(log, "consult with and without the static check, process (" + BLOCKS + " blocks per side)",
                block);
        Summary[] process;
        try (ProcessBackend backend = ProcessBackend.builder().isolation(Isolation.none()).poolSize(1).build()) {
            process = measure(backend, block);
        }
        String details = "session.consult(PROGRAM) on a fresh session (opened and closed untimed), with the static "
                + "check on (the default); " + BLOCKS + " blocks alternating with the baseline";
        return List.of(
                Row.of(ID, WHAT, "jpl", jpl[0], Unit.MICROS, details, BASELINE, jpl[1])
                        .withTarget(Target.timesFloorAtMost(1.2)),
                Row.of(ID, WHAT, "process", process[0], Unit.MICROS, details + "; one pooled child, reused",
                        BASELINE, process[1]).withTarget(Target.timesFloorAtMost(1.2)));
    }

    /** {with the check, without it}. */
    private static Summary[] measure(PrologBackend backend, Plan.Iterations block) throws Exception {
        SessionOptions on = SessionOptions.builder().staticCheck(true).build();
        SessionOptions off = SessionOptions.builder().staticCheck(false).build();
        checkTheCheckRuns(backend, on, off);
        long[] withCheck = new long[BLOCKS * block.timed()];
        long[] without = new long[BLOCKS * block.timed()];
        for (int b = 0; b < BLOCKS; b++) {
            System.arraycopy(timeConsults(backend, off, block), 0, without, b * block.timed(), block.timed());
            System.arraycopy(timeConsults(backend, on, block), 0, withCheck, b * block.timed(), block.timed());
        }
        return new Summary[] {Summary.ofNanos(withCheck, Unit.MICROS), Summary.ofNanos(without, Unit.MICROS)};
    }

    /** Per-consult times: each iteration's session is opened before it and closed after, untimed. */
    private static long[] timeConsults(PrologBackend backend, SessionOptions options, Plan.Iterations it)
            throws Exception {
        PrologSession[] current = new PrologSession[1];
        try {
            return Timer.time(it, () -> {
                ConsultResult c = current[0].consult(SessionCycles.PROGRAM);
                if (!c.messages().isEmpty()) {
                    throw new IllegalStateException("the bench program loads with messages on " + backend.name()
                            + ": " + c.messages());
                }
            }, () -> {
                if (current[0] != null) {
                    current[0].close();
                }
                current[0] = backend.open(options);
            });
        } finally {
            if (current[0] != null) {
                current[0].close();
            }
        }
    }

    /** The two sides differ by the check: a call of an undefined predicate is reported with it only. */
    private static void checkTheCheckRuns(PrologBackend backend, SessionOptions on, SessionOptions off) {
        String text = SessionCycles.PROGRAM + "\nreach(X) :- path(n1, X), missing(X).\n";
        try (PrologSession s = backend.open(on)) {
            if (s.consult(text).messages().stream().noneMatch(d -> d.kind().equals("undefined_predicate"))) {
                throw new IllegalStateException("the static check reported nothing on " + backend.name());
            }
        }
        try (PrologSession s = backend.open(off)) {
            if (!s.consult(text).messages().isEmpty()) {
                throw new IllegalStateException("staticCheck(false) still reported on " + backend.name());
            }
        }
    }
}

package io.prologtool.examples.bench;

import io.prologtool.GoalResult;
import io.prologtool.Outcome;
import io.prologtool.PrologBackend;
import io.prologtool.PrologSession;
import io.prologtool.jpl.JplBackend;
import io.prologtool.process.ProcessBackend;

import java.io.PrintStream;
import java.util.List;

/**
 * Forked sessions (issue 17): {@code fork()} of a session that holds the 20-clause program, against what a
 * caller without fork does: open a session and consult the same program. Both then answer the program's
 * goal, which every iteration checks; the copy is closed untimed.
 */
final class SessionFork {

    private static final String WHAT = "fork a session holding 20 clauses";
    private static final String BASELINE = "open a session and consult the same 20 clauses";

    private SessionFork() {
    }

    static List<Row> measure(Plan plan, PrintStream log) throws Exception {
        Row jpl;
        try (JplBackend backend = JplBackend.get()) {
            jpl = measure(plan, backend, "JplBackend.get()", log);
        }
        Row process;
        try (ProcessBackend backend = ProcessBackend.builder().poolSize(2).build()) {
            process = measure(plan, backend, "ProcessBackend.builder().poolSize(2), 30 ms apart", log);
        }
        return List.of(jpl, process);
    }

    private static Row measure(Plan plan, PrologBackend backend, String how, PrintStream log) throws Exception {
        Plan.Iterations it = plan.cyclePool();
        try (PrologSession original = backend.open()) {
            if (original.consult(SessionCycles.PROGRAM).hasErrors()) {
                throw new IllegalStateException("the bench program does not load on " + backend.name());
            }
            PrologSession[] made = new PrologSession[1];
            Timer.progress(log, "fork, " + backend.name(), it);
            long[] forks = Timer.time(it, () -> {
                made[0] = original.fork();
                check(made[0].goal(SessionCycles.GOAL).run(), backend);
            }, () -> pause(made, backend));
            pause(made, backend);
            Timer.progress(log, "fork, " + backend.name() + ", baseline: open and consult", it);
            long[] fresh = Timer.time(it, () -> {
                made[0] = backend.open();
                if (made[0].consult(SessionCycles.PROGRAM).hasErrors()) {
                    throw new IllegalStateException("the bench program does not load");
                }
                check(made[0].goal(SessionCycles.GOAL).run(), backend);
            }, () -> pause(made, backend));
            pause(made, backend);
            return Row.of("fork", WHAT, backend.name(), Summary.ofNanos(forks, Unit.MILLIS), Unit.MILLIS,
                    how + ": session.fork() then one goal on the copy; the copy closed untimed", BASELINE,
                    Summary.ofNanos(fresh, Unit.MILLIS));
        }
    }

    /** Untimed between iterations: close the last copy, and on the process backend let the pool refill. */
    private static void pause(PrologSession[] made, PrologBackend backend) throws InterruptedException {
        if (made[0] != null) {
            made[0].close();
            made[0] = null;
        }
        if (backend instanceof ProcessBackend) {
            Thread.sleep(Plan.POOL_PAUSE_MILLIS);
        }
    }

    private static void check(GoalResult r, PrologBackend backend) {
        if (r.outcome() != Outcome.SUCCESS) {
            throw new IllegalStateException("the copy on " + backend.name() + " answered " + r);
        }
    }
}

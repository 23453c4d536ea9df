package io.prologtool.examples.bench;

import io.prologtool.GoalResult;
import io.prologtool.Outcome;
import io.prologtool.PrologBackend;
import io.prologtool.PrologSession;
import io.prologtool.Term;
import io.prologtool.jpl.JplBackend;
import io.prologtool.process.ProcessBackend;

import java.io.PrintStream;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

/**
 * Cancellation: the time from {@link PrologSession#cancel()} to the goal having stopped (its
 * {@code runAsync()} future completed with {@link Outcome#CANCELLED}, so the session is free for its next
 * call), for a goal that spins ({@code repeat, fail}, under a 60 s limit) and has run for 20 ms, next to
 * the backend's round trip for a trivial goal ({@code X = 1}) on the same session. In-process the cancel
 * is a signal to the worker thread; in a child, a line on its standard input that the child's watchdog
 * takes (it looks every 2 ms while a request runs) and turns into a signal, so the child's figure is
 * mostly that polling.
 */
final class CancelStop {

    private static final String WHAT = "cancel to stopped: session.cancel() of a spinning goal";
    private static final String BASELINE = "round trip of the goal X = 1";

    private CancelStop() {
    }

    static List<Row> measure(Plan plan, PrintStream log) throws Exception {
        List<Row> rows = new ArrayList<>();
        try (JplBackend backend = JplBackend.get()) {
            rows.add(measure(plan, backend, log));
        }
        try (ProcessBackend backend = ProcessBackend.builder().build()) {
            rows.add(measure(plan, backend, log));
        }
        return rows;
    }

    private static Row measure(Plan plan, PrologBackend backend, PrintStream log) throws Exception {
        Plan.Iterations it = plan.cyclePool();
        try (PrologSession s = backend.open()) {
            Timer.progress(log, "cancel, " + backend.name(), it);
            long[] stops = new long[it.timed()];
            for (int i = -it.warmup(); i < it.timed(); i++) {
                CompletableFuture<GoalResult> f = s.goal("repeat, fail").timeLimit(Duration.ofSeconds(60)).runAsync();
                Thread.sleep(20); // it runs by then
                long t0 = System.nanoTime();
                if (!s.cancel()) {
                    throw new IllegalStateException("nothing ran on the session to cancel on " + backend.name());
                }
                GoalResult r = f.get(30, TimeUnit.SECONDS);
                long t = System.nanoTime() - t0;
                if (r.outcome() != Outcome.CANCELLED) {
                    throw new IllegalStateException("the cancelled goal on " + backend.name() + " ended " + r);
                }
                if (i >= 0) {
                    stops[i] = t;
                }
            }
            Timer.progress(log, "cancel, " + backend.name() + ", baseline: round trip", it);
            Summary base = Summary.ofNanos(Timer.time(plan.roundTrip(), () -> {
                GoalResult r = s.goal("X = 1").run();
                if (r.outcome() != Outcome.SUCCESS || !r.answers().get(0).get("X").equals(Term.integer(1))) {
                    throw new IllegalStateException("the round trip on " + backend.name() + " gave " + r);
                }
            }), Unit.MILLIS);
            return Row.of("cancel_stop", WHAT, backend.name(), Summary.ofNanos(stops, Unit.MILLIS), Unit.MILLIS,
                    "session.goal(\"repeat, fail\").timeLimit(60 s).runAsync(), 20 ms later session.cancel() "
                            + "timed until the future completes with CANCELLED (the session free again); a new goal "
                            + "each iteration", BASELINE, base);
        }
    }
}

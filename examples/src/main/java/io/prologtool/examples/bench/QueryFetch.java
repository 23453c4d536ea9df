package io.prologtool.examples.bench;

import io.prologtool.Answer;
import io.prologtool.GoalResult;
import io.prologtool.Outcome;
import io.prologtool.PrologBackend;
import io.prologtool.PrologSession;
import io.prologtool.Query;
import io.prologtool.Term;
import io.prologtool.jpl.JplBackend;
import io.prologtool.process.ProcessBackend;

import java.io.PrintStream;
import java.util.ArrayList;
import java.util.List;

/**
 * Answers on demand (issue 17): the 1,000th answer of {@code between(1, inf, X)} fetched from an open
 * {@link Query} that has given the first 999 (the fetch is timed, the 999 are not), against running the
 * goal again for 1,000 answers ({@code goal(...).maxAnswers(1000).run()}), which is what a caller without
 * queries must do to get it. Every iteration checks that the answer is {@code X = 1000}. And a query's
 * whole life (open, the first answer, close) against running the goal for one answer.
 */
final class QueryFetch {

    private static final String GOAL = "between(1, inf, X)";
    private static final String WHAT = "the 1,000th answer: fetch(1) from an open query after 999";
    private static final String BASELINE = "running the goal again with maxAnswers(1000)";

    private QueryFetch() {
    }

    private static final String LIFE = "a query's life: open, fetch(1), close";
    private static final String LIFE_BASELINE = "running the goal with maxAnswers(1)";

    static List<Row> measure(Plan plan, PrintStream log) throws Exception {
        List<Row> rows = new ArrayList<>();
        try (JplBackend backend = JplBackend.get()) {
            rows.add(measure(plan, backend, log));
            rows.add(measureLife(plan, backend, log));
        }
        try (ProcessBackend backend = ProcessBackend.builder().build()) {
            rows.add(measure(plan, backend, log));
            rows.add(measureLife(plan, backend, log));
        }
        return rows;
    }

    /**
     * A query opened, asked for its first answer and closed while its search still has more (the close
     * stops it), against the same goal run for one answer. Closing once slept 10 ms before it looked
     * whether the query's thread had ended.
     */
    private static Row measureLife(Plan plan, PrologBackend backend, PrintStream log) throws Exception {
        Plan.Iterations it = plan.cyclePool();
        try (PrologSession s = backend.open()) {
            Timer.progress(log, "query life, " + backend.name(), it);
            Summary life = Summary.ofNanos(Timer.time(it, () -> {
                try (Query q = s.query(GOAL)) {
                    checkFirst(q.fetch(1), backend);
                }
            }), Unit.MICROS);
            Timer.progress(log, "query life, " + backend.name() + ", baseline: the goal for 1 answer", it);
            Summary base = Summary.ofNanos(Timer.time(it, () -> checkFirst(s.goal(GOAL).maxAnswers(1).run(), backend)),
                    Unit.MICROS);
            return Row.of("query_life", LIFE, backend.name(), life, Unit.MICROS, "try (Query q = session.query(\""
                    + GOAL + "\")) { q.fetch(1); }: three requests (open, fetch, close), the close stopping a search "
                    + "that has more answers", LIFE_BASELINE, base);
        }
    }

    /** The first answer is X = 1, and there are more. */
    private static void checkFirst(GoalResult r, PrologBackend backend) {
        if (r.outcome() != Outcome.SUCCESS || r.answers().size() != 1 || !r.truncated()
                || !r.answers().get(0).get("X").equals(Term.integer(1))) {
            throw new IllegalStateException("the first answer on " + backend.name() + " was " + r);
        }
    }

    private static Row measure(Plan plan, PrologBackend backend, PrintStream log) throws Exception {
        Plan.Iterations it = plan.cyclePool();
        try (PrologSession s = backend.open()) {
            Timer.progress(log, "query fetch, " + backend.name(), it);
            long[] fetches = new long[it.timed()];
            for (int i = -it.warmup(); i < it.timed(); i++) {
                try (Query q = s.query(GOAL)) {
                    List<Answer> first = q.next(999);
                    if (first.size() != 999) {
                        throw new IllegalStateException("the query gave " + first.size() + " answers, not 999");
                    }
                    long t0 = System.nanoTime();
                    GoalResult r = q.fetch(1);
                    long t = System.nanoTime() - t0;
                    check(r, backend);
                    if (i >= 0) {
                        fetches[i] = t;
                    }
                }
            }
            Timer.progress(log, "query fetch, " + backend.name() + ", baseline: the goal again for 1,000 answers", it);
            Summary base = Summary.ofNanos(Timer.time(it, () -> check(s.goal(GOAL).maxAnswers(1000).run(), backend)),
                    Unit.MILLIS);
            return Row.of("query_fetch", WHAT, backend.name(), Summary.ofNanos(fetches, Unit.MILLIS), Unit.MILLIS,
                    "session.query(\"" + GOAL + "\"): next(999) untimed, then fetch(1) timed; a new query each "
                            + "iteration", BASELINE, base);
        }
    }

    /** The last answer is X = 1000. */
    private static void check(GoalResult r, PrologBackend backend) {
        if (r.outcome() != Outcome.SUCCESS || r.answers().isEmpty()
                || !r.answers().get(r.answers().size() - 1).get("X").equals(Term.integer(1000))) {
            throw new IllegalStateException("the 1,000th answer on " + backend.name() + " was " + r);
        }
    }
}

package io.prologtool.examples.bench;

import io.prologtool.ConsultResult;
import io.prologtool.Diagnostic;
import io.prologtool.PrologBackend;
import io.prologtool.PrologSession;
import io.prologtool.ReplaceResult;
import io.prologtool.TestReport;
import io.prologtool.jpl.JplBackend;
import io.prologtool.process.Isolation;
import io.prologtool.process.ProcessBackend;

import java.io.PrintStream;
import java.util.ArrayList;
import java.util.List;

/**
 * A session's history must not make its next request slower: an agent translates, runs, inspects and
 * repairs in one session, again and again. Two requests, each timed in a session with a long history
 * against the same request in a session with almost none, so both do the same work:
 * <ul>
 *   <li>the consult of the 20-clause program ({@link SessionCycles#PROGRAM}) into a session that has
 *       loaded it {@value #HISTORY} more times, against its 2nd consult (both redefine the program's two
 *       predicates). Finding the next text's number once counted the session's earlier texts: the
 *       1,000th consult took 150 µs longer than the 2nd;</li>
 *   <li>a run of one plunit test after {@value #HISTORY} replacements of a predicate
 *       ({@link PrologSession#replacePredicate}), against the same run with none. Finding the source of
 *       the test text once compared every source of the session with every source before it: 19 ms a
 *       run after 1,500 replacements.</li>
 * </ul>
 * The target: at most 1.2 times the request with no history. The two sides run in alternating blocks;
 * each block of the long side opens a session and builds its history untimed before it times. The process
 * backend keeps one child and reuses it, so that opening a session does not start a process.
 */
final class SessionHistory {

    /** Requests a long session has made before its requests are timed. */
    static final int HISTORY = 1_000;
    private static final int BLOCKS = 2;

    private static final String TESTS = """
            :- begin_tests(history).
            test(reach) :- path(n1, n19), colour(blue).
            :- end_tests(history).
            """;
    private static final String PATCH = "colour(red).\ncolour(blue).\n";

    private SessionHistory() {
    }

    /** One request measured with and without history: how a session gets its history, and the request. */
    private record Request(String id, String what, String baseline, SessionOp history, SessionOp timed) {
    }

    @FunctionalInterface
    private interface SessionOp {
        void run(PrologSession s, String backend) throws Exception;
    }

    private static final List<Request> REQUESTS = List.of(
            new Request("history_consult", "consult 20 clauses again, after 1,000 consults",
                    "the same consult as the session's 2nd text",
                    (s, b) -> consulted(s.consult(SessionCycles.PROGRAM), b, true),
                    (s, b) -> consulted(s.consult(SessionCycles.PROGRAM), b, true)),
            new Request("history_tests", "run a plunit test after 1,000 replaced predicates",
                    "the same run in a session with no replaced predicate",
                    (s, b) -> replaced(s.replacePredicate("colour", 1, PATCH), b),
                    (s, b) -> passed(s.runTests(TESTS), b)));

    static List<Row> measure(Plan plan, PrintStream log) throws Exception {
        Plan.Iterations block = plan.quick() ? new Plan.Iterations(5, 10) : new Plan.Iterations(25, 100);
        int history = plan.quick() ? HISTORY / 10 : HISTORY;
        List<Row> rows = new ArrayList<>();
        for (Request r : REQUESTS) {
            Timer.progress(log, r.what() + ", jpl (" + BLOCKS + " blocks per side)", block);
            Summary[] jpl;
            try (JplBackend backend = JplBackend.get()) {
                jpl = measure(backend, r, block, history);
            }
            Timer.progress(log, r.what() + ", process (" + BLOCKS + " blocks per side)", block);
            Summary[] process;
            try (ProcessBackend backend = ProcessBackend.builder().isolation(Isolation.none()).poolSize(1).build()) {
                process = measure(backend, r, block, history);
            }
            String details = "the request in a session that consulted the program and then made the history's "
                    + "request " + history + " times (untimed, one session per block), against a fresh session "
                    + "per iteration that only consulted the program; every reply checked; " + BLOCKS
                    + " blocks alternating with the baseline";
            rows.add(Row.of(r.id(), r.what(), "jpl", jpl[0], Unit.MICROS, details, r.baseline(), jpl[1])
                    .withTarget(Target.timesFloorAtMost(1.2)));
            rows.add(Row.of(r.id(), r.what(), "process", process[0], Unit.MICROS,
                    details + "; one pooled child, reused", r.baseline(), process[1])
                    .withTarget(Target.timesFloorAtMost(1.2)));
        }
        return rows;
    }

    /** {with the history, without it}. */
    private static Summary[] measure(PrologBackend backend, Request r, Plan.Iterations block, int history)
            throws Exception {
        long[] longSession = new long[BLOCKS * block.timed()];
        long[] fresh = new long[BLOCKS * block.timed()];
        for (int b = 0; b < BLOCKS; b++) {
            System.arraycopy(timeWithHistory(backend, r, block, 0, true), 0, fresh, b * block.timed(),
                    block.timed());
            System.arraycopy(timeWithHistory(backend, r, block, history, false), 0, longSession,
                    b * block.timed(), block.timed());
        }
        return new Summary[] {Summary.ofNanos(longSession, Unit.MICROS), Summary.ofNanos(fresh, Unit.MICROS)};
    }

    /**
     * Per-request times in a session that consulted the program and then made {@code history} requests
     * of the history's kind: a fresh session per iteration when {@code each}, else one session for the
     * whole block (whose history then grows by the block's requests, a tenth of it).
     */
    private static long[] timeWithHistory(PrologBackend backend, Request r, Plan.Iterations it, int history,
                                          boolean each) throws Exception {
        String name = backend.name();
        PrologSession[] current = new PrologSession[1];
        try {
            Timer.Op open = () -> {
                if (current[0] != null) {
                    current[0].close();
                }
                current[0] = backend.open();
                consulted(current[0].consult(SessionCycles.PROGRAM + "\ncolour(blue).\n"), name, false);
                for (int i = 0; i < history; i++) {
                    r.history().run(current[0], name);
                }
            };
            if (!each) {
                open.run();
            }
            return Timer.time(it, () -> r.timed().run(current[0], name), each ? open : () -> { });
        } finally {
            if (current[0] != null) {
                current[0].close();
            }
        }
    }

    /** A first consult reports nothing; a later one only that it redefined edge/2 and path/2. */
    private static void consulted(ConsultResult c, String backend, boolean again) {
        List<String> kinds = c.messages().stream().map(Diagnostic::kind).toList();
        List<String> expected = again ? List.of("redefine", "redefine") : List.of();
        if (!kinds.equals(expected)) {
            throw new IllegalStateException("the bench program " + (again ? "consulted again" : "consulted")
                    + " on " + backend + " reported " + c.messages() + ", expected " + expected);
        }
    }

    private static void replaced(ReplaceResult r, String backend) {
        if (!r.replaced() || !r.messages().isEmpty()) {
            throw new IllegalStateException("colour/1 was not replaced cleanly on " + backend + ": " + r);
        }
    }

    private static void passed(TestReport r, String backend) {
        if (r.total() != 1 || r.passed() != 1) {
            throw new IllegalStateException("the history test did not pass on " + backend + ": " + r);
        }
    }
}

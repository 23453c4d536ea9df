package io.prologtool.examples.bench;

import io.prologtool.GoalResult;
import io.prologtool.Outcome;
import io.prologtool.PrologSession;
import io.prologtool.Term;
import io.prologtool.jpl.JplBackend;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * The memory of many JPL sessions, measured in a JVM of its own: {@link Benchmarks} starts this main in
 * a child JVM (same {@code java}, same class path, a small fixed heap) so that the resident set it
 * reads holds the JVM, the embedded Prolog and the sessions, and nothing of the benchmark run.
 *
 * <p>It starts the embedded Prolog, runs one session to warm it up, reads {@code VmRSS}, opens N
 * sessions (default 1,000) each consulted with the 20-clause program of the session benchmark, reads
 * {@code VmRSS} again, and prints one line: {@code rss_kib before=B after=A sessions=N}. Run as part
 * of {@code make bench}; by hand:
 * {@code java -Xmx128m -XX:+UseSerialGC -cp CLASSPATH io.prologtool.examples.bench.JplMemoryProbe 1000}.
 *
 * <p>With {@code cycles N} it measures leaks instead: N open/consult/goal/close cycles, and whether the
 * atom, functor and module counts and the resident set stay flat (see {@link #cycles}). With
 * {@code grow N1 N2 ...} it measures how a JVM holding many sessions grows (see {@link #grow}).
 */
public final class JplMemoryProbe {

    private JplMemoryProbe() {
    }

    /**
     * Prints the resident set before and after opening the sessions.
     *
     * @param args the number of sessions (default 1,000)
     */
    public static void main(String[] args) throws InterruptedException {
        if (args.length > 0 && args[0].equals("cycles")) {
            cycles(args.length > 1 ? Integer.parseInt(args[1]) : 100_000);
            return;
        }
        if (args.length > 0 && args[0].equals("grow")) {
            grow(Arrays.stream(args, 1, args.length).mapToInt(Integer::parseInt).toArray(), 2_000);
            return;
        }
        int n = args.length > 0 ? Integer.parseInt(args[0]) : 1_000;
        try (JplBackend backend = JplBackend.get()) {
            SessionCycles.cycle(backend);
            long before = settledRss();
            List<PrologSession> sessions = new ArrayList<>(n);
            for (int i = 0; i < n; i++) {
                PrologSession s = backend.open();
                if (s.consult(SessionCycles.PROGRAM).hasErrors()) {
                    throw new IllegalStateException("the bench program does not load");
                }
                sessions.add(s);
            }
            long after = settledRss();
            System.out.println("rss_kib before=" + before + " after=" + after + " sessions=" + sessions.size());
        }
    }

    /**
     * N session cycles (open, consult the 20-clause program, one goal, close), then one line:
     * {@code cycles=N rss_kib first=F last=L atoms=A0,A1 functors=F0,F1 modules=M0,M1}, where the first
     * values are read after the first 10,000 cycles (the embedded Prolog, the JIT and malloc's arenas
     * warmed up: the resident set climbs by about 20 MB over those and is flat after them) and the last after
     * all N. The counts are SWI-Prolog's own statistics, atoms after an atom garbage collection. Before
     * that line, one {@code rss_at cycles=K rss_kib=R} line every 10,000 cycles shows the curve.
     */
    private static void cycles(int n) throws InterruptedException {
        try (JplBackend backend = JplBackend.get(); PrologSession probe = backend.open()) {
            int warm = Math.min(10_000, n / 2);
            for (int i = 0; i < warm; i++) {
                SessionCycles.cycle(backend);
            }
            long[] first = counts(probe);
            long rssFirst = settledRss();
            for (int i = warm; i < n; i++) {
                SessionCycles.cycle(backend);
                if ((i + 1) % 10_000 == 0) {
                    System.out.println("rss_at cycles=" + (i + 1) + " rss_kib=" + ProcMemory.selfRssKib());
                }
            }
            long[] last = counts(probe);
            long rssLast = settledRss();
            System.out.println("cycles=" + n + " rss_kib first=" + rssFirst + " last=" + rssLast
                    + " atoms=" + first[0] + "," + last[0] + " functors=" + first[1] + "," + last[1]
                    + " modules=" + first[2] + "," + last[2]);
        }
    }

    /**
     * Opens sessions (each consulted with the 20-clause program) until {@code sizes[0]} are open, then
     * {@code sizes[1]}, and so on (ascending); at each size prints one line
     * {@code grow sessions=N rss_kib=R before_kib=B roundtrip_us=M p90_us=P}: the resident set with N
     * open (B: before the first was opened) and the median and p90 of {@code roundTrips} round trips
     * (the goal {@code true}, after as many untimed) spread over the open sessions, each call on the next
     * session by a stride that visits all of them.
     */
    private static void grow(int[] sizes, int roundTrips) throws InterruptedException {
        try (JplBackend backend = JplBackend.get()) {
            SessionCycles.cycle(backend);
            long before = settledRss();
            List<PrologSession> sessions = new ArrayList<>();
            for (int size : sizes) {
                while (sessions.size() < size) {
                    PrologSession s = backend.open();
                    if (s.consult(SessionCycles.PROGRAM).hasErrors()) {
                        throw new IllegalStateException("the bench program does not load");
                    }
                    sessions.add(s);
                }
                long rss = settledRss();
                int stride = 7_919;             // a prime: with size not a multiple of it, every session in turn
                int next = 0;
                long[] nanos = new long[roundTrips];
                for (int i = -roundTrips; i < roundTrips; i++) {
                    PrologSession s = sessions.get(next);
                    next = (next + stride) % size;
                    long t0 = System.nanoTime();
                    GoalResult r = s.goal("true").run();
                    long t = System.nanoTime() - t0;
                    if (r.outcome() != Outcome.SUCCESS) {
                        throw new IllegalStateException("the goal true gave " + r);
                    }
                    if (i >= 0) {
                        nanos[i] = t;
                    }
                }
                Summary rt = Summary.ofNanos(nanos, Unit.MICROS);
                System.out.println("grow sessions=" + size + " rss_kib=" + rss + " before_kib=" + before
                        + " roundtrip_us=" + rt.median() + " p90_us=" + rt.p90());
            }
        }
    }

    private static long[] counts(PrologSession probe) {
        GoalResult r = probe.goal("garbage_collect_atoms, statistics(atoms, A), statistics(functors, F), "
                + "statistics(modules, M)").run();
        if (r.outcome() != Outcome.SUCCESS) {
            throw new IllegalStateException("the statistics goal failed: " + r);
        }
        return new long[]{number(r, "A"), number(r, "F"), number(r, "M")};
    }

    private static long number(GoalResult r, String var) {
        return ((Term.Int) r.answers().get(0).get(var)).value().longValueExact();
    }

    /** The resident set once garbage that the JVM can free is freed. */
    private static long settledRss() throws InterruptedException {
        System.gc();
        Thread.sleep(200);
        return ProcMemory.selfRssKib();
    }
}

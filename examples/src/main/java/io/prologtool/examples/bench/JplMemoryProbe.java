package io.prologtool.examples.bench;

import io.prologtool.PrologSession;
import io.prologtool.jpl.JplBackend;

import java.util.ArrayList;
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

    /** The resident set once garbage that the JVM can free is freed. */
    private static long settledRss() throws InterruptedException {
        System.gc();
        Thread.sleep(200);
        return ProcMemory.selfRssKib();
    }
}

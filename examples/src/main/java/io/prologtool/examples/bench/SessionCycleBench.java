package io.prologtool.examples.bench;

import io.prologtool.GoalResult;
import io.prologtool.Outcome;
import io.prologtool.PrologBackend;
import io.prologtool.PrologSession;
import io.prologtool.process.ProcessBackend;

import java.util.Arrays;
import java.util.function.Supplier;
import java.util.stream.Collectors;
import java.util.stream.IntStream;

/**
 * The cost of a whole session: open + consult of 20 clauses + one goal + close, on the process backend
 * with a warm pool, with children started on demand from the saved state, and with children loading
 * the harness source. Prints median and p90 per configuration.
 *
 * <p>Run: {@code make build && mvn -q -pl examples exec:java -Dexec.mainClass=io.prologtool.examples.bench.SessionCycleBench -Dexec.args="200"}
 */
public final class SessionCycleBench {

    static final String PROGRAM = IntStream.rangeClosed(1, 20)
            .mapToObj(i -> i <= 18 ? "edge(n" + i + ", n" + (i + 1) + ")." : i == 19
                    ? "path(X, Y) :- edge(X, Y)." : "path(X, Y) :- edge(X, Z), path(Z, Y).")
            .collect(Collectors.joining("\n"));

    private SessionCycleBench() {
    }

    public static void main(String[] args) throws Exception {
        int n = args.length > 0 ? Integer.parseInt(args[0]) : 200;
        System.out.printf("open + consult (20 clauses) + goal + close, %d cycles each, %d cores%n", n,
                Runtime.getRuntime().availableProcessors());
        run("process, warm pool of 2", n, () -> ProcessBackend.builder().poolSize(2).build(), true);
        run("process, child per open (saved state)", n, () -> ProcessBackend.builder().build(), false);
        run("process, child per open (harness source)", Math.max(20, n / 4),
                () -> ProcessBackend.builder().savedState(false).build(), false);
    }

    static void run(String label, int n, Supplier<PrologBackend> make, boolean pooled) throws InterruptedException {
        try (PrologBackend backend = make.get()) {
            for (int i = 0; i < 10; i++) {
                cycle(backend); // warm up the JVM side
            }
            long[] micros = new long[n];
            for (int i = 0; i < n; i++) {
                if (pooled) {
                    Thread.sleep(30); // a pool is for requests that arrive over time, not back to back
                }
                long t0 = System.nanoTime();
                cycle(backend);
                micros[i] = (System.nanoTime() - t0) / 1_000;
            }
            Arrays.sort(micros);
            System.out.printf("  %-44s median %8.2f ms   p90 %8.2f ms%n", label, micros[n / 2] / 1000.0,
                    micros[(int) (n * 0.9)] / 1000.0);
        }
    }

    static void cycle(PrologBackend backend) {
        try (PrologSession s = backend.open()) {
            if (s.consult(PROGRAM).hasErrors()) {
                throw new IllegalStateException("the bench program does not load");
            }
            GoalResult r = s.goal("path(n1, n19)").run();
            if (r.outcome() != Outcome.SUCCESS) {
                throw new IllegalStateException("unexpected " + r);
            }
        }
    }
}

package io.prologtool.jpl;

import io.prologtool.GoalResult;
import io.prologtool.PrologSession;

/**
 * By hand, not a test: {@code cycles} open/consult/goal/close cycles, then {@code requests} goals in
 * one session, printing the modules and the process RSS before and after. Run with a fixed heap so
 * that RSS shows native memory, not the Java heap growing:
 *
 * <pre>
 * java -Xms256m -Xmx256m -XX:+AlwaysPreTouch -cp &lt;test classpath&gt; io.prologtool.jpl.JplCycles 10000 100000
 * </pre>
 */
public final class JplCycles {

    private static final String PROGRAM = """
            parent(tom, bob).
            parent(bob, ann).
            ancestor(X, Y) :- parent(X, Y).
            ancestor(X, Z) :- parent(X, Y), ancestor(Y, Z).
            :- dynamic seen/1.
            :- op(700, xfx, ===>).
            :- set_prolog_flag(double_quotes, atom).
            rule(a ===> b).
            """;

    private JplCycles() {
    }

    public static void main(String[] args) {
        int cycles = args.length > 0 ? Integer.parseInt(args[0]) : 10_000;
        int requests = args.length > 1 ? Integer.parseInt(args[1]) : 100_000;
        try (JplBackend backend = JplBackend.get()) {
            for (int i = 0; i < 200; i++) { // warm up: JIT, libraries loaded on first use
                cycle(backend);
            }
            report("after 200 warm-up cycles", backend);
            long t0 = System.nanoTime();
            for (int i = 1; i <= cycles; i++) {
                cycle(backend);
                if (i % (cycles / 4) == 0) {
                    report("after " + i + " cycles", backend);
                }
            }
            System.out.printf("%d cycles: %.1f s%n", cycles, (System.nanoTime() - t0) / 1e9);
            try (PrologSession s = backend.open()) {
                s.consult(PROGRAM);
                t0 = System.nanoTime();
                for (int i = 1; i <= requests; i++) {
                    GoalResult r = s.goal("ancestor(tom, X)").run();
                    if (r.answers().size() != 2) {
                        throw new AssertionError("wrong answer: " + r);
                    }
                    if (i % (requests / 4) == 0) {
                        report("after " + i + " goals in one session", backend);
                    }
                }
                System.out.printf("%d goals: %.1f s (%.0f us each)%n", requests, (System.nanoTime() - t0) / 1e9,
                        (System.nanoTime() - t0) / 1e3 / requests);
            }
        }
        System.exit(0);
    }

    private static void cycle(JplBackend backend) {
        try (PrologSession s = backend.open()) {
            s.consult(PROGRAM);
            GoalResult r = s.goal("ancestor(tom, X), assertz(seen(X))").run();
            if (r.answers().size() != 2) {
                throw new AssertionError("wrong answer: " + r);
            }
        }
    }

    private static void report(String when, JplBackend backend) {
        System.out.printf("%-36s modules %d (sessions' %d), RSS %d kB%n", when, backend.moduleCount(),
                backend.sessionModuleCount(), JplBackendTest.rssKb());
    }
}

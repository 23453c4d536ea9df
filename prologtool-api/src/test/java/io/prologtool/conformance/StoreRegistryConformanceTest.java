package io.prologtool.conformance;

import io.prologtool.GoalResult;
import io.prologtool.PrologSession;
import io.prologtool.SessionRegistry;
import io.prologtool.SessionStore;
import io.prologtool.Term;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A registry on a session store: every call that changed a session is in the store when it returns, and
 * a registry that does not hold the session (another one, one that evicted it, one in a JVM killed with
 * kill -9) serves it by id, asserted facts included.
 */
public abstract class StoreRegistryConformanceTest extends BackendFixture {

    @TempDir
    Path folder;

    private static final String PROGRAM = ":- dynamic fact/1, tick/1.\nfact(0).\nrule(X) :- fact(X), X > 0.\n";

    private static Term one(PrologSession s, String goal, String var) {
        GoalResult r = s.goal(goal).run();
        assertThat(r.succeeded()).as(goal + " gave " + r).isTrue();
        return r.answers().get(0).get(var);
    }

    @Test
    void anotherRegistryOnTheStoreServesTheSessionByIdWithItsAssertedFacts() {
        String id;
        try (SessionRegistry first = SessionRegistry.builder(backend).store(SessionStore.folder(folder)).build()) {
            PrologSession s = first.consult(PROGRAM).session();
            id = s.id();
            assertThat(s.goal("assertz(fact(7)), retract(fact(0))").run().succeeded()).isTrue();
            s.goal("op(700, xfx, ===>)").run();
            s.runTests(":- begin_tests(r).\ntest(seven) :- rule(7).\n:- end_tests(r).\n");
        } // closing a registry keeps its sessions' checkpoints
        try (SessionRegistry second = SessionRegistry.builder(backend).store(SessionStore.folder(folder)).build()) {
            PrologSession s = second.get(id).orElseThrow();
            assertThat(s.id()).isEqualTo(id);
            assertThat(one(s, "findall(X, fact(X), L)", "L")).isEqualTo(Term.list(Term.integer(7)));
            assertThat(one(s, "X = (a ===> b), X =.. [F|_]", "F")).isEqualTo(Term.atom("===>"));
            assertThat(s.runTests().passed()).isEqualTo(1);
            assertThat(second.get(id).orElseThrow()).as("restored once").isSameAs(s);
            // a goal that changed nothing saves nothing; one that asserted does
            SessionStore store = second.store().orElseThrow();
            var before = store.load(id).orElseThrow().takenAt();
            s.goal("fact(X)").run();
            assertThat(store.load(id).orElseThrow().takenAt()).isEqualTo(before);
            s.goal("assertz(fact(8))").run();
            assertThat(store.load(id).orElseThrow().program()).contains("fact(8)");
            // a goal run without side effects changes nothing, so saves nothing
            s.goal("assertz(fact(9))").allowSideEffects(false).run();
            assertThat(store.load(id).orElseThrow().program()).doesNotContain("fact(9)");
        }
    }

    @Test
    void anEvictedSessionComesBackAndClosedOrExpiredOnesAreDeleted() {
        RegistryConformanceTest.FakeClock clock = new RegistryConformanceTest.FakeClock();
        SessionStore store = SessionStore.inMemory();
        try (SessionRegistry r = SessionRegistry.builder(backend).store(store).maxSessions(1).clock(clock)
                .idleTtl(Duration.ofMinutes(5)).build()) {
            PrologSession a = r.consult(PROGRAM).session();
            a.goal("assertz(fact(1))").run();
            PrologSession b = r.consult(PROGRAM).session();   // a is evicted to make room
            assertThat(a.isOpen()).isFalse();
            PrologSession a2 = r.get(a.id()).orElseThrow(); // and comes back, b evicted in turn
            assertThat(one(a2, "aggregate_all(count, fact(_), N)", "N")).isEqualTo(Term.integer(2));
            assertThat(b.isOpen()).isFalse();
            assertThat(store.sessionIds()).containsExactlyInAnyOrder(a.id(), b.id());

            assertThat(r.close(a.id())).isTrue();
            assertThat(store.load(a.id())).as("closed: deleted").isEmpty();
            assertThat(r.get(a.id())).isEmpty();

            PrologSession b2 = r.get(b.id()).orElseThrow();
            clock.advance(Duration.ofMinutes(6));
            assertThat(r.reapExpired()).isEqualTo(1);
            assertThat(b2.isOpen()).isFalse();
            assertThat(store.load(b.id())).as("expired: deleted").isEmpty();
            assertThat(r.get(b.id())).isEmpty();

            PrologSession c = r.open();
            assertThat(store.load(c.id())).as("saved when it opens").isPresent();
            c.close();
            assertThat(store.load(c.id())).as("its own close: deleted").isEmpty();
        }
    }

    /**
     * A child JVM serves 50 sessions on a folder store, asserting a fact per call, and is killed with
     * SIGKILL in the middle of it: a registry here then serves every one of those sessions by id, with its
     * program and every fact whose call had returned in the child.
     */
    @Test
    void aJvmKilledMidRunLeavesEverySessionToTheNext() throws Exception {
        Path log = folder.resolveSibling(folder.getFileName() + "-child.log");
        Path java = Path.of(System.getProperty("java.home"), "bin", "java");
        Process child = new ProcessBuilder(java.toString(), "-Xmx256m", "-cp", System.getProperty("java.class.path"),
                StoreRegistryMain.class.getName(), backend.name(), folder.toString(),
                String.valueOf(StoreRegistryMain.SESSIONS))
                .redirectErrorStream(true).redirectOutput(log.toFile()).start();
        try {
            long until = System.nanoTime() + TimeUnit.SECONDS.toNanos(120);
            while (System.nanoTime() < until && child.isAlive()
                    && Files.readAllLines(log).stream().filter(l -> l.startsWith("ticked ")).count()
                    < StoreRegistryMain.SESSIONS * 3L) {
                Thread.sleep(50);
            }
            assertThat(child.isAlive()).as("the child runs until it is killed: %s", Files.readString(log)).isTrue();
        } finally {
            child.destroyForcibly(); // SIGKILL on Linux
            assertThat(child.waitFor(30, TimeUnit.SECONDS)).isTrue();
        }
        Map<String, Integer> number = new HashMap<>();
        Map<String, Long> lastTick = new HashMap<>();
        for (String line : Files.readAllLines(log)) {
            String[] w = line.split(" ");
            if (w.length != 3 || !w[2].matches("[0-9]+")) {
                continue; // a log line, or the line the kill cut
            }
            if (w[0].equals("opened")) {
                number.put(w[1], Integer.parseInt(w[2]));
            } else if (w[0].equals("ticked")) {
                lastTick.merge(w[1], Long.parseLong(w[2]), Math::max);
            }
        }
        assertThat(number).hasSize(StoreRegistryMain.SESSIONS);
        try (SessionRegistry next = SessionRegistry.builder(backend).store(SessionStore.folder(folder))
                .maxSessions(8).build()) { // fewer than the sessions: restores evict one another
            for (Map.Entry<String, Integer> e : number.entrySet()) {
                PrologSession s = next.get(e.getKey()).orElseThrow();
                assertThat(one(s, "rule(X)", "X")).isEqualTo(Term.integer(e.getValue()));
                long ticked = lastTick.getOrDefault(e.getKey(), 0L);
                long kept = one(s, "aggregate_all(max(K), (tick(K) ; K = 0), M)", "M").toLong();
                assertThat(kept).as("session %s: ticks that returned in the child", e.getKey())
                        .isGreaterThanOrEqualTo(ticked);
            }
        }
    }

    /** Run in a child JVM by {@link #aJvmKilledMidRunLeavesEverySessionToTheNext}. */
    public static final class StoreRegistryMain {
        static final int SESSIONS = 50;

        private StoreRegistryMain() {
        }

        public static void main(String[] args) {
            SessionRegistry r = SessionRegistry.builder(HostileFuzzMain.backend(args[0]))
                    .store(SessionStore.folder(Path.of(args[1]))).maxSessions(SESSIONS).build();
            int n = Integer.parseInt(args[2]);
            List<PrologSession> sessions = new java.util.ArrayList<>();
            for (int i = 1; i <= n; i++) {
                PrologSession s = r.consult(PROGRAM).session();
                s.goal("assertz(fact(" + i + "))").run();
                sessions.add(s);
                System.out.println("opened " + s.id() + " " + i);
            }
            for (long k = 1; ; k++) {
                for (PrologSession s : sessions) {
                    if (s.goal("assertz(tick(" + k + "))").run().succeeded()) {
                        System.out.println("ticked " + s.id() + " " + k);
                    }
                }
            }
        }
    }
}

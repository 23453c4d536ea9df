package io.prologtool.conformance;

import io.prologtool.GoalResult;
import io.prologtool.PrologSession;
import io.prologtool.SessionHeldException;
import io.prologtool.SessionRegistry;
import io.prologtool.SessionStore;
import io.prologtool.Term;
import io.prologtool.store.PostgresServer;
import io.prologtool.store.StoreSpecs;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

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
 * kill -9) serves it by id, asserted facts included; two live registries never serve one session at once.
 * The tests across JVMs run on a folder store and on a real PostgreSQL server ({@link PostgresServer}).
 */
public abstract class StoreRegistryConformanceTest extends BackendFixture {

    @TempDir
    Path folder;

    private static final String PROGRAM = ":- dynamic fact/1, tick/1.\nfact(0).\nrule(X) :- fact(X), X > 0.\n";

    /** A store of {@code kind} ({@code folder} or {@code postgres}) as {@link StoreSpecs} names it. */
    private String spec(String kind) {
        return switch (kind) {
            case "folder" -> "folder:" + folder;
            case "postgres" -> PostgresServer.shared().url(PostgresServer.shared().newDatabaseName());
            default -> throw new IllegalArgumentException(kind);
        };
    }

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

    @Test
    void aSessionOpenInAnotherRegistryIsRefusedNamingItUntilItLetsItGo() {
        SessionStore store = SessionStore.folder(folder);
        try (SessionRegistry a = SessionRegistry.builder(backend).store(store).replicaName("replica-a").build();
             SessionRegistry b = SessionRegistry.builder(backend).store(SessionStore.folder(folder))
                     .maxSessions(1).build()) {
            PrologSession s = a.consult(PROGRAM).session();
            s.goal("assertz(fact(5))").run();
            SessionHeldException e = org.assertj.core.api.Assertions.catchThrowableOfType(() -> b.get(s.id()),
                    SessionHeldException.class);
            assertThat(e).as("open in replica-a").isNotNull();
            assertThat(e.holder()).isEqualTo("replica-a");
            var refused = io.prologtool.tools.PrologTools.builder(b).build().call("run_goal",
                    "{\"load_id\": \"" + s.id() + "\", \"goal\": \"true\"}");
            assertThat(refused).contains("\"kind\":\"session_held\"").contains("\"holder\":\"replica-a\"");

            PrologSession other = a.consult(PROGRAM).session();
            a.close(s.id()); // closed: gone for b too
            assertThat(b.get(s.id())).isEmpty();
            assertThat(b.replicaName()).matches(".+/[0-9]+#[0-9]+");

            a.close(); // a registry's close lets its sessions go, and keeps them
            PrologSession moved = b.get(other.id()).orElseThrow();
            assertThat(one(moved, "rule(X) ; X = none", "X")).isEqualTo(Term.atom("none"));
            SessionHeldException back = org.assertj.core.api.Assertions.catchThrowableOfType(
                    () -> SessionRegistry.builder(backend).store(store).build().get(other.id()),
                    SessionHeldException.class);
            assertThat(back.holder()).isEqualTo(b.replicaName());
        }
    }

    /**
     * A session nobody has open stays in the store until its time to live is over, counted from when it was
     * last changed or let go; then a registry's sweep deletes it. Sessions open here or in another registry
     * are left to their registries.
     */
    @Test
    void aSessionLetGoIsDeletedFromTheStoreWhenItsTimeToLiveIsOver() {
        RegistryConformanceTest.FakeClock clock = new RegistryConformanceTest.FakeClock();
        clock.advance(Duration.between(clock.instant(), java.time.Instant.now())); // the store's clock is the machine's
        SessionStore store = SessionStore.folder(folder);
        try (SessionRegistry r = SessionRegistry.builder(backend).store(store).maxSessions(1).clock(clock)
                .idleTtl(Duration.ofMinutes(5)).build();
             SessionRegistry other = SessionRegistry.builder(backend).store(SessionStore.folder(folder)).build()) {
            PrologSession a = r.consult(PROGRAM).session();
            PrologSession b = r.consult(PROGRAM).session(); // a is evicted: let go, kept in the store
            PrologSession c = other.consult(PROGRAM).session();
            assertThat(r.sweepStore()).as("nothing is idle yet").isZero();
            clock.advance(Duration.ofMinutes(6));
            assertThat(r.sweepStore()).as("a only: b is open here, c in the other registry").isEqualTo(1);
            assertThat(store.load(a.id())).isEmpty();
            assertThat(r.closedReason(a.id())).contains(SessionRegistry.ClosedReason.EXPIRED);
            assertThat(r.get(a.id())).isEmpty();
            assertThat(store.sessionIds()).containsExactlyInAnyOrder(b.id(), c.id());
            assertThat(org.assertj.core.api.Assertions.catchThrowableOfType(() -> store.lease(c.id(), "x"),
                    SessionHeldException.class).holder()).as("c is still the other registry's")
                    .isEqualTo(other.replicaName());
        }
    }

    /**
     * A child JVM serves 50 sessions on a store, asserting a fact per call, and is killed with SIGKILL in
     * the middle of it: a registry here then serves every one of those sessions by id, with its program and
     * every fact whose call had returned in the child (its leases ended with it).
     */
    @ParameterizedTest(name = "on a {0} store")
    @ValueSource(strings = {"folder", "postgres"})
    void aJvmKilledMidRunLeavesEverySessionToTheNext(String kind) throws Exception {
        String spec = spec(kind);
        Path log = folder.resolveSibling(folder.getFileName() + "-child.log");
        Path java = Path.of(System.getProperty("java.home"), "bin", "java");
        Process child = new ProcessBuilder(java.toString(), "-Xmx256m", "-cp", System.getProperty("java.class.path"),
                StoreRegistryMain.class.getName(), backend.name(), spec,
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
        try (SessionRegistry next = SessionRegistry.builder(backend).store(StoreSpecs.open(spec))
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
        Files.deleteIfExists(log); // kept when the test fails, to read
    }

    /** Run in a child JVM by {@link #aJvmKilledMidRunLeavesEverySessionToTheNext}. */
    public static final class StoreRegistryMain {
        static final int SESSIONS = 50;

        private StoreRegistryMain() {
        }

        public static void main(String[] args) {
            SessionRegistry r = SessionRegistry.builder(HostileFuzzMain.backend(args[0]))
                    .store(StoreSpecs.open(args[1])).maxSessions(SESSIONS).build();
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

    /**
     * Two live JVMs on one store take turns at the same sessions as fast as they can, each adding one to a
     * counter in the session it got: a session served by both at once would lose an addition (both would
     * read the same counter), so every counter must equal the additions both JVMs report; and each JVM
     * must have been refused by the other, by name, and have served sessions itself.
     */
    @ParameterizedTest(name = "on a {0} store")
    @ValueSource(strings = {"folder", "postgres"})
    void twoLiveJvmsOnOneStoreNeverServeOneSessionAtOnce(String kind) throws Exception {
        String spec = spec(kind);
        List<String> ids = new java.util.ArrayList<>();
        try (SessionRegistry r = SessionRegistry.builder(backend).store(StoreSpecs.open(spec)).build()) {
            for (int i = 0; i < ContendMain.SESSIONS; i++) {
                ids.add(r.consult(ContendMain.PROGRAM).session().id());
            }
        }
        Path log = folder.resolveSibling(folder.getFileName() + "-contend.log");
        Path java = Path.of(System.getProperty("java.home"), "bin", "java");
        Process child = new ProcessBuilder(java.toString(), "-Xmx256m", "-cp", System.getProperty("java.class.path"),
                ContendMain.class.getName(), backend.name(), spec, "the-child", String.join(",", ids))
                .redirectErrorStream(true).redirectOutput(log.toFile()).start();
        ContendMain.Tally here;
        try {
            long until = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
            while (System.nanoTime() < until && child.isAlive() && !Files.readString(log).contains("ready")) {
                Thread.sleep(20);
            }
            assertThat(Files.readString(log)).as("the child started").contains("ready");
            here = ContendMain.contend(backend, StoreSpecs.open(spec), "the-parent", ids, false);
            assertThat(child.waitFor(60, TimeUnit.SECONDS)).as("the child ends: %s", Files.readString(log)).isTrue();
        } finally {
            child.destroyForcibly();
        }
        ContendMain.Tally there = ContendMain.Tally.parse(Files.readAllLines(log));
        assertThat(here.served).as("this JVM served sessions").isPositive();
        assertThat(there.served).as("the child served sessions: %s", Files.readString(log)).isPositive();
        // a refusal names the holder, unless it came in the moment between its lock and its name
        assertThat(here.refusedBy).as("this JVM was refused, by the child's name").contains("the-child")
                .allMatch(h -> h.equals("the-child") || h.isEmpty());
        assertThat(there.refusedBy).as("the child was refused, by this JVM's name").contains("the-parent")
                .allMatch(h -> h.equals("the-parent") || h.isEmpty());
        try (SessionRegistry r = SessionRegistry.builder(backend).store(StoreSpecs.open(spec)).build()) {
            for (String id : ids) {
                long counter = one(r.get(id).orElseThrow(), "counter(N)", "N").toLong();
                assertThat(counter).as("session %s: no addition lost", id)
                        .isEqualTo(here.added.getOrDefault(id, 0L) + there.added.getOrDefault(id, 0L));
            }
        }
        Files.deleteIfExists(log); // kept when the test fails, to read
    }

    /** Run in a child JVM by {@link #twoLiveJvmsOnOneStoreNeverServeOneSessionAtOnce}, and by it here. */
    public static final class ContendMain {
        static final int SESSIONS = 3;
        static final String PROGRAM = ":- dynamic counter/1.\ncounter(0).\nadd :- retract(counter(N)), M is N + 1, assertz(counter(M)).\n";
        static final long MILLIS = 4_000;

        private ContendMain() {
        }

        /** What one JVM did: additions per session, the holders that refused it. */
        static final class Tally {
            final Map<String, Long> added = new HashMap<>();
            final List<String> refusedBy = new java.util.ArrayList<>();
            long served;

            static Tally parse(List<String> lines) {
                Tally t = new Tally();
                for (String l : lines) {
                    String[] w = l.split(" ");
                    if (w.length == 2 && w[0].equals("added")) {
                        t.added.merge(w[1], 1L, Long::sum);
                        t.served++;
                    } else if (w.length == 2 && w[0].equals("refused")) {
                        t.refusedBy.add(w[1]);
                    }
                }
                return t;
            }
        }

        /**
         * For {@link #MILLIS}, asks for the sessions in turn in a registry that keeps one open (each get
         * evicts the one before, which lets it go) and adds one to the counter of each it gets.
         */
        static Tally contend(io.prologtool.PrologBackend backend, SessionStore store, String name, List<String> ids,
                             boolean print) {
            Tally t = new Tally();
            try (SessionRegistry r = SessionRegistry.builder(backend).store(store).replicaName(name).maxSessions(1)
                    .build()) {
                long until = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(MILLIS);
                for (int i = 0; System.nanoTime() < until; i++) {
                    String id = ids.get(i % ids.size());
                    try {
                        PrologSession s = r.get(id).orElseThrow();
                        if (s.goal("add").run().succeeded()) {
                            t.added.merge(id, 1L, Long::sum);
                            t.served++;
                            if (print) {
                                System.out.println("added " + id);
                            }
                        }
                    } catch (SessionHeldException e) {
                        t.refusedBy.add(e.holder());
                        if (print) {
                                System.out.println("refused " + e.holder());
                        }
                    } catch (io.prologtool.SessionClosedException e) {
                        // evicted by this registry's next get while the goal ran: nothing was added
                    }
                }
            }
            return t;
        }

        public static void main(String[] args) {
            io.prologtool.PrologBackend backend = HostileFuzzMain.backend(args[0]);
            SessionStore store = StoreSpecs.open(args[1]);
            System.out.println("ready");
            contend(backend, store, args[2], List.of(args[3].split(",")), true);
            System.out.println("done");
            System.exit(0);
        }
    }
}

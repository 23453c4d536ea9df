package io.prologtool.process;

import io.prologtool.GoalResult;
import io.prologtool.Outcome;
import io.prologtool.PrologSession;
import io.prologtool.PrologUnavailableException;
import io.prologtool.SessionOptions;
import io.prologtool.Term;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.stream.Collectors;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.fail;

/**
 * Behaviour specific to the process backend, with a real {@code swipl}: finding swipl, killing
 * children that ignore their time limit or die, keeping the line protocol intact, and cleaning up
 * children and the temporary directory. Every test opens a backend of its own so that the swipl
 * children it sees are the ones it started.
 */
class ProcessBackendTest {

    /** Generous bound for anything that should take well under a second. */
    private static final Duration SANE = Duration.ofSeconds(10);

    // ---------------------------------------------------------------- finding swipl

    @Test
    void builderRefusesANegativeGraceAndAPoolOutOfRange() {
        assertThatThrownBy(() -> ProcessBackend.builder().timeoutGrace(Duration.ofMillis(-1)))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("grace");
        assertThatThrownBy(() -> ProcessBackend.builder().poolSize(-1))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("poolSize");
    }

    @Test
    void missingSwiplPathThrowsPrologUnavailableNamingThePackagesOfEachSystem() {
        assertThatThrownBy(() -> ProcessBackend.builder().swiplPath(Path.of("/nonexistent/swipl")).build())
                .isInstanceOf(PrologUnavailableException.class)
                .hasMessageContaining("apt-get install swi-prolog-nox")
                .hasMessageContaining("dnf install pl")
                .hasMessageContaining("brew install swi-prolog");
    }

    @Test
    void aSwiplPathThatIsNotSwiPrologIsRefusedAtBuildInOneSentence() {
        assertThatThrownBy(() -> ProcessBackend.builder().swiplPath(Path.of("/bin/true")).build())
                .isInstanceOf(PrologUnavailableException.class)
                .hasMessageContaining("/bin/true is not SWI-Prolog")
                .hasMessageContaining("swiplPath(...)")
                .hasMessageContaining("swi-prolog-nox")
                .satisfies(e -> assertThat(e.getMessage().lines().count()).isEqualTo(1));
    }

    @Test
    void aSwiplPathThatIsSwiPrologBuilds() {
        Path swipl = io.prologtool.spi.Executables.findOnPath("swipl").orElseThrow();
        try (ProcessBackend b = ProcessBackend.builder().swiplPath(swipl).build()) {
            assertThat(b.swiplPath()).isEqualTo(swipl);
        }
    }

    @Test
    void swiplAbsentFromThePathThrowsPrologUnavailableNamingTheAptPackage(@TempDir Path emptyDir) throws Exception {
        // The PATH is read from the environment, which this JVM cannot change: ask a child JVM whose
        // PATH holds only an empty directory.
        Path java = Path.of(System.getProperty("java.home"), "bin", "java");
        ProcessBuilder pb = new ProcessBuilder(java.toString(), "-cp", System.getProperty("java.class.path"),
                NoSwiplOnPath.class.getName())
                .redirectErrorStream(true);
        pb.environment().put("PATH", emptyDir.toString());
        Process p = pb.start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertThat(p.waitFor(30, TimeUnit.SECONDS)).as("child JVM ended").isTrue();

        assertThat(p.exitValue()).as("child JVM said: " + out).isEqualTo(NoSwiplOnPath.UNAVAILABLE);
        assertThat(out).contains("swi-prolog-nox");
    }

    /** Run in a child JVM without swipl on its PATH; the exit status says what build() did. */
    public static final class NoSwiplOnPath {
        static final int UNAVAILABLE = 10;
        static final int BUILT = 3;
        static final int OTHER = 4;

        public static void main(String[] args) {
            try (ProcessBackend b = ProcessBackend.builder().build()) {
                System.out.println("built a backend with swipl at " + b.swiplPath());
                System.exit(BUILT);
            } catch (PrologUnavailableException e) {
                System.out.println(e.getMessage());
                System.exit(UNAVAILABLE);
            } catch (Throwable t) {
                t.printStackTrace(System.out);
                System.exit(OTHER);
            }
        }
    }

    // ---------------------------------------------------------------- time limits and crashes

    @Test
    void goalThatDefeatsItsTimeLimitIsKilledReturnsTimeoutAndTheSessionIsRestored() {
        try (ProcessBackend backend = ProcessBackend.builder().timeoutGrace(Duration.ofMillis(500)).build()) {
            Child c = openWithChild(backend);
            try (PrologSession s = c.session()) {
                assertThat(s.consult("keep(1).\nloop :- repeat, fail.\n").hasErrors()).isFalse();

                long t0 = System.nanoTime();
                // a catch-all no longer defeats the limit (harness_limits.pl), nor does a Prolog loop in a
                // cleanup handler (the inference backstop ends it, on a fast machine before the grace is
                // up); a long C loop in a cleanup handler does: signals are blocked and it makes no
                // inferences, so only killing the child ends it
                GoalResult r = s.goal("setup_call_cleanup(true, true, tab(4000000000))")
                        .timeLimit(Duration.ofMillis(300)).run();
                Duration took = Duration.ofNanos(System.nanoTime() - t0);

                assertThat(r.outcome()).isEqualTo(Outcome.TIMEOUT);
                assertThat(took).isLessThan(SANE);
                awaitGone(c.pid());
                assertThat(backend.liveChildren()).isZero();

                GoalResult next = s.goal("keep(X)").run();
                assertThat(next.outcome()).isEqualTo(Outcome.SUCCESS);
                assertThat(next.answers()).extracting(a -> a.get("X")).containsExactly(Term.integer(1));
                assertThat(backend.liveChildren()).isEqualTo(1);
                assertThat(swiplChildren()).doesNotContain(c.pid());
            }
        }
    }

    @Test
    void aKilledChildsTemporaryFilesGoWithIt() throws Exception {
        try (ProcessBackend backend = ProcessBackend.builder().build();
             PrologSession s = backend.open(SessionOptions.builder().sandboxed(false).build())) {
            GoalResult made = s.goal("tmp_file_stream(text, F, S), write(S, x), close(S), "
                    + "current_prolog_flag(pid, P)").run();
            assertThat(made.outcome()).isEqualTo(Outcome.SUCCESS);
            Path file = Path.of(((Term.Atom) made.answers().get(0).get("F")).name());
            long pid = ((Term.Int) made.answers().get(0).get("P")).value().longValueExact();
            assertThat(file).exists();
            assertThat(file.getParent().getParent()).as("the child's own folder, in the backend's")
                    .isEqualTo(backend.workDir());

            ProcessHandle.of(pid).orElseThrow().destroyForcibly();
            awaitGone(pid);
            long deadline = System.nanoTime() + SANE.toNanos();
            while (Files.exists(file.getParent()) && System.nanoTime() < deadline) {
                Thread.sleep(20);
            }
            assertThat(file.getParent()).as("the killed child's folder of temporary files").doesNotExist();
        }
    }

    @Test
    void killedChildFailsTheCallInFlightAsSessionCrashedAndTheNextCallReplaysEveryConsult(@TempDir Path tmp)
            throws Exception {
        Path started = tmp.resolve("started");
        ExecutorService caller = Executors.newSingleThreadExecutor();
        try (ProcessBackend backend = ProcessBackend.builder().build()) {
            Child c = openWithChild(backend);
            try (PrologSession s = c.session()) {
                s.consult("a(1).");
                s.consult("b(2).");
                s.consult("c(X) :- a(A), b(B), X is A + B.");

                String goal = "open(" + quoted(started.toString()) + ", write, S), close(S), repeat, fail";
                Future<GoalResult> inFlight = caller.submit(() -> s.goal(goal).timeLimit(Duration.ofSeconds(20)).run());
                awaitFile(started, inFlight);

                long t0 = System.nanoTime();
                ProcessHandle.of(c.pid()).orElseThrow().destroyForcibly();
                GoalResult crashed = inFlight.get(SANE.toMillis(), TimeUnit.MILLISECONDS);
                Duration took = Duration.ofNanos(System.nanoTime() - t0);

                assertThat(crashed.outcome()).isEqualTo(Outcome.ERROR);
                assertThat(crashed.error().orElseThrow().kind()).isEqualTo("session_crashed");
                assertThat(took).isLessThan(SANE);

                GoalResult after = s.goal("a(A), b(B), c(C)").run();
                assertThat(after.outcome()).isEqualTo(Outcome.SUCCESS);
                assertThat(after.answers()).hasSize(1);
                assertThat(after.answers().get(0).get("A")).isEqualTo(Term.integer(1));
                assertThat(after.answers().get(0).get("B")).isEqualTo(Term.integer(2));
                assertThat(after.answers().get(0).get("C")).isEqualTo(Term.integer(3));
                assertThat(backend.liveChildren()).isEqualTo(1);
                assertThat(swiplChildren()).doesNotContain(c.pid());
            }
        } finally {
            caller.shutdownNow();
        }
    }

    @Test
    void stoppedChildPastItsTimeLimitIsKilledAndTheSessionRestored() throws Exception {
        try (ProcessBackend backend = ProcessBackend.builder().timeoutGrace(Duration.ofMillis(500)).build()) {
            Child c = openWithChild(backend);
            try (PrologSession s = c.session()) {
                s.consult("keep(1).");
                Process stop = new ProcessBuilder("kill", "-STOP", Long.toString(c.pid())).start();
                assertThat(stop.waitFor(5, TimeUnit.SECONDS)).isTrue();
                long t0 = System.nanoTime();
                GoalResult r = s.goal("keep(X)").timeLimit(Duration.ofMillis(300)).run();
                Duration took = Duration.ofNanos(System.nanoTime() - t0);
                assertThat(r.outcome()).isEqualTo(Outcome.TIMEOUT);
                assertThat(took).isLessThan(SANE);
                awaitGone(c.pid());
                assertThat(s.goal("keep(X)").run().answers()).extracting(a -> a.get("X"))
                        .containsExactly(Term.integer(1));
                assertThat(s.crashCount()).isEqualTo(1);
                assertThat(s.restoreCount()).isEqualTo(1);
            }
        }
    }

    @Test
    void childrenStartFromTheSavedStateOfTheHarness() {
        try (ProcessBackend backend = ProcessBackend.builder().build();
             PrologSession s = backend.open()) {
            assertThat(backend.savedState()).isPresent();
            GoalResult r = s.goal("current_prolog_flag(resource_database, F)").run();
            assertThat(r.answers().get(0).get("F").toString())
                    .contains(backend.savedState().get().getFileName().toString());
        }
    }

    @Test
    void commandPrefixWrapsEveryChild(@TempDir Path tmp) throws Exception {
        Path wrapper = tmp.resolve("wrap.sh");
        Path log = tmp.resolve("wrapped.log");
        Files.writeString(wrapper, "#!/bin/sh\necho started >> " + log + "\nexport PROLOGTOOL_WRAPPED=yes\nexec \"$@\"\n");
        assertThat(wrapper.toFile().setExecutable(true)).isTrue();
        try (ProcessBackend backend = ProcessBackend.builder().commandPrefix(List.of(wrapper.toString())).build();
             PrologSession s = backend.open()) {
            GoalResult r = s.goal("getenv('PROLOGTOOL_WRAPPED', V)").run();
            assertThat(r.answers()).extracting(a -> a.get("V")).containsExactly(Term.atom("yes"));
        }
        assertThat(Files.readAllLines(log)).containsExactly("started");
    }

    @Test
    void warmPoolKeepsChildrenReadyAndWithoutReuseNeverReusesOne() throws Exception {
        try (ProcessBackend backend = ProcessBackend.builder().poolSize(2).reuseChildren(false).build()) {
            awaitChildren(backend, 2);
            Set<Long> pooled = swiplChildren();
            PrologSession s = backend.open();
            long servedBy = childPid(s);
            assertThat(pooled).as("the session was served by a pooled child").contains(servedBy);
            s.consult("a(1).");
            awaitChildren(backend, 3); // the pool was refilled behind it
            s.close();
            awaitGone(servedBy);
            try (PrologSession t = backend.open()) {
                assertThat(childPid(t)).isNotEqualTo(servedBy);
                assertThat(t.goal("catch(a(X), _, fail)").run().outcome()).isEqualTo(Outcome.FAILURE);
            }
        }
    }

    // ---------------------------------------------------------------- children that serve again

    /** What a session leaves in its child: predicates, a dynamic fact, globals, a flag/3 key, a record, an operator. */
    private static final String LITTER = ":- dynamic seen/1.\nseen(1).\nmark :- true.\n:- op(700, xfx, ===>).\n"
            + ":- set_prolog_flag(double_quotes, codes).\n";
    /** A fresh session sees none of it. */
    private static final String FRESH = String.join(", ", "\\+ current_predicate(seen/1)", "\\+ current_predicate(mark/0)",
            "\\+ current_op(_, _, ===>)", "S = \"ab\", string(S)",
            "catch(nb_getval(litter, _), error(existence_error(_, _), _), true)", "flag(litter, F, F), F == 0",
            "\\+ recorded(litter, _)");

    @Test
    void aChildWhoseSessionClosedCleanlyServesAgainAndLooksFresh() throws Exception {
        try (ProcessBackend backend = ProcessBackend.builder().poolSize(1).build()) {
            awaitChildren(backend, 1);
            PrologSession first = backend.open();
            long pid = childPid(first);
            first.consult(LITTER);
            assertThat(first.goal("nb_setval(litter, 1), flag(litter, _, 7), recorda(litter, x), assertz(seen(2))")
                    .run().succeeded()).isTrue();
            first.close();
            assertThat(awaitRecycled(backend, 1)).as("the child went back to the pool").isEqualTo(1);
            // the pool now holds the recycled child and the one started when the first session opened
            List<PrologSession> next = List.of(backend.open(), backend.open());
            try {
                List<Long> pids = next.stream().map(ProcessBackendTest::childPid).toList();
                assertThat(pids).as("one of the next sessions runs on the first session's child").contains(pid);
                for (PrologSession s : next) {
                    GoalResult r = s.goal(FRESH).run();
                    assertThat(r.outcome()).as("%s on child %d", r, childPid(s)).isEqualTo(Outcome.SUCCESS);
                    assertThat(s.consult(LITTER).messages()).as("the same text loads as in a fresh child").isEmpty();
                }
            } finally {
                next.forEach(PrologSession::close);
            }
        }
    }

    /**
     * Each {@code :- table} and {@code :- initialization(G, now)} leaves a goal that SWI-Prolog keeps for
     * saved states until the source is forgotten; the harness forgets it when the session closes (they
     * once stayed, about 15 KB a session, and slowed every later load). The recycle check counts them,
     * so a child that kept one would end instead of serving again.
     */
    @Test
    void aChildWhoseSessionTabledPredicatesServesAgain() throws Exception {
        try (ProcessBackend backend = ProcessBackend.builder().poolSize(1).build()) {
            awaitChildren(backend, 1);
            long pid = -1;
            for (int i = 1; i <= 3; i++) {
                try (PrologSession s = backend.open()) {
                    if (pid == -1) {
                        pid = childPid(s);
                    }
                    assertThat(childPid(s)).as("session %d runs on the first session's child", i).isEqualTo(pid);
                    assertThat(s.consult(":- table path/2.\nedge(a, b). edge(b, a).\n"
                            + "path(X, Y) :- edge(X, Y).\npath(X, Y) :- path(X, Z), edge(Z, Y).\n"
                            + ":- initialization(nb_setval(started, yes), now).\n").messages()).isEmpty();
                    assertThat(s.goal("findall(Y, path(a, Y), Ys), msort(Ys, [a, b])").run().succeeded()).isTrue();
                }
                assertThat(awaitRecycled(backend, i)).as("the child went back to the pool clean after session %d", i)
                        .isEqualTo(i);
            }
        }
    }

    @Test
    void theChildThatServedLastIsGivenOutFirst() throws Exception {
        try (ProcessBackend backend = ProcessBackend.builder().poolSize(2).build()) {
            long first = servedAndPooled(backend);
            // the other child has waited in the pool all along; the one that served goes before it
            try (PrologSession s = backend.open()) {
                assertThat(childPid(s)).as("the child of the session closed last").isEqualTo(first);
            }
        }
    }

    /**
     * A session's open goes to a pooled child that served before without waiting for its reply
     * (HarnessTransport.callAhead): when that child dies meanwhile, the first request still gets a
     * session, on a fresh child, well within its bounds (the open's own bound is a minute).
     */
    @Test
    void aChildThatDiesWhileItsSessionsOpenIsOnTheWayCostsTheFirstRequestNothing() throws Exception {
        try (ProcessBackend backend = ProcessBackend.builder().poolSize(2).build()) {
            long served = servedAndPooled(backend);
            try (PrologSession s = backend.open()) { // the child that served last: its open is on the way
                ProcessHandle child = ProcessHandle.of(served).orElseThrow();
                child.destroyForcibly();
                child.onExit().get(SANE.toMillis(), TimeUnit.MILLISECONDS);
                long t0 = System.nanoTime();
                s.consult("a(1).");
                GoalResult r = s.goal("a(X)").run();
                assertThat(Duration.ofNanos(System.nanoTime() - t0)).isLessThan(SANE);
                assertThat(r.answers()).extracting(a -> a.get("X")).containsExactly(Term.integer(1));
                assertThat(childPid(s)).isNotEqualTo(served);
            }
        }
    }

    /**
     * Sessions one after another never wait behind the check of the child that served the one before:
     * while that child takes its session apart and checks itself, the next session takes the other
     * pooled child. Each session leaves 50,000 clauses in its module, whose removal at the close keeps
     * the child busy for a while, so the next session surely opens before the check ends; when the
     * child of the session before was taken at once (its first request waiting behind the check), 19
     * of the 20 sessions ran on the child of the one before.
     */
    @Test
    void aSessionOpenedWhileTheLastChildIsCheckedTakesAnotherPooledChild() throws Exception {
        try (ProcessBackend backend = ProcessBackend.builder().poolSize(2).build()) {
            awaitChildren(backend, 2);
            long previous = -1;
            int sameAsBefore = 0;
            Set<Long> servedBy = new HashSet<>();
            for (int i = 0; i < 20; i++) {
                try (PrologSession s = backend.open()) {
                    long pid = childPid(s);
                    servedBy.add(pid);
                    sameAsBefore += pid == previous ? 1 : 0;
                    previous = pid;
                    assertThat(s.goal("forall(between(1, 50000, I), assertz(f(I)))").run().succeeded()).isTrue();
                }
            }
            // only a session that opened after the check ended (its thread held up that long) may take that
            // child; taking it at once, 19 of the 20 did
            assertThat(sameAsBefore).as("sessions that ran on the child of the session before them, of 20")
                    .isLessThan(10);
            assertThat(servedBy).as("children that served the 20 sessions").hasSizeLessThanOrEqualTo(4);
            assertThat(backend.recycledChildren()).as("children taken back clean").isPositive();
        }
    }

    @Test
    void sessionsOpenedOneAfterAnotherRunOnTheSameFewChildren() throws Exception {
        try (ProcessBackend backend = ProcessBackend.builder().poolSize(2).build()) {
            awaitChildren(backend, 2);
            Set<Long> servedBy = new java.util.HashSet<>();
            for (int i = 0; i < 30; i++) {
                try (PrologSession s = backend.open()) {
                    servedBy.add(childPid(s));
                    s.consult("n(" + i + ").\n");
                    assertThat(s.goal("n(" + i + "), \\+ n(" + (i - 1) + ")").run().outcome()).isEqualTo(Outcome.SUCCESS);
                }
            }
            // a session that finds the pool empty while a child is being checked waits for that child, and
            // the pool is refilled only for what the children under check cannot cover: no child is
            // started per session, and none is ended for want of room
            assertThat(servedBy).as("children that served the 30 sessions").hasSizeLessThanOrEqualTo(4);
            assertThat(backend.recycledChildren()).isGreaterThanOrEqualTo(26);
        }
    }

    /**
     * A session opened right after a close never runs on the child just closed while that child's check
     * runs: it takes a checked or a fresh child. When the check then finds the child unclean, the child
     * ends, and no session saw its litter. The dirty session leaves 3,000 modules behind, which also
     * makes the check take long enough that the next session surely comes while it runs.
     */
    @Test
    void aSessionOpenedWhileAChildIsCheckedRunsOnAnotherChild() throws Exception {
        try (ProcessBackend backend = ProcessBackend.builder().poolSize(1).build()) {
            awaitChildren(backend, 1);
            PrologSession dirty = backend.open();
            long pid = childPid(dirty);
            assertThat(dirty.goal("atom_concat(us, er, U), U:assertz(pt_litter(1)), "
                    + "forall(between(1, 3000, I), ( atom_concat(pt_m, I, M), M:assertz(x) ))").run().succeeded()).isTrue();
            dirty.close();
            try (PrologSession next = backend.open()) {
                assertThat(childPid(next)).as("the session runs on another child").isNotEqualTo(pid);
                assertThat(backend.recycledChildren()).isZero();
                GoalResult r = next.goal("atom_concat(us, er, U), \\+ current_predicate(U:pt_litter/1), "
                        + "\\+ current_module(pt_m1)").run();
                assertThat(r.outcome()).as(r.toString()).isEqualTo(Outcome.SUCCESS);
            }
            awaitGone(pid); // the dirty child ends
        }
    }

    @Test
    void aChildThatIsNotCleanOrNotToBeReusedEnds() throws Exception {
        try (ProcessBackend backend = ProcessBackend.builder().poolSize(1).build()) {
            awaitChildren(backend, 1);
            PrologSession dirty = backend.open();
            long pid = childPid(dirty);
            // trusted code that reaches user through a module name built at run time: the check sees it
            assertThat(dirty.goal("atom_concat(us, er, M), M:assertz(pt_litter(1))").run().succeeded()).isTrue();
            dirty.close();
            long deadline = System.nanoTime() + SANE.toNanos();
            while (isAlive(pid) && System.nanoTime() < deadline) {
                Thread.sleep(10);
            }
            assertThat(isAlive(pid)).as("a child whose session changed user ends").isFalse();
            assertThat(backend.recycledChildren()).isZero();
            PrologSession spawner = backend.open();
            long spawnerPid = childPid(spawner);
            // left running, in the child's group (a shell command's processes end with its call)
            assertThat(spawner.goal("process_create(path(sleep), ['30'], [process(_)])").run().succeeded()).isTrue();
            spawner.close();
            deadline = System.nanoTime() + SANE.toNanos();
            while (isAlive(spawnerPid) && System.nanoTime() < deadline) {
                Thread.sleep(10);
            }
            assertThat(isAlive(spawnerPid)).as("a child that left a process behind ends").isFalse();
            assertThat(backend.recycledChildren()).isZero();
        }
        try (ProcessBackend backend = ProcessBackend.builder().poolSize(1).reuseChildren(false).build()) {
            awaitChildren(backend, 1);
            PrologSession s = backend.open();
            long pid = childPid(s);
            s.close();
            long deadline = System.nanoTime() + SANE.toNanos();
            while (isAlive(pid) && System.nanoTime() < deadline) {
                Thread.sleep(10);
            }
            assertThat(isAlive(pid)).as("reuseChildren(false): a child serves one session").isFalse();
            assertThat(backend.recycledChildren()).isZero();
        }
    }

    @Test
    void aCrashEndsTheSessionsOpenQueriesWhichAreNeverReplayed() throws Exception {
        try (ProcessBackend backend = ProcessBackend.builder().build(); PrologSession s = backend.open()) {
            s.consult("n(X) :- between(1, inf, X).\n");
            io.prologtool.Query q = s.query("n(X)");
            assertThat(q.next(3)).hasSize(3);
            long pid = childPid(s);
            ProcessHandle.of(pid).orElseThrow().destroyForcibly();
            long deadline = System.nanoTime() + SANE.toNanos();
            while (isAlive(pid) && System.nanoTime() < deadline) {
                Thread.sleep(10);
            }
            GoalResult r = q.fetch(1);
            assertThat(r.error().orElseThrow().kind()).as("%s", r).isEqualTo("session_crashed");
            assertThat(q.isOpen()).isFalse();
            assertThat(q.fetch(1).error().orElseThrow().kind()).isEqualTo("session_crashed");
            // the session itself is restored with its program; a new query starts from the beginning
            assertThat(s.query("n(X)").next(1).get(0).get("X")).isEqualTo(Term.integer(1));
            assertThat(s.crashCount()).isEqualTo(1);
        }
    }

    static long childPid(PrologSession s) {
        Term pid = s.goal("current_prolog_flag(pid, P)").run().answers().get(0).get("P");
        return ((Term.Int) pid).value().longValueExact();
    }

    static void awaitChildren(ProcessBackend backend, int n) throws InterruptedException {
        long deadline = System.nanoTime() + SANE.toNanos();
        while (backend.liveChildren() < n && System.nanoTime() < deadline) {
            Thread.sleep(20);
        }
        assertThat(backend.liveChildren()).isEqualTo(n);
    }

    /** How many children served again, once at least {@code n} did or {@link #SANE} passed. */
    static long awaitRecycled(ProcessBackend backend, int n) throws InterruptedException {
        long deadline = System.nanoTime() + SANE.toNanos();
        while (backend.recycledChildren() < n && System.nanoTime() < deadline) {
            Thread.sleep(10);
        }
        return backend.recycledChildren();
    }

    /**
     * On a backend with a pool of two: the child of one session, which it ran and closed, once that child
     * is back in the pool (recycled) beside the other one.
     */
    private static long servedAndPooled(ProcessBackend backend) throws InterruptedException {
        awaitChildren(backend, 2);
        long pid;
        try (PrologSession s = backend.open()) {
            pid = childPid(s);
        }
        assertThat(awaitRecycled(backend, 1)).isEqualTo(1);
        return pid;
    }

    // ---------------------------------------------------------------- halt

    @Test
    void haltInADirectiveDoesNotEndTheChild() {
        try (ProcessBackend backend = ProcessBackend.builder().build()) {
            Child c = openWithChild(backend);
            try (PrologSession s = c.session()) {
                s.consult("before(1).\n:- halt.\n:- halt(3).\n:- system:halt(0).\n:- initialization(halt).\nafter(2).\n");

                assertThat(isAlive(c.pid())).isTrue();
                GoalResult r = s.goal("before(X), after(Y)").run();
                assertThat(r.outcome()).isEqualTo(Outcome.SUCCESS);
                assertThat(r.answers().get(0).get("Y")).isEqualTo(Term.integer(2));
                assertThat(isAlive(c.pid())).isTrue();
                assertThat(backend.liveChildren()).isEqualTo(1);
            }
        }
    }

    @Test
    void haltInAGoalIsAnErrorAndDoesNotEndTheChild() {
        try (ProcessBackend backend = ProcessBackend.builder().build()) {
            Child c = openWithChild(backend);
            try (PrologSession s = c.session()) {
                s.consult("here(yes).");
                for (String halt : List.of("halt", "halt(0)", "system:halt", "system:halt(1)")) {
                    GoalResult r = s.goal(halt).run();
                    assertThat(r.outcome()).as(halt).isEqualTo(Outcome.ERROR);
                    assertThat(isAlive(c.pid())).as("child alive after " + halt).isTrue();
                }
                GoalResult r = s.goal("here(X)").run();
                assertThat(r.answers()).extracting(a -> a.get("X")).containsExactly(Term.atom("yes"));
                assertThat(isAlive(c.pid())).isTrue();
                assertThat(backend.liveChildren()).isEqualTo(1);
            }
        }
    }

    // ---------------------------------------------------------------- the child's pipes

    @Test
    void goalFloodingTheRealStderrSucceedsBecauseStderrIsDrained() {
        try (ProcessBackend backend = ProcessBackend.builder().build()) {
            Child c = openWithChild(backend);
            try (PrologSession s = c.session()) {
                // ~10 MB straight to fd 2, past output capture: far more than a pipe buffer holds.
                GoalResult r = s.goal("""
                        once(stream_property(S, file_no(2))),
                        forall(between(1, 200000, _),
                               format(S, "xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx~n", [])),
                        flush_output(S)""").timeLimit(Duration.ofSeconds(20)).run();

                assertThat(r.outcome()).as(r.toString()).isEqualTo(Outcome.SUCCESS);
                assertThat(r.output()).as("the flood went to the real stderr, not to captured output")
                        .doesNotContain("xxxxxxxx");
                assertThat(isAlive(c.pid())).isTrue();
                assertThat(s.goal("X is 6 * 7").run().answers()).extracting(a -> a.get("X"))
                        .containsExactly(Term.integer(42));
            }
        }
    }

    @Test
    void garbageLinesOnTheProtocolStreamAreIgnoredAndTheCallGetsItsOwnReply() {
        try (ProcessBackend backend = ProcessBackend.builder().build()) {
            Child c = openWithChild(backend);
            try (PrologSession s = c.session()) {
                // A non-JSON line, JSON with a foreign id, and a well-formed reply with a stale id (1 was open's).
                GoalResult r = s.goal("""
                        once(stream_property(S, file_no(1))),
                        format(S, "not json~n{\\"id\\": 424242}~n{\\"id\\": 1, \\"ok\\": true, \\"outcome\\": \\"failure\\"}~n", []),
                        flush_output(S),
                        X = 7""").timeLimit(Duration.ofSeconds(5)).run();

                assertThat(r.outcome()).as(r.toString()).isEqualTo(Outcome.SUCCESS);
                assertThat(r.answers()).extracting(a -> a.get("X")).containsExactly(Term.integer(7));
                GoalResult next = s.goal("Y is 6 * 7").run();
                assertThat(next.answers()).extracting(a -> a.get("Y")).containsExactly(Term.integer(42));
                assertThat(isAlive(c.pid())).as("the child was not killed and replaced").isTrue();
            }
        }
    }

    @Test
    void partialLineOnTheProtocolStreamDoesNotCostTheCallItsReply() {
        try (ProcessBackend backend = ProcessBackend.builder().timeoutGrace(Duration.ofMillis(500)).build()) {
            Child c = openWithChild(backend);
            try (PrologSession s = c.session()) {
                // Text without a newline on fd 1 (as shell('printf ...') would write): the reply
                // line that follows must still be recognised.
                GoalResult r = s.goal("""
                        once(stream_property(S, file_no(1))),
                        format(S, "partial line without newline", []),
                        flush_output(S),
                        X = 7""").timeLimit(Duration.ofSeconds(3)).run();

                assertThat(r.outcome()).as(r.toString()).isEqualTo(Outcome.SUCCESS);
                assertThat(r.answers()).extracting(a -> a.get("X")).containsExactly(Term.integer(7));
                assertThat(isAlive(c.pid())).as("the child was not killed and replaced").isTrue();
                GoalResult next = s.goal("Y is 6 * 7").run();
                assertThat(next.answers()).extracting(a -> a.get("Y")).containsExactly(Term.integer(42));
            }
        }
    }

    // ---------------------------------------------------------------- cleaning up

    @Test
    void closingASessionEndsItsChild() {
        try (ProcessBackend backend = ProcessBackend.builder().build()) {
            Child c = openWithChild(backend);
            assertThat(backend.liveChildren()).isEqualTo(1);

            c.session().close();

            awaitGone(c.pid());
            assertThat(backend.liveChildren()).isZero();
        }
    }

    @Test
    void closingTheBackendEndsAllChildrenAndDeletesItsTempDirectory() throws IOException {
        ProcessBackend backend = ProcessBackend.builder().build();
        Child a;
        Child b;
        Path workDir;
        try {
            a = openWithChild(backend);
            b = openWithChild(backend);
            a.session().consult("x(1).");
            workDir = childWorkDir(a.pid());
            assertThat(childWorkDir(b.pid())).isEqualTo(workDir);
            assertThat(workDir.getFileName().toString()).startsWith("prologtool-");
            assertThat(workDir).isDirectory();
            assertThat(backend.liveChildren()).isEqualTo(2);
        } finally {
            backend.close();
        }

        awaitGone(a.pid());
        awaitGone(b.pid());
        assertThat(backend.liveChildren()).isZero();
        assertThat(a.session().isOpen()).isFalse();
        assertThat(b.session().isOpen()).isFalse();
        assertThat(workDir).doesNotExist();
    }

    @Test
    void closingTheBackendDeletesItsTempDirectoryEvenAfterAGoalWroteARelativeFile() throws IOException {
        ProcessBackend backend = ProcessBackend.builder().build();
        Path workDir;
        try {
            Child c = openWithChild(backend);
            workDir = childWorkDir(c.pid());
            GoalResult r = c.session().goal("open('notes.txt', write, S), write(S, hello), close(S)").run();
            assertThat(r.outcome()).as(r.toString()).isEqualTo(Outcome.SUCCESS);
            assertThat(workDir.resolve("notes.txt")).as("a relative path lands in the child's directory").exists();
        } finally {
            backend.close();
        }

        try {
            assertThat(workDir).doesNotExist();
        } finally {
            deleteTree(workDir); // do not leave the leftover behind when the assertion fails
        }
    }

    // ---------------------------------------------------------------- concurrency

    @Test
    void manySessionsAtOnceEachSeeOnlyTheirOwnProgramAndLeaveNoChildren() throws Exception {
        int threads = 8;
        int goals = 20;
        Set<Long> before = swiplChildren();
        ExecutorService pool = Executors.newFixedThreadPool(threads);
        try (ProcessBackend backend = ProcessBackend.builder().build()) {
            CountDownLatch go = new CountDownLatch(1);
            List<Future<List<Term>>> results = new ArrayList<>();
            for (int i = 0; i < threads; i++) {
                int me = i;
                results.add(pool.submit(() -> {
                    go.await();
                    List<Term> seen = new ArrayList<>();
                    try (PrologSession s = backend.open()) {
                        assertThat(s.consult("mine(" + me + ").").hasErrors()).isFalse();
                        for (int j = 0; j < goals; j++) {
                            GoalResult r = s.goal("mine(M), X is M * 100 + " + j).run();
                            assertThat(r.outcome()).as("session %d goal %d: %s", me, j, r).isEqualTo(Outcome.SUCCESS);
                            assertThat(r.answers()).as("session %d sees only its own mine/1", me).hasSize(1);
                            seen.add(r.answers().get(0).get("X"));
                        }
                    }
                    return seen;
                }));
            }
            go.countDown();

            for (int i = 0; i < threads; i++) {
                List<Term> expected = new ArrayList<>();
                for (int j = 0; j < goals; j++) {
                    expected.add(Term.integer(i * 100L + j));
                }
                assertThat(results.get(i).get(60, TimeUnit.SECONDS)).as("answers of session %d", i)
                        .isEqualTo(expected);
            }
            assertThat(backend.liveChildren()).isZero();
        } finally {
            pool.shutdownNow();
        }
        // close() returns at once and the child exits on its own a moment later
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(5);
        while (!before.containsAll(swiplChildren()) && System.nanoTime() < deadline) {
            Thread.sleep(20);
        }
        assertThat(swiplChildren()).isSubsetOf(before);
    }

    // ---------------------------------------------------------------- helpers

    /**
     * A child whose session is open but has nothing to do costs no CPU: its watchdog looks at the memory
     * once a second, not every 10 ms (which took 1.8% of a core per idle child), and it blocks for its
     * next request instead of polling. Counted in the child's own clock ticks (10 ms each), so nothing else
     * on the machine counts.
     */
    @Test
    void anIdleChildWithASessionOpenUsesNoCpu() throws Exception {
        try (ProcessBackend backend = ProcessBackend.builder().build()) {
            Child c = openWithChild(backend);
            try (PrologSession s = c.session()) {
                assertThat(s.consult("p(1).\n").hasErrors()).isFalse();
                for (int i = 0; i < 20; i++) {
                    assertThat(s.goal("p(X)").run().outcome()).isEqualTo(Outcome.SUCCESS);
                }
                Thread.sleep(500); // past the 100 ms in which the next request usually comes
                long ticks0 = cpuTicks(c.pid());
                Thread.sleep(3_000);
                long ticks = cpuTicks(c.pid()) - ticks0;
                // 300 looks at 10 ms cadence cost 5 or more ticks here; a look a second costs none
                assertThat(ticks).as("clock ticks of CPU in 3 s of idling").isLessThanOrEqualTo(1);
                assertThat(s.goal("p(X)").run().outcome()).isEqualTo(Outcome.SUCCESS);
            }
        }
    }

    /** utime + stime of a process, in clock ticks. */
    private static long cpuTicks(long pid) throws IOException {
        String stat = Files.readString(Path.of("/proc", Long.toString(pid), "stat"));
        String[] f = stat.substring(stat.lastIndexOf(')') + 2).split(" ");
        return Long.parseLong(f[11]) + Long.parseLong(f[12]);
    }

    private record Child(PrologSession session, long pid) {
    }

    /** Opens a session and finds the one swipl child that opening it started. */
    private static Child openWithChild(ProcessBackend backend) {
        Set<Long> before = swiplChildren();
        PrologSession s = backend.open();
        Set<Long> started = new HashSet<>(swiplChildren());
        started.removeAll(before);
        assertThat(started).as("swipl children started by open()").hasSize(1);
        return new Child(s, started.iterator().next());
    }

    private static Set<Long> swiplChildren() {
        return ProcessHandle.current().children()
                .filter(ProcessHandle::isAlive)
                .filter(p -> p.info().command().map(cmd -> cmd.contains("swipl")).orElse(false))
                .map(ProcessHandle::pid)
                .collect(Collectors.toSet());
    }

    private static boolean isAlive(long pid) {
        return ProcessHandle.of(pid).map(ProcessHandle::isAlive).orElse(false);
    }

    static void awaitGone(long pid) {
        Optional<ProcessHandle> h = ProcessHandle.of(pid);
        if (h.isEmpty()) {
            return;
        }
        try {
            h.get().onExit().get(SANE.toMillis(), TimeUnit.MILLISECONDS);
        } catch (TimeoutException e) {
            fail("swipl child " + pid + " still alive after " + SANE);
        } catch (Exception e) {
            throw new AssertionError(e);
        }
    }

    /** Waits until the goal running in {@code inFlight} has created {@code file}. */
    private static void awaitFile(Path file, Future<?> inFlight) throws Exception {
        long deadline = System.nanoTime() + SANE.toNanos();
        while (!Files.exists(file)) {
            if (inFlight.isDone()) {
                fail("the goal ended before it started looping: " + inFlight.get());
            }
            if (System.nanoTime() > deadline) {
                fail("the goal did not start within " + SANE);
            }
            Thread.sleep(10);
        }
    }

    private static Path childWorkDir(long pid) throws IOException {
        return Files.readSymbolicLink(Path.of("/proc", Long.toString(pid), "cwd"));
    }

    private static void deleteTree(Path dir) throws IOException {
        if (!Files.exists(dir)) {
            return;
        }
        try (var paths = Files.walk(dir)) {
            for (Path p : paths.sorted(Comparator.reverseOrder()).toList()) {
                Files.deleteIfExists(p);
            }
        }
    }

    private static String quoted(String text) {
        return "'" + text.replace("\\", "\\\\").replace("'", "\\'") + "'";
    }
}

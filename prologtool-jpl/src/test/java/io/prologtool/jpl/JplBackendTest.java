package io.prologtool.jpl;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.prologtool.ConsultResult;
import io.prologtool.GoalResult;
import io.prologtool.Outcome;
import io.prologtool.PrologSession;
import io.prologtool.PrologToolException;
import io.prologtool.SessionOptions;
import io.prologtool.Term;
import io.prologtool.TestReport;
import io.prologtool.json.TermJson;
import io.prologtool.spi.HarnessTimeoutException;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * What only the in-process backend must prove: no environment needed, one Prolog per JVM, halt never
 * ends the JVM, limits hold without a process to kill, many threads at once, and sessions that leave
 * nothing behind. Timing figures are printed (and asserted only generously).
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class JplBackendTest {

    private static final Duration SANE = Duration.ofSeconds(10);
    private static final String LOOP = "loop :- loop.\n";

    private JplBackend backend;

    @BeforeAll
    void start() {
        backend = JplBackend.get();
    }

    @AfterAll
    void stop() {
        backend.close();
    }

    private static Term only(GoalResult r, String var) {
        assertThat(r.outcome()).as("%s", r).isEqualTo(Outcome.SUCCESS);
        return r.answers().get(0).get(var);
    }

    private static void assertAnswers(PrologSession s) {
        assertThat(only(s.goal("X = still_here").run(), "X")).isEqualTo(Term.atom("still_here"));
    }

    // ---------------------------------------------------------------- no environment needed

    @Test
    void plainJavaChildReachesForeignLibrariesWithoutAnyEnvironment() throws Exception {
        Path java = Path.of(System.getProperty("java.home"), "bin", "java");
        ProcessBuilder pb = new ProcessBuilder(java.toString(), "-cp", System.getProperty("java.class.path"),
                JplChildMain.class.getName()).redirectErrorStream(true);
        pb.environment().remove("LD_PRELOAD");       // nothing of the usual cures
        pb.environment().remove("LD_LIBRARY_PATH");
        pb.environment().remove("JAVA_TOOL_OPTIONS");
        Process p = pb.start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertThat(p.waitFor(60, TimeUnit.SECONDS)).as("child JVM ended").isTrue();
        assertThat(p.exitValue()).as("child JVM said: %s", out).isEqualTo(JplChildMain.ANSWERED);
        assertThat(out).contains("ANSWER SUCCESS");
    }

    /**
     * Closing a query signals its thread; a thread that had not started its search (or was ending) died
     * of that signal, and the embedded Prolog printed "Thread ... died on exception" on the JVM's
     * standard error, about one close in ten.
     */
    @Test
    void closingQueriesPrintsNothingOnTheJvmsStandardError() throws Exception {
        String out = answeredChild("queries");
        // the library's own log lines (its backend's start at INFO) are not what this is about
        String printed = String.join("\n", out.lines().filter(l -> !l.startsWith("INFO io.prologtool.")).toList());
        assertThat(printed.strip()).isEqualTo("CLOSED " + JplChildMain.QUERIES);
    }

    @Test
    void theEmbeddedPrologsTemporaryFilesAreInAFolderOfTheJvmsDeletedWhenItExits() throws Exception {
        String out = answeredChild("tmp");
        String line = out.lines().filter(l -> l.startsWith("TMP ")).findFirst().orElseThrow();
        Path folder = Path.of(line.substring(4)).getParent();
        assertThat(folder.getFileName().toString()).startsWith("prologtool-jpl-tmp-");
        assertThat(folder.getParent()).isEqualTo(Path.of(System.getProperty("java.io.tmpdir")).toAbsolutePath());
        assertThat(folder).as("the folder, with the file a session left in it").doesNotExist();
    }

    @Test
    void theEmbeddedPrologStartsFromASavedStateCachedBetweenJvms(@TempDir Path tmp) throws Exception {
        Path cache = Files.createDirectory(tmp.resolve("cache"), java.nio.file.attribute.PosixFilePermissions
                .asFileAttribute(java.nio.file.attribute.PosixFilePermissions.fromString("rwx------")));
        // the first start on a machine compiles the state into the cache; foreign libraries (JSON, the
        // alarm behind call_with_time_limit/2) load from it as from sources
        String first = startedFrom(cache.toString());
        assertThat(first).startsWith(cache.resolve("jpl-").toString()).endsWith(".state");
        try (var files = Files.list(cache)) {
            assertThat(files.toList()).containsExactly(Path.of(first));
        }
        java.nio.file.attribute.FileTime longAgo = java.nio.file.attribute.FileTime.from(
                java.time.Instant.now().minus(Duration.ofDays(10)));
        Files.setLastModifiedTime(Path.of(first), longAgo);
        // the next JVM starts from the same file, which it marks used
        assertThat(startedFrom(cache.toString())).isEqualTo(first);
        assertThat(Files.getLastModifiedTime(Path.of(first))).isGreaterThan(longAgo);
        try (var files = Files.list(cache)) {
            assertThat(files.toList()).containsExactly(Path.of(first));
        }
        // without a cache, or with a folder others may write, the sources are loaded
        assertThat(startedFrom("none")).isEqualTo("none");
        Path shared = Files.createDirectory(tmp.resolve("shared"));
        Files.setPosixFilePermissions(shared, java.nio.file.attribute.PosixFilePermissions.fromString("rwxrwxrwx"));
        assertThat(startedFrom(shared.toString())).isEqualTo("none");
        try (var files = Files.list(shared)) {
            assertThat(files.toList()).isEmpty();
        }
    }

    /** Runs JplChildMain with the state cache {@code cache} (or none): the state its Prolog started from. */
    private static String startedFrom(String cache) throws Exception {
        String out = answeredChild("state", cache);
        return out.lines().filter(l -> l.startsWith("STATE ")).findFirst().orElseThrow().substring(6);
    }

    /** Runs JplChildMain with {@code args} in a child JVM, which must end having answered: what it printed. */
    private static String answeredChild(String... args) throws Exception {
        Path java = Path.of(System.getProperty("java.home"), "bin", "java");
        List<String> cmd = new ArrayList<>(List.of(java.toString(), "-cp", System.getProperty("java.class.path"),
                JplChildMain.class.getName()));
        cmd.addAll(List.of(args));
        Process p = new ProcessBuilder(cmd).redirectErrorStream(true).start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertThat(p.waitFor(60, TimeUnit.SECONDS)).as("child JVM ended").isTrue();
        assertThat(p.exitValue()).as("child JVM said: %s", out).isEqualTo(JplChildMain.ANSWERED);
        return out;
    }

    @Test
    void missingSwiplIsOneSentenceNamingThePackages(@TempDir Path emptyDir) throws Exception {
        Path java = Path.of(System.getProperty("java.home"), "bin", "java");
        ProcessBuilder pb = new ProcessBuilder(java.toString(), "-cp", System.getProperty("java.class.path"),
                JplChildMain.class.getName()).redirectErrorStream(true);
        pb.environment().put("PATH", emptyDir.toString());
        Process p = pb.start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertThat(p.waitFor(60, TimeUnit.SECONDS)).isTrue();
        assertThat(p.exitValue()).as("child JVM said: %s", out).isEqualTo(JplChildMain.UNAVAILABLE);
        assertThat(out).contains("apt-get install swi-prolog-nox swi-prolog-java").contains("dnf install pl pl-jpl")
                .contains("brew install swi-prolog").contains("swipl");
        assertThat(out.strip().lines().count()).as("one line: %s", out).isEqualTo(1);
    }

    // ---------------------------------------------------------------- one Prolog, many handles

    @Test
    void handlesShareOnePrologAndCloseOnlyTheirOwnSessions() {
        JplBackend a = JplBackend.get();
        JplBackend b = JplBackend.get();
        PrologSession sa = a.open();
        PrologSession sb = b.open();
        sb.consult("kept(yes).");
        a.close();
        assertThat(sa.isOpen()).isFalse();
        assertThatThrownBy(a::open).isInstanceOf(IllegalStateException.class);
        assertThat(only(sb.goal("kept(X)").run(), "X")).isEqualTo(Term.atom("yes"));
        b.close();
        assertThat(sb.isOpen()).isFalse();
        try (JplBackend c = JplBackend.get(); PrologSession sc = c.open()) {
            assertAnswers(sc);
        }
    }

    @Test
    void bareQueriesAreTimedOnTheEmbeddedPrologAndChangeNothing() {
        int modules = backend.moduleCount();
        long[] nanos = backend.timeBareQueries(200);
        assertThat(nanos).hasSize(200);
        assertThat(java.util.Arrays.stream(nanos).min().orElseThrow()).isPositive();
        assertThat(backend.moduleCount()).isEqualTo(modules);
        assertThatThrownBy(() -> backend.timeBareQueries(0)).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("at least 1");
        try (PrologSession s = backend.open()) {
            assertThat(s.goal("X = 1").run().succeeded()).isTrue();
        }
    }

    @Test
    void moreCallsRunAtOnceThanJplsPoolHasEngines() throws Exception {
        // The workers attach engines of their own: sixteen calls at once, where JPL's pool holds ten.
        Path java = Path.of(System.getProperty("java.home"), "bin", "java");
        Process p = new ProcessBuilder(java.toString(), "-cp", System.getProperty("java.class.path"),
                JplManyWorkersChild.class.getName()).redirectErrorStream(true).start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertThat(p.waitFor(60, TimeUnit.SECONDS)).as("child JVM ended").isTrue();
        assertThat(p.exitValue()).as("child JVM said: %s", out).isEqualTo(JplManyWorkersChild.ALL_AT_ONCE);
        assertThat(out).contains("PEAK " + JplManyWorkersChild.CALLS);
    }

    @Test
    void concurrentCallsOutsideOneToSixtyFourAreRefused() {
        for (int calls : new int[]{0, JplRuntime.MAX_WORKERS + 1}) {
            assertThatThrownBy(() -> JplBackend.builder().maxConcurrentCalls(calls))
                    .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("1 to 64");
        }
    }

    @Test
    void settingsThatConflictWithTheRunningPrologAreRefused() {
        assertThatThrownBy(() -> JplBackend.builder().maxConcurrentCalls(3).build())
                .isInstanceOf(IllegalStateException.class).hasMessageContaining("maxConcurrentCalls(3)");
        assertThatThrownBy(() -> JplBackend.builder().swiplPath(Path.of("/opt/other/bin/swipl")).build())
                .isInstanceOf(IllegalStateException.class).hasMessageContaining("one SWI-Prolog per JVM");
        try (JplBackend same = JplBackend.builder().maxConcurrentCalls(JplRuntime.DEFAULT_WORKERS)
                .swiplPath(backend.swiplPath()).build()) {
            assertThat(same.name()).isEqualTo("jpl");
        }
    }

    // ---------------------------------------------------------------- halt

    @Test
    void haltInEveryFormIsAnErrorAndTheJvmAndSessionsLive() {
        try (PrologSession s = backend.open(); PrologSession bystander = backend.open()) {
            s.consult("keep(me).");
            bystander.consult("mine(too).");
            for (String halt : List.of("halt", "halt(0)", "halt(1)", "G = halt, call(G)",
                    "atom_concat(ha, lt, H), call(H)")) {
                GoalResult r = s.goal(halt).run();
                assertThat(r.outcome()).as(halt).isEqualTo(Outcome.ERROR);
                assertThat(r.error().orElseThrow().kind()).as(halt).isIn("permission_error", "sandbox_violation");
            }
            ConsultResult c = s.consult("p(1).\n:- initialization(halt).\n:- halt.\n:- halt(3).\np(2).\n");
            assertThat(c.errors()).hasSize(3);
            assertThat(s.goal("p(X)").run().answers()).hasSize(2);
            assertThat(only(s.goal("keep(X)").run(), "X")).isEqualTo(Term.atom("me"));
            assertThat(only(bystander.goal("mine(X)").run(), "X")).isEqualTo(Term.atom("too"));
        }
    }

    // ---------------------------------------------------------------- time and stack limits

    @Test
    void loopingGoalTimesOutWithinItsLimitAndTheSessionAnswersTheNextGoal() {
        try (PrologSession s = backend.open()) {
            s.consult(LOOP);
            for (String goal : List.of("loop", "repeat, fail", "between(1, inf, _), fail")) {
                long t0 = System.nanoTime();
                GoalResult r = s.goal(goal).timeLimit(Duration.ofMillis(500)).maxDepth(Long.MAX_VALUE / 2).run();
                long ms = (System.nanoTime() - t0) / 1_000_000;
                System.out.printf("[jpl] TIMEOUT of %s with a 500 ms limit after %d ms%n", goal, ms);
                assertThat(r.outcome()).as(goal).isEqualTo(Outcome.TIMEOUT);
                assertThat(ms).as("%s: the limit plus overshoot", goal).isLessThan(1_500);
                assertAnswers(s);
            }
        }
    }

    @Test
    void catchAllsInUserCodeCannotDefeatTheTimeLimit() {
        try (PrologSession s = backend.open()) {
            s.consult(LOOP + "swallow :- catch(loop, _, loop).\n"
                    + "ignore_all :- catch(loop, E, (print_message(error, E), fail)).\n"
                    + "deep(N) :- N > 0, !, M is N - 1, catch(deep(M), _, deep(M)).\ndeep(_) :- loop.\n"
                    + ":- dynamic built/1.\n");
            for (String goal : List.of("catch(loop, _, loop)", "catch(loop, E, true)", "swallow", "ignore_all",
                    "deep(50)", "catch_with_backtrace(loop, _, loop)", "G = catch(loop, _, loop), call(G)",
                    "Catch =.. [catch, loop, _, loop], call(Catch)",
                    "findall(x, catch(loop, _, true), _)", "forall(true, catch(loop, time_limit_exceeded, true))")) {
                long t0 = System.nanoTime();
                GoalResult r = s.goal(goal).timeLimit(Duration.ofMillis(400)).maxDepth(Long.MAX_VALUE / 2).run();
                long ms = (System.nanoTime() - t0) / 1_000_000;
                System.out.printf("[jpl] TIMEOUT of %s with a 400 ms limit after %d ms%n", goal, ms);
                assertThat(r.outcome()).as("%s -> %s", goal, r).isEqualTo(Outcome.TIMEOUT);
                assertThat(ms).as(goal).isLessThan(1_400);
            }
            assertAnswers(s);
        }
    }

    @Test
    void usersOwnTimeLimitsAndOrdinaryBallsStayCatchable() {
        try (PrologSession s = backend.open()) {
            s.consult(LOOP);
            assertThat(only(s.goal("catch(call_with_time_limit(0.2, loop), time_limit_exceeded, X = caught)")
                    .timeLimit(Duration.ofSeconds(5)).maxDepth(Long.MAX_VALUE / 2).run(), "X")).isEqualTo(Term.atom("caught"));
            assertThat(only(s.goal("catch(throw(my_ball), my_ball, X = caught)").run(), "X")).isEqualTo(Term.atom("caught"));
            assertThat(only(s.goal("catch(atom_length(_, _), error(E, _), true)").run(), "E"))
                    .isEqualTo(Term.atom("instantiation_error"));
            assertThat(s.goal("catch(throw(a), b, true)").run().error().orElseThrow().kind())
                    .isEqualTo("execution_exception");
            assertThat(s.goal("catch(member(X, [1, 2, 3]), _, true)").run().answers()).hasSize(3);
        }
    }

    @Test
    void goalLoopingWhereSignalsAreBlockedIsATimeoutAndTheSessionGoesOn() throws Exception {
        // A cleanup handler runs with signals blocked: the time limit cannot reach it, but the inference
        // backstop that stands in for it can. The call comes back as a timeout no later than the limit
        // plus grace, the session answers, and nothing is left running or holding its module.
        int modulesBefore = backend.moduleCount();
        PrologSession s = backend.open(SessionOptions.builder().build());
        s.consult("spin(S) :- get_time(T0), repeat, get_time(T), T - T0 > S, !.\n");
        long t0 = System.nanoTime();
        GoalResult r = s.goal("setup_call_cleanup(true, (repeat, fail), spin(30))")
                .timeLimit(Duration.ofMillis(300)).run();
        long ms = (System.nanoTime() - t0) / 1_000_000;
        System.out.printf("[jpl] a goal spinning in a cleanup handler came back as %s after %d ms%n", r.outcome(), ms);
        assertThat(r.outcome()).isEqualTo(Outcome.TIMEOUT);
        assertThat(ms).isLessThan(3_200L);
        assertAnswers(s);
        s.close();
        long deadline = System.nanoTime() + SANE.toNanos();
        while ((backend.runningCalls() > 0 || backend.moduleCount() > modulesBefore) && System.nanoTime() < deadline) {
            Thread.sleep(50);
        }
        assertThat(backend.runningCalls()).isZero();
        assertThat(backend.moduleCount()).as("the session's module, once its goal ended").isEqualTo(modulesBefore);
    }

    @Test
    void aWorkerLeftWithARequestPastItsBudgetIsReplacedAndEndsWithIt() throws Exception {
        // The harness stops every goal tried so far within its limits (HostileCode), so the budget is
        // made short here instead: sleep(2) with a budget of 0.2 s. Its call fails as a timeout at the
        // budget, another worker takes the old one's place, so all eight workers serve again while the
        // old one still sleeps, and the old one ends when its goal does.
        JplRuntime runtime = backend.runtime();
        withHarnessSession("abandon_probe", () -> {
            long t0 = System.nanoTime();
            JplRuntime.Call call = runtime.submit("{\"id\":99,\"op\":\"goal\",\"session\":\"abandon_probe\","
                    + "\"goal\":\"sleep(2)\"}", Duration.ofSeconds(10), Duration.ofMillis(200));
            assertThat(call.awaitStart(SANE)).isTrue();
            assertThatThrownBy(() -> call.await(SANE)).isInstanceOf(ExecutionException.class)
                    .hasCauseInstanceOf(HarnessTimeoutException.class);
            long ms = (System.nanoTime() - t0) / 1_000_000;
            assertThat(ms).as("failed at its budget, not when the goal ended").isLessThan(1_500L);
            assertThat(backend.abandonedWorkers()).isEqualTo(1);
            List<PrologSession> sleepers = new ArrayList<>();
            ExecutorService pool = Executors.newFixedThreadPool(JplRuntime.DEFAULT_WORKERS);
            try {
                List<Future<GoalResult>> fs = new ArrayList<>();
                for (int i = 0; i < JplRuntime.DEFAULT_WORKERS; i++) {
                    PrologSession s = backend.open();
                    sleepers.add(s);
                    fs.add(pool.submit(() -> s.goal("sleep(0.5)").run()));
                }
                int peak = JplManyWorkersChild.peakRunning(backend, fs);
                for (Future<GoalResult> f : fs) {
                    assertThat(f.get().outcome()).isEqualTo(Outcome.SUCCESS);
                }
                assertThat(peak).as("calls running at once: every worker's and the abandoned one's")
                        .isEqualTo(JplRuntime.DEFAULT_WORKERS + 1);
            } finally {
                pool.shutdownNow();
                sleepers.forEach(PrologSession::close);
            }
            awaitTrue(() -> backend.abandonedWorkers() == 0 && backend.runningCalls() == 0,
                    "the abandoned worker ended with its goal");
        });
    }

    @Test
    void anInterruptBeforeTheHarnessDeadlineLeavesTheGoalToFinish() throws Exception {
        // The runtime interrupts a call that runs past the moment its caller gave it (here 1 ns: at the
        // first sweep, 20 ms in); the harness acts on it only where session code runs past the
        // harness's own deadline (10 s here), so the goal ends on its own and its answer comes back.
        // An interrupt that threw regardless struck session code before its limit (outcome timeout) or
        // the harness writing a reply (an error raised "outside the harness", the answers lost).
        JplRuntime runtime = backend.runtime();
        withHarnessSession("early_interrupt", () -> {
            JplRuntime.Call call = runtime.submit("{\"id\":98,\"op\":\"goal\",\"session\":\"early_interrupt\","
                    + "\"goal\":\"get_time(T0), repeat, get_time(T), T - T0 > 0.3, !, X = done\",\"time_limit\":10}",
                    Duration.ofNanos(1), Duration.ofSeconds(20));
            JsonNode reply = TermJson.mapper().readTree(call.await(SANE));
            assertThat(reply.path("ok").asBoolean()).as(reply.toString()).isTrue();
            assertThat(reply.path("outcome").asText()).as(reply.toString()).isEqualTo("success");
            assertThat(reply.path("answers").path(0).path("X").path("value").asText()).isEqualTo("done");
        });
    }

    private interface Body {
        void run() throws Exception;
    }

    /**
     * Runs {@code body} with a session named {@code name} open in the harness (opened and closed through a
     * {@link JplTransport}), for tests that submit raw requests to the runtime.
     */
    private void withHarnessSession(String name, Body body) throws Exception {
        JplTransport transport = new JplTransport(backend.runtime(), SANE);
        ObjectNode open = TermJson.mapper().createObjectNode().put("op", "open").put("session", name);
        assertThat(transport.call(open, SANE).path("ok").asBoolean()).as("opened").isTrue();
        try {
            body.run();
        } finally {
            ObjectNode close = TermJson.mapper().createObjectNode().put("op", "close").put("session", name);
            assertThat(transport.call(close, SANE).path("closed").asBoolean()).as("closed").isTrue();
        }
    }

    private static void awaitTrue(java.util.function.BooleanSupplier condition, String what)
            throws InterruptedException {
        long deadline = System.nanoTime() + SANE.toNanos();
        while (!condition.getAsBoolean() && System.nanoTime() < deadline) {
            Thread.sleep(20);
        }
        assertThat(condition.getAsBoolean()).as(what).isTrue();
    }

    @Test
    void sessionCyclesLeaveTheAtomFunctorAndModuleCountsFlat() {
        // SWI-Prolog never frees a functor: nothing may mint one per session. Each cycle also runs tests,
        // a trace and an execute, the paths that create modules and names of their own.
        try (PrologSession probe = backend.open()) {
            Runnable cycle = () -> {
                try (PrologSession s = backend.open()) {
                    s.consult("p(1).\np(2).\nq(X) :- p(X), X > 1.\n");
                    assertThat(s.goal("q(X)").run().outcome()).isEqualTo(Outcome.SUCCESS);
                    assertThat(s.runTests(":- begin_tests(u).\ntest(t) :- q(2).\n:- end_tests(u).\n").passed())
                            .isEqualTo(1);
                    s.trace("q(X)").run();
                }
            };
            for (int i = 0; i < 200; i++) {
                cycle.run();
            }
            long[] before = counts(probe);
            int modulesBefore = backend.moduleCount();
            for (int i = 0; i < 2_000; i++) {
                cycle.run();
            }
            long[] after = counts(probe);
            System.out.printf("[jpl] 2,000 cycles: atoms %d -> %d, functors %d -> %d, modules %d -> %d%n",
                    before[0], after[0], before[1], after[1], modulesBefore, backend.moduleCount());
            assertThat(after[1]).as("functors").isEqualTo(before[1]);
            assertThat(after[0]).as("atoms, after atom garbage collection").isLessThan(before[0] + 200);
            assertThat(backend.moduleCount()).as("modules").isEqualTo(modulesBefore);
        }
    }

    private static long[] counts(PrologSession probe) {
        GoalResult r = probe.goal("garbage_collect_atoms, statistics(atoms, A), statistics(functors, F)").run();
        return new long[]{((Term.Int) r.answers().get(0).get("A")).value().longValueExact(),
                ((Term.Int) r.answers().get(0).get("F")).value().longValueExact()};
    }

    @Test
    void runawayRecursionIsAResourceErrorNotADeadJvm() {
        try (PrologSession s = backend.open(SessionOptions.builder().stackLimitBytes(64L << 20).build())) {
            s.consult("grow(L) :- grow([x|L]).\nnat(N) :- nat(M), N is M + 1.\n");
            for (String goal : List.of("grow([])", "length(L, N), N > 100000000", "nat(X), X < 0")) {
                long t0 = System.nanoTime();
                GoalResult r = s.goal(goal).maxDepth(Long.MAX_VALUE / 2).timeLimit(Duration.ofSeconds(20)).run();
                long ms = (System.nanoTime() - t0) / 1_000_000;
                System.out.printf("[jpl] %s with a 64 MiB stack: %s after %d ms%n", goal, r.outcome(), ms);
                assertThat(r.outcome()).as(goal).isEqualTo(Outcome.ERROR);
                assertThat(r.error().orElseThrow().kind()).as(goal).isEqualTo("resource_error");
                assertAnswers(s);
            }
        }
    }

    // ---------------------------------------------------------------- concurrency

    @Test
    void thirtyTwoThreadsRunTwoHundredGoalsEachOverSixteenSessions() throws Exception {
        int sessionsN = 16;
        int threads = 32;
        int goals = 200;
        List<PrologSession> sessions = new ArrayList<>();
        for (int k = 0; k < sessionsN; k++) {
            PrologSession s = backend.open();
            s.consult("sid(" + k + ").\nsquare(X, Y) :- Y is X * X.\n");
            sessions.add(s);
        }
        AtomicInteger wrong = new AtomicInteger();
        List<String> firstWrong = java.util.Collections.synchronizedList(new ArrayList<>());
        ExecutorService pool = Executors.newFixedThreadPool(threads);
        long t0 = System.nanoTime();
        try {
            List<Future<?>> fs = new ArrayList<>();
            for (int t = 0; t < threads; t++) {
                int thread = t;
                fs.add(pool.submit(() -> {
                    for (int j = 0; j < goals; j++) {
                        int k = (thread * 7 + j) % sessionsN;
                        int n = thread * 1000 + j;
                        GoalResult r = sessions.get(k).goal("sid(S), square(" + n + ", Y), format(\"~w/~w\", [S, "
                                + n + "])").timeLimit(Duration.ofSeconds(30)).run();
                        boolean right = r.outcome() == Outcome.SUCCESS && r.answers().size() == 1
                                && r.answers().get(0).get("S").equals(Term.integer(k))
                                && r.answers().get(0).get("Y").equals(Term.integer((long) n * n))
                                && r.output().equals(k + "/" + n);
                        if (!right && wrong.incrementAndGet() <= 3) {
                            firstWrong.add("session " + k + ", n " + n + ": " + r);
                        }
                    }
                    return null;
                }));
            }
            for (Future<?> f : fs) {
                f.get(5, TimeUnit.MINUTES);
            }
        } finally {
            pool.shutdownNow();
            sessions.forEach(PrologSession::close);
        }
        long ms = (System.nanoTime() - t0) / 1_000_000;
        System.out.printf("[jpl] %d threads x %d goals over %d sessions: %d ms (%.0f goals/s)%n",
                threads, goals, sessionsN, ms, threads * goals * 1000.0 / ms);
        assertThat(wrong.get()).as("wrong answers, first: %s", firstWrong).isZero();
    }

    @Test
    void callsBeyondTheEnginesWaitInOrderAndTheWaitIsBounded() throws Exception {
        int engines = JplRuntime.DEFAULT_WORKERS;
        try (JplBackend impatient = JplBackend.builder().queueTimeout(Duration.ofMillis(300)).build()) {
            List<PrologSession> sleepers = new ArrayList<>();
            for (int i = 0; i < engines; i++) {
                sleepers.add(impatient.open());
            }
            PrologSession late = impatient.open();
            ExecutorService pool = Executors.newFixedThreadPool(engines);
            try {
                List<Future<GoalResult>> busy = new ArrayList<>();
                for (PrologSession s : sleepers) {
                    busy.add(pool.submit(() -> s.goal("sleep(1.5)").run()));
                }
                Thread.sleep(300); // every engine sleeps now
                long t0 = System.nanoTime();
                assertThatThrownBy(() -> late.goal("true").run()).isInstanceOf(PrologToolException.class)
                        .hasMessageContaining("busy");
                long waited = (System.nanoTime() - t0) / 1_000_000;
                assertThat(waited).isBetween(250L, 1_200L);
                for (Future<GoalResult> f : busy) {
                    assertThat(f.get(SANE.toMillis(), TimeUnit.MILLISECONDS).outcome()).isEqualTo(Outcome.SUCCESS);
                }
                assertAnswers(late);
            } finally {
                pool.shutdownNow();
            }
        }
        // With the default bound, twice as many sleepers as engines all finish, in two waves.
        List<PrologSession> many = new ArrayList<>();
        for (int i = 0; i < 2 * engines; i++) {
            many.add(backend.open());
        }
        ExecutorService pool = Executors.newFixedThreadPool(2 * engines);
        try {
            long t0 = System.nanoTime();
            List<Future<GoalResult>> fs = new ArrayList<>();
            for (PrologSession s : many) {
                fs.add(pool.submit(() -> s.goal("sleep(0.4)").run()));
            }
            for (Future<GoalResult> f : fs) {
                assertThat(f.get(SANE.toMillis(), TimeUnit.MILLISECONDS).outcome()).isEqualTo(Outcome.SUCCESS);
            }
            long ms = (System.nanoTime() - t0) / 1_000_000;
            assertThat(ms).as("two waves of 0.4 s").isBetween(700L, 5_000L);
        } finally {
            pool.shutdownNow();
            many.forEach(PrologSession::close);
        }
    }

    // ---------------------------------------------------------------- text

    @Test
    void charactersAboveTheBasicPlaneCrossJplBothWays() {
        try (PrologSession s = backend.open()) {
            String emoji = "\uD83D\uDE00";
            assertThat(only(s.goal("X = '" + emoji + "', atom_length(X, L)").run(), "L")).isEqualTo(Term.integer(1));
            assertThat(only(s.goal("atom_codes(X, [0'a, 0x1F600, 0'b])").run(), "X")).isEqualTo(Term.atom("a" + emoji + "b"));
            s.consult("face(\"" + emoji + " \\\\uD83D\").\n");
            assertThat(only(s.goal("face(X)").run(), "X")).isEqualTo(Term.string(emoji + " \\uD83D"));
            assertThat(only(s.goal("write('" + emoji + "'), X = 1").run(), "X")).isEqualTo(Term.integer(1));
            assertThat(s.goal("write('" + emoji + "')").run().output()).isEqualTo(emoji);
        }
    }

    @Test
    void goalsReadEndOfFileAndPrologRunsWithoutTheDebugger() {
        try (PrologSession s = backend.open()) {
            for (int i = 0; i < 3 * JplRuntime.DEFAULT_WORKERS; i++) { // every engine
                assertThat(only(s.goal("read(X)").run(), "X")).isEqualTo(Term.atom("end_of_file"));
            }
            assertThat(only(s.goal("current_prolog_flag(debug_on_error, X)").run(), "X")).isEqualTo(Term.atom("false"));
        }
    }

    // ---------------------------------------------------------------- nothing left behind

    @Test
    void closingSessionsLeavesTheModuleCountFlat() {
        String program = "parent(tom, bob).\nparent(bob, ann).\nancestor(X, Y) :- parent(X, Y).\n"
                + "ancestor(X, Z) :- parent(X, Y), ancestor(Y, Z).\n:- dynamic seen/1.\n"
                + ":- op(700, xfx, ===>).\n:- set_prolog_flag(double_quotes, atom).\nrule(a ===> b).\n";
        for (int i = 0; i < 50; i++) {
            cycle(program);
        }
        int modulesBefore = backend.moduleCount();
        long rssBefore = rssKb();
        int cycles = 2_000;
        long t0 = System.nanoTime();
        for (int i = 0; i < cycles; i++) {
            cycle(program);
        }
        long ms = (System.nanoTime() - t0) / 1_000_000;
        int modulesAfter = backend.moduleCount();
        long rssAfter = rssKb();
        System.out.printf("[jpl] %d open/consult/goal/close cycles in %d ms: modules %d -> %d, RSS %d -> %d kB%n",
                cycles, ms, modulesBefore, modulesAfter, rssBefore, rssAfter);
        assertThat(modulesAfter).isEqualTo(modulesBefore);
    }

    private void cycle(String program) {
        try (PrologSession s = backend.open()) {
            assertThat(s.consult(program).hasErrors()).isFalse();
            GoalResult r = s.goal("ancestor(tom, X), assertz(seen(X))").run();
            assertThat(r.answers()).hasSize(2);
        }
    }

    @Test
    void loadsCutShortByTheirTimeLimitLeaveNoEngineInADestroyedModule() {
        // A load interrupted by its time limit used to leave the engine's source module pointing at the
        // session module; once the session closed (and its module was destroyed) the next load on that
        // engine failed, or crashed the JVM. Every engine gets such a load here, then ordinary ones.
        int sessionModules = backend.sessionModuleCount();
        SessionOptions quick = SessionOptions.builder().consultTimeLimit(Duration.ofMillis(100)).build();
        for (int i = 0; i < 3 * JplRuntime.DEFAULT_WORKERS; i++) {
            try (PrologSession s = backend.open(quick)) {
                assertThat(s.consult("a(1).\n:- repeat, fail.\nb(2).\n").errors()).isNotEmpty();
            }
            try (PrologSession s = backend.open()) {
                assertThat(s.consult("bad :- foo(.\n").errors()).isNotEmpty(); // loads no clause at all
            }
        }
        for (int i = 0; i < 6 * JplRuntime.DEFAULT_WORKERS; i++) {
            try (PrologSession s = backend.open()) {
                assertThat(s.consult("p(" + i + ").\nq(X) :- p(X).\n").messages()).isEmpty();
                assertThat(only(s.goal("q(X)").run(), "X")).isEqualTo(Term.integer(i));
            }
        }
        assertThat(backend.sessionModuleCount()).as("modules of closed sessions").isEqualTo(sessionModules);
    }

    @Test
    void closingASessionRemovesItsUnitsSoTheyCanNeverRunAgain() {
        String tests = ":- begin_tests(arith).\ntest(add) :- 2 =:= 1 + 1.\ntest(bad, [fail]) :- true.\n"
                + ":- end_tests(arith).\n";
        try (PrologSession warmUp = backend.open()) { // libraries plunit loads on first use
            warmUp.runTests(tests);
        }
        int modulesBefore = backend.moduleCount();
        for (int i = 0; i < 20; i++) {
            try (PrologSession s = backend.open()) {
                TestReport t = s.runTests(tests);
                assertThat(t.passed()).isEqualTo(1);
                assertThat(t.failed()).isEqualTo(1);
            }
        }
        assertThat(backend.moduleCount()).isEqualTo(modulesBefore);
        try (PrologSession s = backend.open()) {
            TestReport t = s.runTests("");
            assertThat(t.total()).as("no unit of a closed session is left to run").isZero();
        }
    }

    static long rssKb() {
        try {
            for (String line : Files.readAllLines(Path.of("/proc/self/status"))) {
                if (line.startsWith("VmRSS:")) {
                    return Long.parseLong(line.replaceAll("[^0-9]", ""));
                }
            }
        } catch (IOException | NumberFormatException e) {
            return -1;
        }
        return -1;
    }
}

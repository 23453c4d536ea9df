package io.prologtool.conformance;

import io.prologtool.Answer;
import io.prologtool.ConsultResult;
import io.prologtool.GoalResult;
import io.prologtool.Outcome;
import io.prologtool.PrologSession;
import io.prologtool.Query;
import io.prologtool.SessionOptions;
import io.prologtool.SessionRegistry;
import io.prologtool.Term;
import io.prologtool.tools.PrologTools;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CancellationException;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicReference;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * Cancellation: {@link PrologSession#cancel()}, {@code cancel(true)} on the future of
 * {@link io.prologtool.GoalRequest#runAsync()}, an interrupt of the thread in {@code run()}, and a close
 * during a call each stop the call in its Prolog (no CPU spent on it after), report
 * {@link Outcome#CANCELLED} (never a crash), and leave the session usable with its program. A cancel never
 * reaches the next call. The goals here run under a 60 s limit: each test ends in seconds only because
 * the cancel stops them.
 */
public abstract class CancellationConformanceTest extends BackendFixture {

    private static final Duration LONG = Duration.ofSeconds(60);
    /** How long a test waits for anything to happen; far below {@link #LONG}. */
    private static final long PATIENCE_MS = 20_000;

    @BeforeEach
    void loadProgram() {
        assertThat(session.consult("p(kept).\n").hasErrors()).isFalse();
    }

    /** The program loaded before the cancel still answers, and nothing was a crash. */
    private static void assertUsable(PrologSession s) {
        GoalResult r = s.goal("p(X)").run();
        assertThat(r.outcome()).isEqualTo(Outcome.SUCCESS);
        assertThat(r.answers().get(0).get("X")).isEqualTo(Term.atom("kept"));
        assertThat(s.crashCount()).isZero();
        assertThat(s.restoreCount()).isZero();
    }

    /** Calls {@link PrologSession#cancel()} until it finds the call running (true), at most {@link #PATIENCE_MS}. */
    private static void cancelWhenRunning(PrologSession s) throws InterruptedException {
        long until = System.currentTimeMillis() + PATIENCE_MS;
        while (!s.cancel()) {
            assertThat(System.currentTimeMillis()).as("the call never started").isLessThan(until);
            Thread.sleep(5);
        }
    }

    /**
     * CPU time spent by what serves sessions: this JVM's embedded-Prolog worker threads and every process
     * this JVM started (swipl children). Only this test's own threads and processes are counted.
     */
    protected long servingCpuNanos() {
        long total = 0;
        // the JVM names a thread's native counterpart after its first 15 characters
        try (var tasks = Files.list(Path.of("/proc/self/task"))) {
            for (Path task : (Iterable<Path>) tasks::iterator) {
                try {
                    if (Files.readString(task.resolve("comm")).strip().startsWith("prologtool-jpl")) {
                        String stat = Files.readString(task.resolve("stat"));
                        String[] f = stat.substring(stat.lastIndexOf(')') + 2).split(" ");
                        // utime and stime, fields 14 and 15 of stat, in clock ticks (100 a second)
                        total += (Long.parseLong(f[11]) + Long.parseLong(f[12])) * 10_000_000L;
                    }
                } catch (IOException | RuntimeException ended) {
                    // the thread ended meanwhile
                }
            }
        } catch (IOException e) {
            throw new IllegalStateException("cannot read /proc/self/task", e);
        }
        total += ProcessHandle.current().descendants()
                .mapToLong(p -> p.info().totalCpuDuration().map(Duration::toNanos).orElse(0L)).sum();
        return total;
    }

    /** Over one second after a cancel, what serves sessions spends well under half a core. */
    private void assertNoCpuSpentAfterwards() throws InterruptedException {
        long cpu0 = servingCpuNanos();
        long t0 = System.nanoTime();
        Thread.sleep(1000);
        double cpu = (servingCpuNanos() - cpu0) / 1e9;
        double wall = (System.nanoTime() - t0) / 1e9;
        assertThat(cpu).as("CPU seconds spent in %.2f s after the cancel", wall).isLessThan(0.3 * wall);
    }

    @Test
    void cancellingWithNothingRunningIsANoOp() {
        assertThat(session.cancel()).isFalse();
        assertUsable(session);
        assertThat(session.cancel()).isFalse();
    }

    @Test
    void cancelDuringAGoalStopsItKeepingItsAnswers() throws Exception {
        CompletableFuture<GoalResult> f = session.goal("( X = first ; repeat, fail )").maxAnswers(5)
                .timeLimit(LONG).runAsync();
        Thread.sleep(300); // the first answer is found by then
        cancelWhenRunning(session);
        GoalResult r = f.get(PATIENCE_MS, TimeUnit.MILLISECONDS);
        assertThat(r.outcome()).isEqualTo(Outcome.CANCELLED);
        assertThat(r.error()).isEmpty();
        assertThat(r.answers()).extracting(a -> a.get("X")).containsExactly(Term.atom("first"));
        assertNoCpuSpentAfterwards();
        assertUsable(session);
    }

    @Test
    void cancelReachesAGoalThatCatchesEverything() throws Exception {
        // session code's catch/3 cannot swallow the cancel
        session.consult("spin :- catch((repeat, fail), _, spin).\n");
        CompletableFuture<GoalResult> f = session.goal("spin").timeLimit(LONG).runAsync();
        cancelWhenRunning(session);
        assertThat(f.get(PATIENCE_MS, TimeUnit.MILLISECONDS).outcome()).isEqualTo(Outcome.CANCELLED);
        assertUsable(session);
    }

    @Test
    void aRegistrySessionCancelsToo() throws Exception {
        try (SessionRegistry registry = SessionRegistry.builder(backend).build()) {
            PrologSession s = registry.open();
            s.consult("p(kept).\n");
            CompletableFuture<GoalResult> f = s.goal("repeat, fail").timeLimit(LONG).runAsync();
            cancelWhenRunning(s);
            assertThat(f.get(PATIENCE_MS, TimeUnit.MILLISECONDS).outcome()).isEqualTo(Outcome.CANCELLED);
            assertUsable(s);
        }
    }

    @Test
    void cancellingTheFutureStopsTheGoal() throws Exception {
        CompletableFuture<GoalResult> f = session.goal("repeat, fail").timeLimit(LONG).runAsync();
        Thread.sleep(300);
        assertThat(f.cancel(true)).isTrue();
        assertThatThrownBy(f::get).isInstanceOf(CancellationException.class);
        long t0 = System.nanoTime();
        assertUsable(session); // waits for the goal to have stopped
        assertThat(Duration.ofNanos(System.nanoTime() - t0)).isLessThan(Duration.ofMillis(PATIENCE_MS));
        assertNoCpuSpentAfterwards();
    }

    @Test
    void cancelDuringAConsultKeepsWhatLoadedBefore() throws Exception {
        AtomicReference<ConsultResult> result = new AtomicReference<>();
        Thread t = new Thread(() -> result.set(session.consult("q(before).\n:- repeat, fail.\nq(after).\n")));
        t.start();
        Thread.sleep(300); // it is in the looping directive by then, q(before) loaded
        cancelWhenRunning(session);
        t.join(PATIENCE_MS);
        assertThat(t.isAlive()).isFalse();
        assertThat(result.get().errors()).anySatisfy(d -> assertThat(d.message()).startsWith("cancelled:"));
        assertThat(session.goal("q(before)").run().outcome()).isEqualTo(Outcome.SUCCESS);
        assertUsable(session);
    }

    @Test
    void cancelDuringAFetchEndsTheQuery() throws Exception {
        Query q = session.goal("( member(X, [a, b]) ; repeat, fail )").timeLimit(LONG).query();
        assertThat(q.fetch(1).answers()).extracting(a -> a.get("X")).containsExactly(Term.atom("a"));
        AtomicReference<GoalResult> fetched = new AtomicReference<>();
        Thread t = new Thread(() -> fetched.set(q.fetch(5)));
        t.start();
        Thread.sleep(300); // the fetch runs by then
        cancelWhenRunning(session);
        t.join(PATIENCE_MS);
        assertThat(t.isAlive()).isFalse();
        assertThat(fetched.get().outcome()).isEqualTo(Outcome.CANCELLED);
        assertThat(q.isOpen()).isFalse();
        GoalResult after = q.fetch(1);
        assertThat(after.outcome()).isEqualTo(Outcome.ERROR);
        assertThat(after.error().orElseThrow().kind()).isEqualTo("cursor_closed");
        assertNoCpuSpentAfterwards();
        assertUsable(session);
        try (Query again = session.query("p(X)")) {
            assertThat(again.next(1)).extracting(a -> a.get("X")).containsExactly(Term.atom("kept"));
        }
    }

    @Test
    void closeDuringAGoalStopsItAndReturns() throws Exception {
        PrologSession s = backend.open();
        CompletableFuture<GoalResult> f = s.goal("repeat, fail").timeLimit(LONG).runAsync();
        Thread.sleep(300);
        long t0 = System.nanoTime();
        s.close();
        assertThat(Duration.ofNanos(System.nanoTime() - t0)).isLessThan(Duration.ofMillis(PATIENCE_MS));
        assertThat(s.isOpen()).isFalse();
        GoalResult r = f.get(PATIENCE_MS, TimeUnit.MILLISECONDS);
        assertThat(r.outcome()).isEqualTo(Outcome.CANCELLED);
        assertNoCpuSpentAfterwards();
        assertUsable(session); // the other session was never touched
    }

    @Test
    void interruptingTheCallingThreadCancelsTheGoal() throws Exception {
        AtomicReference<GoalResult> result = new AtomicReference<>();
        AtomicBoolean stillInterrupted = new AtomicBoolean();
        Thread t = new Thread(() -> {
            result.set(session.goal("repeat, fail").timeLimit(LONG).run());
            stillInterrupted.set(Thread.currentThread().isInterrupted());
        });
        t.start();
        Thread.sleep(300);
        t.interrupt();
        t.join(PATIENCE_MS);
        assertThat(t.isAlive()).isFalse();
        assertThat(result.get().outcome()).isEqualTo(Outcome.CANCELLED);
        assertThat(result.get().error()).isEmpty();
        assertThat(stillInterrupted).isTrue();
        assertNoCpuSpentAfterwards();
        assertUsable(session);
    }

    @Test
    void aThreadInterruptedBeforeRunGetsCancelledWithNothingRun() {
        session.consult(":- dynamic ran/0.\n");
        Thread.currentThread().interrupt();
        try {
            GoalResult r = session.goal("assertz(ran)").run();
            assertThat(r.outcome()).isEqualTo(Outcome.CANCELLED);
            assertThat(Thread.currentThread().isInterrupted()).isTrue();
        } finally {
            Thread.interrupted();
        }
        assertThat(session.goal("ran").run().outcome()).isEqualTo(Outcome.FAILURE);
        assertUsable(session);
    }

    @Test
    void aCancelAsTheGoalStartsIsNotLost() throws Exception {
        for (int i = 0; i < 20; i++) {
            CompletableFuture<GoalResult> f = session.goal("repeat, fail").timeLimit(LONG).runAsync();
            cancelWhenRunning(session); // as soon as the call holds the session, before or as the goal starts
            GoalResult r = f.get(PATIENCE_MS, TimeUnit.MILLISECONDS);
            assertThat(r.outcome()).as("cancel number %d", i).isEqualTo(Outcome.CANCELLED);
        }
        assertUsable(session);
    }

    /**
     * A cancel that strikes while the session's own goal_expansion/2 hook runs (the goal's first step)
     * stops the call: the harness does not drop it where it expands the goal.
     */
    @Test
    void aCancelDuringTheSessionsGoalExpansionStopsTheCall() throws Exception {
        try (PrologSession careless = backend.open(SessionOptions.builder().sandboxed(false).build())) {
            assertThat(careless.consult("p(kept).\ngoal_expansion(spin, true) :- repeat, fail.\n").hasErrors())
                    .isFalse();
            CompletableFuture<GoalResult> f = careless.goal("spin").timeLimit(LONG).runAsync();
            cancelWhenRunning(careless);
            GoalResult r = f.get(PATIENCE_MS, TimeUnit.MILLISECONDS);
            assertThat(r.outcome()).isEqualTo(Outcome.CANCELLED);
            assertUsable(careless);
        }
    }

    @Test
    void aCancelRacingTheEndOfAGoalNeverReachesTheNext() throws Exception {
        for (int i = 0; i < 40; i++) {
            CompletableFuture<GoalResult> f = session.goal("between(1, 200, X), X >= 200").runAsync();
            if (i % 2 == 0) {
                Thread.sleep(i % 4); // sometimes before it starts, sometimes during, sometimes after
            }
            session.cancel();
            GoalResult r = f.get(PATIENCE_MS, TimeUnit.MILLISECONDS);
            assertThat(r.outcome()).isIn(Outcome.SUCCESS, Outcome.CANCELLED);
            // the next call is never cancelled
            GoalResult next = session.goal("between(1, 3000, X), X >= 3000").run();
            assertThat(next.outcome()).as("the call after cancel number %d", i).isEqualTo(Outcome.SUCCESS);
            List<Answer> a = next.answers();
            assertThat(a).hasSize(1);
        }
        // a cancel with nothing running, then calls: none is cancelled
        assertThat(session.cancel()).isFalse();
        for (int i = 0; i < 5; i++) {
            assertThat(session.goal("between(1, 3000, X), X >= 3000").run().outcome()).isEqualTo(Outcome.SUCCESS);
        }
        assertUsable(session);
    }

    @Test
    void theToolLayerCancelsACallByItsRequestId() throws Exception {
        try (PrologTools tools = PrologTools.over(backend)) {
            String loadId = tools.call("consult_text", "{\"source_text\": \"p(kept).\"}").replaceAll(
                    ".*\"load_id\":\"([^\"]+)\".*", "$1");
            assertThat(tools.cancel("r1")).isFalse(); // nothing runs under it yet
            AtomicReference<String> reply = new AtomicReference<>();
            Thread t = new Thread(() -> reply.set(tools.call("run_goal", "{\"load_id\": \"" + loadId
                    + "\", \"goal\": \"repeat, fail\", \"time_limit\": 60}", "r1")));
            t.start();
            long until = System.currentTimeMillis() + PATIENCE_MS;
            while (!tools.cancel("r1")) {
                assertThat(System.currentTimeMillis()).as("the call never started").isLessThan(until);
                Thread.sleep(5);
            }
            t.join(PATIENCE_MS);
            assertThat(t.isAlive()).isFalse();
            assertThat(reply.get()).contains("\"ok\":true").contains("\"outcome\":\"cancelled\"");
            assertThat(tools.cancel("r1")).isFalse(); // it has ended
            assertThat(tools.cancelSession(loadId)).isFalse(); // nothing runs on the session
            Thread u = new Thread(() -> reply.set(tools.call("run_goal", "{\"load_id\": \"" + loadId
                    + "\", \"goal\": \"repeat, fail\", \"time_limit\": 60}")));
            u.start();
            while (!tools.cancelSession(loadId)) {
                assertThat(System.currentTimeMillis()).as("the call never started").isLessThan(until + PATIENCE_MS);
                Thread.sleep(5);
            }
            u.join(PATIENCE_MS);
            assertThat(u.isAlive()).isFalse();
            assertThat(reply.get()).contains("\"outcome\":\"cancelled\"");
            assertThat(tools.call("run_goal", "{\"load_id\": \"" + loadId + "\", \"goal\": \"p(X)\"}", "r2"))
                    .contains("\"outcome\":\"success\"").contains("kept");
        }
    }
}

package io.prologtool.process;

import io.prologtool.GoalResult;
import io.prologtool.Outcome;
import io.prologtool.PrologSession;
import io.prologtool.SessionOptions;
import io.prologtool.Term;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Children on another host, for real: the ssh recipe of the docs ({@code commandPrefix(List.of("ssh", "-T",
 * ...))}) against a real OpenSSH server on this machine, logged in as a throwaway user with a key made for
 * the test ({@link SshServer}). Consult, goals, a time limit, a cancel, a Prolog that dies on the far side
 * and is restored, and no process left there after the close. Run with {@code make test-remote} (as
 * root; it installs openssh-server where missing); {@code make test} leaves it out (tag {@code remote}).
 */
@Tag("remote")
class RemoteSshTest {

    private static SshServer ssh;
    private static ProcessBackend backend;
    private static final SessionOptions CARELESS = SessionOptions.builder().sandboxed(false).build();

    @BeforeAll
    static void start() throws Exception {
        ssh = SshServer.start();
        backend = ProcessBackend.builder().commandPrefix(ssh.login()).build();
    }

    @AfterAll
    static void stop() throws Exception {
        if (backend != null) {
            backend.close();
        }
        if (ssh != null) {
            ssh.close();
        }
    }

    private static Term one(PrologSession s, String goal, String var) {
        GoalResult r = s.goal(goal).run();
        assertThat(r.succeeded()).as(goal + " gave " + r).isTrue();
        return r.answers().get(0).get(var);
    }

    @Test
    void consultAndGoalsRunOnTheFarSideAsItsUser() throws Exception {
        try (PrologSession s = backend.open(CARELESS)) {
            assertThat(s.consult("p(1).\np(2).\nwho(U) :- getenv('USER', U).\n").hasErrors()).isFalse();
            assertThat(s.goal("p(X)").run().answers()).extracting(a -> a.get("X"))
                    .containsExactly(Term.integer(1), Term.integer(2));
            assertThat(one(s, "who(U)", "U")).as("the child runs as the ssh user").isEqualTo(Term.atom(ssh.user()));
            assertThat(one(s, "X = 'h\u00e9llo \u2192 \ud83d\ude00', atom_length(X, N)", "N"))
                    .as("text beyond ASCII crosses the ssh pipe whole").isEqualTo(Term.integer(9));
            assertThat(ssh.processes()).anyMatch(p -> p.contains("swipl"));
        }
    }

    @Test
    void aTimeLimitAndACancelStopAGoalOnTheFarSide() throws Exception {
        try (PrologSession s = backend.open(CARELESS)) {
            s.consult("keep(1).\n");
            long t0 = System.nanoTime();
            GoalResult r = s.goal("repeat, fail").timeLimit(Duration.ofSeconds(1)).run();
            assertThat(r.outcome()).isEqualTo(Outcome.TIMEOUT);
            assertThat(Duration.ofNanos(System.nanoTime() - t0)).isLessThan(Duration.ofSeconds(10));

            java.util.concurrent.CompletableFuture<GoalResult> running = s.goal("repeat, fail").timeLimit(Duration.ofSeconds(60)).runAsync();
            Thread.sleep(300);
            assertThat(s.cancel()).isTrue();
            GoalResult cancelled = running.get(20, TimeUnit.SECONDS);
            assertThat(cancelled.outcome()).isEqualTo(Outcome.CANCELLED);
            assertThat(one(s, "keep(X)", "X")).as("the session goes on").isEqualTo(Term.integer(1));
            assertThat(s.crashCount()).as("stopped inside Prolog, nothing killed").isZero();
        }
    }

    @Test
    void aPrologThatDiesOnTheFarSideIsRestoredThroughANewLogin() throws Exception {
        try (PrologSession s = backend.open(CARELESS)) {
            s.consult("keep(1).\n");
            GoalResult killed = s.goal("shell('kill -9 $PPID')").run();
            assertThat(killed.error().orElseThrow().kind()).isEqualTo("session_crashed");
            assertThat(one(s, "keep(X)", "X")).isEqualTo(Term.integer(1));
            assertThat(s.restoreCount()).isEqualTo(1);

            ssh.signalSwipl("KILL"); // from outside, while the session waits
            GoalResult after = s.goal("keep(X)").run();
            if (!after.succeeded()) { // the call that found it dead says so once
                assertThat(after.error().orElseThrow().kind()).isEqualTo("session_crashed");
                after = s.goal("keep(X)").run();
            }
            assertThat(after.answers()).extracting(a -> a.get("X")).containsExactly(Term.integer(1));
            assertThat(s.restoreCount()).isEqualTo(2);
        }
    }

    /** The ssh prefix as an isolation of sandboxed sessions ({@code Isolation.custom}): the same login. */
    @Test
    void sandboxedSessionsRunOnTheFarSideThroughACustomIsolation() {
        try (ProcessBackend isolated = ProcessBackend.builder().isolation(Isolation.custom(ssh.login())).build();
             PrologSession s = isolated.open(SessionOptions.builder().sandboxed(true).build())) {
            assertThat(s.consult("p(1).\n").hasErrors()).isFalse();
            assertThat(one(s, "p(X)", "X")).isEqualTo(Term.integer(1));
            assertThat(s.goal("shell('true')").run().error()).as("the sandbox still refuses what it refuses")
                    .hasValueSatisfying(e -> assertThat(e.kind()).isEqualTo("sandbox_violation"));
        }
    }

    @Test
    void noProcessIsLeftOnTheFarSideAfterTheClose() throws Exception {
        PrologSession s = backend.open(CARELESS);
        s.consult("p.\n");
        assertThat(ssh.processes()).anyMatch(p -> p.contains("swipl"));
        s.close();
        long until = System.nanoTime() + TimeUnit.SECONDS.toNanos(15);
        List<String> left = ssh.processes();
        while (left.stream().anyMatch(p -> p.contains("swipl")) && System.nanoTime() < until) {
            Thread.sleep(100);
            left = ssh.processes();
        }
        assertThat(left).as("the user's processes after the close").noneMatch(p -> p.contains("swipl"));
    }
}

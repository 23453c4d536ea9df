package io.prologtool.conformance;

import io.prologtool.ConsultResult;
import io.prologtool.GoalResult;
import io.prologtool.Outcome;
import io.prologtool.PrologSession;
import io.prologtool.SessionOptions;
import io.prologtool.Term;
import org.junit.jupiter.api.Test;

import java.time.Duration;

import static org.assertj.core.api.Assertions.assertThat;

/** Every limit overrun is an outcome or a typed error, and the session answers the next call. */
public abstract class LimitsConformanceTest extends BackendFixture {

    private static void assertAnswers(PrologSession s) {
        assertThat(s.goal("X = ok").run().answers().get(0).get("X")).isEqualTo(Term.atom("ok"));
    }

    @Test
    void textsOverTheSourceCapAreRefusedWithAResourceError() {
        try (PrologSession s = backend.open(SessionOptions.builder().maxSourceChars(1000).build())) {
            String big = "p(1).\n".repeat(200);
            ConsultResult c = s.consult(big);
            assertThat(c.errors()).singleElement().satisfies(d -> {
                assertThat(d.kind()).isEqualTo("resource_error");
                assertThat(d.message()).contains("1200").contains("1000");
            });
            assertThat(s.goal("catch(p(X), _, fail)").run().outcome()).isEqualTo(Outcome.FAILURE);
            GoalResult g = s.goal("X = \"" + "a".repeat(2000) + "\"").run();
            assertThat(g.error().orElseThrow().kind()).isEqualTo("resource_error");
            assertThat(s.replacePredicate("p", 1, big).error().orElseThrow().kind()).isEqualTo("resource_error");
            assertThat(s.runTests(big).error().orElseThrow().kind()).isEqualTo("resource_error");
            assertAnswers(s);
        }
    }

    @Test
    void eachBoundIsAnOutcomeAndTheSessionGoesOn() {
        session.consult("nat(0).\nnat(N) :- nat(M), N is M + 1.\n");
        assertThat(session.goal("nat(X)").maxAnswers(5).run().truncated()).isTrue();
        assertSessionAfter(session.goal("repeat, fail").timeLimit(Duration.ofMillis(300)).run(), Outcome.TIMEOUT);
        assertSessionAfter(session.goal("nat(X), X > 1000000").maxDepth(1000).run(), Outcome.DEPTH_EXCEEDED);
        assertSessionAfter(session.goal("nat(X), X < 0").maxInferences(50_000).run(), Outcome.INFERENCE_LIMIT);
        GoalResult out = session.goal("forall(between(1, 100000, _), write(x))").run();
        assertThat(out.outputTruncated()).isTrue();
        assertAnswers(session);
    }

    /**
     * A term nested three million deep, with a cycle beside it, written under a 100 MiB stack limit: the
     * term and the copy the depth check makes of it fill the stacks, and the check's walk runs with room
     * of its own, so it ends with resource_error(term_depth) instead of overflowing there. An overflow in
     * that walk kept the child or the worker busy in C for 40-50 s past every limit, while SWI-Prolog
     * compared the walk's frames for its report of the overflow.
     */
    @Test
    void theDepthCheckOfATermThatFillsTheStacksEndsWithATypedError() {
        SessionOptions options = SessionOptions.builder().stackLimitBytes(100L << 20).build();
        try (PrologSession s = backend.open(options)) {
            assertThat(s.consult("nest(N, T) :- nest(N, [], T).\nnest(0, T, T) :- !.\n"
                    + "nest(N, A, T) :- N1 is N - 1, nest(N1, [A], T).\n").hasErrors()).isFalse();
            GoalResult r = s.goal("nest(3000000, D), T = [D|T], write_term(T, [max_depth(0)])")
                    .maxDepth(100_000_000).timeLimit(Duration.ofSeconds(20)).run();
            assertThat(r.error()).as("%s", r).hasValueSatisfying(e -> {
                assertThat(e.kind()).isEqualTo("resource_error");
                assertThat(e.message()).contains("term_depth");
            });
            assertAnswers(s);
        }
    }

    /**
     * An error whose culprit is as large as the stacks left to the goal: SWI-Prolog cannot copy it to
     * raise it, and aborts the goal instead (an abort goes on through every catch/3). It comes back as a
     * resource_error, and the session keeps what it held, on the JVM's engine and in the same child.
     */
    @Test
    void anErrorTooLargeForTheStacksIsAResourceErrorAndTheSessionKeepsItsState() {
        SessionOptions options = SessionOptions.builder().stackLimitBytes(32L << 20).build();
        try (PrologSession s = backend.open(options)) {
            assertThat(s.consult("deep(0, z) :- !.\ndeep(N, f(T)) :- N1 is N - 1, deep(N1, T).\n"
                    + ":- dynamic kept/1.\n").hasErrors()).isFalse();
            assertThat(s.goal("assertz(kept(1))").run().outcome()).isEqualTo(Outcome.SUCCESS);
            GoalResult r = s.goal("deep(1000000, D), X = f(X), T = g(D, X), split_string(T, \"x\", \"\", _)")
                    .maxDepth(100_000_000).timeLimit(Duration.ofSeconds(20)).run();
            assertThat(r.error()).as("%s", r).hasValueSatisfying(e -> {
                assertThat(e.kind()).isEqualTo("resource_error");
                assertThat(e.message()).contains("did not fit in the stacks");
            });
            assertThat(s.goal("kept(X)").run().answers()).as("the fact asserted before").hasSize(1);
            assertAnswers(s);
        }
    }

    /**
     * Goal expansion runs the session's own goal_expansion/2 hooks (careless code may define them), so it
     * is part of the search: a hook that never ends is stopped by the goal's time limit, for a goal and a
     * query, and the child or worker that ran it goes on serving the session.
     */
    @Test
    void theSessionsGoalExpansionHooksRunUnderTheGoalsTimeLimit() {
        try (PrologSession s = backend.open(SessionOptions.builder().sandboxed(false).build())) {
            assertThat(s.consult("goal_expansion(spin, true) :- repeat, fail.\n").hasErrors()).isFalse();
            long t0 = System.nanoTime();
            GoalResult r = s.goal("spin").timeLimit(Duration.ofMillis(500)).run();
            assertThat(r.outcome()).isEqualTo(Outcome.TIMEOUT);
            assertThat(Duration.ofNanos(System.nanoTime() - t0)).isLessThan(Duration.ofSeconds(5));
            GoalResult fetched = s.goal("spin").timeLimit(Duration.ofMillis(500)).query().fetch(1);
            assertThat(fetched.outcome()).isEqualTo(Outcome.TIMEOUT);
            assertAnswers(s);
            assertThat(s.crashCount()).isZero();
        }
    }

    private void assertSessionAfter(GoalResult r, Outcome expected) {
        assertThat(r.outcome()).isEqualTo(expected);
        assertAnswers(session);
    }
}

package io.prologtool.examples.formalizer;

import io.prologtool.Outcome;
import io.prologtool.PrologBackend;
import io.prologtool.SessionRegistry;
import io.prologtool.process.ProcessBackend;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.List;
import java.util.Optional;

import static org.assertj.core.api.Assertions.assertThat;

class FormalizerAgentTest {

    static PrologBackend backend;
    static SessionRegistry registry;

    @BeforeAll
    static void start() {
        backend = ProcessBackend.builder().poolSize(2).build();
        registry = SessionRegistry.builder(backend).build();
    }

    @AfterAll
    static void stop() {
        if (registry != null) {
            registry.close();
        }
        if (backend != null) {
            backend.close();
        }
    }

    static final Problem ANNE = new Problem("anne", "Anne is kind. All kind people are nice.", "Anne is nice.");

    /** A formalizer that plays its replies in turn and records what it was shown. */
    static final class Scripted implements Formalizer {
        final Deque<Formalization> replies;
        final List<List<Attempt>> seen = new ArrayList<>();

        Scripted(Formalization... replies) {
            this.replies = new ArrayDeque<>(List.of(replies));
        }

        @Override
        public Formalization formalize(Problem problem, List<Attempt> previous) {
            seen.add(previous);
            return replies.size() > 1 ? replies.poll() : replies.peek();
        }
    }

    static Formalization parsed(String program, String goal) {
        return new Formalization.Parsed(program, goal, "<prolog>" + program + "</prolog>", Optional.of(new Tokens(10, 5)));
    }

    @Test
    void answersTrueAndFalseInOneAttempt() {
        FormalizerAgent agent = FormalizerAgent.builder(registry).formalizer(TemplateFormalizer.paper()).build();
        Solution yes = agent.solve(ANNE);
        assertThat(yes.answer()).isEqualTo(Verdict.TRUE);
        assertThat(yes.attemptCount()).isEqualTo(1);
        assertThat(yes.outcome()).contains(Outcome.SUCCESS);
        assertThat(yes.program()).hasValueSatisfying(p -> assertThat(p).contains("nice(X) :- kind(X)."));
        assertThat(yes.tokens()).isEmpty();
        Solution no = agent.solve(new Problem("anne-2", ANNE.context(), "Anne is not nice."));
        assertThat(no.answer()).isEqualTo(Verdict.FALSE);
        assertThat(no.goal()).contains("\\+ nice(anne)");
    }

    @Test
    void aLoadErrorGoesBackWithItsDiagnosticsAndTheRepairIsUsed() {
        Scripted f = new Scripted(
                parsed("kind(anne).\nnice(X) :- kind(X.\n", "nice(anne)"),
                parsed("kind(anne).\nnice(X) :- kind(X).\n", "nice(anne)"));
        Solution s = FormalizerAgent.builder(registry).formalizer(f).build().solve(ANNE);
        assertThat(s.answer()).isEqualTo(Verdict.TRUE);
        assertThat(s.attemptCount()).isEqualTo(2);
        AttemptError e = s.attempts().get(0).error().orElseThrow();
        assertThat(e.stage()).isEqualTo(AttemptError.Stage.LOAD);
        assertThat(e.detail()).startsWith("{\"stage\":\"load\",\"messages\":[").contains("\"kind\":\"syntax_error\"")
                .contains("\"line\":2");
        assertThat(f.seen.get(1)).hasSize(1).first().satisfies(a -> assertThat(a.error()).contains(e));
        assertThat(e.feedback()).contains("did not load").contains(e.detail()).contains("<prolog>");
        assertThat(s.tokens()).contains(new Tokens(20, 10));
        assertThat(s.program()).contains("kind(anne).\nnice(X) :- kind(X).\n");
    }

    @Test
    void aGoalErrorGoesBackWithItsKindAndCandidates() {
        Scripted f = new Scripted(
                parsed("kind(anne).\nnice(X) :- kind(X).\n", "nic(anne)"),
                parsed("kind(anne).\nnice(X) :- kind(X).\n", "nice(anne)"));
        Solution s = FormalizerAgent.builder(registry).formalizer(f).build().solve(ANNE);
        assertThat(s.answer()).isEqualTo(Verdict.TRUE);
        AttemptError e = s.attempts().get(0).error().orElseThrow();
        assertThat(e.stage()).isEqualTo(AttemptError.Stage.GOAL);
        assertThat(e.detail()).contains("\"kind\":\"existence_error\"").contains("\"candidates\":[\"nice/1\"]")
                .contains("\"prolog_term\":");
        assertThat(s.attempts().get(0).outcome()).contains(Outcome.ERROR);
    }

    @Test
    void aFormatErrorGoesBackAndTheAgentGivesUpAfterMaxAttempts() {
        Scripted f = new Scripted(new Formalization.Malformed("format error: <prolog>...</prolog> is missing", "nope",
                Optional.empty()));
        Solution s = FormalizerAgent.builder(registry).formalizer(f).maxAttempts(3).build().solve(ANNE);
        assertThat(s.answer()).isEqualTo(Verdict.UNKNOWN);
        assertThat(s.attemptCount()).isEqualTo(3);
        assertThat(s.attempts()).allSatisfy(a -> assertThat(a.error()).hasValueSatisfying(
                e -> assertThat(e.stage()).isEqualTo(AttemptError.Stage.FORMAT)));
        assertThat(f.seen).extracting(List::size).containsExactly(0, 1, 2);
        assertThat(s.program()).isEmpty();
        assertThat(FormalizerAgent.builder(registry).formalizer(f).build().maxAttempts())
                .isEqualTo(FormalizerAgent.DEFAULT_MAX_ATTEMPTS).isEqualTo(5);
    }

    @Test
    void aBoundEndsTheSolveWithoutARetry() {
        Scripted f = new Scripted(parsed("loop(X) :- loop(X).\n", "loop(a)"));
        Solution s = FormalizerAgent.builder(registry).formalizer(f).maxInferences(50_000).build().solve(ANNE);
        assertThat(s.answer()).isEqualTo(Verdict.UNKNOWN);
        assertThat(s.hitBound()).isTrue();
        assertThat(s.outcome()).contains(Outcome.INFERENCE_LIMIT);
        assertThat(s.attemptCount()).isEqualTo(1);
        assertThat(s.attempts().get(0).failed()).isFalse();
    }

    @Test
    void solveAllAsksQuestionsOnOneContextInOneSession() {
        FormalizerAgent agent = FormalizerAgent.builder(registry).formalizer(TemplateFormalizer.paper()).build();
        List<Problem> ps = List.of(ANNE, new Problem("b", ANNE.context(), "Anne is not kind."),
                new Problem("c", ANNE.context(), "Anne is kind."), new Problem("d", "Bob is big.", "Bob is big."));
        long before = registry.stats().opened();
        List<Solution> all = agent.solveAll(ps);
        assertThat(registry.stats().opened() - before).isEqualTo(2);
        assertThat(all).extracting(Solution::answer)
                .containsExactly(Verdict.TRUE, Verdict.FALSE, Verdict.TRUE, Verdict.TRUE);
        assertThat(all).extracting(sol -> sol.problem().id()).containsExactly("anne", "b", "c", "d");
        assertThat(registry.size()).isZero();
    }

    @Test
    void solveAllFallsBackToRepairRoundsForAProblemWhoseSharedAttemptFailed() {
        Scripted f = new Scripted(
                parsed("kind(anne).\n", "nic(anne)"),
                parsed("kind(anne).\n", "kind(anne)"));
        List<Solution> all = FormalizerAgent.builder(registry).formalizer(f).build().solveAll(List.of(ANNE));
        assertThat(all.get(0).answer()).isEqualTo(Verdict.TRUE);
        assertThat(all.get(0).attemptCount()).isEqualTo(2);
        assertThat(all.get(0).tokens()).contains(new Tokens(20, 10));
    }
}

package io.prologtool.conformance;

import io.prologtool.Answer;
import io.prologtool.GoalResult;
import io.prologtool.Outcome;
import io.prologtool.PrologSession;
import io.prologtool.PrologToolException;
import io.prologtool.Query;
import io.prologtool.QueryStoppedException;
import io.prologtool.SessionOptions;
import io.prologtool.Term;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** Answers on demand: {@link Query}, a search kept open between fetches. */
public abstract class QueryConformanceTest extends BackendFixture {

    /** Counts the solutions it generates in c/1, so that a test sees whether a search was run again. */
    private static final String COUNTING = ":- dynamic c/1.\nc(0).\n"
            + "n(X) :- between(1, inf, X), retract(c(K)), K1 is K + 1, assertz(c(K1)).\n";

    private static Term count(PrologSession s) {
        return s.goal("c(K)").run().answers().get(0).get("K");
    }

    @Test
    void theNextAnswersContinueWhereTheSearchStoppedWithoutRecomputingIt() {
        session.consult(COUNTING);
        try (Query q = session.query("n(X)")) {
            assertThat(q.variables()).containsExactly("X");
            List<Answer> first = q.next(1_000);
            assertThat(first).hasSize(1_000);
            assertThat(first.get(999).get("X")).isEqualTo(Term.integer(1_000));
            // one answer of look-ahead: the 1,001st was found to know that more exist
            assertThat(count(session)).isEqualTo(Term.integer(1_001));
            GoalResult more = q.fetch(1);
            assertThat(more.outcome()).isEqualTo(Outcome.SUCCESS);
            assertThat(more.truncated()).as("more answers exist").isTrue();
            assertThat(more.answers().get(0).get("X")).isEqualTo(Term.integer(1_001));
            assertThat(count(session)).as("solutions generated in all").isEqualTo(Term.integer(1_002));
            assertThat(q.isOpen()).isTrue();
        }
    }

    @Test
    void thePageThatHoldsTheLastAnswerSaysNotTruncated() {
        session.consult("q(1). q(2). q(3). q(4). q(_) :- fail.\n");
        Query q = session.query("q(X)");
        GoalResult first = q.fetch(2);
        assertThat(first.answers()).hasSize(2);
        assertThat(first.truncated()).as("a third answer exists").isTrue();
        assertThat(q.isOpen()).isTrue();
        GoalResult second = q.fetch(2);
        assertThat(second.outcome()).isEqualTo(Outcome.SUCCESS);
        assertThat(second.answers()).extracting(a -> a.get("X")).containsExactly(Term.integer(3), Term.integer(4));
        assertThat(second.truncated()).as("the fourth answer is the last").isFalse();
        assertThat(q.isExhausted()).isTrue();
        assertThat(q.isOpen()).isFalse();
        Query exact = session.query("q(X)");
        assertThat(exact.fetch(4).truncated()).isFalse();
        assertThat(exact.isOpen()).isFalse();
    }

    @Test
    void aQueryIsIterableAndStreamableAndClosesWhenItsAnswersRunOut() {
        List<Term> xs = new ArrayList<>();
        Query q = session.query("member(X, [a, b, c])");
        for (Answer a : q) {
            xs.add(a.get("X"));
        }
        assertThat(xs).containsExactly(Term.atom("a"), Term.atom("b"), Term.atom("c"));
        assertThat(q.isExhausted()).isTrue();
        assertThat(q.isOpen()).isFalse();
        assertThat(q.next(5)).isEmpty();
        assertThat(q.fetch(1).error().orElseThrow().kind()).isEqualTo("cursor_closed");
        try (var s = session.query("between(1, inf, X)").stream()) {
            assertThat(s.limit(250).map(a -> a.get("X"))).hasSize(250).last().isEqualTo(Term.integer(250));
        }
        GoalResult exact = session.query("member(X, [1, 2])").fetch(2);
        assertThat(exact.answers()).hasSize(2);
    }

    @Test
    void theTimeLimitAppliesToEachFetchAndTheWaitBetweenFetchesDoesNotCount() throws Exception {
        try (Query q = session.goal("member(X, [1, 2, 3]), (X == 3 -> repeat, fail ; true)")
                .timeLimit(Duration.ofMillis(600)).query()) {
            assertThat(q.next(1)).extracting(a -> a.get("X")).containsExactly(Term.integer(1));
            Thread.sleep(900);
            // the look-ahead for a third answer runs out of time: the page keeps its answer, the next says so
            GoalResult second = q.fetch(1);
            assertThat(second.outcome()).isEqualTo(Outcome.SUCCESS);
            assertThat(second.answers()).extracting(a -> a.get("X")).containsExactly(Term.integer(2));
            assertThat(second.truncated()).isTrue();
            GoalResult r = q.fetch(1);
            assertThat(r.outcome()).isEqualTo(Outcome.TIMEOUT);
            assertThat(r.answers()).isEmpty();
            assertThat(q.isOpen()).isFalse();
        }
        assertThat(session.goal("X = 1").run().succeeded()).isTrue();
        Query stuck = session.goal("repeat, fail").timeLimit(Duration.ofMillis(300)).query();
        assertThatThrownBy(() -> stuck.next(1)).isInstanceOf(QueryStoppedException.class)
                .satisfies(e -> assertThat(((QueryStoppedException) e).result().outcome()).isEqualTo(Outcome.TIMEOUT));
    }

    @Test
    void eachFetchCapturesWhatItPrinted() {
        // what finding the look-ahead answer printed belongs to the fetch that looked ahead
        try (Query q = session.query("member(X, [a, b, c]), write(X)")) {
            assertThat(q.fetch(1).output()).isEqualTo("ab");
            assertThat(q.fetch(1).output()).isEqualTo("c");
        }
    }

    @Test
    void errorsAndBoundsEndTheQueryWithTheirOutcome() {
        GoalResult error = session.query("X is foo + 1").fetch(1);
        assertThat(error.outcome()).isEqualTo(Outcome.ERROR);
        assertThat(error.error().orElseThrow().kind()).isEqualTo("type_error");
        Query unreadable = session.query("foo(");
        assertThat(unreadable.fetch(1).error().orElseThrow().kind()).isEqualTo("syntax_error");
        assertThatThrownBy(() -> unreadable.next(1)).isInstanceOf(QueryStoppedException.class);
        session.consult("d(N) :- N > 0, N1 is N - 1, d(N1).\nd(0).\n");
        assertThat(session.goal("d(100000)").maxDepth(100).query().fetch(1).outcome())
                .isEqualTo(Outcome.DEPTH_EXCEEDED);
        assertThat(session.goal("repeat, fail").maxInferences(10_000).query().fetch(1).outcome())
                .isEqualTo(Outcome.INFERENCE_LIMIT);
    }

    @Test
    void aSessionHoldsABoundedNumberOfOpenQueriesAndClosingItClosesThem() {
        try (PrologSession s = backend.open(SessionOptions.builder().maxOpenQueries(2).build())) {
            Query a = s.query("between(1, inf, X)");
            Query b = s.query("between(1, inf, X)");
            assertThat(a.next(2)).hasSize(2);
            assertThatThrownBy(() -> s.query("true")).isInstanceOf(PrologToolException.class)
                    .hasMessageContaining("maxOpenQueries").hasMessageContaining("2");
            a.close();
            Query c = s.query("member(X, [x])");
            assertThat(c.next(5)).hasSize(1);                         // ran out: closed, its place free
            Query d = s.query("between(1, inf, X)");
            s.close();
            assertThat(b.isOpen()).isFalse();
            assertThat(d.isOpen()).isFalse();
            assertThat(b.fetch(1).error().orElseThrow().kind()).isEqualTo("cursor_closed");
        }
    }

    @Test
    void withoutSideEffectsTheQueryIsCheckedAndItsChangesAreDiscarded() {
        session.consult(":- dynamic seen/1.\n");
        try (Query q = session.goal("assertz(seen(1)), member(X, [1, 2])").allowSideEffects(false).query()) {
            assertThat(q.next(1)).hasSize(1);
        }
        assertThat(session.goal("seen(X)").run().outcome()).isEqualTo(Outcome.FAILURE);
        GoalResult refused = session.goal("shell('true')").allowSideEffects(false).query().fetch(1);
        assertThat(refused.error().orElseThrow().kind()).isEqualTo("sandbox_violation");
        try (PrologSession sandboxed = backend.open(SessionOptions.builder().sandboxed(true).build())) {
            assertThat(sandboxed.query("shell('true')").fetch(1).error().orElseThrow().kind())
                    .isEqualTo("sandbox_violation");
            assertThat(sandboxed.query("X #= 3 + 4").next(1).get(0).get("X")).isEqualTo(Term.integer(7));
        }
    }
}

package io.prologtool.conformance;

import io.prologtool.ConsultResult;
import io.prologtool.GoalResult;
import io.prologtool.Outcome;
import io.prologtool.PrologSession;
import io.prologtool.SessionClosedException;
import io.prologtool.SessionOptions;
import io.prologtool.Term;
import org.junit.jupiter.api.Test;

import java.util.LinkedHashMap;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** Session identity, isolation and lifecycle. */
public abstract class SessionConformanceTest extends BackendFixture {

    @Test
    void sessionHasAnIdAndItsOwnModule() {
        assertThat(session.id()).matches("[A-Za-z0-9_]+");
        assertThat(session.moduleName()).isEqualTo("m_" + session.id());
        assertThat(session.isOpen()).isTrue();
        assertThat(session.goal("context_module(M)").run().answers().get(0).get("M"))
                .isEqualTo(Term.atom(session.moduleName()));
    }

    @Test
    void twoSessionsDoNotSeeEachOthersPredicates() {
        try (PrologSession other = backend.open()) {
            assertThat(other.id()).isNotEqualTo(session.id());
            session.consult("secret(42).");
            other.consult("secret(7).");
            assertThat(session.goal("secret(X)").run().answers()).extracting(a -> a.get("X"))
                    .containsExactly(Term.integer(42));
            assertThat(other.goal("secret(X)").run().answers()).extracting(a -> a.get("X"))
                    .containsExactly(Term.integer(7));
            other.consult("only_other(1).");
            assertThat(session.goal("only_other(X)").run().outcome()).isEqualTo(Outcome.ERROR);
        }
    }

    @Test
    void builtinsAndLibrariesAreAvailable() {
        assertThat(session.goal("append(X, [c], [a, b, c])").run().answers().get(0).get("X"))
                .isEqualTo(Term.list(Term.atom("a"), Term.atom("b")));
        session.consult(":- use_module(library(clpfd)).\npuzzle(X) :- X in 1..10, X * X #= 49.\n");
        assertThat(session.goal("puzzle(X)").run().answers().get(0).get("X")).isEqualTo(Term.integer(7));
    }

    /** One goal per preloaded library, in the README's order, each using what that library exports. */
    static final Map<String, String> PRELOADED = new LinkedHashMap<>();

    static {
        PRELOADED.put("clpfd", "X #= 3 + 4, X == 7, Vs = [A, B], Vs ins 0..1, A #<==> B, A #= 1, label(Vs), B == 1, "
                + "transpose([[1, 2], [3, 4]], [[1, 3], [2, 4]]), sum([A, B], #=, 2), Y in 1..5, Y #> 4, Y == 5");
        PRELOADED.put("lists", "sum_list([1, 2], 3), last([a, b], b), max_member(3, [1, 3, 2])");
        PRELOADED.put("apply", "foldl([X, A0, A1]>>(A1 is A0 + X), [1, 2, 3], 0, 6), include(integer, [a, 1], [1])");
        PRELOADED.put("aggregate", "aggregate_all(count, member(_, [a, b]), 2), aggregate_all(max(X), member(X, [1, 5]), 5)");
        PRELOADED.put("pairs", "pairs_keys_values(Ps, [a, b], [1, 2]), Ps == [a-1, b-2]");
        PRELOADED.put("assoc", "list_to_assoc([a-1], As), get_assoc(a, As, 1)");
        PRELOADED.put("ordsets", "ord_union([a, c], [b], [a, b, c]), ord_subtract([a, b], [a], [b])");
        PRELOADED.put("solution_sequences", "findall(X, limit(2, member(X, [a, b, c])), [a, b]), "
                + "findall(X, distinct(X, member(X, [a, a, b])), [a, b])");
        PRELOADED.put("yall", "maplist([X, Y]>>(Y is X * 2), [1, 2], [2, 4])");
        PRELOADED.put("dicts", "dicts_to_same_keys([_{a: 1}, _{b: 2}], dict_fill(null), [D, _]), get_dict(b, D, null)");
        PRELOADED.put("option", "option(depth(D), [depth(3)], 1), D == 3, select_option(a(A), [a(1), b(2)], [b(2)]), A == 1");
        PRELOADED.put("error", "must_be(positive_integer, 3), is_of_type(list, [])");
    }

    @Test
    void thePreloadedLibrariesPredicatesAndOperatorsNeedNoDeclaration() {
        for (SessionOptions options : new SessionOptions[] {SessionOptions.defaults(),
                SessionOptions.builder().sandboxed(true).build()}) {
            try (PrologSession s = backend.open(options)) {
                ConsultResult c = s.consult("puzzle(X) :- X in 1..10, X * X #= 49.\n"
                        + "one_hot(Vs) :- Vs ins 0..1, sum(Vs, #=, 1), label(Vs).\n"
                        + "same(A, B) :- A #<==> B.\n");
                assertThat(c.messages()).as("sandboxed: %s", options.sandboxed()).isEmpty();
                assertThat(s.goal("puzzle(X)").run().answers().get(0).get("X")).isEqualTo(Term.integer(7));
                assertThat(s.goal("one_hot([A, B])").run().answers()).hasSize(2);
                for (Map.Entry<String, String> e : PRELOADED.entrySet()) {
                    GoalResult r = s.goal(e.getValue()).run();
                    assertThat(r.outcome()).as("library(%s), sandboxed: %s: %s", e.getKey(), options.sandboxed(), r)
                            .isEqualTo(Outcome.SUCCESS);
                }
            }
        }
    }

    @Test
    void aProgramThatImportsAPreloadedLibraryOrDefinesOneOfItsNamesLoadsWithoutWarnings() {
        ConsultResult imports = session.consult(":- use_module(library(clpfd)).\n:- use_module(library(lists)).\n"
                + "double(X, Y) :- Y #= 2 * X.\nsecond(X, L) :- nth1(2, L, X).\n");
        assertThat(imports.messages()).isEmpty();
        assertThat(session.goal("double(4, Y), second(S, [a, b])").run().answers().get(0).asMap())
                .containsEntry("Y", Term.integer(8)).containsEntry("S", Term.atom("b"));
        try (PrologSession own = backend.open()) {
            ConsultResult c = own.consult("transpose(rows, columns).\nsum_list(_, mine).\n");
            assertThat(c.messages()).isEmpty();
            assertThat(own.goal("transpose(A, B), sum_list([1], C)").run().answers().get(0).asMap())
                    .containsEntry("A", Term.atom("rows")).containsEntry("C", Term.atom("mine"));
        }
    }

    @Test
    void aForkHoldsTheSameProgramFactsOperatorsFlagsAndUnitsAndGoesItsOwnWay() {
        session.consult(":- set_prolog_flag(double_quotes, codes).\n:- op(700, xfx, ===>).\n"
                + ":- dynamic seen/1.\nseen(1).\nrule(a ===> b).\nsum(S) :- aggregate_all(sum(X), seen(X), S).\n");
        session.goal("assertz(seen(2))").run();
        session.runTests(":- begin_tests(sums).\ntest(two) :- sum(3).\n:- end_tests(sums).\n");
        try (PrologSession copy = session.fork()) {
            assertThat(copy.id()).isNotEqualTo(session.id());
            assertThat(copy.goal("sum(S)").run().answers().get(0).get("S")).isEqualTo(Term.integer(3));
            assertThat(copy.goal("rule(X), X = (_ ===> R)").run().answers().get(0).get("R")).isEqualTo(Term.atom("b"));
            assertThat(copy.goal("X = \"ab\"").run().answers().get(0).get("X"))
                    .isEqualTo(Term.list(Term.integer(97), Term.integer(98)));
            assertThat(copy.runTests().passed()).isEqualTo(1);
            // later changes to either are invisible to the other
            copy.goal("assertz(seen(10))").run();
            session.goal("retract(seen(1))").run();
            assertThat(copy.goal("sum(S)").run().answers().get(0).get("S")).isEqualTo(Term.integer(13));
            assertThat(session.goal("sum(S)").run().answers().get(0).get("S")).isEqualTo(Term.integer(2));
            copy.consult("only_in_copy.\n");
            assertThat(session.goal("only_in_copy").run().outcome()).isEqualTo(Outcome.ERROR);
        }
        assertThat(session.goal("sum(S)").run().succeeded()).isTrue();
        session.close();
        assertThatThrownBy(() -> session.fork()).isInstanceOf(SessionClosedException.class);
    }

    @Test
    void closedSessionRefusesCallsWithATypedException() {
        session.close();
        assertThat(session.isOpen()).isFalse();
        assertThatThrownBy(() -> session.consult("a.")).isInstanceOf(SessionClosedException.class);
        assertThatThrownBy(() -> session.goal("true").run()).isInstanceOf(SessionClosedException.class);
        session.close(); // idempotent
    }

    @Test
    void closingTheBackendClosesItsSessions() {
        var b = createBackend();
        PrologSession s = b.open();
        s.consult("a(1).");
        b.close();
        assertThat(s.isOpen()).isFalse();
        assertThatThrownBy(() -> b.open()).isInstanceOf(IllegalStateException.class);
    }
}

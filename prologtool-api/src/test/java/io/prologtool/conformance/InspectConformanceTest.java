package io.prologtool.conformance;

import io.prologtool.ConsultResult;
import io.prologtool.Diagnostic;
import io.prologtool.GoalResult;
import io.prologtool.Outcome;
import io.prologtool.PredicateInfo;
import io.prologtool.PredicateType;
import io.prologtool.PrologSession;
import io.prologtool.ReplaceResult;
import io.prologtool.Severity;
import io.prologtool.Term;
import org.junit.jupiter.api.Test;

import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** inspect, source, replacePredicate and messages: the inspect-and-repair half of the loop. */
public abstract class InspectConformanceTest extends BackendFixture {

    static final String FAMILY = """
            :- dynamic visits/2.
            parent(tom, bob).
            parent(bob, ann).
            parent(ann, joe).
            ancestor(X, Y) :- parent(X, Y).
            ancestor(X, Y) :- parent(X, Z), ancestor(Z, Y).
            visits(ann, tom).
            """;

    private List<Term> answers(PrologSession s, String goal, String var) {
        GoalResult r = s.goal(goal).maxAnswers(100).run();
        assertThat(r.outcome()).as("%s -> %s", goal, r).isIn(Outcome.SUCCESS, Outcome.FAILURE);
        return r.answers().stream().map(a -> a.get(var)).toList();
    }

    @Test
    void inspectShowsTheLiveDefinition() {
        session.consult(FAMILY);
        PredicateInfo p = session.inspect("ancestor", 2);
        assertThat(p.found()).isTrue();
        assertThat(p.type()).isEqualTo(PredicateType.STATIC);
        assertThat(p.clauseCount()).isEqualTo(2);
        assertThat(p.clauses()).containsExactly(
                "ancestor(A, B) :-\n    parent(A, B).",
                "ancestor(A, B) :-\n    parent(A, C),\n    ancestor(C, B).");
        assertThat(p.candidates()).isEmpty();
        assertThat(session.inspect("visits", 2).type()).isEqualTo(PredicateType.DYNAMIC);
    }

    @Test
    void inspectMissSuggestsSimilarPredicatesBestFirst() {
        session.consult(FAMILY + "ancestry(x).\n");
        PredicateInfo p = session.inspect("ancestr", 2);
        assertThat(p.found()).isFalse();
        assertThat(p.type()).isEqualTo(PredicateType.UNDEFINED);
        assertThat(p.clauses()).isEmpty();
        assertThat(p.candidates()).first().isEqualTo("ancestor/2");
        assertThat(p.candidates()).contains("ancestry/1");
        assertThat(session.inspect("parent", 3).candidates()).contains("parent/2");
    }

    @Test
    void inspectOfALibraryPredicateIsFoundWithoutClauses() {
        PredicateInfo p = session.inspect("member", 2);
        assertThat(p.found()).isTrue();
        assertThat(p.clauses()).isEmpty();
        assertThat(session.inspect("atom_length", 2).type()).isEqualTo(PredicateType.FOREIGN);
    }

    @Test
    void sourceConsultsBackToTheSameProgram() {
        session.consult(FAMILY + ":- op(700, xfx, ===>).\nrule(a ===> b).\ngreet --> [hello], name.\n"
                + "name --> [world].\n:- table fib/2.\nfib(0, 0).\nfib(1, 1).\n"
                + "fib(N, F) :- N > 1, A is N - 1, B is N - 2, fib(A, FA), fib(B, FB), F is FA + FB.\n");
        session.goal("assertz(visits(joe, bob))").run();
        String source = session.source();
        assertThat(source).contains(":- dynamic visits/2.").contains(":- table fib/2.").contains("visits(joe, bob).");
        try (PrologSession copy = backend.open()) {
            ConsultResult c = copy.consult(source);
            assertThat(c.messages()).isEmpty();
            assertThat(copy.source()).isEqualTo(source);
            assertThat(answers(copy, "ancestor(tom, X)", "X")).isEqualTo(answers(session, "ancestor(tom, X)", "X"));
            assertThat(answers(copy, "fib(20, X)", "X")).containsExactly(Term.integer(6765));
            assertThat(answers(copy, "phrase(greet, X)", "X"))
                    .containsExactly(Term.list(Term.atom("hello"), Term.atom("world")));
        }
    }

    @Test
    void sourceOfAnEmptySessionIsEmpty() {
        assertThat(session.source()).isEmpty();
    }

    @Test
    void replaceSwapsEveryClauseOfAStaticPredicate() {
        session.consult(FAMILY);
        ReplaceResult r = session.replacePredicate("parent", 2, "parent(tom, liz).\nparent(liz, sue).\n");
        assertThat(r.replaced()).isTrue();
        assertThat(r.predicate()).isEqualTo("parent/2");
        assertThat(r.error()).isEmpty();
        // ancestor/2 calls parent/2 and sees the new clauses
        assertThat(answers(session, "ancestor(tom, X)", "X")).containsExactly(Term.atom("liz"), Term.atom("sue"));
        assertThat(session.inspect("parent", 2).type()).isEqualTo(PredicateType.STATIC);
        assertThat(session.source()).contains("parent(liz, sue).").doesNotContain("parent(bob, ann)");
    }

    @Test
    void replaceOfADynamicPredicateStaysDynamic() {
        session.consult(FAMILY);
        assertThat(session.replacePredicate("visits", 2, "visits(bob, ann).").replaced()).isTrue();
        assertThat(session.inspect("visits", 2).type()).isEqualTo(PredicateType.DYNAMIC);
        assertThat(session.goal("assertz(visits(x, y))").run().outcome()).isEqualTo(Outcome.SUCCESS);
        assertThat(answers(session, "visits(A, X)", "X")).containsExactly(Term.atom("ann"), Term.atom("y"));
    }

    @Test
    void replacePatchMayDeclareItsTargetDynamic() {
        session.consult(FAMILY);
        ReplaceResult r = session.replacePredicate("parent", 2, ":- dynamic parent/2.\nparent(a, b).\n");
        assertThat(r.replaced()).isTrue();
        assertThat(session.inspect("parent", 2).type()).isEqualTo(PredicateType.DYNAMIC);
    }

    @Test
    void replaceWithASyntaxErrorChangesNothing() {
        session.consult(FAMILY);
        String before = session.source();
        ReplaceResult r = session.replacePredicate("ancestor", 2,
                "ancestor(X, Y) :- parent(X, Y).\nancestor(X, Y) :- parent(X, Z), ancestor(Z, Y.\n");
        assertThat(r.replaced()).isFalse();
        assertThat(r.error().orElseThrow().kind()).isEqualTo("syntax_error");
        assertThat(r.messages()).singleElement().satisfies(d -> {
            assertThat(d.kind()).isEqualTo("syntax_error");
            assertThat(d.line()).isEqualTo(2);
        });
        assertThat(session.source()).isEqualTo(before);
        assertThat(answers(session, "ancestor(tom, X)", "X")).hasSize(3);
    }

    @Test
    void replaceThatDefinesAnythingElseChangesNothing() {
        session.consult(FAMILY);
        String before = session.source();
        for (String patch : List.of("ancestor(X, Y) :- parent(X, Y).\nhelper(1).\n",
                "ancestor(X, Y) :- parent(X, Y).\n:- assertz(parent(x, y)).\n",
                "ancestor(X) :- parent(X, _).\n")) {
            ReplaceResult r = session.replacePredicate("ancestor", 2, patch);
            assertThat(r.replaced()).as(patch).isFalse();
            assertThat(r.error().orElseThrow().kind()).as(patch).isEqualTo("invalid_patch");
            assertThat(r.error().orElseThrow().message()).contains("ancestor/2");
        }
        assertThat(session.source()).isEqualTo(before);
        assertThat(answers(session, "parent(x, Y)", "Y")).isEmpty();
    }

    @Test
    void replaceOfABuiltinIsRefused() {
        ReplaceResult r = session.replacePredicate("atom_length", 2, "atom_length(_, 0).");
        assertThat(r.replaced()).isFalse();
        assertThat(r.error().orElseThrow().kind()).isEqualTo("permission_error");
        assertThat(answers(session, "atom_length(abc, X)", "X")).containsExactly(Term.integer(3));
    }

    @Test
    void replaceReportsThePatchDiagnosticsWithPatchLines() {
        session.consult(FAMILY);
        ReplaceResult r = session.replacePredicate("ancestor", 2,
                "ancestor(X, Y) :- parent(X, Y).\n\nancestor(X, Y) :- parent(X, Z), parent(Z, W).\n");
        assertThat(r.replaced()).isTrue();
        assertThat(r.messages()).singleElement().satisfies(d -> {
            assertThat(d.kind()).isEqualTo("singleton");
            assertThat(d.line()).isEqualTo(3);
        });
    }

    @Test
    void replaceCanDefineADcgNonterminal() {
        session.consult("greet --> [hello].\n");
        assertThat(session.replacePredicate("greet", 2, "greet --> [hi], [there].").replaced()).isTrue();
        assertThat(answers(session, "phrase(greet, X)", "X"))
                .containsExactly(Term.list(Term.atom("hi"), Term.atom("there")));
    }

    @Test
    void messagesAccumulateAcrossCallsAndFilterBySeverity() {
        session.consult("a(X) :- b.\n");
        session.consult("c :- (.\n");
        session.replacePredicate("a", 1, "a(1) :- .\n");
        List<Diagnostic> all = session.messages();
        // b/0 is defined nowhere: the static check's warning comes after the load's own messages
        assertThat(all).extracting(Diagnostic::kind)
                .containsExactly("singleton", "undefined_predicate", "syntax_error", "syntax_error");
        assertThat(session.messages(Severity.ERROR)).hasSize(2).allMatch(d -> d.severity() == Severity.ERROR);
        assertThat(session.messages(Severity.WARNING)).hasSize(4);
    }

    @Test
    void inspectAndReplaceValidateTheirArguments() {
        assertThatThrownBy(() -> session.inspect("p", -1)).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> session.replacePredicate(null, 1, "p(1).")).isInstanceOf(NullPointerException.class);
    }
}

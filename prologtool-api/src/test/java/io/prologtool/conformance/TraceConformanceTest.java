package io.prologtool.conformance;

import com.fasterxml.jackson.databind.JsonNode;
import io.prologtool.GoalResult;
import io.prologtool.Outcome;
import io.prologtool.PrologSession;
import io.prologtool.ProofTree;
import io.prologtool.TraceResult;
import io.prologtool.json.TermJson;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Tracing: proof trees from the harness's meta-interpreter. A traced goal must have the same first
 * answer as the untraced goal; the tree must show the clauses used (text and line), negations with
 * their failed attempts, the failed attempt of a failing goal, and the bounds.
 */
public abstract class TraceConformanceTest extends BackendFixture {

    private static final String FAMILY = """
            parent(a, b).
            parent(b, c).
            parent(c, d).
            ancestor(X, Y) :- parent(X, Y).
            ancestor(X, Y) :- parent(X, Z), ancestor(Z, Y).
            """;
    private static final String BASE_RULE = "ancestor(A, B) :- parent(A, B).";
    private static final String STEP_RULE = "ancestor(A, B) :- parent(A, C), ancestor(C, B).";

    private TraceResult trace(String goal) {
        TraceResult r = session.trace(goal).timeLimit(Duration.ofSeconds(10)).run();
        checkCount(r);
        return r;
    }

    private static void checkCount(TraceResult r) {
        assertThat(r.nodeCount()).as("node_count of %s", r)
                .isEqualTo(r.tree().map(ProofTree::nodeCount).orElse(0));
    }

    private static ProofTree tree(TraceResult r) {
        assertThat(r.tree()).as("tree of %s", r).isPresent();
        return r.tree().get();
    }

    private void assertSessionAnswers() {
        GoalResult r = session.goal("X = still_here").run();
        assertThat(r.outcome()).isEqualTo(Outcome.SUCCESS);
        assertThat(r.answers().get(0).get("X").toString()).isEqualTo("still_here");
    }

    /**
     * The query traced and untraced in session {@code s}: both succeed or both fail, and the root of
     * a successful trace is the query as its first answer instantiated it (checked by Prolog itself:
     * the root's goal text is a variant of the query after {@code once/1}).
     */
    private static TraceResult assertSameFirstAnswer(PrologSession s, String query) {
        GoalResult plain = s.goal(query).maxAnswers(1).timeLimit(Duration.ofSeconds(10)).run();
        TraceResult traced = s.trace(query).timeLimit(Duration.ofSeconds(10)).run();
        checkCount(traced);
        assertThat(plain.outcome()).as("untraced %s: %s", query, plain).isIn(Outcome.SUCCESS, Outcome.FAILURE);
        assertThat(traced.outcome()).as("traced %s:%n%s", query, traced).isEqualTo(plain.outcome());
        ProofTree root = tree(traced);
        if (plain.outcome() == Outcome.SUCCESS) {
            String check = "once((" + query + ")), (" + query + ") =@= (" + root.goal() + ")";
            assertThat(s.goal(check).run().outcome())
                    .as("first answer of %s vs the traced root %s", query, root.goal())
                    .isEqualTo(Outcome.SUCCESS);
        } else {
            assertThat(root.kind()).isEqualTo("failure");
        }
        return traced;
    }

    // ---------------------------------------------------------------- proof trees

    @Test
    void threeStepAncestorChain() {
        session.consult(FAMILY);
        TraceResult r = trace("ancestor(a, d)");
        assertThat(r.outcome()).isEqualTo(Outcome.SUCCESS);
        assertThat(r.truncated()).isFalse();
        assertThat(r.error()).isEmpty();
        assertThat(r.nodeCount()).isEqualTo(6);
        ProofTree root = tree(r);
        assertThat(root).isEqualTo(
                new ProofTree("ancestor(a, d)", STEP_RULE, 5, "clause", List.of(
                        ProofTree.leaf("parent(a, b)", "parent(a, b).", 1, "clause"),
                        new ProofTree("ancestor(b, d)", STEP_RULE, 5, "clause", List.of(
                                ProofTree.leaf("parent(b, c)", "parent(b, c).", 2, "clause"),
                                new ProofTree("ancestor(c, d)", BASE_RULE, 4, "clause", List.of(
                                        ProofTree.leaf("parent(c, d)", "parent(c, d).", 3, "clause"))))))));
        assertThat(root.depth()).isEqualTo(4);
        assertThat(root.toText()).startsWith("ancestor(a, d)  [clause, line 5] " + STEP_RULE + "\n"
                + "  parent(a, b)  [clause, line 1] parent(a, b).\n");
    }

    @Test
    void linesCountInTheirOwnConsult() {
        session.consult(FAMILY);
        session.consult("% a second text\n\ngrandparent(X, Z) :- parent(X, Y), parent(Y, Z), X \\== Z.\n");
        ProofTree root = tree(trace("grandparent(a, W)"));
        assertThat(root.goal()).isEqualTo("grandparent(a, c)");
        assertThat(root.line()).isEqualTo(3);
        assertThat(root.rule()).isEqualTo("grandparent(A, B) :- parent(A, C), parent(C, B), A\\==B.");
        assertThat(root.children()).extracting(ProofTree::kind).containsExactly("clause", "clause", "builtin");
        assertThat(root.children()).extracting(ProofTree::line).containsExactly(1, 2, 0);
    }

    @Test
    void queryVariablesAreShownBoundAndCompoundQueriesGetOneRoot() {
        session.consult(FAMILY);
        TraceResult r = trace("ancestor(a, W), W \\== b");
        ProofTree root = tree(r);
        assertThat(root.kind()).isEqualTo("query");
        assertThat(root.goal()).isEqualTo("ancestor(a, c), c\\==b");
        assertThat(root.children()).extracting(ProofTree::goal).containsExactly("ancestor(a, c)", "c\\==b");
        ProofTree free = tree(trace("length(L, 2)"));
        assertThat(free.goal()).isEqualTo("length([_G1, _G2], 2)");
        assertThat(free.kind()).isEqualTo("builtin");
    }

    @Test
    void negationNodeRecordsTheFailedAttempt() {
        session.consult("""
                bird(tweety).
                bird(pingu).
                penguin(pingu).
                flies(X) :- bird(X), \\+ penguin(X).
                """);
        ProofTree root = tree(trace("flies(tweety)"));
        assertThat(root.goal()).isEqualTo("flies(tweety)");
        assertThat(root.children()).hasSize(2);
        ProofTree neg = root.children().get(1);
        assertThat(neg.kind()).isEqualTo("negation");
        assertThat(neg.goal()).startsWith("\\+").contains("penguin(tweety)");
        assertThat(neg.children()).singleElement().satisfies(attempt -> {
            assertThat(attempt.goal()).isEqualTo("penguin(tweety)");
            assertThat(attempt.kind()).isEqualTo("failure");
        });

        // the negation fails for pingu: the failed tree shows the proof that made it fail
        TraceResult failed = trace("flies(pingu)");
        assertThat(failed.outcome()).isEqualTo(Outcome.FAILURE);
        ProofTree failedRoot = tree(failed);
        assertThat(failedRoot.kind()).isEqualTo("failure");
        ProofTree failedNeg = failedRoot.find(n -> n.goal().startsWith("\\+")).get(0);
        assertThat(failedNeg.kind()).isEqualTo("failure");
        assertThat(failedNeg.children()).singleElement().satisfies(proof -> {
            assertThat(proof.goal()).isEqualTo("penguin(pingu)");
            assertThat(proof.kind()).isEqualTo("clause");
            assertThat(proof.line()).isEqualTo(3);
        });
        assertSameFirstAnswer(session, "flies(X)");
    }

    @Test
    void cutInAClauseCutsTheOtherClauses() {
        session.consult("""
                max(X, Y, X) :- X >= Y, !.
                max(_, Y, Y).
                first_big(X) :- member(X, [1, 5, 7]), X > 2, !.
                only_first(X) :- member(X, [1, 2, 3]), X > 1, !, X > 2.
                only_first(none).
                """);
        assertThat(session.goal("max(3, 1, M)").run().answers()).hasSize(1);
        ProofTree max = tree(trace("max(3, 1, M)"));
        assertThat(max.goal()).isEqualTo("max(3, 1, 3)");
        assertThat(max.line()).isEqualTo(1);
        assertThat(max.children()).extracting(ProofTree::goal).containsExactly("3>=1", "!");
        ProofTree other = tree(trace("max(1, 3, M)"));
        assertThat(other.goal()).isEqualTo("max(1, 3, 3)");
        assertThat(other.rule()).isEqualTo("max(_, A, A).");
        assertThat(other.line()).isEqualTo(2);
        assertThat(tree(trace("first_big(X)")).goal()).isEqualTo("first_big(5)");
        // the cut commits to X = 2, so X > 2 fails and the second clause is never tried
        TraceResult committed = trace("only_first(X)");
        assertThat(session.goal("only_first(X)").run().outcome()).isEqualTo(Outcome.FAILURE);
        assertThat(committed.outcome()).isEqualTo(Outcome.FAILURE);
        assertThat(tree(committed).find(n -> n.goal().startsWith("only_first(none)"))).isEmpty();
        for (String q : List.of("max(3, 1, M)", "max(1, 3, M)", "max(2, 2, M)", "max(3, 1, 1)",
                "first_big(X)", "only_first(X)")) {
            assertSameFirstAnswer(session, q);
        }
    }

    @Test
    void controlConstructsGiveTheSameFirstAnswers() {
        session.consult("""
                a(1). a(2). a(3).
                b(X) :- a(X), X > 1, !.
                b(9).
                c(X) :- ( a(X), X >= 2 -> true ; X = 0 ).
                d(X) :- ( a(X) *-> X > 2 ; X = 0 ).
                e(X) :- ( a(X), ! ; X = 7 ).
                e(8).
                f(X) :- \\+ \\+ a(X), X = f.
                g(X) :- call((a(X), !)), X > 1.
                g(5).
                h(X) :- findall(Y, a(Y), L), last(L, X).
                i(X) :- catch(j(X), oops, X = caught).
                j(Y) :- a(Y), Y > 5.
                j(_) :- throw(oops).
                k(X) :- once(a(X)), ignore(fail).
                l(X) :- a(X), ( X >= 2, ! ; fail ).
                l(100).
                m(X) :- G = (a(X), X > 1, !), G.
                m(11).
                n(X) :- call(a, X), X \\== 1, !.
                o(X) :- forall(a(Y), Y > 0), aggregate_all(count, a(_), X).
                p(X, Y) :- a(X), !, a(Y), Y > X.
                q(X) :- ( a(X) -> fail ; true ).
                q(q).
                r(X) :- ( X = 1 ; X = 2 ), X > 1, !.
                s(X) :- not(a(4)), between(1, 3, X), X > 2.
                """);
        for (String q : List.of("b(X)", "c(X)", "d(X)", "e(X)", "f(X)", "g(X)", "h(X)", "i(X)", "k(X)",
                "l(X)", "m(X)", "n(X)", "o(X)", "p(X, Y)", "q(X)", "r(X)", "s(X)",
                "a(X), X > 1, !", "(a(X) ; X = 9), X > 2", "\\+ a(7)", "\\+ a(1)", "a(X) -> X > 1 ; true")) {
            assertSameFirstAnswer(session, q);
        }
    }

    @Test
    void failingGoalGivesTheTreeOfTheFailedAttempt() {
        session.consult(FAMILY);
        TraceResult r = trace("ancestor(a, z)");
        assertThat(r.outcome()).isEqualTo(Outcome.FAILURE);
        assertThat(r.error()).isEmpty();
        ProofTree root = tree(r);
        assertThat(root.goal()).isEqualTo("ancestor(a, z)");
        assertThat(root.kind()).isEqualTo("failure");
        // both clauses were tried, in order, and failed
        assertThat(root.children()).extracting(ProofTree::line).containsExactly(4, 5);
        assertThat(root.children()).extracting(ProofTree::kind).containsOnly("failure");
        assertThat(root.children().get(0).children()).singleElement()
                .satisfies(p -> assertThat(p.goal()).isEqualTo("parent(a, z)"));
        // the second clause walked the whole chain: parent(a, b), then ancestor(b, z), ...
        assertThat(root.find(n -> n.goal().equals("parent(c, d)") && n.kind().equals("clause"))).isNotEmpty();
        assertThat(root.nodeCount()).isGreaterThan(10);
        assertThat(r.truncated()).isFalse();
    }

    @Test
    void failingBuiltinIsAFailureLeaf() {
        TraceResult r = trace("X = 1, X > 2");
        assertThat(r.outcome()).isEqualTo(Outcome.FAILURE);
        ProofTree root = tree(r);
        assertThat(root.kind()).isEqualTo("failure");
        assertThat(root.children()).extracting(ProofTree::kind).containsExactly("builtin", "failure");
        assertThat(root.children().get(1).goal()).isEqualTo("1>2");
    }

    // ---------------------------------------------------------------- bounds

    @Test
    void maxNodesTruncates() {
        session.consult(FAMILY);
        TraceResult r = session.trace("ancestor(a, d)").maxNodes(3).run();
        checkCount(r);
        assertThat(r.outcome()).isEqualTo(Outcome.SUCCESS);
        assertThat(r.truncated()).isTrue();
        assertThat(r.nodeCount()).isEqualTo(3);
        assertThat(tree(r).goal()).isEqualTo("ancestor(a, d)");
        TraceResult one = session.trace("ancestor(a, d)").maxNodes(1).run();
        assertThat(one.nodeCount()).isEqualTo(1);
        assertThat(one.truncated()).isTrue();
        TraceResult enough = session.trace("ancestor(a, d)").maxNodes(6).run();
        assertThat(enough.truncated()).isFalse();
        assertThat(enough.nodeCount()).isEqualTo(6);
    }

    @Test
    void maxNodesAlsoBoundsTheTreeOfAFailure() {
        session.consult(FAMILY);
        TraceResult r = session.trace("ancestor(a, z)").maxNodes(5).run();
        checkCount(r);
        assertThat(r.outcome()).isEqualTo(Outcome.FAILURE);
        assertThat(r.truncated()).isTrue();
        assertThat(r.nodeCount()).isLessThanOrEqualTo(5);
    }

    @Test
    void maxDepthTruncatesButStillSolves() {
        session.consult(FAMILY);
        TraceResult r = session.trace("ancestor(a, d)").maxDepth(2).run();
        checkCount(r);
        assertThat(r.outcome()).isEqualTo(Outcome.SUCCESS);
        assertThat(r.truncated()).isTrue();
        ProofTree root = tree(r);
        assertThat(root.depth()).isEqualTo(2);
        ProofTree cut = root.children().get(1);
        assertThat(cut.goal()).isEqualTo("ancestor(b, d)");
        assertThat(cut.kind()).isEqualTo("truncated");
        assertThat(cut.rule()).isEqualTo(STEP_RULE);
        assertThat(cut.children()).isEmpty();
        // a fact at the bound is not a cut
        assertThat(root.children().get(0).kind()).isEqualTo("clause");

        TraceResult deep = session.trace("ancestor(a, d)").maxDepth(1).run();
        assertThat(tree(deep).kind()).isEqualTo("truncated");
        assertThat(deep.nodeCount()).isEqualTo(1);
        assertThat(session.trace("ancestor(a, d)").maxDepth(4).run().truncated()).isFalse();
    }

    @Test
    void deepRecursionBelowTheBoundRunsUntraced() {
        session.consult("count(N, N) :- !.\ncount(I, N) :- I1 is I + 1, count(I1, N).\n");
        TraceResult r = trace("count(0, 100000)");
        assertThat(r.outcome()).isEqualTo(Outcome.SUCCESS);
        assertThat(r.truncated()).isTrue();
        assertThat(tree(r).depth()).isLessThanOrEqualTo(10);
    }

    @Test
    void infiniteLoopTimesOutAndTheSessionGoesOn() {
        session.consult("loop(N) :- N1 is N + 1, loop(N1).\n");
        TraceResult r = session.trace("loop(0)").timeLimit(Duration.ofMillis(300)).run();
        assertThat(r.outcome()).isEqualTo(Outcome.TIMEOUT);
        assertThat(r.error()).isEmpty();
        // the harness stopped it (the backend did not have to kill its Prolog), so the tree of the
        // search so far came back
        checkCount(r);
        ProofTree root = tree(r);
        assertThat(root.goal()).isEqualTo("loop(0)");
        assertThat(root.kind()).isEqualTo("timeout");
        assertSessionAnswers();
    }

    @Test
    void aDepthLimitLeftOnThePrologThreadDoesNotReachTheNextRequest() {
        // The directive leaves a depth limit of 50 on the thread that loads it, as a time limit striking
        // inside call_with_depth_limit/3 can. A trace runs outside call_with_depth_limit/3: if it
        // inherited the limit, count(1000) would simply fail.
        session.consult("count(0) :- !.\ncount(N) :- N1 is N - 1, count(N1), true.\n:- '$depth_limit'(50, _, _).\n");
        TraceResult r = session.trace("count(1000)").maxDepth(5).run();
        assertThat(r.outcome()).isEqualTo(Outcome.SUCCESS);
        assertSessionAnswers();
    }

    // ---------------------------------------------------------------- errors

    @Test
    void syntaxErrorIsAnErrorWithoutTree() {
        TraceResult r = trace("foo(");
        assertThat(r.outcome()).isEqualTo(Outcome.ERROR);
        assertThat(r.error()).hasValueSatisfying(e -> assertThat(e.kind()).isEqualTo("syntax_error"));
        assertThat(r.tree()).isEmpty();
        assertThat(r.nodeCount()).isZero();
        assertThat(trace("X = 1. Y = 2").error())
                .hasValueSatisfying(e -> assertThat(e.kind()).isEqualTo("syntax_error"));
        assertSessionAnswers();
    }

    @Test
    void errorInTheProofComesWithTheTreeUpToIt() {
        session.consult("parent(a, b).\nage(X, A) :- parent(X, Y), A is Y + 1.\nask :- unknown_thing(1).\n");
        TraceResult r = trace("age(a, A)");
        assertThat(r.outcome()).isEqualTo(Outcome.ERROR);
        assertThat(r.error()).hasValueSatisfying(e -> assertThat(e.kind()).isEqualTo("type_error"));
        ProofTree root = tree(r);
        assertThat(root.goal()).isEqualTo("age(a, A)");
        assertThat(root.kind()).isEqualTo("error");
        assertThat(root.children()).extracting(ProofTree::kind).containsExactly("clause", "error");
        assertThat(root.children().get(1).goal()).isEqualTo("A is b+1");

        TraceResult unknown = trace("ask");
        assertThat(unknown.error()).hasValueSatisfying(e -> {
            assertThat(e.kind()).isEqualTo("existence_error");
            assertThat(e.message()).contains("unknown_thing/1");
        });
        assertThat(trace("catch(age(a, _), error(E, _), true)").outcome()).isEqualTo(Outcome.SUCCESS);
    }

    @Test
    void outputOfTracedGoalsIsCaptured() {
        session.consult("hello(X) :- format(\"hello ~w~n\", [X]), write(user_error, oops), nl(user_error).\n");
        TraceResult r = trace("hello(world)");
        assertThat(r.outcome()).isEqualTo(Outcome.SUCCESS);
        assertThat(tree(r).children()).hasSize(3);
        assertSessionAnswers();
    }

    @Test
    void haltIsRefused() {
        TraceResult r = trace("halt");
        assertThat(r.outcome()).isEqualTo(Outcome.ERROR);
        assertThat(r.error()).hasValueSatisfying(e -> assertThat(e.kind()).isEqualTo("permission_error"));
        assertSessionAnswers();
    }

    // ---------------------------------------------------------------- libraries

    @Test
    void clpfdGoalsRunAsLeaves() {
        session.consult("""
                :- use_module(library(clpfd)).
                puzzle([X, Y]) :- [X, Y] ins 0..10, X + Y #= 10, X - Y #= 4, label([X, Y]).
                """);
        TraceResult r = trace("puzzle(L)");
        assertThat(r.outcome()).isEqualTo(Outcome.SUCCESS);
        ProofTree root = tree(r);
        assertThat(root.goal()).isEqualTo("puzzle([7, 3])");
        assertThat(root.line()).isEqualTo(2);
        assertThat(root.children()).extracting(ProofTree::kind).containsOnly("builtin");
        assertThat(root.children()).extracting(ProofTree::goal)
                .contains("7+3#=10", "7-3#=4", "label([7, 3])");
        assertThat(root.rule()).contains("#=").doesNotContain("clpfd_equal");
        assertSameFirstAnswer(session, "puzzle(L)");
    }

    @Test
    void libraryPredicatesAreLeaves() {
        session.consult("total(T) :- findall(N, member(N, [1, 2, 3]), L), sum_list(L, T).\n");
        ProofTree root = tree(trace("total(T)"));
        assertThat(root.goal()).isEqualTo("total(6)");
        assertThat(root.children()).extracting(ProofTree::goal)
                .containsExactly("findall(_G1, member(_G1, [1, 2, 3]), [1, 2, 3])", "sum_list([1, 2, 3], 6)");
        assertThat(root.children()).extracting(ProofTree::kind).containsOnly("builtin");
    }

    /**
     * Every prolog-reasoner problem, each in a fresh session: traced and untraced agree. Problems run
     * on a few threads at once, as opening a session is the slow part.
     */
    @Test
    void everyReasonerProblemTracesToTheSameAnswer() throws Exception {
        JsonNode problems = TermJson.mapper().readTree(
                TestData.text("prolog-reasoner/problems.json")).path("problems");
        assertThat(problems.size()).isGreaterThanOrEqualTo(30);
        ExecutorService pool = Executors.newFixedThreadPool(4);
        try {
            List<Future<String>> checks = new ArrayList<>();
            for (JsonNode p : problems) {
                checks.add(pool.submit(() -> checkProblem(p)));
            }
            List<String> checked = new ArrayList<>();
            for (Future<String> f : checks) {
                try {
                    checked.add(f.get(60, TimeUnit.SECONDS));
                } catch (ExecutionException e) {
                    if (e.getCause() instanceof AssertionError a) {
                        throw a;
                    }
                    throw e;
                }
            }
            assertThat(checked).hasSize(problems.size()).doesNotHaveDuplicates();
        } finally {
            pool.shutdownNow();
        }
    }

    private String checkProblem(JsonNode p) {
        String id = p.path("id").asText();
        try (PrologSession s = backend.open()) {
            assertThat(s.consult(p.path("prolog_code").asText()).hasErrors()).as(id).isFalse();
            TraceResult r = assertSameFirstAnswer(s, p.path("query").asText());
            if (p.path("answer_type").asText().equals("boolean")) {
                assertThat(r.succeeded()).as(id).isEqualTo(p.path("expected_answer").asBoolean());
            }
        }
        return id;
    }
}

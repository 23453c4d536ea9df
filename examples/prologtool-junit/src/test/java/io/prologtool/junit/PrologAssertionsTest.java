package io.prologtool.junit;

import io.prologtool.ConsultResult;
import io.prologtool.GoalResult;
import io.prologtool.PrologBackend;
import io.prologtool.PrologSession;
import io.prologtool.Term;
import io.prologtool.process.ProcessBackend;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.DynamicNode;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestFactory;
import org.opentest4j.AssertionFailedError;

import java.util.stream.Stream;

import static io.prologtool.junit.PrologAssertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class PrologAssertionsTest {

    static PrologBackend backend;
    static PrologSession session;

    @BeforeAll
    static void start() {
        backend = ProcessBackend.builder().poolSize(1).build();
        session = backend.open();
        assertThat(session.consult("""
                parent(tom, bob).
                parent(tom, liz).
                age(bob, 42).
                name(bob, "Bob").
                point(p(1, 2)).
                """)).hasNoErrors().hasNoWarnings();
    }

    @AfterAll
    static void stop() {
        if (session != null) {
            session.close();
        }
        if (backend != null) {
            backend.close();
        }
    }

    /** The fixture and the assertions together: the family's plunit tests, then a goal checked fluently. */
    @TestFactory
    Stream<DynamicNode> familyRulesOnThisBackend() {
        return PlunitTests.resource("prolog/family.pl").backend(backend).dynamicTests();
    }

    @Test
    void passingChainsReadLikeTheirSentence() {
        GoalResult r = session.goal("parent(tom, X)").run();
        assertThat(r).succeeded().hasAnswers(2).binding("X").isAtom("bob");
        assertThat(r).hasBindings("X", "bob", "liz").binding(1, "X").isAtom("liz");
        assertThat(session.goal("age(bob, A)").run()).binding("A").isInteger(42);
        assertThat(session.goal("name(bob, N)").run()).binding("N").isString("Bob");
        assertThat(session.goal("point(P)").run()).binding("P").isCompound("p", 2).hasText("p(1,2)");
        assertThat(session.goal("parent(ann, _)").run()).failed().hasNoAnswers();
        assertThat(session.goal("between(1, 5, X)").maxAnswers(2).run()).isTruncated();
        assertThat(session.goal("parnt(tom, X)").run()).raised("existence_error");
        assertThat(session.goal("format(\"hi~n\")").run()).outputContains("hi");
        assertThat(session.goal("length(L, 2)").run()).binding("L").isCompound("[|]", 2);
        assertThat(Term.atom("x")).isAtom("x");
    }

    @Test
    void failuresShowActualAgainstExpected() {
        GoalResult r = session.goal("parent(tom, X)").run();
        assertThatThrownBy(() -> assertThat(r).hasAnswers(3))
                .isInstanceOfSatisfying(AssertionFailedError.class, e -> {
                    org.assertj.core.api.Assertions.assertThat(e.getExpected().getValue()).isEqualTo(3);
                    org.assertj.core.api.Assertions.assertThat(e.getActual().getValue()).isEqualTo(2);
                })
                .hasMessageContaining("Expecting the goal to have 3 answers but it has 2: [X = bob, X = liz]");
        assertThatThrownBy(() -> assertThat(r).binding("X").isAtom("liz"))
                .hasMessageContaining("X in answer #0 of the goal")
                .hasMessageContaining("Expecting the atom liz but was the atom bob");
        assertThatThrownBy(() -> assertThat(session.goal("name(bob, N)").run()).binding("N").isAtom("Bob"))
                .hasMessageContaining("Expecting the atom 'Bob' but was the string \"Bob\"");
        assertThatThrownBy(() -> assertThat(r).failed())
                .hasMessageContaining("Expecting the goal to end with FAILURE but it ended with SUCCESS, answers [X = bob, X = liz]");
        assertThatThrownBy(() -> assertThat(session.goal("atom_length(X, Y)").run()).succeeded())
                .hasMessageContaining("ended with ERROR: instantiation_error");
        assertThatThrownBy(() -> assertThat(r).raised("type_error"))
                .hasMessageContaining("Expecting the goal to raise type_error but it raised nothing (SUCCESS");
        assertThatThrownBy(() -> assertThat(r).binding("Y"))
                .hasMessageContaining("Expecting the goal's answers to bind Y but their variables are [X]");
        assertThatThrownBy(() -> assertThat(session.goal("fail").run()).binding("X"))
                .hasMessageContaining("the goal has 0 answers (FAILURE)");
        assertThatThrownBy(() -> assertThat(r).hasBindings("X", "liz", "bob"))
                .hasMessageContaining("Expecting X over the answers to be [liz, bob] but it was [bob, liz]");
    }

    @Test
    void consultAssertionsListTheDiagnostics() {
        try (PrologSession s = backend.open()) {
            ConsultResult c = s.consult("p(1).\nq(X) :- r.\nbad :- foo(.\n");
            assertThat(c).hasDiagnostic("singleton", 2).hasDiagnostic("syntax_error", 3);
            assertThatThrownBy(() -> assertThat(c).hasNoErrors())
                    .isInstanceOf(AssertionFailedError.class)
                    .hasMessageContaining("Expecting the text to load without errors but it reported:")
                    .hasMessageContaining("error syntax_error at line 3");
            assertThatThrownBy(() -> assertThat(c).hasDiagnostic("syntax_error", 1))
                    .hasMessageContaining("Expecting a syntax_error diagnostic at line 1 but the diagnostics were:")
                    .hasMessageContaining("warning singleton at line 2");
            assertThatThrownBy(() -> assertThat(s.consult("q(X) :- r.\n")).hasNoWarnings())
                    .hasMessageContaining("without errors or warnings");
        }
    }

    @Test
    void testReportAssertionsNameTheFailures() {
        try (PrologSession s = backend.open()) {
            s.consult("p(1).");
            assertThat(s.runTests(":- begin_tests(p).\ntest(one) :- p(1).\n:- end_tests(p).\n")).allPassed().hasPassed(1);
            assertThatThrownBy(() -> assertThat(s.runTests(":- begin_tests(q).\ntest(two) :- p(2).\n:- end_tests(q).\n"))
                    .allPassed())
                    .hasMessageContaining("Expecting every plunit test to pass but 1 of 2 failed:")
                    .hasMessageContaining("q:two failed (line 2)");
        }
    }
}

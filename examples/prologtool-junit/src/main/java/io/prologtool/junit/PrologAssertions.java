package io.prologtool.junit;

import io.prologtool.ConsultResult;
import io.prologtool.GoalResult;
import io.prologtool.Term;
import io.prologtool.TestReport;

/**
 * AssertJ entry points for prologtool's results, with messages that show actual against expected:
 *
 * <pre>{@code
 * import static io.prologtool.junit.PrologAssertions.assertThat;
 *
 * assertThat(session.consult(program)).hasNoErrors();
 * assertThat(session.goal("parent(tom, X)").run())
 *         .succeeded().hasAnswers(2).binding("X").isAtom("bob");
 * assertThat(session.runTests()).allPassed();
 * }</pre>
 *
 * A failure reads like {@code Expecting the goal to have 3 answers but it has 2: [X = bob, X = liz]},
 * and carries actual and expected values for an IDE's diff view.
 */
public final class PrologAssertions {

    private PrologAssertions() {
    }

    /** Assertions on a goal's result. */
    public static GoalResultAssert assertThat(GoalResult actual) {
        return new GoalResultAssert(actual);
    }

    /** Assertions on what loading a text reported. */
    public static ConsultResultAssert assertThat(ConsultResult actual) {
        return new ConsultResultAssert(actual);
    }

    /** Assertions on a term (an answer's binding). */
    public static TermAssert assertThat(Term actual) {
        return new TermAssert(actual);
    }

    /** Assertions on a plunit run. */
    public static TestReportAssert assertThat(TestReport actual) {
        return new TestReportAssert(actual);
    }
}

package io.prologtool.junit;

import io.prologtool.Answer;
import io.prologtool.GoalResult;
import io.prologtool.Outcome;
import io.prologtool.PrologError;
import io.prologtool.Term;
import org.assertj.core.api.AbstractAssert;

import java.util.Arrays;
import java.util.List;

/**
 * Assertions on a {@link GoalResult}; from {@link PrologAssertions#assertThat(GoalResult)}.
 *
 * <pre>{@code
 * assertThat(s.goal("parent(tom, X)").run()).succeeded().hasAnswers(2).binding("X").isAtom("bob");
 * assertThat(s.goal("ancestr(tom, X)").run()).raised("existence_error");
 * }</pre>
 */
public final class GoalResultAssert extends AbstractAssert<GoalResultAssert, GoalResult> {

    GoalResultAssert(GoalResult actual) {
        super(actual, GoalResultAssert.class);
    }

    /** The outcome is SUCCESS (at least one answer). */
    public GoalResultAssert succeeded() {
        return hasOutcome(Outcome.SUCCESS);
    }

    /** The outcome is FAILURE (no answer, no error, no bound hit). */
    public GoalResultAssert failed() {
        return hasOutcome(Outcome.FAILURE);
    }

    /** The outcome is {@code expected}. */
    public GoalResultAssert hasOutcome(Outcome expected) {
        isNotNull();
        if (actual.outcome() != expected) {
            failWithActualExpectedAndMessage(actual.outcome(), expected,
                    "Expecting the goal to end with %s but it ended with %s%s", expected, actual.outcome(), detail());
        }
        return this;
    }

    /** The goal raised an error of {@code kind} ({@code existence_error}, {@code type_error}, ...). */
    public GoalResultAssert raised(String kind) {
        isNotNull();
        String got = actual.error().map(PrologError::kind).orElse(null);
        if (!kind.equals(got)) {
            failWithActualExpectedAndMessage(got == null ? actual.outcome() : got, kind,
                    "Expecting the goal to raise %s but %s", kind,
                    got == null ? "it raised nothing (" + actual.outcome() + detail() + ")" : "it raised " + actual.error().get());
        }
        return this;
    }

    /** Exactly {@code expected} answers came back. */
    public GoalResultAssert hasAnswers(int expected) {
        isNotNull();
        int n = actual.answers().size();
        if (n != expected) {
            failWithActualExpectedAndMessage(n, expected, "Expecting the goal to have %d answer%s but it has %d: %s%s",
                    expected, expected == 1 ? "" : "s", n, actual.answers(), actual.truncated() ? " (and more)" : "");
        }
        return this;
    }

    /** No answers came back (failure, or an error or bound before the first). */
    public GoalResultAssert hasNoAnswers() {
        return hasAnswers(0);
    }

    /** More answers existed than {@code maxAnswers} let through. */
    public GoalResultAssert isTruncated() {
        isNotNull();
        if (!actual.truncated()) {
            failWithMessage("Expecting the goal's answers to be truncated (more than maxAnswers) but they were all: %s",
                    actual.answers());
        }
        return this;
    }

    /**
     * The values of {@code variable} over the answers, in order, as Prolog text, are exactly
     * {@code expected}, e.g. {@code hasBindings("X", "bob", "liz")}.
     */
    public GoalResultAssert hasBindings(String variable, String... expected) {
        isNotNull();
        List<String> got = actual.answers().stream().map(a -> value(a, variable).toString()).toList();
        List<String> want = Arrays.asList(expected);
        if (!got.equals(want)) {
            failWithActualExpectedAndMessage(got, want, "Expecting %s over the answers to be %s but it was %s",
                    variable, want, got);
        }
        return this;
    }

    /** What the goal printed contains {@code text}. */
    public GoalResultAssert outputContains(String text) {
        isNotNull();
        if (!actual.output().contains(text)) {
            failWithActualExpectedAndMessage(actual.output(), text, "Expecting the goal's output to contain %s but it was %s",
                    quote(text), quote(actual.output()));
        }
        return this;
    }

    /** Assertions on {@code variable}'s value in the first answer. */
    public TermAssert binding(String variable) {
        return binding(0, variable);
    }

    /** Assertions on {@code variable}'s value in answer {@code index} (0 for the first). */
    public TermAssert binding(int index, String variable) {
        isNotNull();
        if (index < 0 || index >= actual.answers().size()) {
            failWithMessage("Expecting an answer #%d to read %s from but the goal has %d answer%s (%s%s)", index, variable,
                    actual.answers().size(), actual.answers().size() == 1 ? "" : "s", actual.outcome(), detail());
        }
        Term t = value(actual.answers().get(index), variable);
        return new TermAssert(t).as("%s in answer #%d of the goal", variable, index);
    }

    private Term value(Answer a, String variable) {
        if (!a.variables().contains(variable)) {
            failWithMessage("Expecting the goal's answers to bind %s but their variables are %s", variable, a.variables());
        }
        return a.get(variable);
    }

    private String detail() {
        StringBuilder sb = new StringBuilder();
        actual.error().ifPresent(e -> sb.append(": ").append(e));
        if (!actual.answers().isEmpty()) {
            sb.append(", answers ").append(actual.answers());
        }
        return sb.toString();
    }

    static String quote(String s) {
        return "\"" + s.replace("\n", "\\n") + "\"";
    }
}

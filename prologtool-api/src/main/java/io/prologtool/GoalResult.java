package io.prologtool;

import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * The result of one goal: a value, never a live handle.
 *
 * @param outcome         how the search ended
 * @param answers         the answers found, at most {@code maxAnswers}, also those found before a
 *                        bound or an error stopped the search
 * @param output          what the goal printed to current output, user_output or user_error
 * @param outputTruncated true when output went past the session's cap and was cut
 * @param truncated       true when more answers existed than {@code maxAnswers} (found by asking for
 *                        one more, whose side effects may have happened)
 * @param error           the error, present exactly when the outcome is {@link Outcome#ERROR}
 * @param cost            what the call cost (wall time, CPU time, inferences); a query's fetch counts
 *                        the fetch alone, on the query's own Prolog thread
 */
public record GoalResult(Outcome outcome, List<Answer> answers, String output, boolean outputTruncated,
                         boolean truncated, Optional<PrologError> error, Cost cost) {

    public GoalResult {
        Objects.requireNonNull(outcome, "outcome");
        answers = List.copyOf(answers);
        Objects.requireNonNull(output, "output");
        Objects.requireNonNull(error, "error");
        Objects.requireNonNull(cost, "cost");
        if ((outcome == Outcome.ERROR) != error.isPresent()) {
            throw new IllegalArgumentException("an error is present exactly when the outcome is ERROR");
        }
    }

    /** A result that cost nothing measured ({@link Cost#NONE}). */
    public GoalResult(Outcome outcome, List<Answer> answers, String output, boolean outputTruncated,
                      boolean truncated, Optional<PrologError> error) {
        this(outcome, answers, output, outputTruncated, truncated, error, Cost.NONE);
    }

    /** This result with {@code cost} in place of its own. */
    public GoalResult withCost(Cost cost) {
        return new GoalResult(outcome, answers, output, outputTruncated, truncated, error, cost);
    }

    /** {@link Cost#wallTime()}: how long the call took, as the caller saw it. */
    public java.time.Duration wallTime() {
        return cost.wallTime();
    }

    /** {@link Cost#cpuTime()}: the CPU time of the Prolog thread that served the call. */
    public java.time.Duration cpuTime() {
        return cost.cpuTime();
    }

    /** {@link Cost#inferences()}: the inferences counted while the call was served. */
    public long inferences() {
        return cost.inferences();
    }

    /** A result with no answers that reports {@code error}. */
    public static GoalResult failedWith(PrologError error) {
        return new GoalResult(Outcome.ERROR, List.of(), "", false, false, Optional.of(error));
    }

    /** True when the outcome is {@link Outcome#SUCCESS}. */
    public boolean succeeded() {
        return outcome == Outcome.SUCCESS;
    }

    /** True when some branch hit the depth limit (outcome {@link Outcome#DEPTH_EXCEEDED}). */
    public boolean depthExceeded() {
        return outcome == Outcome.DEPTH_EXCEEDED;
    }

    /** The first answer, if any. */
    public Optional<Answer> firstAnswer() {
        return answers.isEmpty() ? Optional.empty() : Optional.of(answers.get(0));
    }

    /**
     * The outcome, then the answers as the toplevel shows them, one answer's bindings joined by
     * {@code ,} and the answers by {@code ;}: {@code SUCCESS: X = 1, Y = a ; X = 2, Y = b ; ...}
     * ({@code ...} when truncated), and the error if any.
     */
    @Override
    public String toString() {
        StringBuilder sb = new StringBuilder(outcome.toString());
        error.ifPresent(e -> sb.append(' ').append(e));
        if (!answers.isEmpty()) {
            sb.append(": ").append(answers.stream().map(Answer::toString)
                    .collect(java.util.stream.Collectors.joining(" ; ")));
        }
        if (truncated) {
            sb.append(answers.isEmpty() ? ": ..." : " ; ...");
        }
        return sb.toString();
    }
}

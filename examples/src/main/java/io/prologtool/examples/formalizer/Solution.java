package io.prologtool.examples.formalizer;

import io.prologtool.Outcome;

import java.time.Duration;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * What {@link FormalizerAgent#solve(Problem)} found.
 *
 * @param problem  the problem
 * @param answer   TRUE or FALSE, or UNKNOWN when no attempt ran to an answer
 * @param outcome  how the last goal that ran ended (empty when none ran)
 * @param attempts every attempt, in order; the last one decided the answer
 * @param tokens   tokens spent over all attempts, when the formalizer reports them
 * @param elapsed  wall time of the whole solve
 */
public record Solution(Problem problem, Verdict answer, Optional<Outcome> outcome, List<Attempt> attempts,
                       Optional<Tokens> tokens, Duration elapsed) {

    /** Checks the components: none is null, and there is at least one attempt. */
    public Solution {
        Objects.requireNonNull(problem, "problem");
        Objects.requireNonNull(answer, "answer");
        Objects.requireNonNull(outcome, "outcome");
        attempts = List.copyOf(attempts);
        if (attempts.isEmpty()) {
            throw new IllegalArgumentException("a solution has at least one attempt");
        }
        Objects.requireNonNull(tokens, "tokens");
        Objects.requireNonNull(elapsed, "elapsed");
    }

    /** Number of attempts made, 1 to the agent's {@code maxAttempts}. */
    public int attemptCount() {
        return attempts.size();
    }

    /** The last attempt's formalization. */
    public Formalization last() {
        return attempts.get(attempts.size() - 1).formalization();
    }

    /** The final program, when the last attempt produced one. */
    public Optional<String> program() {
        return last() instanceof Formalization.Parsed p ? Optional.of(p.program()) : Optional.empty();
    }

    /** The final goal, when the last attempt produced one. */
    public Optional<String> goal() {
        return last() instanceof Formalization.Parsed p ? Optional.of(p.goal()) : Optional.empty();
    }

    /**
     * The errors of the attempts whose model call failed ({@link AttemptError.Stage#MODEL}: a rate
     * limit, a network or an authentication error, ...), in order; empty when every call got a reply.
     */
    public List<AttemptError> modelErrors() {
        return attempts.stream().map(Attempt::error).flatMap(Optional::stream)
                .filter(e -> e.stage() == AttemptError.Stage.MODEL).toList();
    }

    /** True when the goal hit a bound (time, depth or inferences) instead of finishing. */
    public boolean hitBound() {
        return outcome.filter(o -> o == Outcome.TIMEOUT || o == Outcome.DEPTH_EXCEEDED
                || o == Outcome.INFERENCE_LIMIT).isPresent();
    }
}

package io.prologtool;

import java.util.Objects;
import java.util.Optional;

/**
 * The result of a trace: the proof tree of the goal's first proof (or of the failed attempt).
 *
 * @param outcome   SUCCESS, FAILURE, TIMEOUT or ERROR
 * @param tree      the proof tree; empty when the goal could not be traced at all (e.g. a syntax error)
 * @param nodeCount number of nodes in {@link #tree()}
 * @param truncated true when the depth or node bound cut the tree
 * @param error     the error, present exactly when the outcome is ERROR
 */
public record TraceResult(Outcome outcome, Optional<ProofTree> tree, int nodeCount, boolean truncated,
                          Optional<PrologError> error) {

    public TraceResult {
        Objects.requireNonNull(outcome, "outcome");
        Objects.requireNonNull(tree, "tree");
        Objects.requireNonNull(error, "error");
        if ((outcome == Outcome.ERROR) != error.isPresent()) {
            throw new IllegalArgumentException("an error is present exactly when the outcome is ERROR");
        }
    }
}

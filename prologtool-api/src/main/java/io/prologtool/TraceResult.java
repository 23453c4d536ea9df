package io.prologtool;

import java.util.Objects;
import java.util.Optional;

/**
 * The result of a trace: the proof tree of the goal's first proof (or of the failed attempt).
 *
 * <ul>
 *   <li>{@link Outcome#SUCCESS}: the tree is the proof of the goal's first answer, its goals as that
 *       answer instantiated them; the traced goal has the same first answer as the untraced one.</li>
 *   <li>{@link Outcome#FAILURE}: the tree records the failed attempt: every clause tried, in order,
 *       with the failing goals of kind {@code failure}.</li>
 *   <li>{@link Outcome#TIMEOUT}, {@link Outcome#ERROR}: the tree records the search up to the point
 *       where the time limit or the exception stopped it (the goals running then are of kind
 *       {@code timeout} or {@code error}). The tree is absent when the goal text could not be read
 *       (a {@code syntax_error}) or the Prolog serving the session died.</li>
 * </ul>
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

    /** A result without a tree that reports {@code error}. */
    public static TraceResult failedWith(PrologError error) {
        return new TraceResult(Outcome.ERROR, Optional.empty(), 0, false, Optional.of(error));
    }

    /** True when the outcome is {@link Outcome#SUCCESS}. */
    public boolean succeeded() {
        return outcome == Outcome.SUCCESS;
    }

    /**
     * The result as text: a first line with the outcome (node count, truncation, error), then the tree
     * as {@link ProofTree#toText()} prints it.
     */
    public String toText() {
        StringBuilder out = new StringBuilder(outcome.wireName());
        out.append(" (").append(nodeCount).append(nodeCount == 1 ? " node" : " nodes");
        if (truncated) {
            out.append(", truncated");
        }
        out.append(')');
        error.ifPresent(e -> out.append(": ").append(e));
        out.append('\n');
        tree.ifPresent(t -> out.append(t.toText()));
        return out.toString();
    }
}

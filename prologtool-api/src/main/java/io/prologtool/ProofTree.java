package io.prologtool;

import java.util.List;
import java.util.Objects;

/**
 * One node of a proof tree: a goal as it was instantiated, how it was proved, and the proofs of its
 * subgoals.
 *
 * @param goal     the goal as quoted Prolog text, instantiated as the proof left it
 * @param rule     the clause used, as text ({@code "head :- body"} or a fact), or empty for leaves
 *                 that are not proved by a clause (built-ins, library predicates)
 * @param line     the clause's line in the text that defined it, or 0 when unknown
 * @param kind     what the node is, e.g. {@code clause}, {@code builtin}, {@code negation}, {@code failure}
 * @param children the proofs of the subgoals, in order
 */
public record ProofTree(String goal, String rule, int line, String kind, List<ProofTree> children) {

    public ProofTree {
        Objects.requireNonNull(goal, "goal");
        Objects.requireNonNull(rule, "rule");
        Objects.requireNonNull(kind, "kind");
        children = List.copyOf(children);
    }
}

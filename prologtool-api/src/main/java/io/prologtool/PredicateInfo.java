package io.prologtool;

import java.util.List;
import java.util.Objects;

/**
 * The live definition of one predicate of a session, or what resembles it when it is not defined.
 *
 * @param found       true when {@code name/arity} is defined in the session
 * @param name        the predicate name asked for
 * @param arity       the arity asked for
 * @param type        static, dynamic, foreign, or undefined when not found
 * @param exported    true when the session module exports it
 * @param clauseCount number of clauses
 * @param clauses     each clause as quoted source text ({@code portray_clause/1} style), in order
 * @param candidates  on a miss: the session's predicates with similar names or the same name and
 *                    another arity, as {@code "name/arity"}, best first; empty on a hit
 */
public record PredicateInfo(boolean found, String name, int arity, PredicateType type, boolean exported,
                            int clauseCount, List<String> clauses, List<String> candidates) {

    public PredicateInfo {
        Objects.requireNonNull(name, "name");
        Objects.requireNonNull(type, "type");
        clauses = List.copyOf(clauses);
        candidates = List.copyOf(candidates);
    }

    /** {@code name/arity}. */
    public String indicator() {
        return name + "/" + arity;
    }
}

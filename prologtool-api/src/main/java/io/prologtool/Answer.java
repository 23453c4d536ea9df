package io.prologtool;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;

/**
 * One solution of a goal: the query's named variables, in the order they appear in the query, each
 * bound to a {@link Term}. Variables whose names start with {@code _} are left out, as the SWI-Prolog
 * toplevel does. Free variables in the answer are {@link Term.Var}s named {@code _G1}, {@code _G2}, ...,
 * shared where the answer shares them.
 */
public final class Answer {

    private final Map<String, Term> bindings;

    /** An answer with these bindings; iteration order is kept. */
    public Answer(Map<String, ? extends Term> bindings) {
        this.bindings = Collections.unmodifiableMap(new LinkedHashMap<>(bindings));
    }

    /**
     * The value of {@code variable}.
     *
     * @throws IllegalArgumentException when the query has no such (visible) variable
     */
    public Term get(String variable) {
        Term t = bindings.get(variable);
        if (t == null) {
            throw new IllegalArgumentException(
                    "no variable '" + variable + "' in this answer; its variables are " + variables());
        }
        return t;
    }

    /** The variable names in query order. */
    public List<String> variables() {
        return List.copyOf(bindings.keySet());
    }

    /** The bindings, in query order (unmodifiable). */
    public Map<String, Term> asMap() {
        return bindings;
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof Answer a && bindings.equals(a.bindings);
    }

    @Override
    public int hashCode() {
        return bindings.hashCode();
    }

    /** Like the toplevel: {@code X = bob, Y = [1,2]}, or {@code true} for no variables. */
    @Override
    public String toString() {
        if (bindings.isEmpty()) {
            return "true";
        }
        return bindings.entrySet().stream()
                .map(e -> e.getKey() + " = " + e.getValue())
                .collect(Collectors.joining(", "));
    }
}

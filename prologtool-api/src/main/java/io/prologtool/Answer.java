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
 *
 * <p>When constraints remain on the answer's variables (CLP(FD) domains, {@code dif/2},
 * {@code freeze/2}), {@link #residualGoals()} lists them as Prolog text, written with the query's
 * variable names where a query variable is still free: {@code X in 1..3} for {@code X in 1..3, X #\= 4}.
 */
public final class Answer {

    private final Map<String, Term> bindings;
    private final List<String> residualGoals;

    /** An answer with these bindings and no residual goals; iteration order is kept. */
    public Answer(Map<String, ? extends Term> bindings) {
        this(bindings, List.of());
    }

    /** An answer with these bindings and residual goals (Prolog text, one goal each). */
    public Answer(Map<String, ? extends Term> bindings, List<String> residualGoals) {
        this.bindings = Collections.unmodifiableMap(new LinkedHashMap<>(bindings));
        this.residualGoals = List.copyOf(residualGoals);
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

    /** The value of {@code variable}, as {@link #get(String)}: a name that reads well beside the typed getters. */
    public Term getTerm(String variable) {
        return get(variable);
    }

    /**
     * The integer {@code variable} is bound to, as an {@code int}.
     *
     * @throws IllegalArgumentException when there is no such variable
     * @throws TermTypeException        when it holds something else, or an integer outside the {@code int}
     *                                  range; the message names the variable and what it holds
     */
    public int getInt(String variable) {
        return TermValues.intValue(get(variable), subject(variable));
    }

    /**
     * The integer {@code variable} is bound to, as a {@code long}.
     *
     * @throws IllegalArgumentException when there is no such variable
     * @throws TermTypeException        when it holds something else, or an integer outside the {@code long} range
     */
    public long getLong(String variable) {
        return TermValues.longValue(get(variable), subject(variable));
    }

    /**
     * The number {@code variable} is bound to, as a {@code double} (an integer is converted).
     *
     * @throws IllegalArgumentException when there is no such variable
     * @throws TermTypeException        when it holds something other than a number
     */
    public double getDouble(String variable) {
        return TermValues.doubleValue(get(variable), subject(variable));
    }

    /**
     * The integer {@code variable} is bound to, whatever its size.
     *
     * @throws IllegalArgumentException when there is no such variable
     * @throws TermTypeException        when it holds something other than an integer
     */
    public java.math.BigInteger getBigInteger(String variable) {
        return TermValues.bigInteger(get(variable), subject(variable));
    }

    /**
     * The text of the atom or string {@code variable} is bound to.
     *
     * @throws IllegalArgumentException when there is no such variable
     * @throws TermTypeException        when it holds neither an atom nor a string
     */
    public String getText(String variable) {
        return TermValues.text(get(variable), subject(variable));
    }

    /**
     * The elements of the proper list {@code variable} is bound to, unmodifiable.
     *
     * @throws IllegalArgumentException when there is no such variable
     * @throws TermTypeException        when it holds something other than a proper list
     */
    public List<Term> getList(String variable) {
        return TermValues.list(get(variable), subject(variable));
    }

    private static String subject(String variable) {
        return "variable " + variable;
    }

    /** The variable names in query order. */
    public List<String> variables() {
        return List.copyOf(bindings.keySet());
    }

    /** The bindings, in query order (unmodifiable). */
    public Map<String, Term> asMap() {
        return bindings;
    }

    /**
     * The constraints that remain on the answer's variables, as Prolog text, e.g.
     * {@code ["X in 1..3", "dif(Y,a)"]}; empty when there are none.
     */
    public List<String> residualGoals() {
        return residualGoals;
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof Answer a && bindings.equals(a.bindings) && residualGoals.equals(a.residualGoals);
    }

    @Override
    public int hashCode() {
        return bindings.hashCode() * 31 + residualGoals.hashCode();
    }

    /**
     * Like the toplevel: {@code X = bob, Y = [1,2]}, then the residual goals, or {@code true} for no
     * variables and no residual goals.
     */
    @Override
    public String toString() {
        if (bindings.isEmpty() && residualGoals.isEmpty()) {
            return "true";
        }
        return java.util.stream.Stream.concat(
                        bindings.entrySet().stream().map(e -> e.getKey() + " = " + e.getValue()),
                        residualGoals.stream())
                .collect(Collectors.joining(", "));
    }
}

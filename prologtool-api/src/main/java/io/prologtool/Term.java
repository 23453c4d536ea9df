package io.prologtool;

import io.prologtool.json.TermJson;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.Deque;
import java.util.List;
import java.util.ListIterator;
import java.util.Objects;
import java.util.Optional;

/**
 * An immutable SWI-Prolog 7+ term.
 *
 * <p>The model follows SWI-Prolog 7 rather than ISO: strings are a type of their own ({@link Str}),
 * the empty list {@link #NIL} is a reserved constant that is not the atom {@code '[]'}, list cells
 * are compounds named {@value #LIST_FUNCTOR} with two arguments, and compounds may have zero
 * arguments ({@code f()}).
 *
 * <p>{@code toString()} of every term is quoted, canonical SWI-Prolog text that reads back as an
 * equal term (variables aside, which keep only their names). Printing, equality, hashing and the
 * JSON codec walk terms with explicit stacks, so very long lists and deeply nested terms do not
 * exhaust the Java thread stack.
 */
public sealed interface Term
        permits Term.Atom, Term.Int, Term.Float, Term.Str, Term.Nil, Term.Compound, Term.Var {

    /** The SWI-Prolog 7 empty list {@code []}, which is distinct from the atom {@code '[]'}. */
    Nil NIL = new Nil();

    /** The functor name of a list cell in SWI-Prolog 7; a list cell has exactly two arguments. */
    String LIST_FUNCTOR = "[|]";

    /** The functor name of a curly term {@code {X}}, which is {@code '{}'(X)}. */
    String CURLY_FUNCTOR = "{}";

    // ---------------------------------------------------------------------------------------------
    // Term kinds
    // ---------------------------------------------------------------------------------------------

    /**
     * An atom.
     *
     * @param name the atom's text, possibly empty, never {@code null}
     */
    record Atom(String name) implements Term {
        /**
         * Creates an atom.
         *
         * @param name the atom's text
         * @throws NullPointerException if {@code name} is null
         */
        public Atom {
            Objects.requireNonNull(name, "atom name");
        }

        /** Returns the atom in quoted Prolog syntax, e.g. {@code bob} or {@code 'Bob'}. */
        @Override
        public String toString() {
            return quoteAtom(name);
        }
    }

    /**
     * An integer of unbounded size, as SWI-Prolog integers are.
     *
     * @param value the integer's value, never {@code null}
     */
    record Int(BigInteger value) implements Term {
        /**
         * Creates an integer.
         *
         * @param value the value
         * @throws NullPointerException if {@code value} is null
         */
        public Int {
            Objects.requireNonNull(value, "integer value");
        }

        /**
         * Creates an integer from a {@code long}.
         *
         * @param value the value
         * @return the integer term
         */
        public static Int of(long value) {
            return new Int(BigInteger.valueOf(value));
        }

        /**
         * Returns the value as a {@code long}.
         *
         * @return the value
         * @throws ArithmeticException if the value does not fit in a {@code long}
         */
        public long longValueExact() {
            return value.longValueExact();
        }

        /** Returns the integer in decimal notation. */
        @Override
        public String toString() {
            return value.toString();
        }
    }

    /**
     * A floating point number (an IEEE double, as in SWI-Prolog). Infinities and NaN are allowed
     * because SWI-Prolog can hold them when its float flags permit.
     *
     * <p>Equality follows {@link java.lang.Double#compare}: NaN equals NaN and {@code -0.0} differs
     * from {@code 0.0}, so that every float survives a round trip recognisably.
     *
     * @param value the value
     */
    record Float(double value) implements Term {
        /**
         * Returns Prolog float syntax that reads back as the same double: {@code 1.0}, {@code
         * 1.0E10}, {@code -0.0}, {@code 1.0Inf}, {@code -1.0Inf} or {@code 1.5NaN}.
         */
        @Override
        public String toString() {
            return formatFloat(value);
        }
    }

    /**
     * A SWI-Prolog string (double-quoted text), which is a different type from an atom.
     *
     * @param value the string's text, never {@code null}
     */
    record Str(String value) implements Term {
        /**
         * Creates a string.
         *
         * @param value the text
         * @throws NullPointerException if {@code value} is null
         */
        public Str {
            Objects.requireNonNull(value, "string value");
        }

        /** Returns the string double-quoted with escapes, e.g. {@code "a\"b"}. */
        @Override
        public String toString() {
            StringBuilder out = new StringBuilder(value.length() + 2).append('"');
            appendEscaped(out, value, '"');
            return out.append('"').toString();
        }
    }

    /**
     * The empty list {@code []}. Use {@link Term#NIL}; all instances are equal.
     */
    record Nil() implements Term {
        /** Returns {@code []}. */
        @Override
        public String toString() {
            return "[]";
        }
    }

    /**
     * A compound term {@code functor(args...)}. List cells are compounds named {@value
     * Term#LIST_FUNCTOR} with two arguments.
     *
     * @param functor the functor's name, never {@code null}
     * @param args the arguments, possibly empty (SWI-Prolog 7 {@code f()}); stored as an
     *     unmodifiable copy
     */
    record Compound(String functor, List<Term> args) implements Term {
        /**
         * Creates a compound.
         *
         * @param functor the functor's name
         * @param args the arguments; copied, so later changes to the given list do not show
         * @throws NullPointerException if the functor, the list or any argument is null
         */
        public Compound {
            Objects.requireNonNull(functor, "functor");
            Objects.requireNonNull(args, "args");
            // Checked one by one so the message says which argument; List.copyOf would not.
            for (int i = 0; i < args.size(); i++) {
                if (args.get(i) == null) {
                    throw new NullPointerException("argument " + i + " of " + functor + " is null");
                }
            }
            args = List.copyOf(args);
        }

        /**
         * Returns the number of arguments.
         *
         * @return the arity, zero or more
         */
        public int arity() {
            return args.size();
        }

        /**
         * Returns one argument. The index is zero-based, like {@code args().get(index)} (Prolog's
         * {@code arg/3} counts from one).
         *
         * @param index the zero-based position
         * @return the argument
         * @throws IndexOutOfBoundsException if there is no such argument
         */
        public Term arg(int index) {
            return args.get(index);
        }

        /**
         * Tells whether this compound is a list cell {@code '[|]'(Head, Tail)}.
         *
         * @return true for a list cell, whatever its tail
         */
        public boolean isListCell() {
            return args.size() == 2 && functor.equals(LIST_FUNCTOR);
        }

        /** Compares structurally, without recursion so that long lists cannot overflow the stack. */
        @Override
        public boolean equals(Object other) {
            return other instanceof Compound that && structurallyEqual(this, that);
        }

        /** Hashes structurally, without recursion; consistent with {@link #equals(Object)}. */
        @Override
        public int hashCode() {
            return structuralHash(this);
        }

        /**
         * Returns the compound in canonical Prolog syntax: {@code f(a,b)}, {@code '+'(1,2)},
         * lists as {@code [a,b]} or {@code [a|T]}, and {@code '{}'(X)} as {@code {X}}.
         */
        @Override
        public String toString() {
            return print(this);
        }
    }

    /**
     * A variable, identified only by its name. Two variables with the same name are equal here,
     * but Java cannot tell whether they are the same Prolog variable beyond that name.
     *
     * @param name the variable's name, e.g. {@code X} or {@code _G123}; never {@code null}
     */
    record Var(String name) implements Term {
        /**
         * Creates a variable.
         *
         * @param name the name
         * @throws NullPointerException if {@code name} is null
         */
        public Var {
            Objects.requireNonNull(name, "variable name");
        }

        /**
         * Returns the name if it is valid Prolog variable syntax, and otherwise {@code _}, because
         * an invalid name would not read back as a variable at all.
         */
        @Override
        public String toString() {
            return isVariableName(name) ? name : "_";
        }
    }

    // ---------------------------------------------------------------------------------------------
    // Factories
    // ---------------------------------------------------------------------------------------------

    /**
     * Creates an atom.
     *
     * @param name the atom's text
     * @return the atom
     */
    static Atom atom(String name) {
        return new Atom(name);
    }

    /**
     * Creates an integer.
     *
     * @param value the value
     * @return the integer
     */
    static Int integer(long value) {
        return Int.of(value);
    }

    /**
     * Creates an integer of any size.
     *
     * @param value the value
     * @return the integer
     */
    static Int integer(BigInteger value) {
        return new Int(value);
    }

    /**
     * Creates a float; infinities and NaN are allowed.
     *
     * @param value the value
     * @return the float
     */
    static Float real(double value) {
        return new Float(value);
    }

    /**
     * Creates a SWI-Prolog string (not an atom).
     *
     * @param value the text
     * @return the string
     */
    static Str string(String value) {
        return new Str(value);
    }

    /**
     * Creates a compound; with no arguments it is the SWI-Prolog 7 zero-arity compound {@code f()},
     * not the atom {@code f}.
     *
     * @param functor the functor's name
     * @param args the arguments
     * @return the compound
     */
    static Compound compound(String functor, Term... args) {
        return new Compound(functor, Arrays.asList(Objects.requireNonNull(args, "args")));
    }

    /**
     * Creates a compound from a list of arguments.
     *
     * @param functor the functor's name
     * @param args the arguments, copied
     * @return the compound
     */
    static Compound compound(String functor, List<? extends Term> args) {
        // An unmodifiable view is enough: the constructor checks for nulls and copies.
        return new Compound(functor, Collections.unmodifiableList(Objects.requireNonNull(args, "args")));
    }

    /**
     * Creates a variable.
     *
     * @param name the name, which should match {@code [A-Z_][A-Za-z0-9_]*} to print as itself
     * @return the variable
     */
    static Var variable(String name) {
        return new Var(name);
    }

    /**
     * Creates a proper list.
     *
     * @param elements the elements
     * @return {@link #NIL} for no elements, otherwise a chain of list cells
     */
    static Term list(Term... elements) {
        return list(Arrays.asList(Objects.requireNonNull(elements, "elements")), NIL);
    }

    /**
     * Creates a proper list.
     *
     * @param elements the elements
     * @return {@link #NIL} for no elements, otherwise a chain of list cells
     */
    static Term list(List<? extends Term> elements) {
        return list(elements, NIL);
    }

    /**
     * Creates a list with the given tail, e.g. {@code [a,b|T]}. With a proper list as the tail the
     * result is simply the longer proper list.
     *
     * @param elements the leading elements
     * @param tail the tail: {@link #NIL} for a proper list, a variable for a partial list
     * @return {@code tail} itself if there are no elements, otherwise a chain of list cells
     */
    static Term list(List<? extends Term> elements, Term tail) {
        Objects.requireNonNull(elements, "elements");
        Term result = Objects.requireNonNull(tail, "tail");
        // Built from the end so each cell is created once, with no recursion.
        ListIterator<? extends Term> it = elements.listIterator(elements.size());
        while (it.hasPrevious()) {
            Term element = Objects.requireNonNull(it.previous(), "list element");
            result = new Compound(LIST_FUNCTOR, List.of(element, result));
        }
        return result;
    }

    /**
     * Parses the JSON wire format; see {@link TermJson}.
     *
     * @param json the JSON text of one term
     * @return the term
     * @throws IllegalArgumentException if the text is not a well-formed term
     */
    static Term fromJson(String json) {
        return TermJson.fromJson(json);
    }

    // ---------------------------------------------------------------------------------------------
    // Common operations
    // ---------------------------------------------------------------------------------------------

    /**
     * Tells whether this term is a proper list: {@link #NIL} or list cells ending in {@link #NIL}.
     *
     * @return true for a proper list; false for partial lists and everything else
     */
    default boolean isList() {
        return listTail(this) instanceof Nil;
    }

    /**
     * Returns the elements of a proper list.
     *
     * @return the elements, unmodifiable, or empty if this term is not a proper list
     */
    default Optional<List<Term>> asList() {
        List<Term> elements = new ArrayList<>();
        Term rest = this;
        while (rest instanceof Compound cell && cell.isListCell()) {
            elements.add(cell.args().get(0));
            rest = cell.args().get(1);
        }
        return rest instanceof Nil
                ? Optional.of(Collections.unmodifiableList(elements))
                : Optional.empty();
    }

    /**
     * This integer as an {@code int}.
     *
     * @throws TermTypeException when this is not an integer, or one outside the {@code int} range
     */
    default int toInt() {
        return TermValues.intValue(this, "the term");
    }

    /**
     * This integer as a {@code long}.
     *
     * @throws TermTypeException when this is not an integer, or one outside the {@code long} range
     */
    default long toLong() {
        return TermValues.longValue(this, "the term");
    }

    /**
     * This number as a {@code double}: a float's value, or an integer converted (rounded when it has
     * more than 53 significant bits).
     *
     * @throws TermTypeException when this is not a number
     */
    default double toDouble() {
        return TermValues.doubleValue(this, "the term");
    }

    /**
     * This integer, whatever its size.
     *
     * @throws TermTypeException when this is not an integer
     */
    default BigInteger toBigInteger() {
        return TermValues.bigInteger(this, "the term");
    }

    /**
     * The text of an atom or a string ({@code bob} and {@code "bob"} both give {@code bob}).
     *
     * @throws TermTypeException when this is neither an atom nor a string
     */
    default String toText() {
        return TermValues.text(this, "the term");
    }

    /**
     * The elements of this proper list, unmodifiable ({@link #asList()} without the {@code Optional}).
     *
     * @throws TermTypeException when this is not a proper list (a partial list included)
     */
    default List<Term> toList() {
        return TermValues.list(this, "the term");
    }

    /**
     * Encodes this term in the JSON wire format; see {@link TermJson}.
     *
     * @return compact JSON text
     */
    default String toJson() {
        return TermJson.toJson(this);
    }

    // ---------------------------------------------------------------------------------------------
    // Implementation
    // ---------------------------------------------------------------------------------------------

    /** Follows list cells and returns whatever ends the chain (the term itself if not a cell). */
    private static Term listTail(Term term) {
        Term rest = term;
        while (rest instanceof Compound cell && cell.isListCell()) {
            rest = cell.args().get(1);
        }
        return rest;
    }

    private static boolean isUnquotedAtom(String name) {
        if (name.equals("!") || name.equals(";") || name.equals("{}")) {
            return true;
        }
        if (name.isEmpty() || name.charAt(0) < 'a' || name.charAt(0) > 'z') {
            return false;
        }
        for (int i = 1; i < name.length(); i++) {
            if (!isAsciiAlphanumeric(name.charAt(i))) {
                return false;
            }
        }
        return true;
    }

    private static boolean isVariableName(String name) {
        if (name.isEmpty()) {
            return false;
        }
        char first = name.charAt(0);
        if (first != '_' && (first < 'A' || first > 'Z')) {
            return false;
        }
        for (int i = 1; i < name.length(); i++) {
            if (!isAsciiAlphanumeric(name.charAt(i))) {
                return false;
            }
        }
        return true;
    }

    private static boolean isAsciiAlphanumeric(char c) {
        return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_';
    }

    private static String quoteAtom(String name) {
        if (isUnquotedAtom(name)) {
            return name;
        }
        StringBuilder out = new StringBuilder(name.length() + 2).append('\'');
        appendEscaped(out, name, '\'');
        return out.append('\'').toString();
    }

    /**
     * Escapes text for a quoted atom or a string. Non-ASCII text (including surrogate pairs) is kept
     * as it is, since SWI-Prolog reads Unicode in quotes; only controls are escaped, so the result
     * stays on one line and survives any transport.
     */
    private static void appendEscaped(StringBuilder out, String text, char quote) {
        for (int i = 0; i < text.length(); i++) {
            char c = text.charAt(i);
            if (c == '\\') {
                out.append("\\\\");
            } else if (c == quote) {
                out.append('\\').append(quote);
            } else if (c == '\n') {
                out.append("\\n");
            } else if (c == '\t') {
                out.append("\\t");
            } else if (Character.isISOControl(c)) {
                // ISO controls are all below 0x100, so two hex digits always suffice.
                out.append("\\x").append(Character.toUpperCase(Character.forDigit(c >> 4, 16)))
                        .append(Character.toUpperCase(Character.forDigit(c & 0xF, 16))).append('\\');
            } else {
                out.append(c);
            }
        }
    }

    private static String formatFloat(double value) {
        if (java.lang.Double.isNaN(value)) {
            return "1.5NaN";
        }
        if (value == java.lang.Double.POSITIVE_INFINITY) {
            return "1.0Inf";
        }
        if (value == java.lang.Double.NEGATIVE_INFINITY) {
            return "-1.0Inf";
        }
        // Double.toString always has a '.' (e.g. 1.0, 1.0E10, 4.9E-324), which SWI-Prolog needs
        // to read a float rather than an integer.
        String text = java.lang.Double.toString(value);
        if (java.lang.Double.doubleToRawLongBits(java.lang.Double.parseDouble(text))
                != java.lang.Double.doubleToRawLongBits(value)) {
            // Before JDK 19 Double.toString was not specified tightly enough to rule out a lossy
            // result; reading back exactly is our contract, so fall back to the exact decimal.
            text = new BigDecimal(value).toString();
            if (text.indexOf('.') < 0 && text.indexOf('E') < 0) {
                text = text + ".0";
            }
        }
        return text;
    }

    /** Prints a compound iteratively: the work stack holds terms still to print and literal text. */
    private static String print(Compound root) {
        StringBuilder out = new StringBuilder();
        Deque<Object> work = new ArrayDeque<>();
        work.push(root);
        while (!work.isEmpty()) {
            Object item = work.pop();
            if (item instanceof String text) {
                out.append(text);
            } else if (!(item instanceof Compound compound)) {
                out.append(item);
            } else if (compound.isListCell()) {
                // Collect the whole spine first so that a long list costs no nesting at all.
                List<Term> elements = new ArrayList<>();
                Term rest = compound;
                while (rest instanceof Compound cell && cell.isListCell()) {
                    elements.add(cell.args().get(0));
                    rest = cell.args().get(1);
                }
                out.append('[');
                work.push("]");
                if (!(rest instanceof Nil)) {
                    work.push(rest);
                    work.push("|");
                }
                pushSeparated(work, elements);
            } else if (compound.arity() == 1 && compound.functor().equals(CURLY_FUNCTOR)) {
                out.append('{');
                work.push("}");
                work.push(compound.args().get(0));
            } else {
                out.append(quoteAtom(compound.functor())).append('(');
                work.push(")");
                pushSeparated(work, compound.args());
            }
        }
        return out.toString();
    }

    /** Pushes terms with commas between them so that they pop in their original order. */
    private static void pushSeparated(Deque<Object> work, List<Term> terms) {
        for (int i = terms.size() - 1; i >= 0; i--) {
            work.push(terms.get(i));
            if (i > 0) {
                work.push(",");
            }
        }
    }

    private static boolean structurallyEqual(Compound a, Compound b) {
        Deque<Term> left = new ArrayDeque<>();
        Deque<Term> right = new ArrayDeque<>();
        left.push(a);
        right.push(b);
        while (!left.isEmpty()) {
            Term x = left.pop();
            Term y = right.pop();
            if (x == y) {
                continue;
            }
            if (x instanceof Compound cx) {
                if (!(y instanceof Compound cy)
                        || cx.arity() != cy.arity()
                        || !cx.functor().equals(cy.functor())) {
                    return false;
                }
                // Pushed last-first so that the first argument is compared next: along a list
                // spine the stacks then stay at two entries however long the list is.
                for (int i = cx.arity() - 1; i >= 0; i--) {
                    left.push(cx.args().get(i));
                    right.push(cy.args().get(i));
                }
            } else if (!x.equals(y)) {
                return false;
            }
        }
        return true;
    }

    /**
     * Hashes the pre-order sequence of nodes. Equal terms have equal sequences, so this agrees with
     * {@link #structurallyEqual}.
     */
    private static int structuralHash(Compound root) {
        int hash = 1;
        Deque<Term> work = new ArrayDeque<>();
        work.push(root);
        while (!work.isEmpty()) {
            Term term = work.pop();
            if (term instanceof Compound c) {
                hash = 31 * hash + (31 * c.functor().hashCode() + c.arity());
                for (int i = c.arity() - 1; i >= 0; i--) {
                    work.push(c.args().get(i));
                }
            } else {
                hash = 31 * hash + term.hashCode();
            }
        }
        return hash;
    }
}

package io.prologtool;

import java.util.Locale;

/** What kind of predicate {@link PrologSession#inspect(String, int)} found. */
public enum PredicateType {
    /** Compiled clauses (the default for consulted code). */
    STATIC,
    /** Declared dynamic: clauses can be asserted and retracted. */
    DYNAMIC,
    /** Defined in C (a built-in or foreign library predicate). */
    FOREIGN,
    /** Not defined in the session. */
    UNDEFINED;

    /** The wire and tool-layer name, e.g. {@code "dynamic"}. */
    public String wireName() {
        return name().toLowerCase(Locale.ROOT);
    }

    /** The type named by {@link #wireName()}. */
    public static PredicateType fromWireName(String name) {
        return valueOf(name.toUpperCase(Locale.ROOT));
    }
}

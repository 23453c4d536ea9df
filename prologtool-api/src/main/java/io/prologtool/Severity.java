package io.prologtool;

import java.util.Locale;

/** How serious a {@link Diagnostic} is, from least to most. */
public enum Severity {
    /** Informational: nothing is wrong. */
    INFO,
    /** Loaded, but probably not what was meant (singleton variables, discontiguous clauses, ...). */
    WARNING,
    /** Something did not load or a directive raised an error. */
    ERROR;

    /** True when this severity is {@code other} or more serious. */
    public boolean atLeast(Severity other) {
        return compareTo(other) >= 0;
    }

    /** The wire and tool-layer name: {@code "info"}, {@code "warning"} or {@code "error"}. */
    public String wireName() {
        return name().toLowerCase(Locale.ROOT);
    }

    /**
     * The severity named {@code name} ({@code "info"}, {@code "warning"}, {@code "error"}, any case).
     *
     * @throws IllegalArgumentException for any other name
     */
    public static Severity fromWireName(String name) {
        for (Severity s : values()) {
            if (s.wireName().equalsIgnoreCase(name)) {
                return s;
            }
        }
        throw new IllegalArgumentException("unknown severity '" + name + "': expected info, warning or error");
    }
}

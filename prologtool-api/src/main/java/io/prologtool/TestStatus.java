package io.prologtool;

import java.util.Locale;

/** How one plunit test ended. Blocked tests count as skipped. */
public enum TestStatus {
    PASSED, FAILED, SKIPPED;

    /** The wire and tool-layer name, e.g. {@code "passed"}. */
    public String wireName() {
        return name().toLowerCase(Locale.ROOT);
    }

    /** The status named by {@link #wireName()}. */
    public static TestStatus fromWireName(String name) {
        return valueOf(name.toUpperCase(Locale.ROOT));
    }
}

package io.prologtool.examples.formalizer;

import java.util.Optional;

/** The answer to a yes/no question. */
public enum Verdict {
    /** The goal succeeded. */
    TRUE,
    /** The goal failed: under the closed-world assumption, the statement is false. */
    FALSE,
    /**
     * No answer: every attempt failed, or the goal hit a bound (time, depth, inferences) before it
     * finished, as untabled SLDNF does on a rule cycle.
     */
    UNKNOWN;

    /** {@code TRUE} or {@code FALSE} for a boolean. */
    public static Verdict of(boolean value) {
        return value ? TRUE : FALSE;
    }

    /** The answer as a boolean; empty for {@link #UNKNOWN}. */
    public Optional<Boolean> asBoolean() {
        return this == UNKNOWN ? Optional.empty() : Optional.of(this == TRUE);
    }

    /** True when this is a definite answer equal to {@code expected}. */
    public boolean matches(boolean expected) {
        return this == of(expected);
    }
}

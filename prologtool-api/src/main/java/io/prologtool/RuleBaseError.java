package io.prologtool;

import java.util.Locale;
import java.util.Objects;
import java.util.Optional;

/**
 * Why a {@link RuleBaseStore} operation did not happen: a value, never thrown.
 *
 * @param code       which kind of problem (its wire name is prolog-reasoner's error code)
 * @param message    one or two sentences for a person or a model, naming what to do
 * @param line       for {@link Code#SYNTAX_ERROR}, the line of the first syntax error in the content
 *                   (1-based); otherwise 0
 * @param didYouMean for {@link Code#NOT_FOUND}, the closest existing name, if any
 */
public record RuleBaseError(Code code, String message, int line, Optional<String> didYouMean) {

    /** The error codes, as prolog-reasoner numbers them. */
    public enum Code {
        /** {@code RULEBASE_001}: no rule base has that name. */
        NOT_FOUND("RULEBASE_001"),
        /** {@code RULEBASE_002}: the name is not {@code [a-z0-9_-]{1,64}}. */
        INVALID_NAME("RULEBASE_002"),
        /** {@code RULEBASE_003}: the content does not read as Prolog (or cannot be checked). */
        SYNTAX_ERROR("RULEBASE_003"),
        /** {@code RULEBASE_004}: reading, writing or deleting failed. */
        IO_ERROR("RULEBASE_004"),
        /** {@code RULEBASE_005}: the content is larger than the store accepts. */
        TOO_LARGE("RULEBASE_005");

        private final String wireName;

        Code(String wireName) {
            this.wireName = wireName;
        }

        /** {@code RULEBASE_001} ... {@code RULEBASE_005}. */
        public String wireName() {
            return wireName;
        }

        /** The code whose wire name is {@code name} (case-insensitive). */
        public static Code fromWireName(String name) {
            for (Code c : values()) {
                if (c.wireName.equals(name.toUpperCase(Locale.ROOT))) {
                    return c;
                }
            }
            throw new IllegalArgumentException("unknown rule base error code: " + name);
        }
    }

    public RuleBaseError {
        Objects.requireNonNull(code, "code");
        Objects.requireNonNull(message, "message");
        Objects.requireNonNull(didYouMean, "didYouMean");
        if (line < 0) {
            throw new IllegalArgumentException("line must not be negative: " + line);
        }
    }

    static RuleBaseError of(Code code, String message) {
        return new RuleBaseError(code, message, 0, Optional.empty());
    }

    @Override
    public String toString() {
        return code.wireName() + ": " + message;
    }
}

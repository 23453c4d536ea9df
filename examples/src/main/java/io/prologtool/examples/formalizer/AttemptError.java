package io.prologtool.examples.formalizer;

import java.util.Locale;
import java.util.Objects;

/**
 * Why one attempt of the {@link FormalizerAgent} failed, in the structured form that goes back to the
 * formalizer.
 *
 * @param stage   where it failed
 * @param message one sentence
 * @param detail  the structured error as one line of JSON: for {@link Stage#LOAD} the diagnostics
 *                ({@code {"stage":"load","messages":[{"severity","kind","message","line","column"}]}}),
 *                for {@link Stage#GOAL} the error ({@code {"stage":"goal","goal":..,"error":{"kind",
 *                "message","prolog_term"}}}), for {@link Stage#FORMAT} the parse problem, for
 *                {@link Stage#MODEL} the exception's class and message ({@code {"stage":"model","message":..}})
 */
public record AttemptError(Stage stage, String message, String detail) {

    /** Where an attempt failed. */
    public enum Stage {
        /** The reply had no usable program or goal (missing or malformed tags). */
        FORMAT,
        /** The program did not load: a syntax error, a failed directive, ... */
        LOAD,
        /** The goal raised an error (an unknown predicate, a type error, ...) or could not be read. */
        GOAL,
        /**
         * The formalizer itself failed: the model call threw (HTTP 429 rate limit, a network or
         * authentication failure, ...). Nothing was produced, so nothing is fed back.
         */
        MODEL;

        /** {@code format}, {@code load} or {@code goal}. */
        public String wireName() {
            return name().toLowerCase(Locale.ROOT);
        }
    }

    /** Checks the components: none is null. */
    public AttemptError {
        Objects.requireNonNull(stage, "stage");
        Objects.requireNonNull(message, "message");
        Objects.requireNonNull(detail, "detail");
    }

    /**
     * The message the agent sends back to the formalizer: what failed, the structured error, and what
     * to do about it.
     */
    public String feedback() {
        String what = switch (stage) {
            case FORMAT -> "Your reply could not be parsed";
            case LOAD -> "The Prolog program did not load";
            case GOAL -> "The goal raised an error";
            case MODEL -> "The model call failed";
        };
        return what + ": " + message + "\nStructured error: " + detail
                + "\nFix the problem and reply again in the same format: the whole program in <prolog>...</prolog>"
                + " and the goal in <goal_true>...</goal_true>, nothing else.";
    }

    @Override
    public String toString() {
        return stage.wireName() + ": " + message;
    }
}

package io.prologtool.examples.formalizer;

import io.prologtool.Outcome;

import java.util.Objects;
import java.util.Optional;

/**
 * One round of the {@link FormalizerAgent}: what the formalizer produced, and how running it went.
 *
 * @param number        1 for the first attempt
 * @param formalization the program and goal, or the malformed reply
 * @param outcome       how the goal ended, when it ran
 * @param error         why the attempt failed (and was fed back), when it did
 */
public record Attempt(int number, Formalization formalization, Optional<Outcome> outcome,
                      Optional<AttemptError> error) {

    /** Checks the components: none is null, and the number is at least 1. */
    public Attempt {
        if (number < 1) {
            throw new IllegalArgumentException("attempts count from 1, was " + number);
        }
        Objects.requireNonNull(formalization, "formalization");
        Objects.requireNonNull(outcome, "outcome");
        Objects.requireNonNull(error, "error");
    }

    /** True when the attempt failed and its error was (or would be) fed back. */
    public boolean failed() {
        return error.isPresent();
    }
}

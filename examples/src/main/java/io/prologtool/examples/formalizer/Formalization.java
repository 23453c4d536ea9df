package io.prologtool.examples.formalizer;

import java.util.Objects;
import java.util.Optional;

/**
 * What a {@link Formalizer} produced for a problem: a Prolog program and a goal that succeeds exactly
 * when the answer is true ({@link Parsed}), or a reply that could not be read as one
 * ({@link Malformed}, a format error that the agent feeds back).
 */
public sealed interface Formalization permits Formalization.Parsed, Formalization.Malformed {

    /** The formalizer's raw reply (a model's text, or the generated program for a translator). */
    String response();

    /** Tokens the call spent, when the formalizer knows (a language model); empty otherwise. */
    Optional<Tokens> tokens();

    /**
     * A program and its goal.
     *
     * @param program  Prolog source to consult into a fresh session
     * @param goal     one goal, without the final full stop; it succeeds when the answer is TRUE
     * @param response the raw reply the two were read from
     * @param tokens   tokens spent, when known
     */
    record Parsed(String program, String goal, String response, Optional<Tokens> tokens) implements Formalization {
        /** Checks the components: none is null. */
        public Parsed {
            Objects.requireNonNull(program, "program");
            Objects.requireNonNull(goal, "goal");
            Objects.requireNonNull(response, "response");
            Objects.requireNonNull(tokens, "tokens");
        }
    }

    /**
     * A reply without a usable program or goal.
     *
     * @param message  what is wrong, in a sentence the model can act on
     * @param response the raw reply
     * @param tokens   tokens spent, when known
     */
    record Malformed(String message, String response, Optional<Tokens> tokens) implements Formalization {
        /** Checks the components: none is null. */
        public Malformed {
            Objects.requireNonNull(message, "message");
            Objects.requireNonNull(response, "response");
            Objects.requireNonNull(tokens, "tokens");
        }
    }
}

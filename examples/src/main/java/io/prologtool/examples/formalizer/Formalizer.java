package io.prologtool.examples.formalizer;

import java.util.List;

/**
 * Turns a natural-language {@link Problem} into a Prolog program and a goal (the formalization step of
 * the PrologMCP paper's Formalizer agent, section 4.1). Two come with prologtool: {@link LlmFormalizer}
 * asks a language model with the paper's prompt; {@link TemplateFormalizer} translates PARARULE-Plus's
 * sentence templates deterministically.
 *
 * <p>{@link FormalizerAgent} calls {@link #formalize} once per attempt; {@code previous} holds the
 * earlier attempts on the same problem, each with the error that made it fail, so that a formalizer can
 * repair its last answer. Implementations must be safe to call from several threads at once.
 */
public interface Formalizer {

    /**
     * Formalizes {@code problem}. A reply that cannot be read is a {@link Formalization.Malformed}, not
     * an exception.
     *
     * @param problem  the context and question
     * @param previous the failed attempts so far, oldest first; empty on the first attempt
     */
    Formalization formalize(Problem problem, List<Attempt> previous);

    /** A short name for reports, e.g. {@code template(paper)} or {@code llm}. */
    default String name() {
        return getClass().getSimpleName();
    }
}

package io.prologtool.examples.formalizer;

import java.util.Objects;

/**
 * A yes/no reasoning problem in natural language: a context of facts and rules, and a question about
 * it, as PARARULE-Plus poses them.
 *
 * <pre>{@code
 * Problem p = new Problem("ex-1", "Anne is kind. All kind people are nice.", "Anne is nice.");
 * }</pre>
 *
 * @param id       a name for reports and logs (any text, may be empty)
 * @param context  the facts and rules, in sentences
 * @param question one statement whose truth is asked, e.g. {@code "Anne is not nice."}
 */
public record Problem(String id, String context, String question) {

    /** Checks the components: none is null. */
    public Problem {
        Objects.requireNonNull(id, "id");
        Objects.requireNonNull(context, "context");
        Objects.requireNonNull(question, "question");
    }
}

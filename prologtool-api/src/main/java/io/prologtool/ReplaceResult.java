package io.prologtool;

import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * What {@link PrologSession#replacePredicate(String, int, String)} did. Either every clause of the
 * predicate was replaced by the patch, or nothing in the session changed.
 *
 * @param replaced  true when the patch was loaded in place of the old clauses
 * @param predicate {@code name/arity}
 * @param messages  the patch's diagnostics, lines relative to the patch text
 * @param error     why nothing changed: kind {@code syntax_error} (the patch does not compile) or
 *                  {@code invalid_patch} (it defines something other than the target); empty when
 *                  replaced
 */
public record ReplaceResult(boolean replaced, String predicate, List<Diagnostic> messages,
                            Optional<PrologError> error) {

    public ReplaceResult {
        Objects.requireNonNull(predicate, "predicate");
        messages = List.copyOf(messages);
        Objects.requireNonNull(error, "error");
        if (replaced == error.isPresent()) {
            throw new IllegalArgumentException("an error is present exactly when nothing was replaced");
        }
    }
}

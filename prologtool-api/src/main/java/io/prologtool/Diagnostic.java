package io.prologtool;

import java.util.Objects;

/**
 * One message SWI-Prolog raised while loading text: a syntax error, a singleton warning, a failed
 * directive, ...
 *
 * @param severity how serious it is
 * @param kind     one of {@code syntax_error, singleton, discontiguous, redefine, existence_error,
 *                 permission_error, type_error, instantiation_error, directive_failed,
 *                 directive_error, load_error, undefined_predicate, other}; {@code undefined_predicate}
 *                 is the static check's warning (see {@link SessionOptions#staticCheck()}), whose
 *                 message names the callee, the caller, the calling clause's line and similar
 *                 predicates
 * @param message  the message as SWI-Prolog words it (or the harness, for the static check)
 * @param line     1-based line in the submitted text, or 0 when Prolog does not know it
 * @param column   1-based column, or 0 when Prolog does not know it (syntax errors have one)
 */
public record Diagnostic(Severity severity, String kind, String message, int line, int column) {

    public Diagnostic {
        Objects.requireNonNull(severity, "severity");
        Objects.requireNonNull(kind, "kind");
        Objects.requireNonNull(message, "message");
        if (line < 0 || column < 0) {
            throw new IllegalArgumentException("line and column are 1-based, or 0 for unknown");
        }
    }

    /** True when the position in the submitted text is known. */
    public boolean hasLine() {
        return line > 0;
    }

    @Override
    public String toString() {
        StringBuilder sb = new StringBuilder(severity.wireName()).append(' ').append(kind);
        if (line > 0) {
            sb.append(" at line ").append(line);
            if (column > 0) {
                sb.append(", column ").append(column);
            }
        }
        return sb.append(": ").append(message).toString();
    }
}

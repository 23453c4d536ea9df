package io.prologtool;

import java.util.Locale;
import java.util.Objects;
import java.util.Optional;

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
 * @param file     the file whose text this is about, for {@link PrologSession#consult(java.nio.file.Path)};
 *                 empty for a text given as a string
 */
public record Diagnostic(Severity severity, String kind, String message, int line, int column,
                         Optional<String> file) {

    /** The kinds of {@link #kind()} as an enum; a kind this version does not know is {@link #UNKNOWN}. */
    public enum Kind {
        SYNTAX_ERROR, SINGLETON, DISCONTIGUOUS, REDEFINE, EXISTENCE_ERROR, PERMISSION_ERROR, TYPE_ERROR,
        INSTANTIATION_ERROR, DIRECTIVE_FAILED, DIRECTIVE_ERROR, LOAD_ERROR, UNDEFINED_PREDICATE,
        RESOURCE_ERROR, SESSION_CRASHED, OTHER,
        /** A kind not listed here; {@link Diagnostic#kind()} keeps its text. */
        UNKNOWN;

        /** The kind as the JSON and {@link Diagnostic#kind()} write it: {@code syntax_error}, ... */
        public String wireName() {
            return name().toLowerCase(Locale.ROOT);
        }

        /** The kind named {@code wireName}, or {@link #UNKNOWN}. */
        public static Kind fromWireName(String wireName) {
            for (Kind k : values()) {
                if (k != UNKNOWN && k.wireName().equals(wireName)) {
                    return k;
                }
            }
            return UNKNOWN;
        }
    }

    public Diagnostic {
        Objects.requireNonNull(severity, "severity");
        Objects.requireNonNull(kind, "kind");
        Objects.requireNonNull(message, "message");
        Objects.requireNonNull(file, "file");
        if (line < 0 || column < 0) {
            throw new IllegalArgumentException("line and column are 1-based, or 0 for unknown");
        }
    }

    /** A diagnostic about a text given as a string (no file). */
    public Diagnostic(Severity severity, String kind, String message, int line, int column) {
        this(severity, kind, message, line, column, Optional.empty());
    }

    /** {@link #kind()} as an enum: {@link Kind#UNKNOWN} for a kind this version does not list (the text stays in {@link #kind()}). */
    public Kind knownKind() {
        return Kind.fromWireName(kind);
    }

    /** This diagnostic, about {@code file}. */
    public Diagnostic inFile(String file) {
        return new Diagnostic(severity, kind, message, line, column, Optional.of(file));
    }

    /** True when the position in the submitted text is known. */
    public boolean hasLine() {
        return line > 0;
    }

    @Override
    public String toString() {
        StringBuilder sb = new StringBuilder(severity.wireName()).append(' ').append(kind);
        file.ifPresent(f -> sb.append(" in ").append(f));
        if (line > 0) {
            sb.append(" at line ").append(line);
            if (column > 0) {
                sb.append(", column ").append(column);
            }
        }
        return sb.append(": ").append(message).toString();
    }
}

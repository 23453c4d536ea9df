package io.prologtool;

import java.util.List;
import java.util.Locale;
import java.util.Objects;
import java.util.Optional;

/**
 * An error as data: what a goal raised, or why a call could not be served.
 *
 * @param kind       an ISO error kind ({@code syntax_error, instantiation_error, type_error,
 *                   domain_error, existence_error, permission_error, evaluation_error,
 *                   representation_error, resource_error}), {@code execution_exception} for a thrown
 *                   term that is not an ISO error, or a session kind ({@code timeout, session_closed,
 *                   session_crashed, sandbox_violation, protocol_error}, and {@code reply_too_large}: the
 *                   reply would be longer than a backend reads, 16 MiB or the process backend's
 *                   {@code maxReplyBytes}; the session and what the call did are kept, ask for less)
 * @param message    the message as Prolog prints it, or a sentence from prologtool
 * @param prologTerm the error term as quoted Prolog text, empty when the error did not come from
 *                   Prolog
 * @param candidates for an unknown predicate, similar predicates of the session ({@code "name/arity"},
 *                   best first); otherwise empty
 */
public record PrologError(String kind, String message, Optional<String> prologTerm, List<String> candidates) {

    public PrologError {
        Objects.requireNonNull(kind, "kind");
        Objects.requireNonNull(message, "message");
        Objects.requireNonNull(prologTerm, "prologTerm");
        candidates = List.copyOf(candidates);
    }

    /** The kinds of {@link #kind()} as an enum; a kind this version does not know is {@link #UNKNOWN}. */
    public enum Kind {
        SYNTAX_ERROR, INSTANTIATION_ERROR, TYPE_ERROR, DOMAIN_ERROR, EXISTENCE_ERROR, PERMISSION_ERROR,
        EVALUATION_ERROR, REPRESENTATION_ERROR, RESOURCE_ERROR, EXECUTION_EXCEPTION, TIMEOUT, SESSION_CLOSED,
        SESSION_CRASHED, SANDBOX_VIOLATION, PROTOCOL_ERROR, REPLY_TOO_LARGE, CURSOR_CLOSED,
        /** A kind not listed here; {@link PrologError#kind()} keeps its text. */
        UNKNOWN;

        /** The kind as the JSON and {@link PrologError#kind()} write it: {@code type_error}, ... */
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

    /** {@link #kind()} as an enum: {@link Kind#UNKNOWN} for a kind this version does not list (the text stays in {@link #kind()}). */
    public Kind knownKind() {
        return Kind.fromWireName(kind);
    }

    /** An error that did not come from a Prolog term (a crash, a protocol problem, ...). */
    public static PrologError of(String kind, String message) {
        return new PrologError(kind, message, Optional.empty(), List.of());
    }

    @Override
    public String toString() {
        return kind + ": " + message;
    }
}

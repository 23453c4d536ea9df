package io.prologtool;

import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * Receives what sessions do, for metrics and traces: sessions opened and closed (with why), each call
 * finished (with its kind, outcome and {@link Cost}), a session's Prolog that died and its restore, and
 * sandbox refusals. Every method has a no-op default: implement the ones you need.
 *
 * <p>Register a listener on the backend's builder, e.g. {@code ProcessBackend.builder().listener(l)} or
 * {@code JplBackend.builder().listener(l)}: it then hears every session that backend opens, whether
 * through a {@link SessionRegistry}, a {@link PrologExecutor} (its scratch sessions, calls of kind
 * {@code execute}) or directly. The sessions a {@link SessionRegistry} evicts or expires are reported as
 * closes with {@link CloseReason#EVICTED} and {@link CloseReason#EXPIRED}. {@code prologtool-micrometer}
 * binds one to Micrometer.
 *
 * <p>Without a listener nothing is built or called. With one, its methods run on the thread of the
 * event (a call's on the calling thread, right after the call), so they must be quick and thread-safe;
 * an exception a listener throws is logged (logger {@code io.prologtool.session}, WARNING) and
 * otherwise ignored; the other listeners of a backend still hear the event.
 */
public interface PrologListener {

    /** The listener that does nothing; a backend without listeners has it. */
    PrologListener NONE = new PrologListener() {
    };

    /** Why a session closed. */
    enum CloseReason {
        /** Its {@code close()}, or a {@link SessionRegistry#close(String)}, or the registry's close. */
        CLOSED,
        /** A {@link SessionRegistry} closed it to make room under {@code maxSessions}. */
        EVICTED,
        /** A {@link SessionRegistry} closed it after it was idle longer than {@code idleTtl}. */
        EXPIRED,
        /** Its Prolog died and the session could not be restored in a fresh one. */
        NOT_RESTORED,
        /** Its backend closed. */
        BACKEND_CLOSED;

        /** The name in lower case: {@code closed}, {@code evicted}, {@code expired}, ... */
        public String wireName() {
            return name().toLowerCase(java.util.Locale.ROOT);
        }
    }

    /**
     * One call that finished.
     *
     * @param backend   the backend's {@link PrologBackend#name()}
     * @param sessionId the session's id
     * @param kind      {@code goal}, {@code fetch} (answers from an open {@link Query}), {@code consult},
     *                  {@code run_tests} or {@code execute} (a {@link PrologExecutor} run)
     * @param outcome   a goal's or fetch's {@link Outcome#wireName()}; for a consult {@code ok} or
     *                  {@code error} (an error diagnostic); for tests {@code passed}, {@code failed} or
     *                  {@code error} (they could not run); for an execute the harness's outcome
     *                  ({@code success}, {@code failure}, {@code error}, {@code timeout}, ...)
     * @param errorKind the error's kind when the call reported one ({@code sandbox_violation},
     *                  {@code session_crashed}, an ISO kind, ...)
     * @param cost      what the call cost
     * @param context   what {@link #callStarted} returned for this call (null by default)
     */
    record Call(String backend, String sessionId, String kind, String outcome, Optional<String> errorKind,
                Cost cost, Object context) {

        public Call {
            Objects.requireNonNull(backend, "backend");
            Objects.requireNonNull(sessionId, "sessionId");
            Objects.requireNonNull(kind, "kind");
            Objects.requireNonNull(outcome, "outcome");
            Objects.requireNonNull(errorKind, "errorKind");
            Objects.requireNonNull(cost, "cost");
        }
    }

    /** A session opened. */
    default void sessionOpened(String backend, String sessionId) {
    }

    /** A session closed, and why. Called once per session. */
    default void sessionClosed(String backend, String sessionId, CloseReason reason) {
    }

    /**
     * A call starts, on the calling thread. What this returns comes back in {@link Call#context()} of the
     * matching {@link #callFinished} (for example a started trace span); the default returns null.
     *
     * @param kind as in {@link Call#kind()}
     */
    default Object callStarted(String backend, String sessionId, String kind) {
        return null;
    }

    /** A call finished (whatever its outcome), on the thread that made it. */
    default void callFinished(Call call) {
    }

    /**
     * The Prolog serving a session died, as the session found out (at the latest on its next call, which
     * restores it).
     */
    default void sessionCrashed(String backend, String sessionId) {
    }

    /**
     * A session whose Prolog died was restored in a fresh one.
     *
     * @param droppedEntries journal entries (consults, replacements, test sources) left out because
     *                       replaying them stopped the fresh Prolog; 0 when the whole program came back
     */
    default void sessionRestored(String backend, String sessionId, int droppedEntries) {
    }

    /** The sandbox refused what a call asked for (its error or a diagnostic has kind sandbox_violation). */
    default void sandboxRefused(String backend, String sessionId, String kind, String message) {
    }

    /** The number of idle children in a process backend's warm pool changed (taken or refilled). */
    default void poolChanged(String backend, int idleChildren) {
    }

    /**
     * One listener that passes every event to each of {@code listeners} in order; {@link #NONE} when
     * the list is empty, the listener itself when it has one.
     */
    static PrologListener of(List<PrologListener> listeners) {
        List<PrologListener> all = List.copyOf(listeners);
        if (all.isEmpty()) {
            return NONE;
        }
        if (all.size() == 1) {
            return all.get(0);
        }
        return new Listeners(all);
    }
}

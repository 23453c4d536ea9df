package io.prologtool;

import java.util.Objects;

/**
 * A session that another registry on the same {@link SessionStore} holds: it is open there (in another
 * JVM, a replica behind the same load balancer, or another registry of this JVM), and two registries never
 * serve one session at once. {@link #holder()} names that registry ({@link
 * SessionRegistry.Builder#replicaName(String) its replica name}), for the application or its load balancer
 * to route the call there; the session is served here once the holder lets it go (it evicts it, its time
 * to live ends, the holder's registry closes, or its JVM ends).
 */
public class SessionHeldException extends PrologToolException {

    private static final long serialVersionUID = 1L;

    private final String sessionId;
    private final String holder;

    public SessionHeldException(String sessionId, String holder, String store) {
        super("session_held: session " + sessionId + " is open in "
                + (holder == null || holder.isEmpty() ? "another registry (it has not written its name yet)"
                : "'" + holder + "'") + " on " + store + "; route the call there, or call again once that "
                + "registry lets the session go (an eviction, its time to live, its close, the end of its JVM)");
        this.sessionId = Objects.requireNonNull(sessionId, "sessionId");
        this.holder = holder == null ? "" : holder;
    }

    /** The session's id. */
    public String sessionId() {
        return sessionId;
    }

    /** The replica name of the registry that holds the session; empty when it could not be read. */
    public String holder() {
        return holder;
    }
}

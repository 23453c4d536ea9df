package io.prologtool.store;

import io.prologtool.SessionStore;

/** What every store's lease holds: the session and its holder; each store says how it is let go. */
abstract class StoreLease implements SessionStore.Lease {

    private final String sessionId;
    private final String holder;

    StoreLease(String sessionId, String holder) {
        this.sessionId = sessionId;
        this.holder = holder;
    }

    @Override
    public final String sessionId() {
        return sessionId;
    }

    @Override
    public final String holder() {
        return holder;
    }

    @Override
    public String toString() {
        return "Lease[" + sessionId + ", " + holder + "]";
    }
}

package io.prologtool.store;

import io.prologtool.PrologToolException;
import io.prologtool.SessionStore;

/** What every store's lease holds: the session and its holder; each store says how it is let go. */
abstract class StoreLease implements SessionStore.Lease {

    /**
     * How long a taker refused a lease waits for its holder's name, when the holder has just taken it and
     * not written its name yet (or is letting it go), before the refusal says it has none.
     */
    static final long NAME_WAIT_NANOS = 200_000_000L;

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

    /** A short wait between two looks at a lease whose holder's name is not there yet. */
    static void pause() {
        try {
            Thread.sleep(5);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new PrologToolException("interrupted while asking for a session's lease", e);
        }
    }
}

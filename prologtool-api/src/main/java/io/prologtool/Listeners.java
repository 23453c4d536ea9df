package io.prologtool;

import java.util.List;

/**
 * {@link PrologListener#of}: each event to every listener, in order; each listener's call context kept
 * apart, and a listener that throws does not keep the event from the others.
 */
final class Listeners implements PrologListener {

    private final PrologListener[] all;

    Listeners(List<PrologListener> all) {
        this.all = all.toArray(new PrologListener[0]);
    }

    private static void guarded(Runnable event) {
        try {
            event.run();
        } catch (RuntimeException e) {
            dropped(e);
        }
    }

    private static void dropped(RuntimeException e) {
        io.prologtool.spi.Logs.SESSION.log(System.Logger.Level.WARNING, "a PrologListener threw; the event is dropped", e);
    }

    @Override
    public void sessionOpened(String backend, String sessionId) {
        for (PrologListener l : all) {
            guarded(() -> l.sessionOpened(backend, sessionId));
        }
    }

    @Override
    public void sessionClosed(String backend, String sessionId, CloseReason reason) {
        for (PrologListener l : all) {
            guarded(() -> l.sessionClosed(backend, sessionId, reason));
        }
    }

    @Override
    public Object callStarted(String backend, String sessionId, String kind) {
        Object[] contexts = new Object[all.length];
        for (int i = 0; i < all.length; i++) {
            try {
                contexts[i] = all[i].callStarted(backend, sessionId, kind);
            } catch (RuntimeException e) {
                dropped(e);
            }
        }
        return contexts;
    }

    @Override
    public void callFinished(Call call) {
        Object[] contexts = call.context() instanceof Object[] c && c.length == all.length ? c : new Object[all.length];
        for (int i = 0; i < all.length; i++) {
            PrologListener l = all[i];
            Call own = new Call(call.backend(), call.sessionId(), call.kind(), call.outcome(), call.errorKind(),
                    call.cost(), contexts[i]);
            guarded(() -> l.callFinished(own));
        }
    }

    @Override
    public void sessionCrashed(String backend, String sessionId) {
        for (PrologListener l : all) {
            guarded(() -> l.sessionCrashed(backend, sessionId));
        }
    }

    @Override
    public void sessionRestored(String backend, String sessionId, int droppedEntries) {
        for (PrologListener l : all) {
            guarded(() -> l.sessionRestored(backend, sessionId, droppedEntries));
        }
    }

    @Override
    public void sandboxRefused(String backend, String sessionId, String kind, String message) {
        for (PrologListener l : all) {
            guarded(() -> l.sandboxRefused(backend, sessionId, kind, message));
        }
    }

    @Override
    public void poolChanged(String backend, int idleChildren) {
        for (PrologListener l : all) {
            guarded(() -> l.poolChanged(backend, idleChildren));
        }
    }
}

package io.prologtool;

import java.util.List;

/** {@link PrologListener#of}: each event to every listener; each listener's call context kept apart. */
final class Listeners implements PrologListener {

    private final PrologListener[] all;

    Listeners(List<PrologListener> all) {
        this.all = all.toArray(new PrologListener[0]);
    }

    @Override
    public void sessionOpened(String backend, String sessionId) {
        for (PrologListener l : all) {
            l.sessionOpened(backend, sessionId);
        }
    }

    @Override
    public void sessionClosed(String backend, String sessionId, CloseReason reason) {
        for (PrologListener l : all) {
            l.sessionClosed(backend, sessionId, reason);
        }
    }

    @Override
    public Object callStarted(String backend, String sessionId, String kind) {
        Object[] contexts = new Object[all.length];
        for (int i = 0; i < all.length; i++) {
            contexts[i] = all[i].callStarted(backend, sessionId, kind);
        }
        return contexts;
    }

    @Override
    public void callFinished(Call call) {
        Object[] contexts = call.context() instanceof Object[] c && c.length == all.length ? c : new Object[all.length];
        for (int i = 0; i < all.length; i++) {
            all[i].callFinished(new Call(call.backend(), call.sessionId(), call.kind(), call.outcome(),
                    call.errorKind(), call.cost(), contexts[i]));
        }
    }

    @Override
    public void sessionCrashed(String backend, String sessionId) {
        for (PrologListener l : all) {
            l.sessionCrashed(backend, sessionId);
        }
    }

    @Override
    public void sessionRestored(String backend, String sessionId, int droppedEntries) {
        for (PrologListener l : all) {
            l.sessionRestored(backend, sessionId, droppedEntries);
        }
    }

    @Override
    public void sandboxRefused(String backend, String sessionId, String kind, String message) {
        for (PrologListener l : all) {
            l.sandboxRefused(backend, sessionId, kind, message);
        }
    }

    @Override
    public void poolChanged(String backend, int idleChildren) {
        for (PrologListener l : all) {
            l.poolChanged(backend, idleChildren);
        }
    }
}

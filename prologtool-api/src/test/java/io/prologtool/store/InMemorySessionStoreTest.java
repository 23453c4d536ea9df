package io.prologtool.store;

import io.prologtool.SessionStore;

/** The in-memory store's leases: one holder at a time among the registries that share the store object. */
class InMemorySessionStoreTest extends SessionStoreContract {

    private final SessionStore store = SessionStore.inMemory();

    @Override
    protected SessionStore store() {
        return store;
    }
}

package io.prologtool.store;

import io.prologtool.SessionStore;

/**
 * Run in a child JVM by {@link DurableStoreContract}: takes the lease of session {@code args[1]} as
 * holder {@code args[2]} in the store {@code args[0]} ({@link StoreSpecs}), prints {@code leased}, and
 * holds it until it is killed.
 */
public final class LeaseHolderMain {

    private LeaseHolderMain() {
    }

    public static void main(String[] args) throws InterruptedException {
        SessionStore.Lease lease = StoreSpecs.open(args[0]).lease(args[1], args[2]);
        System.out.println("leased " + lease.sessionId());
        Thread.sleep(Long.MAX_VALUE);
    }
}

package io.prologtool.store;

import io.prologtool.SessionHeldException;
import io.prologtool.SessionStore;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

/**
 * What every store's leases do in one JVM: one holder at a time, whichever store object on the same
 * storage asks; the refusal names the holder; a lease let go can be taken again.
 */
abstract class LeaseContract {

    /** A store object on this test's storage; each call a new one where the store has more than one. */
    protected abstract SessionStore store();

    @Test
    void aLeaseIsHeldByOneHolderAndTheRefusalNamesIt() {
        SessionStore a = store();
        SessionStore b = store();
        try (SessionStore.Lease lease = a.lease("s1", "replica-a")) {
            assertThat(lease.sessionId()).isEqualTo("s1");
            assertThat(lease.holder()).isEqualTo("replica-a");
            for (SessionStore asker : new SessionStore[] {a, b}) {
                SessionHeldException e = catchThrowableOfType(() -> asker.lease("s1", "replica-b"),
                        SessionHeldException.class);
                assertThat(e).as("the lease of s1 is refused while replica-a holds it").isNotNull();
                assertThat(e.holder()).isEqualTo("replica-a");
                assertThat(e.sessionId()).isEqualTo("s1");
                assertThat(e.getMessage()).startsWith("session_held: ").contains("'replica-a'");
            }
            try (SessionStore.Lease other = b.lease("s2", "replica-b")) {
                assertThat(other.holder()).as("another session's lease is free").isEqualTo("replica-b");
            }
        }
        try (SessionStore.Lease again = b.lease("s1", "replica-b")) {
            assertThat(again.holder()).as("let go: taken by another").isEqualTo("replica-b");
            again.close();
            again.close(); // idempotent
        }
        try (SessionStore.Lease third = a.lease("s1", "replica-c")) {
            assertThat(third.holder()).isEqualTo("replica-c");
        }
    }

    @Test
    void leasesAreTakenOnceWhenManyThreadsAskAtOnce() throws Exception {
        SessionStore[] stores = {store(), store()};
        int threads = 8;
        java.util.concurrent.atomic.AtomicInteger taken = new java.util.concurrent.atomic.AtomicInteger();
        java.util.concurrent.atomic.AtomicInteger refused = new java.util.concurrent.atomic.AtomicInteger();
        java.util.concurrent.CountDownLatch go = new java.util.concurrent.CountDownLatch(1);
        java.util.List<SessionStore.Lease> held = java.util.Collections.synchronizedList(new java.util.ArrayList<>());
        java.util.List<Thread> ts = new java.util.ArrayList<>();
        for (int i = 0; i < threads; i++) {
            SessionStore s = stores[i % 2];
            String holder = "t" + i;
            Thread t = new Thread(() -> {
                try {
                    go.await();
                    held.add(s.lease("contended", holder));
                    taken.incrementAndGet();
                } catch (SessionHeldException e) {
                    refused.incrementAndGet();
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
            });
            t.start();
            ts.add(t);
        }
        go.countDown();
        for (Thread t : ts) {
            t.join(30_000);
        }
        assertThat(taken.get()).isEqualTo(1);
        assertThat(refused.get()).isEqualTo(threads - 1);
        held.forEach(SessionStore.Lease::close);
    }
}

package io.prologtool.store;

import io.prologtool.SessionHeldException;
import io.prologtool.SessionStore;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

/**
 * What every store does in one JVM: its leases have one holder at a time, whichever store object on the
 * same storage asks, the refusal names the holder, and a lease let go can be taken again; it says when
 * each checkpoint was last saved.
 */
abstract class SessionStoreContract {

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
    void eachCheckpointSaysWhenItWasLastSaved() throws Exception {
        SessionStore store = store();
        java.time.Instant before = java.time.Instant.now().minusSeconds(1);
        store.save(new io.prologtool.SessionCheckpoint("old", io.prologtool.SessionOptions.defaults(), "o.\n",
                java.util.List.of(), java.time.Instant.parse("2020-01-01T00:00:00Z")));
        java.time.Instant between = store.savedAt("old").orElseThrow().plusMillis(1);
        assertThat(store.savedAt("old").orElseThrow()).as("when it was saved, not taken").isAfter(before);
        Thread.sleep(20);
        store.save(new io.prologtool.SessionCheckpoint("new", io.prologtool.SessionOptions.defaults(), "n.\n",
                java.util.List.of(), java.time.Instant.parse("2020-01-01T00:00:00Z")));
        assertThat(store.sessionIdsSavedBefore(between)).containsExactly("old");
        assertThat(store.sessionIdsSavedBefore(java.time.Instant.now().plusSeconds(1)))
                .containsExactlyInAnyOrder("old", "new");
        assertThat(store.savedAt("none")).isEmpty();
        store.delete("old");
        assertThat(store.savedAt("old")).isEmpty();
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

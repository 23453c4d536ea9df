package io.prologtool.store;

import io.prologtool.SessionHeldException;
import io.prologtool.SessionStore;
import org.junit.jupiter.api.Test;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

/**
 * The leases of a store that outlives the JVM: one held by another JVM is refused here with that JVM's
 * holder name, and is free at once when that JVM is killed with kill -9.
 */
abstract class DurableStoreContract extends SessionStoreContract {

    /** The store as {@link StoreSpecs#open} names it, for the child JVM. */
    protected abstract String spec();

    @Test
    void theLeaseOfAJvmKilledWithKill9IsFreeAtOnce() throws Exception {
        Path log = Files.createTempFile("lease-holder", ".log");
        Path java = Path.of(System.getProperty("java.home"), "bin", "java");
        Process child = new ProcessBuilder(java.toString(), "-Xmx64m", "-cp", System.getProperty("java.class.path"),
                LeaseHolderMain.class.getName(), spec(), "s-killed", "the-child")
                .redirectErrorStream(true).redirectOutput(log.toFile()).start();
        try {
            long until = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
            while (System.nanoTime() < until && child.isAlive() && !Files.readString(log).contains("leased")) {
                Thread.sleep(20);
            }
            assertThat(Files.readString(log)).as("the child took the lease").contains("leased s-killed");
            SessionHeldException e = catchThrowableOfType(() -> store().lease("s-killed", "here"),
                    SessionHeldException.class);
            assertThat(e).as("held by the live child").isNotNull();
            assertThat(e.holder()).isEqualTo("the-child");
        } finally {
            child.destroyForcibly(); // SIGKILL on Linux
            assertThat(child.waitFor(30, TimeUnit.SECONDS)).isTrue();
        }
        SessionStore store = store();
        SessionStore.Lease lease = null;
        long until = System.nanoTime() + TimeUnit.SECONDS.toNanos(5);
        while (lease == null) {
            try {
                lease = store.lease("s-killed", "here");
            } catch (SessionHeldException e) {
                // the server may not have seen the connection close yet
                assertThat(System.nanoTime()).as("free within 5 s of the kill").isLessThan(until);
                Thread.sleep(20);
            }
        }
        assertThat(lease.holder()).isEqualTo("here");
        lease.close();
        Files.deleteIfExists(log);
    }
}

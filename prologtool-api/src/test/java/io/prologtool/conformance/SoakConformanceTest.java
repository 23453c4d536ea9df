package io.prologtool.conformance;

import io.prologtool.GoalResult;
import io.prologtool.Outcome;
import io.prologtool.PrologSession;
import io.prologtool.SessionClosedException;
import io.prologtool.SessionRegistry;
import io.prologtool.Term;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * 3,000 sessions opened and closed by 8 threads through a registry with a small cap (eviction) and a
 * TTL that a fake clock makes expire: no leaked resources, and the registry's counts add up.
 */
public abstract class SoakConformanceTest extends BackendFixture {

    /** Sessions opened in the soak. */
    protected int sessions() {
        return 3_000;
    }

    /** What the backend still holds for sessions (children, modules); must return to where it started. */
    protected abstract long liveResources(io.prologtool.PrologBackend backend);

    /**
     * The files this backend keeps on disk for its sessions, counted in its own folders only (never the
     * machine's temporary folder, where other processes' files come and go). Default: none.
     */
    protected long ownFiles(io.prologtool.PrologBackend backend) {
        return 0;
    }

    /**
     * Waits until the backend is at rest (a process backend's pool full), so that the baseline the soak
     * is compared with is not taken while a pool is still filling. Default: at rest at once.
     */
    protected void awaitSettled(io.prologtool.PrologBackend backend) throws InterruptedException {
    }

    /** Files below {@code dir}, the folder itself not counted; 0 when it does not exist. */
    protected static long filesBelow(Path dir) {
        if (!Files.isDirectory(dir)) {
            return 0;
        }
        try (Stream<Path> s = Files.walk(dir)) {
            return s.count() - 1;
        } catch (IOException e) {
            throw new AssertionError(e);
        }
    }

    @Test
    void thousandsOfSessionsWithEvictionAndExpiryLeakNothing() throws Exception {
        session.close();
        session = null;
        awaitSettled(backend);
        long resourcesBefore = liveResources(backend);
        long filesBefore = ownFiles(backend);
        RegistryConformanceTest.FakeClock clock = new RegistryConformanceTest.FakeClock();
        int threads = 8;
        int total = sessions();
        AtomicInteger next = new AtomicInteger();
        AtomicInteger wrongAnswers = new AtomicInteger();
        List<String> wrong = java.util.Collections.synchronizedList(new ArrayList<>());
        AtomicInteger closedUnderUs = new AtomicInteger();
        try (SessionRegistry registry = SessionRegistry.builder(backend).maxSessions(12)
                .idleTtl(Duration.ofMinutes(1)).clock(clock).build()) {
            ExecutorService pool = Executors.newFixedThreadPool(threads);
            List<Future<?>> fs = new ArrayList<>();
            for (int t = 0; t < threads; t++) {
                fs.add(pool.submit(() -> {
                    int i;
                    while ((i = next.getAndIncrement()) < total) {
                        PrologSession s = registry.consult("mine(" + i + ").").session();
                        try {
                            GoalResult r = s.goal("mine(X)").run();
                            if (r.outcome() != Outcome.SUCCESS || !r.answers().get(0).get("X").equals(Term.integer(i))) {
                                wrongAnswers.incrementAndGet();
                                wrong.add("session " + i + ": " + r);
                            }
                        } catch (SessionClosedException evictedOrExpired) {
                            closedUnderUs.incrementAndGet();
                        }
                        switch (i % 4) {
                            case 0 -> registry.close(s.id());
                            case 1 -> s.close();
                            case 2 -> clock.advance(Duration.ofSeconds(20)); // others expire
                            default -> { } // left for eviction
                        }
                        if (i % 50 == 0) {
                            registry.reapExpired();
                        }
                    }
                    return null;
                }));
            }
            for (Future<?> f : fs) {
                f.get(20, TimeUnit.MINUTES);
            }
            pool.shutdown();
            SessionRegistry.Stats st = registry.stats();
            assertThat(st.opened()).isEqualTo(total);
            assertThat(st.open()).isEqualTo(registry.size());
            assertThat(st.closed() + st.evicted() + st.expired() + registry.size()).isEqualTo(total);
            assertThat(st.evicted()).isPositive();
            assertThat(st.expired()).isPositive();
        }
        assertThat(wrongAnswers.get()).as("a session answered another's data: %s", wrong).isZero();
        long deadline = System.nanoTime() + Duration.ofSeconds(20).toNanos();
        while (liveResources(backend) > resourcesBefore && System.nanoTime() < deadline) {
            Thread.sleep(50);
        }
        // at most what it held before: a process backend's pool may hold a child fewer than at the start,
        // when the child of the session closed just before was still waiting for its check then
        assertThat(liveResources(backend)).as("resources held after the soak").isLessThanOrEqualTo(resourcesBefore);
        assertThat(ownFiles(backend)).as("the backend's own files").isLessThanOrEqualTo(filesBefore);
    }
}

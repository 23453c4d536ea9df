package io.prologtool.conformance;

import io.prologtool.GoalResult;
import io.prologtool.Outcome;
import io.prologtool.PrologSession;
import io.prologtool.SessionClosedException;
import io.prologtool.SessionOptions;
import io.prologtool.SessionRegistry;
import io.prologtool.Term;
import io.prologtool.tools.PrologTools;
import org.junit.jupiter.api.Test;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** The session registry over a real backend: LRU eviction, idle TTL, stats, and the tool layer on top. */
public abstract class RegistryConformanceTest extends BackendFixture {

    /** A clock the test moves by hand. */
    static final class FakeClock extends Clock {
        private final AtomicReference<Instant> now = new AtomicReference<>(Instant.parse("2026-01-01T00:00:00Z"));

        void advance(Duration d) {
            now.updateAndGet(i -> i.plus(d));
        }

        @Override
        public Instant instant() {
            return now.get();
        }

        @Override
        public java.time.ZoneId getZone() {
            return ZoneOffset.UTC;
        }

        @Override
        public Clock withZone(java.time.ZoneId zone) {
            return this;
        }
    }

    private static Term secret(PrologSession s) {
        GoalResult r = s.goal("secret(X)").run();
        return r.answers().get(0).get("X");
    }

    @Test
    void overTheCapTheLeastRecentlyUsedSessionIsEvicted() {
        try (SessionRegistry registry = SessionRegistry.builder(backend).maxSessions(2).build()) {
            PrologSession a = registry.consult("secret(a).").session();
            PrologSession b = registry.consult("secret(b).").session();
            assertThat(secret(a)).isEqualTo(Term.atom("a")); // a is now more recent than b
            PrologSession c = registry.consult("secret(c).").session();
            assertThat(registry.size()).isEqualTo(2);
            assertThat(registry.get(b.id())).isEmpty();
            assertThat(registry.closedReason(b.id())).contains(SessionRegistry.ClosedReason.EVICTED);
            assertThatThrownBy(() -> b.goal("secret(X)").run())
                    .isInstanceOf(SessionClosedException.class).hasMessageContaining("session_closed: evicted");
            assertThat(secret(a)).isEqualTo(Term.atom("a"));
            assertThat(secret(c)).isEqualTo(Term.atom("c"));
            assertThat(registry.stats().evicted()).isEqualTo(1);
            assertThat(registry.stats().opened()).isEqualTo(3);
        }
    }

    @Test
    void aSessionInTheMiddleOfACallIsNotEvictedWhileAnIdleOneCanBe() throws Exception {
        try (SessionRegistry registry = SessionRegistry.builder(backend).maxSessions(2).build()) {
            PrologSession working = registry.consult("secret(working).").session();
            ExecutorService pool = Executors.newSingleThreadExecutor();
            try {
                Future<GoalResult> call = pool.submit(() -> working.goal("sleep(2), secret(X)").run());
                Thread.sleep(500);   // the call is under way: working was used last when it began
                PrologSession idle = registry.consult("secret(idle).").session();
                assertThat(secret(idle)).isEqualTo(Term.atom("idle"));   // idle is now the more recent
                PrologSession third = registry.consult("secret(third).").session();
                assertThat(registry.closedReason(idle.id())).contains(SessionRegistry.ClosedReason.EVICTED);
                assertThat(registry.closedReason(working.id())).isEmpty();
                GoalResult r = call.get(30, TimeUnit.SECONDS);
                assertThat(r.outcome()).isEqualTo(Outcome.SUCCESS);
                assertThat(r.answers().get(0).get("X")).isEqualTo(Term.atom("working"));
                assertThat(secret(third)).isEqualTo(Term.atom("third"));
                assertThat(registry.size()).isEqualTo(2);
            } finally {
                pool.shutdownNow();
            }
        }
    }

    @Test
    void idleSessionsExpireByTheRegistryClock() {
        FakeClock clock = new FakeClock();
        try (SessionRegistry registry = SessionRegistry.builder(backend).idleTtl(Duration.ofMinutes(10))
                .clock(clock).build()) {
            PrologSession idle = registry.consult("secret(idle).").session();
            PrologSession busy = registry.consult("secret(busy).").session();
            clock.advance(Duration.ofMinutes(6));
            assertThat(secret(busy)).isEqualTo(Term.atom("busy"));
            assertThat(registry.reapExpired()).isZero();
            clock.advance(Duration.ofMinutes(6));
            assertThat(registry.reapExpired()).isEqualTo(1);
            assertThat(registry.closedReason(idle.id())).contains(SessionRegistry.ClosedReason.EXPIRED);
            assertThat(idle.isOpen()).isFalse();
            assertThat(secret(busy)).isEqualTo(Term.atom("busy"));
            assertThat(registry.stats().expired()).isEqualTo(1);
        }
    }

    @Test
    void closingByIdOrDirectlyIsCountedOnce() {
        try (SessionRegistry registry = SessionRegistry.builder(backend).build()) {
            PrologSession a = registry.open();
            PrologSession b = registry.open();
            assertThat(registry.close(a.id())).isTrue();
            assertThat(registry.close(a.id())).isFalse();
            b.close();
            assertThat(registry.size()).isZero();
            assertThat(registry.closedReason(b.id())).contains(SessionRegistry.ClosedReason.CLOSED);
            SessionRegistry.Stats st = registry.stats();
            assertThat(st.closed()).isEqualTo(2);
            assertThat(st.open()).isZero();
        }
    }

    @Test
    void sessionsOpenWithTheRegistrysOptions() {
        SessionOptions sandboxed = SessionOptions.builder().sandboxed(true).build();
        String unsafe = "read_file_to_string('/etc/hostname', _, [])";
        try (SessionRegistry registry = SessionRegistry.builder(backend).sessionOptions(sandboxed).build();
             PrologTools tools = PrologTools.over(registry)) {
            GoalResult refused = registry.consult("p(1).").session().goal(unsafe).run();
            assertThat(refused.outcome()).isEqualTo(Outcome.ERROR);
            assertThat(refused.error().orElseThrow().kind()).isEqualTo("sandbox_violation");
            // the tool layer's consult_text opens its sessions the same way
            String id = tools.call("consult_text", "{\"source_text\": \"p(1).\"}")
                    .replaceAll(".*\"load_id\":\"([^\"]+)\".*", "$1");
            assertThat(tools.call("run_goal", "{\"load_id\": \"" + id + "\", \"goal\": \"" + unsafe + "\"}"))
                    .contains("\"kind\":\"sandbox_violation\"");
            // an explicit open(options) is not overridden
            try (PrologSession plain = registry.open(SessionOptions.defaults())) {
                assertThat(plain.goal(unsafe).run().outcome()).isEqualTo(Outcome.SUCCESS);
            }
        }
        try (SessionRegistry registry = SessionRegistry.builder(backend).build()) {
            assertThat(registry.consult("p(1).").session().goal(unsafe).run().outcome()).isEqualTo(Outcome.SUCCESS);
        }
    }

    @Test
    void toolLayerReportsEvictionByName() {
        try (SessionRegistry registry = SessionRegistry.builder(backend).maxSessions(1).build();
             PrologTools tools = PrologTools.over(registry)) {
            String first = tools.call("consult_text", "{\"source_text\": \"secret(1).\"}");
            String id = first.replaceAll(".*\"load_id\":\"([^\"]+)\".*", "$1");
            tools.call("consult_text", "{\"source_text\": \"secret(2).\"}");
            String reply = tools.call("run_goal", "{\"load_id\": \"" + id + "\", \"goal\": \"secret(X)\"}");
            assertThat(reply).contains("\"ok\":false").contains("session_closed: evicted").doesNotContain("\"value\":2");
        }
    }

    @Test
    void concurrentOpensRespectTheCapAndCountsAddUp() throws Exception {
        int threads = 4;
        int perThread = 3;
        try (SessionRegistry registry = SessionRegistry.builder(backend).maxSessions(3).build()) {
            ExecutorService pool = Executors.newFixedThreadPool(threads);
            List<Future<?>> fs = new ArrayList<>();
            for (int t = 0; t < threads; t++) {
                int tt = t;
                fs.add(pool.submit(() -> {
                    for (int i = 0; i < perThread; i++) {
                        try {   // four threads over a cap of three: a session may be evicted mid-call
                            PrologSession s = registry.consult("secret(" + tt + ").").session();
                            GoalResult r = s.goal("secret(X)").run();
                            if (r.outcome() == Outcome.CANCELLED) {
                                continue; // evicted during the goal: closing a session cancels its running call
                            }
                            assertThat(r.answers().get(0).get("X")).isEqualTo(Term.integer(tt));
                            if (i % 2 == 0) {
                                registry.close(s.id());
                            }
                        } catch (SessionClosedException evictedMeanwhile) {
                            assertThat(evictedMeanwhile.getMessage()).contains("evicted");
                        }
                    }
                    return null;
                }));
            }
            for (Future<?> f : fs) {
                f.get(120, TimeUnit.SECONDS);
            }
            pool.shutdown();
            assertThat(registry.size()).isLessThanOrEqualTo(3);
            SessionRegistry.Stats st = registry.stats();
            assertThat(st.opened()).isEqualTo(threads * perThread);
            assertThat(st.open()).isEqualTo(registry.size());
        }
    }
}

package io.prologtool.process;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.prologtool.PrologListener;
import io.prologtool.PrologSession;
import io.prologtool.SessionClosedException;
import io.prologtool.SessionOptions;
import io.prologtool.conformance.CapturingLoggerFinder;
import io.prologtool.json.TermJson;
import io.prologtool.spi.HarnessCrashedException;
import io.prologtool.spi.HarnessSession;
import io.prologtool.spi.HarnessTransport;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** What the process backend tells its logs and listener when children die, restore and pool. */
class ProcessObservabilityTest {

    private static final System.Logger.Level WARNING = System.Logger.Level.WARNING;

    /** Records crash, restore, close and pool events as text. */
    static final class Recorder implements PrologListener {
        final List<String> heard = Collections.synchronizedList(new ArrayList<>());
        final List<Integer> idle = Collections.synchronizedList(new ArrayList<>());

        @Override
        public void sessionClosed(String backend, String sessionId, CloseReason reason) {
            heard.add("closed " + sessionId + " " + reason.wireName());
        }

        @Override
        public void sessionCrashed(String backend, String sessionId) {
            heard.add("crashed " + sessionId);
        }

        @Override
        public void sessionRestored(String backend, String sessionId, int droppedEntries) {
            heard.add("restored " + sessionId + " " + droppedEntries);
        }

        @Override
        public void poolChanged(String backend, int idleChildren) {
            idle.add(idleChildren);
        }
    }

    @Test
    void aChildThatDiesIsCrashedThenRestoredForTheListenerAndAWarningInTheLog() throws Exception {
        Recorder r = new Recorder();
        try (CapturingLoggerFinder.Capture log = CapturingLoggerFinder.capture();
             ProcessBackend backend = ProcessBackend.builder().isolation(Isolation.none()).listener(r).build();
             PrologSession s = backend.open()) {
            s.consult("kept(1).");
            long pid = ProcessBackendTest.childPid(s);
            ProcessHandle.of(pid).orElseThrow().destroyForcibly();
            ProcessBackendTest.awaitGone(pid);
            assertThat(s.goal("kept(X)").run().succeeded()).isTrue();
            assertThat(r.heard).containsSubsequence("crashed " + s.id(), "restored " + s.id() + " 0");
            assertThat(log.events("io.prologtool.session", WARNING, "session " + s.id() + " on the process backend died"))
                    .hasSize(1);
        }
    }

    @Test
    void aJournalEntryDroppedWhileRestoringIsAWarning() {
        Recorder r = new Recorder();
        try (CapturingLoggerFinder.Capture log = CapturingLoggerFinder.capture();
             ProcessBackend backend = ProcessBackend.builder().isolation(Isolation.none()).listener(r).build();
             PrologSession s = backend.open()) {
            s.consult("kept(1).");
            s.consult("killer.\n:- shell('kill -9 $PPID').\n");
            assertThat(log.events("io.prologtool.session", WARNING, "Dropped from session " + s.id()))
                    .anyMatch(e -> e.message().contains("starting \"killer.\""));
            assertThat(r.heard).contains("restored " + s.id() + " 1");
        }
    }

    @Test
    void aSessionThatCannotBeRestoredIsClosedWithAWarningAndItsReason() {
        Recorder r = new Recorder();
        AtomicInteger made = new AtomicInteger();
        try (CapturingLoggerFinder.Capture log = CapturingLoggerFinder.capture()) {
            HarnessSession s = HarnessSession.open("gone1", SessionOptions.defaults(), () -> {
                if (made.getAndIncrement() > 0) {
                    throw new HarnessCrashedException("swipl is gone from the far host");
                }
                return new DiesOnConsult();
            }, Duration.ZERO, () -> { }, "scripted", r);
            assertThatThrownBy(() -> s.consult("die.")).isInstanceOf(SessionClosedException.class);
            assertThat(r.heard).containsSubsequence("crashed gone1", "closed gone1 not_restored");
            assertThat(log.events("io.prologtool.session", WARNING, "session gone1 on the scripted backend is closed"))
                    .singleElement().satisfies(e -> assertThat(e.message()).contains("swipl is gone from the far host"));
            s.close();
            assertThat(r.heard).filteredOn(e -> e.startsWith("closed gone1")).hasSize(1);
        }
    }

    @Test
    void theListenerSeesThePoolAndTheLogItsRefills() throws Exception {
        Recorder r = new Recorder();
        try (CapturingLoggerFinder.Capture log = CapturingLoggerFinder.capture();
             ProcessBackend backend = ProcessBackend.builder().isolation(Isolation.none()).poolSize(1)
                     .reuseChildren(false).listener(r).build()) {
            ProcessBackendTest.awaitChildren(backend, 1);
            long deadline = System.nanoTime() + Duration.ofSeconds(30).toNanos();
            while (backend.idleChildren() < 1 && System.nanoTime() < deadline) {
                Thread.sleep(10);
            }
            PrologSession s = backend.open();
            s.close();
            while ((r.idle.isEmpty() || r.idle.get(r.idle.size() - 1) != 1) && System.nanoTime() < deadline) {
                Thread.sleep(10);
            }
            assertThat(r.idle).as("idle children as the listener heard them").contains(0, 1);
            assertThat(r.idle.get(r.idle.size() - 1)).isEqualTo(backend.idleChildren());
            assertThat(log.events("io.prologtool.pool", System.Logger.Level.DEBUG, "pool refilled")).isNotEmpty();
            assertThat(r.heard).contains("closed " + s.id() + " closed");
        }
        assertThat(r.heard).noneMatch(e -> e.endsWith("backend_closed"));
    }

    @Test
    void closingTheBackendClosesItsSessionsWithThatReason() {
        Recorder r = new Recorder();
        PrologSession s;
        try (ProcessBackend backend = ProcessBackend.builder().isolation(Isolation.none()).listener(r).build()) {
            s = backend.open();
        }
        assertThat(r.heard).containsExactly("closed " + s.id() + " backend_closed");
    }

    /** Answers ok to everything, and dies on a consult whose text contains "die". */
    private static final class DiesOnConsult implements HarnessTransport {
        private boolean alive = true;

        @Override
        public JsonNode call(ObjectNode request, Duration timeout) {
            if (!alive) {
                throw new HarnessCrashedException("dead");
            }
            if (request.path("text").asText("").contains("die")) {
                alive = false;
                throw new HarnessCrashedException("the child exited with status 137");
            }
            ObjectNode ok = TermJson.mapper().createObjectNode();
            ok.put("ok", true);
            ok.putArray("messages");
            return ok;
        }

        @Override
        public boolean isAlive() {
            return alive;
        }

        @Override
        public void close() {
            alive = false;
        }
    }
}

package io.prologtool.spi;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.prologtool.SessionClosedException;
import io.prologtool.SessionOptions;
import io.prologtool.json.TermJson;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Supplier;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * How a session restores itself into a fresh Prolog, with scripted transports: the backends' tests
 * show the same on real Prologs; these pin down the cases a real Prolog makes hard to stage.
 */
class HarnessSessionRestoreTest {

    /** A transport that answers ok to everything, and dies on a consult whose text contains "die". */
    static class Scripted implements HarnessTransport {
        final List<String> seen = new ArrayList<>();
        boolean alive = true;

        @Override
        public JsonNode call(ObjectNode request, Duration timeout) {
            if (!alive) {
                throw new HarnessCrashedException("dead");
            }
            seen.add(request.path("op").asText() + ":" + request.path("text").asText(""));
            if (request.path("text").asText("").contains("die")) {
                alive = false;
                throw new HarnessCrashedException("the child exited with status 137");
            }
            return ok();
        }

        /** The reply to any request that went well: ok, no messages, one answer. */
        static JsonNode ok() {
            ObjectNode r = TermJson.mapper().createObjectNode();
            r.put("ok", true);
            r.putArray("messages");
            r.put("outcome", "success");
            r.putArray("answers").addObject();
            return r;
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

    @Test
    void anEntryThatStopsTheFreshPrologIsDroppedAndTheRestReplayed() {
        List<Scripted> made = new ArrayList<>();
        Supplier<HarnessTransport> supply = () -> {
            Scripted t = new Scripted();
            made.add(t);
            return t;
        };
        HarnessSession s = HarnessSession.open("s1", SessionOptions.defaults(), supply, Duration.ZERO, () -> { });
        s.consult("a.");
        // "die." stops the first Prolog; the session is restored at once, and replaying "die." stops the
        // second as well: it is dropped, and a third Prolog gets "a." only. The consult's reply says so.
        assertThat(s.consult("die.").messages()).extracting(d -> d.message())
                .anyMatch(m -> m.contains("stopped while loading"))
                .anyMatch(m -> m.contains("Dropped from session s1") && m.contains("starting \"die.\"")
                        && m.contains("stopped the Prolog"));
        assertThat(made).hasSize(3);
        assertThat(made.get(2).seen).containsExactly("open:", "consult:a.");
        assertThat(s.consult("b.").messages()).isEmpty();
        assertThat(made).hasSize(3);
        assertThat(s.messages(io.prologtool.Severity.INFO)).anySatisfy(d ->
                assertThat(d.message()).contains("Dropped from session s1").contains("starting \"die.\""));
        assertThat(s.isOpen()).isTrue();
    }

    @Test
    void anEntryDroppedOnALaterRestoreIsReportedByTheCallThatMetIt() {
        List<Scripted> made = new ArrayList<>();
        boolean[] poison = {false};
        Supplier<HarnessTransport> supply = () -> {
            Scripted t = new Scripted() {
                @Override
                public JsonNode call(ObjectNode request, Duration timeout) {
                    if (poison[0] && request.path("text").asText("").equals("flaky.")) {
                        alive = false;
                        throw new HarnessCrashedException("killed by the OOM killer");
                    }
                    return super.call(request, timeout);
                }
            };
            made.add(t);
            return t;
        };
        HarnessSession s = HarnessSession.open("s3", SessionOptions.defaults(), supply, Duration.ZERO, () -> { });
        s.consult("a.");
        s.consult("flaky.");
        made.get(0).alive = false;          // the child dies between calls
        poison[0] = true;
        var r = s.goal("a").run();
        assertThat(r.error()).hasValueSatisfying(e -> assertThat(e.message())
                .contains("starting \"flaky.\"").contains("killed by the OOM killer").contains("call again"));
        assertThat(s.goal("a").run().succeeded()).isTrue();
        assertThat(made.get(made.size() - 1).seen).containsExactly("open:", "consult:a.", "goal:");
    }

    @Test
    void aSessionThatCannotBeRestoredIsClosedWithTheReason() {
        AtomicInteger n = new AtomicInteger();
        AtomicInteger closed = new AtomicInteger();
        Supplier<HarnessTransport> supply = () -> {
            if (n.getAndIncrement() > 0) {
                throw new HarnessCrashedException("swipl is gone from the far host");
            }
            return new Scripted();
        };
        HarnessSession s = HarnessSession.open("s2", SessionOptions.defaults(), supply, Duration.ZERO, closed::incrementAndGet);
        assertThatThrownBy(() -> s.consult("die."))
                .isInstanceOf(SessionClosedException.class)
                .hasMessageContaining("could not be restored").hasMessageContaining("swipl is gone from the far host");
        assertThat(s.isOpen()).isFalse();
        assertThat(closed).hasValue(1);
        assertThatThrownBy(() -> s.goal("true").run())
                .isInstanceOf(SessionClosedException.class).hasMessageContaining("swipl is gone from the far host");
        s.close();
        assertThat(closed).hasValue(1);
    }
}

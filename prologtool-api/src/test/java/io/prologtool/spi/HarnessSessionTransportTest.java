package io.prologtool.spi;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.prologtool.PrologToolException;
import io.prologtool.SessionOptions;
import io.prologtool.json.TermJson;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Consumer;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * What a session asks of its transport besides calls: its open sent ahead ({@link HarnessTransport#callAhead}),
 * whose reply the first request takes, and its close posted ({@link HarnessTransport#post}), with a
 * scripted transport; the process backend's tests show the same on real children.
 */
class HarnessSessionTransportTest {

    /**
     * {@link HarnessSessionRestoreTest.Scripted} (answers ok, dies on a consult whose text contains "die")
     * that keeps a request sent ahead the way a child process does, refusing it when told to, and notes
     * what came ahead and what was posted.
     */
    static final class Deferring extends HarnessSessionRestoreTest.Scripted {
        final boolean refuseOpen;
        private JsonNode aheadReply;
        private Consumer<JsonNode> aheadCheck;

        Deferring(boolean refuseOpen) {
            this.refuseOpen = refuseOpen;
        }

        @Override
        public void callAhead(ObjectNode request, Duration timeout, Consumer<JsonNode> check) {
            seen.add("ahead:" + request.path("op").asText());
            aheadReply = refuseOpen ? refusal() : ok();
            aheadCheck = check;
        }

        @Override
        public JsonNode call(ObjectNode request, Duration timeout) {
            if (alive && aheadCheck != null) { // what a child does: the reply sent ahead comes in first
                Consumer<JsonNode> check = aheadCheck;
                aheadCheck = null;
                check.accept(aheadReply);
            }
            return super.call(request, timeout);
        }

        @Override
        public void post(ObjectNode request, Duration timeout) {
            seen.add("post:" + request.path("op").asText());
        }

        private static JsonNode refusal() {
            ObjectNode r = TermJson.mapper().createObjectNode();
            r.put("ok", false);
            r.putObject("error").put("kind", "permission_error").put("message", "No permission to open session");
            return r;
        }
    }

    @Test
    void aNewSessionSendsItsOpenAheadAndItsFirstRequestWaitsForIt() {
        Deferring t = new Deferring(false);
        HarnessSession s = HarnessSession.open("a1", SessionOptions.defaults(), () -> t, Duration.ZERO, () -> { });
        assertThat(t.seen).containsExactly("ahead:open");
        assertThat(s.consult("a.").messages()).isEmpty();
        assertThat(t.seen).containsExactly("ahead:open", "consult:a.");
    }

    @Test
    void anOpenTheHarnessRefusedFailsTheFirstRequestWithTheRefusal() {
        Deferring t = new Deferring(true);
        HarnessSession s = HarnessSession.open("a2", SessionOptions.defaults(), () -> t, Duration.ZERO, () -> { });
        assertThatThrownBy(() -> s.consult("a."))
                .isInstanceOf(PrologToolException.class)
                .hasMessageContaining("the harness refused open").hasMessageContaining("No permission to open session");
    }

    @Test
    void aRestoreWaitsForItsOpenBeforeItReplays() {
        List<Deferring> made = new ArrayList<>();
        HarnessSession s = HarnessSession.open("a3", SessionOptions.defaults(), () -> {
            Deferring t = new Deferring(false);
            made.add(t);
            return t;
        }, Duration.ZERO, () -> { });
        s.consult("a.");
        s.consult("die.");
        assertThat(made).hasSizeGreaterThanOrEqualTo(2);
        assertThat(made.get(0).seen).startsWith("ahead:open");
        assertThat(made.get(1).seen).startsWith("open:", "consult:a.");
    }

    @Test
    void aClosingSessionPostsItsCloseAndClosesTheTransport() {
        Deferring t = new Deferring(false);
        HarnessSession s = HarnessSession.open("a4", SessionOptions.defaults(), () -> t, Duration.ZERO, () -> { });
        s.consult("a.");
        s.close();
        assertThat(t.seen).containsExactly("ahead:open", "consult:a.", "post:close");
        assertThat(t.isAlive()).isFalse();
    }
}

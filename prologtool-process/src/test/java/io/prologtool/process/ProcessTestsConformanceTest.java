package io.prologtool.process;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.prologtool.Outcome;
import io.prologtool.PrologBackend;
import io.prologtool.PrologSession;
import io.prologtool.TestReport;
import io.prologtool.conformance.TestsConformanceTest;
import io.prologtool.json.TermJson;
import io.prologtool.spi.Harness;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.io.OutputStreamWriter;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;

class ProcessTestsConformanceTest extends TestsConformanceTest {
    @Override
    protected PrologBackend createBackend() {
        return ProcessBackend.builder().build();
    }

    /** A restored session gets its test units back (replayed with {@code "run": false}), once each. */
    @Test
    void unitsSurviveARestartOfTheSessionsProlog() {
        try (ProcessBackend b = ProcessBackend.builder().timeoutGrace(Duration.ofMillis(500)).build();
             PrologSession s = b.open()) {
            s.consult("parent(tom, bob).\nloop :- repeat, fail.\n");
            String tests = ":- begin_tests(family).\ntest(yes) :- parent(tom, bob).\n"
                    + "test(no) :- parent(bob, tom).\n:- end_tests(family).\n";
            TestReport before = s.runTests(tests);
            assertThat(before.total()).as("%s", before).isEqualTo(2);
            s.runTests(tests); // twice in the journal: the replay must not duplicate the unit

            // a goal that swallows its time limit: the child is killed, the next call restores the session
            assertThat(s.goal("catch(loop, _, loop)").timeLimit(Duration.ofMillis(300)).run().outcome())
                    .isEqualTo(Outcome.TIMEOUT);
            TestReport after = s.runTests();
            assertThat(after.error()).as("%s", after).isEmpty();
            assertThat(after.results()).isEqualTo(before.results());
        }
    }

    /**
     * The process backend gives each session its own Prolog; an in-process backend keeps every session in
     * one. This drives one harness with several sessions, as an in-process backend does: units of the
     * same name stay apart, and a closed session's units are gone (running them would crash swipl).
     */
    @Test
    void sessionsSharingOnePrologKeepTheirUnitsApart(@TempDir Path dir) throws Exception {
        Path harness = Harness.extractTo(dir);
        Process p = new ProcessBuilder("swipl", "-q", "-g", Harness.SERVE_GOAL, "-t", "halt(1)", harness.toString())
                .redirectError(ProcessBuilder.Redirect.DISCARD).start();
        ObjectMapper json = TermJson.mapper();
        try (Writer in = new OutputStreamWriter(p.getOutputStream(), StandardCharsets.UTF_8);
             BufferedReader out = new BufferedReader(new InputStreamReader(p.getInputStream(), StandardCharsets.UTF_8))) {
            int[] id = {0};
            java.util.function.Function<ObjectNode, JsonNode> call = req -> {
                try {
                    req.put("id", ++id[0]);
                    in.write(json.writeValueAsString(req) + "\n");
                    in.flush();
                    String line = out.readLine();
                    while (line != null && !line.startsWith("{")) {
                        line = out.readLine(); // what swipl itself writes at start-up
                    }
                    assertThat(line).as("reply to %s (did swipl die?)", req).isNotNull();
                    JsonNode reply = json.readTree(line);
                    assertThat(reply.path("ok").asBoolean()).as("%s -> %s", req, reply).isTrue();
                    return reply;
                } catch (java.io.IOException e) {
                    throw new java.io.UncheckedIOException(e);
                }
            };
            java.util.function.BiFunction<String, String, ObjectNode> req = (op, session) -> {
                ObjectNode r = json.createObjectNode();
                r.put("op", op);
                r.put("session", session);
                return r;
            };
            java.util.function.BiFunction<String, String, List<String>> run = (session, text) -> {
                ObjectNode r = req.apply("run_tests", session);
                r.put("text", text);
                r.put("time_limit", 10);
                JsonNode reply = call.apply(r);
                assertThat(reply.path("messages")).as("%s", reply).isEmpty();
                List<String> names = new ArrayList<>();
                reply.path("results").forEach(c -> names.add(c.path("unit").asText() + ":" + c.path("name").asText()
                        + "=" + c.path("status").asText()));
                return names;
            };

            call.apply(req.apply("open", "a"));
            call.apply(req.apply("open", "b"));
            call.apply(req.apply("consult", "a").put("text", "p(1)."));
            call.apply(req.apply("consult", "b").put("text", "p(2)."));
            assertThat(run.apply("a", ":- begin_tests(family).\ntest(mine) :- p(1).\n:- end_tests(family).\n"))
                    .containsExactly("family:mine=passed");
            assertThat(run.apply("b", ":- begin_tests(family).\ntest(theirs) :- p(2).\n"
                    + "test(not_mine) :- p(1).\n:- end_tests(family).\n"))
                    .containsExactly("family:theirs=passed", "family:not_mine=failed");
            assertThat(run.apply("a", "")).containsExactly("family:mine=passed");

            call.apply(req.apply("close", "a"));
            assertThat(run.apply("b", "")).containsExactly("family:theirs=passed", "family:not_mine=failed");

            // the same session id again, with the same unit name
            call.apply(req.apply("open", "a"));
            assertThat(run.apply("a", "")).isEmpty();
            assertThat(run.apply("a", ":- begin_tests(family).\ntest(fresh) :- true.\n:- end_tests(family).\n"))
                    .containsExactly("family:fresh=passed");
            call.apply(req.apply("close", "b"));
            assertThat(run.apply("a", "")).containsExactly("family:fresh=passed");
            assertThat(call.apply(req.apply("ping", "a")).path("pong").asBoolean()).isTrue();
        } finally {
            p.destroy();
            if (!p.waitFor(5, TimeUnit.SECONDS)) {
                p.destroyForcibly();
            }
        }
    }
}

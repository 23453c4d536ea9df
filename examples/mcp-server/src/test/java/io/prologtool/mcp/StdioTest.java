package io.prologtool.mcp;

import com.fasterxml.jackson.databind.JsonNode;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.junit.jupiter.api.Test;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The server's standard streams as they are, without the SDK in between: standard output carries
 * JSON-RPC messages and nothing else (not Prolog's output, not a log line) on both backends; closing
 * standard input mid-goal ends the server; a bad command line is a message and the usage on standard
 * error with exit status 2.
 */
class StdioTest {

    /** A server started with plain pipes; its stdout lines are queued as they come, stderr goes to a file. */
    static final class RawServer implements AutoCloseable {
        final Process process;
        final Path stderr;
        final List<String> stdout = new ArrayList<>();
        final BlockingQueue<JsonNode> messages = new LinkedBlockingQueue<>();
        private final java.util.Map<Integer, JsonNode> others = new java.util.HashMap<>();
        private final Thread reader;

        RawServer(String... args) throws IOException {
            this(fromClassPath(args), java.util.Map.of());
        }

        private static List<String> fromClassPath(String... args) {
            List<String> cmd = new ArrayList<>();
            cmd.add(Servers.java());
            cmd.addAll(Servers.fromClassPath(UUID.randomUUID().toString(), args));
            return cmd;
        }

        /** A server started by {@code cmd} (a launcher, say) with {@code env} added to this JVM's environment. */
        RawServer(List<String> cmd, java.util.Map<String, String> env) throws IOException {
            stderr = Files.createTempFile("prologtool-mcp-stderr-", ".txt");
            ProcessBuilder pb = new ProcessBuilder(cmd).redirectError(stderr.toFile());
            pb.environment().putAll(env);
            process = pb.start();
            reader = new Thread(() -> {
                try (BufferedReader r = new BufferedReader(new InputStreamReader(process.getInputStream(),
                        StandardCharsets.UTF_8))) {
                    for (String line; (line = r.readLine()) != null; ) {
                        synchronized (stdout) {
                            stdout.add(line);
                        }
                        try {
                            messages.add(Servers.JSON.readTree(line));
                        } catch (IOException notJson) {
                            // kept in stdout; the test fails on it
                        }
                    }
                } catch (IOException ignored) {
                    // the process ended
                }
            }, "raw-server-stdout");
            reader.start();
        }

        void send(String json) throws IOException {
            OutputStream in = process.getOutputStream();
            in.write((json + "\n").getBytes(StandardCharsets.UTF_8));
            in.flush();
        }

        /** The response to request {@code id}; responses to others that come first are kept for their turn. */
        JsonNode response(int id) throws Exception {
            JsonNode kept = others.remove(id);
            if (kept != null) {
                return kept;
            }
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
            while (System.nanoTime() < deadline) {
                JsonNode m = messages.poll(100, TimeUnit.MILLISECONDS);
                if (m != null && m.path("id").asInt(-1) == id) {
                    return m;
                }
                if (m != null && m.has("id")) {
                    others.put(m.path("id").asInt(-1), m);
                }
                if (m == null && !process.isAlive() && messages.isEmpty()) {
                    break;
                }
            }
            throw new AssertionError("no response to request " + id + "; stdout: " + abbreviated(stdout.toString()) + "\nstderr: " + stderr());
        }

        /** At most 4,000 characters of {@code text}: a failure message that holds megabytes fills the heap. */
        static String abbreviated(String text) {
            return text.length() <= 4_000 ? text : text.substring(0, 2_000) + " ... " + text.substring(text.length() - 2_000);
        }

        void initialize() throws Exception {
            send("{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"initialize\",\"params\":{\"protocolVersion\":\"2025-06-18\","
                    + "\"capabilities\":{},\"clientInfo\":{\"name\":\"raw\",\"version\":\"1\"}}}");
            assertThat(response(1).at("/result/serverInfo/name").asText()).isEqualTo("prologtool");
            send("{\"jsonrpc\":\"2.0\",\"method\":\"notifications/initialized\"}");
        }

        /** Sends tools/call {@code id}; {@code arguments} is a JSON object text. */
        void call(int id, String tool, String arguments) throws IOException {
            send("{\"jsonrpc\":\"2.0\",\"id\":" + id + ",\"method\":\"tools/call\",\"params\":{\"name\":\"" + tool
                    + "\",\"arguments\":" + arguments + "}}");
        }

        /** The JSON reply of a tools/call response. */
        static JsonNode reply(JsonNode response) throws IOException {
            return Servers.JSON.readTree(response.at("/result/content/0/text").asText());
        }

        String stderr() throws IOException {
            return Files.readString(stderr, StandardCharsets.UTF_8);
        }

        /** Closes standard input and waits for the process and its stdout to end. */
        int closeInput(Duration timeout) throws Exception {
            process.getOutputStream().close();
            assertThat(process.waitFor(timeout.toMillis(), TimeUnit.MILLISECONDS))
                    .as("the server exits once its input ends; stderr: " + stderr()).isTrue();
            reader.join(10_000);
            return process.exitValue();
        }

        @Override
        public void close() throws IOException {
            process.destroyForcibly();
            Files.deleteIfExists(stderr);
        }
    }

    @ParameterizedTest
    @ValueSource(strings = {"process", "jpl"})
    void standardOutputCarriesJsonRpcMessagesOnly(String backend) throws Exception {
        try (RawServer s = new RawServer("--backend", backend)) {
            s.initialize();
            s.send("{\"jsonrpc\":\"2.0\",\"id\":2,\"method\":\"tools/list\"}");
            assertThat(s.response(2).at("/result/tools").size()).isGreaterThanOrEqualTo(14);
            // Prolog writes while loading and while running: none of it may reach stdout
            s.call(3, "consult_text", "{\"source_text\": \":- format(\\\"~w~n\\\", [loading]).\\n"
                    + "p :- write(running), nl.\"}");
            JsonNode consulted = RawServer.reply(s.response(3));
            assertThat(consulted.get("output").asText()).isEqualTo("loading\n");
            s.call(4, "run_goal", "{\"load_id\": \"" + consulted.get("load_id").asText() + "\", \"goal\": \"p\"}");
            JsonNode ran = RawServer.reply(s.response(4));
            assertThat(ran.get("output").asText()).as(ran.toString()).isEqualTo("running\n");
            s.call(5, "execute_prolog", "{\"prolog_code\": \"q(1).\", \"query\": \"q(X), write(X), nl\"}");
            assertThat(RawServer.reply(s.response(5)).get("success").asBoolean()).isTrue();

            assertThat(s.closeInput(Duration.ofSeconds(20))).isZero();
            List<String> lines;
            synchronized (s.stdout) {
                lines = List.copyOf(s.stdout);
            }
            assertThat(lines).hasSize(5);
            for (String line : lines) {
                JsonNode m = Servers.JSON.readTree(line);
                assertThat(m.isObject()).as(line).isTrue();
                assertThat(m.path("jsonrpc").asText()).as(line).isEqualTo("2.0");
                assertThat(m.has("result") || m.has("error") || m.has("method")).as(line).isTrue();
            }
            assertThat(s.stderr()).contains("prologtool-mcp-server").contains("the client disconnected");
        }
    }

    @ParameterizedTest
    @ValueSource(strings = {"process", "jpl"})
    void aRunningGoalHoldsUpNoOtherRequestAndNotificationsCancelledStopsIt(String backend) throws Exception {
        try (RawServer s = new RawServer("--backend", backend)) {
            s.initialize();
            s.call(2, "consult_text", "{\"source_text\": \"p(kept).\"}");
            String id = RawServer.reply(s.response(2)).get("load_id").asText();
            s.call(3, "run_goal", "{\"load_id\": \"" + id + "\", \"goal\": \"repeat, fail\", \"time_limit\": 120}");
            Thread.sleep(1_000);
            // while the goal runs: a ping, the tool list and another call are answered
            long t0 = System.nanoTime();
            s.send("{\"jsonrpc\":\"2.0\",\"id\":4,\"method\":\"ping\"}");
            assertThat(s.response(4).path("result").isObject()).isTrue();
            s.send("{\"jsonrpc\":\"2.0\",\"id\":5,\"method\":\"tools/list\"}");
            assertThat(s.response(5).at("/result/tools").size()).isGreaterThanOrEqualTo(14);
            s.call(6, "execute_prolog", "{\"prolog_code\": \"q(1).\", \"query\": \"q(X)\"}");
            assertThat(RawServer.reply(s.response(6)).get("success").asBoolean()).isTrue();
            assertThat(Duration.ofNanos(System.nanoTime() - t0)).as("answered while the goal runs")
                    .isLessThan(Duration.ofSeconds(5));
            synchronized (s.stdout) {
                assertThat(s.stdout).as("the goal's reply has not come").noneMatch(l -> l.contains("\"id\":3,"));
            }
            // and the goal stops when it is cancelled, its session kept
            long t1 = System.nanoTime();
            s.send("{\"jsonrpc\":\"2.0\",\"method\":\"notifications/cancelled\",\"params\":{\"requestId\":3,"
                    + "\"reason\":\"the user pressed stop\"}}");
            JsonNode cancelled = RawServer.reply(s.response(3));
            assertThat(Duration.ofNanos(System.nanoTime() - t1)).as("stopped, not at its limit")
                    .isLessThan(Duration.ofSeconds(30));
            assertThat(cancelled.path("outcome").asText()).isEqualTo("cancelled");
            s.call(7, "run_goal", "{\"load_id\": \"" + id + "\", \"goal\": \"p(X)\"}");
            JsonNode after = RawServer.reply(s.response(7));
            assertThat(after.path("outcome").asText()).isEqualTo("success");
            assertThat(after.toString()).contains("kept");
        }
    }

    @ParameterizedTest
    @ValueSource(strings = {"process", "jpl"})
    void repliesWrittenAtOnceNeverInterleave(String backend) throws Exception {
        // Sixteen calls on four sessions, each with a reply of about 200 kB, and a ping after each: the
        // replies are written by the threads that made them at the same time; each must be a line of its own.
        try (RawServer s = new RawServer("--backend", backend)) {
            s.initialize();
            List<String> ids = new ArrayList<>();
            for (int k = 0; k < 4; k++) {
                s.call(10 + k, "consult_text", "{\"source_text\": \"big(L) :- length(L, 20000), maplist(=(abcdefgh), L).\"}");
                ids.add(RawServer.reply(s.response(10 + k)).get("load_id").asText());
            }
            for (int i = 0; i < 16; i++) {
                s.call(100 + i, "run_goal", "{\"load_id\": \"" + ids.get(i % 4) + "\", \"goal\": \"big(L)\"}");
                s.send("{\"jsonrpc\":\"2.0\",\"id\":" + (200 + i) + ",\"method\":\"ping\"}");
            }
            for (int i = 0; i < 16; i++) {
                JsonNode reply = RawServer.reply(s.response(100 + i));
                assertThat(reply.path("outcome").asText()).as(reply.toString()).isEqualTo("success");
                assertThat(reply.at("/answers/0/L/elements").size()).isEqualTo(20000);
                assertThat(s.response(200 + i).path("result").isObject()).isTrue();
            }
            assertThat(s.closeInput(Duration.ofSeconds(20))).isZero();
            List<String> lines;
            synchronized (s.stdout) {
                lines = List.copyOf(s.stdout);
            }
            assertThat(lines).as("one line per response").hasSize(1 + 4 + 32);
            for (String line : lines) {
                assertThat(Servers.JSON.readTree(line).path("jsonrpc").asText()).as(line.substring(0,
                        Math.min(200, line.length()))).isEqualTo("2.0");
            }
        }
    }

    @ParameterizedTest
    @ValueSource(strings = {"process", "jpl"})
    void closingStandardInputMidGoalEndsTheServer(String backend) throws Exception {
        try (RawServer s = new RawServer("--backend", backend)) {
            s.initialize();
            s.call(2, "consult_text", "{\"source_text\": \"spin :- repeat, fail.\"}");
            String id = RawServer.reply(s.response(2)).get("load_id").asText();
            s.call(3, "run_goal", "{\"load_id\": \"" + id + "\", \"goal\": \"spin\", \"time_limit\": 120}");
            Thread.sleep(1_000);
            ProcessHandle server = s.process.toHandle();
            List<ProcessHandle> below = server.descendants().toList();
            if (backend.equals("process")) {
                assertThat(Servers.swiplBelow(server)).as("the spinning session's child").isNotEmpty();
            }
            long t0 = System.nanoTime();
            s.closeInput(Duration.ofSeconds(20));
            assertThat(Duration.ofNanos(System.nanoTime() - t0)).as("exits soon, not when the goal would end")
                    .isLessThan(Duration.ofSeconds(20));
            assertThat(Servers.awaitEnd(below, Duration.ofSeconds(10))).as("children left behind").isEmpty();
        }
    }

    @Test
    void aBadCommandLineIsAMessageAndTheUsageOnStandardErrorWithStatus2() throws Exception {
        for (String[] args : List.of(new String[] {"--backend", "prolog"}, new String[] {"--ttl", "soon"},
                new String[] {"--backend", "jpl", "--isolation", "required"}, new String[] {"--frobnicate"})) {
            try (RawServer s = new RawServer(args)) {
                assertThat(s.process.waitFor(30, TimeUnit.SECONDS)).isTrue();
                assertThat(s.process.exitValue()).as(String.join(" ", args)).isEqualTo(2);
                s.reader.join(5_000);
                assertThat(s.stdout).as("nothing on stdout").isEmpty();
                assertThat(s.stderr()).startsWith("prologtool-mcp-server: ").contains("usage: ");
            }
        }
    }

    @Test
    void helpAndVersionAnswerOnStandardOutputWithStatus0() throws Exception {
        try (RawServer s = new RawServer("--help")) {
            assertThat(s.process.waitFor(30, TimeUnit.SECONDS)).isTrue();
            assertThat(s.process.exitValue()).isZero();
            s.reader.join(5_000);
            assertThat(String.join("\n", s.stdout)).startsWith("usage: ").contains("--backend").contains("--ttl")
                    .contains("--swipl PATH").contains("--version");
            assertThat(s.stderr()).isEmpty();
        }
        try (RawServer s = new RawServer("--version")) {
            assertThat(s.process.waitFor(30, TimeUnit.SECONDS)).isTrue();
            assertThat(s.process.exitValue()).isZero();
            s.reader.join(5_000);
            assertThat(s.stdout).containsExactly("prologtool-mcp-server " + PrologMcpServer.version());
            assertThat(PrologMcpServer.version()).as("the build's version").isNotEqualTo("unknown");
            assertThat(s.stderr()).isEmpty();
        }
    }

    @ParameterizedTest
    @ValueSource(strings = {"process", "jpl"})
    void aSwiplThatIsMissingOrNotSwiPrologGivesTheServersOwnHintWithStatus1(String backend) throws Exception {
        for (String swipl : List.of("/nonexistent/bin/swipl", "/bin/true")) {
            try (RawServer s = new RawServer("--backend", backend, "--swipl", swipl)) {
                assertThat(s.process.waitFor(60, TimeUnit.SECONDS)).isTrue();
                assertThat(s.process.exitValue()).as("%s, stderr: %s", swipl, s.stderr()).isEqualTo(1);
                s.reader.join(5_000);
                assertThat(s.stdout).as("nothing on stdout").isEmpty();
                assertThat(s.stderr()).contains("cannot start the " + backend + " backend").contains(swipl)
                        .contains(PrologMcpServer.SWIPL_HINT);
            }
        }
    }

    @Test
    void theSwiplOptionNamesTheExecutableTheServerRuns() throws Exception {
        String swipl = io.prologtool.spi.Executables.findOnPath("swipl").orElseThrow().toString();
        try (RawServer s = new RawServer("--swipl", swipl)) {
            s.initialize();
            assertThat(s.closeInput(Duration.ofSeconds(30))).isZero();
            assertThat(s.stderr()).contains("process backend");
        }
    }
}

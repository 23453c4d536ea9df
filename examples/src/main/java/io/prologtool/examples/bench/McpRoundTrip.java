package io.prologtool.examples.bench;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.prologtool.mcp.PrologMcpServer;
import io.prologtool.mcp.ServerOptions;
import io.prologtool.mcp.ToolStack;
import io.prologtool.tools.PrologTools;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * The MCP server's cost per call: a {@code run_goal} round trip through {@code examples/mcp-server}
 * against {@link PrologTools#call} of the same goal in the JVM on the same stack (the server's default
 * options, on each backend: sandboxed sessions, OS isolation where the machine allows it). The client
 * is the least a client can be: it writes each JSON-RPC request as a line to the server's standard input
 * and reads the response line from its standard output, so the gap is what the MCP path adds (JSON-RPC
 * framing, two pipes, the SDK's session and the server's transport), not what a client library adds.
 */
final class McpRoundTrip {

    private static final String WHAT = "run_goal through the MCP server (stdio, JSON-RPC lines)";
    private static final String BASELINE = "PrologTools.call(\"run_goal\") in the JVM, same goal, same options";
    private static final ObjectMapper JSON = new ObjectMapper();
    /** What the MCP path may add to a call, in microseconds. */
    static final double TARGET_MARGIN_US = 150;

    private McpRoundTrip() {
    }

    static List<Row> measure(Plan plan, PrintStream log) throws Exception {
        Plan.Iterations it = plan.quick() ? new Plan.Iterations(100, 200) : new Plan.Iterations(1_000, 5_000);
        List<Row> rows = new ArrayList<>();
        for (String backend : List.of("process", "jpl")) {
            rows.add(measure(backend, it, log));
        }
        return rows;
    }

    private static Row measure(String backend, Plan.Iterations it, PrintStream log) throws Exception {
        Map<String, Object> consult = Map.of("source_text", SessionCycles.PROGRAM);
        Timer.progress(log, "run_goal through the MCP server and PrologTools.call in the JVM, " + backend
                + ", in alternating blocks of " + it.timed() / ROUNDS, it);
        try (ToolStack stack = ToolStack.open(ServerOptions.parse("--backend", backend));
             LineClient client = new LineClient(backend)) {
            PrologTools tools = stack.tools();
            String inJvmId = loadId(tools.call("consult_text", JSON.valueToTree(consult)));
            JsonNode args = JSON.valueToTree(Map.of("load_id", inJvmId, "goal", SessionCycles.GOAL));
            Timer.Op inJvm = () -> check(tools.call("run_goal", args));

            client.request("initialize", Map.of("protocolVersion", "2025-06-18", "capabilities", Map.of(),
                    "clientInfo", Map.of("name", "bench", "version", "1")));
            client.notify("notifications/initialized");
            String mcpId = loadId(reply(client.request("tools/call",
                    Map.of("name", "consult_text", "arguments", consult))));
            Map<String, Object> run = Map.of("name", "run_goal",
                    "arguments", Map.of("load_id", mcpId, "goal", SessionCycles.GOAL));
            // the same request each time: written once (its id is fixed), as a client may keep it
            byte[] request = client.line(Map.of("jsonrpc", "2.0", "id", 0, "method", "tools/call", "params", run));
            Timer.Op mcp = () -> check(reply(client.exchange(request, 0)));

            // Alternating blocks: what the machine does meanwhile weighs on both sides alike.
            Plan.Iterations block = new Plan.Iterations(it.warmup() / ROUNDS, it.timed() / ROUNDS);
            long[] inJvmNanos = new long[0];
            long[] mcpNanos = new long[0];
            for (int round = 0; round < ROUNDS; round++) {
                inJvmNanos = concat(inJvmNanos, Timer.time(block, inJvm));
                mcpNanos = concat(mcpNanos, Timer.time(block, mcp));
            }
            String details = "tools/call run_goal " + SessionCycles.GOAL + " on a session holding the 20-clause "
                    + "program, a JSON-RPC line written to `java -cp ... PrologMcpServer --backend " + backend
                    + "` and its response line read back, parsed and checked; back to back, in " + ROUNDS
                    + " blocks alternating with the in-JVM calls of the baseline";
            return Row.of("mcp_roundtrip", WHAT, backend, Summary.ofNanos(mcpNanos, Unit.MICROS), Unit.MICROS,
                    details, BASELINE, Summary.ofNanos(inJvmNanos, Unit.MICROS))
                    .withTarget(Target.marginAtMost(TARGET_MARGIN_US));
        }
    }

    /** How many blocks each side's timed calls are run in, alternating. */
    private static final int ROUNDS = 10;

    private static long[] concat(long[] a, long[] b) {
        long[] all = java.util.Arrays.copyOf(a, a.length + b.length);
        System.arraycopy(b, 0, all, a.length, b.length);
        return all;
    }

    /** A server from this JVM's class path, spoken to one JSON-RPC line at a time. */
    private static final class LineClient implements AutoCloseable {
        private final Process process;
        private final OutputStream in;
        private final BufferedReader out;
        private int nextId = 1;

        LineClient(String backend) throws IOException {
            process = new ProcessBuilder(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                    "-Xmx256m", "-cp", System.getProperty("java.class.path"), PrologMcpServer.class.getName(),
                    "--backend", backend)
                    .redirectError(ProcessBuilder.Redirect.DISCARD).start();
            in = process.getOutputStream();
            out = new BufferedReader(new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8));
        }

        /** Sends a request and returns its result; a response with an error is an exception. */
        JsonNode request(String method, Object params) throws IOException {
            int id = nextId++;
            return exchange(line(Map.of("jsonrpc", "2.0", "id", id, "method", method, "params", params)), id);
        }

        /** Sends {@code request} (a line, the request {@code id}) and returns the result of its response. */
        JsonNode exchange(byte[] request, int id) throws IOException {
            in.write(request);
            in.flush();
            String line = out.readLine();
            if (line == null) {
                throw new IOException("the server ended before it answered request " + id);
            }
            JsonNode response = JSON.readTree(line);
            if (response.path("id").asInt(-1) != id || !response.has("result")) {
                throw new IllegalStateException("unexpected response to request " + id + ": " + line);
            }
            return response.get("result");
        }

        void notify(String method) throws IOException {
            in.write(line(Map.of("jsonrpc", "2.0", "method", method)));
            in.flush();
        }

        /** {@code message} as a JSON-RPC line. */
        byte[] line(Object message) throws IOException {
            byte[] json = JSON.writeValueAsBytes(message);
            byte[] line = java.util.Arrays.copyOf(json, json.length + 1);
            line[json.length] = '\n';
            return line;
        }

        @Override
        public void close() throws Exception {
            in.close();  // the server closes its sessions and exits
            if (!process.waitFor(30, TimeUnit.SECONDS)) {
                process.destroyForcibly();
            }
        }
    }

    private static JsonNode reply(JsonNode result) throws IOException {
        JsonNode content = result.path("content");
        if (result.path("isError").asBoolean() || content.size() != 1 || !"text".equals(content.get(0).path("type").asText())) {
            throw new IllegalStateException("unexpected MCP result: " + result);
        }
        return JSON.readTree(content.get(0).get("text").asText());
    }

    private static String loadId(JsonNode consulted) {
        if (!consulted.path("ok").asBoolean() || !consulted.path("messages").isEmpty()) {
            throw new IllegalStateException("the bench program does not load: " + consulted);
        }
        return consulted.get("load_id").asText();
    }

    private static void check(JsonNode reply) {
        if (!reply.path("ok").asBoolean() || !"success".equals(reply.path("outcome").asText())
                || reply.path("count").asInt() != 1) {
            throw new IllegalStateException("unexpected run_goal reply: " + reply);
        }
    }
}

package io.prologtool.examples.bench;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.modelcontextprotocol.client.McpClient;
import io.modelcontextprotocol.client.McpSyncClient;
import io.modelcontextprotocol.client.transport.ServerParameters;
import io.modelcontextprotocol.client.transport.StdioClientTransport;
import io.modelcontextprotocol.json.jackson2.JacksonMcpJsonMapper;
import io.modelcontextprotocol.spec.McpSchema;
import io.prologtool.mcp.PrologMcpServer;
import io.prologtool.mcp.ServerOptions;
import io.prologtool.mcp.ToolStack;
import io.prologtool.tools.PrologTools;

import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;

/**
 * The MCP server's cost per call: a {@code run_goal} round trip through {@code examples/mcp-server}, from
 * the official SDK's client over stdio, against {@link PrologTools#call} of the same goal in the JVM on the
 * same stack (the server's default options: process backend, sandboxed sessions, OS isolation where the
 * machine allows it). The gap is what the protocol adds: JSON-RPC framing, two pipes and the SDK's
 * threads on each side.
 */
final class McpRoundTrip {

    private static final String WHAT = "run_goal through the MCP server (stdio, SDK client)";
    private static final String BASELINE = "PrologTools.call(\"run_goal\") in the JVM, same goal, same options";
    private static final ObjectMapper JSON = new ObjectMapper();

    private McpRoundTrip() {
    }

    static List<Row> measure(Plan plan, PrintStream log) throws Exception {
        Plan.Iterations it = plan.quick() ? new Plan.Iterations(100, 200) : new Plan.Iterations(1_000, 5_000);
        Map<String, Object> consult = Map.of("source_text", SessionCycles.PROGRAM);

        Timer.progress(log, "run_goal, in the JVM: PrologTools.call", it);
        Summary inJvm;
        try (ToolStack stack = ToolStack.open(ServerOptions.defaults())) {
            PrologTools tools = stack.tools();
            String id = loadId(tools.call("consult_text", JSON.valueToTree(consult)));
            JsonNode args = JSON.valueToTree(Map.of("load_id", id, "goal", SessionCycles.GOAL));
            inJvm = Summary.ofNanos(Timer.time(it, () -> check(tools.call("run_goal", args))), Unit.MICROS);
        }

        Timer.progress(log, "run_goal through the MCP server", it);
        Summary mcp;
        McpSyncClient client = McpClient.sync(new StdioClientTransport(server(), new JacksonMcpJsonMapper(JSON)))
                .requestTimeout(Duration.ofSeconds(60)).initializationTimeout(Duration.ofSeconds(60)).build();
        try {
            client.initialize();
            String id = loadId(reply(client.callTool(new McpSchema.CallToolRequest("consult_text", consult))));
            McpSchema.CallToolRequest run = new McpSchema.CallToolRequest("run_goal",
                    Map.of("load_id", id, "goal", SessionCycles.GOAL));
            mcp = Summary.ofNanos(Timer.time(it, () -> check(reply(client.callTool(run)))), Unit.MICROS);
        } finally {
            client.closeGracefully();
        }
        String details = "CallToolRequest run_goal " + SessionCycles.GOAL + " on a session holding the 20-clause "
                + "program, from McpSyncClient over StdioClientTransport to `java -cp ... PrologMcpServer` (default "
                + "options), the reply's JSON parsed and checked; back to back";
        return List.of(Row.of("mcp_roundtrip", WHAT, "process", mcp, Unit.MICROS, details, BASELINE, inJvm));
    }

    /** The server with its default options, started from this JVM's class path. */
    private static ServerParameters server() {
        return ServerParameters.builder(Path.of(System.getProperty("java.home"), "bin", "java").toString())
                .args("-Xmx256m", "-cp", System.getProperty("java.class.path"), PrologMcpServer.class.getName())
                .build();
    }

    private static JsonNode reply(McpSchema.CallToolResult result) throws IOException {
        if (Boolean.TRUE.equals(result.isError()) || result.content().size() != 1
                || !(result.content().get(0) instanceof McpSchema.TextContent text)) {
            throw new IllegalStateException("unexpected MCP result: " + result);
        }
        return JSON.readTree(text.text());
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

package io.prologtool.mcp;

import com.fasterxml.jackson.core.type.TypeReference;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.modelcontextprotocol.json.McpJsonMapper;
import io.modelcontextprotocol.json.jackson2.JacksonMcpJsonMapper;
import io.modelcontextprotocol.server.McpAsyncServer;
import io.modelcontextprotocol.server.McpServer;
import io.modelcontextprotocol.server.McpServerFeatures.AsyncToolSpecification;
import io.modelcontextprotocol.spec.McpSchema;
import io.prologtool.PrologToolException;
import io.prologtool.PrologUnavailableException;
import io.prologtool.json.TermJson;
import io.prologtool.tools.PrologTools;
import io.prologtool.tools.ToolSpec;

import java.io.FileDescriptor;
import java.io.FileOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.PrintStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Properties;
import java.util.concurrent.CountDownLatch;

import reactor.core.publisher.Mono;

/**
 * An MCP server on standard input and output, on the official Java MCP SDK, that serves every tool of
 * {@link PrologTools}: their names, descriptions and input schemas are {@link PrologTools#specs()}; a
 * call's result is one text content holding the tool's JSON reply, marked {@code isError} when the reply
 * reports a failure ({@link PrologTools#isFailure}).
 *
 * <pre>{@code
 * java -jar prologtool-mcp-server.jar [--backend process|jpl] [--no-sandbox] [--isolation auto|required|none]
 *                                     [--max-sessions N] [--ttl DURATION] [--pool N] [--rule-bases DIR]
 *                                     [--swipl PATH] [--help] [--version]
 * }</pre>
 *
 * <p>MCP's {@code notifications/cancelled} stops the call it names: a running goal ends with outcome
 * {@code cancelled}, its session kept ({@link PrologTools#cancel(String)}).
 *
 * <p>A stdio server has one client: the process that started it. When that client closes the connection
 * (standard input ends, or the client process dies), the server closes every session, stops the
 * backend's children and exits; a goal still running is cut short. Standard output carries MCP messages
 * only: {@code System.out} is pointed at standard error before anything else runs, and the SDK logs there.
 */
public final class PrologMcpServer {

    /** The name the server gives in {@code initialize}. */
    public static final String NAME = "prologtool";
    /** How long closing the sessions may take once the client is gone, before the process exits anyway. */
    static final Duration CLOSE_GRACE = Duration.ofSeconds(3);

    /** What the server says after a setup error: where SWI-Prolog comes from and how to name it. */
    static final String SWIPL_HINT = "prologtool-mcp-server: it needs SWI-Prolog 9 (swipl): "
            + io.prologtool.PrologUnavailableException.INSTALL_SWIPL_AND_JPL + ", or name its executable with --swipl PATH";

    private static final TypeReference<Map<String, Object>> MAP = new TypeReference<>() {
    };

    private PrologMcpServer() {
    }

    /**
     * Runs the server until its client disconnects. Exit status 0 after a disconnect (or after
     * {@code --help} and {@code --version}, which print on standard output), 2 for a bad command line (the
     * message and the usage on standard error), 1 when the backend cannot start (with a hint on where
     * SWI-Prolog comes from when it is missing).
     */
    public static void main(String[] args) {
        // Standard output is the protocol's: keep a handle on it, and send every stray print to stderr.
        OutputStream protocolOut = new FileOutputStream(FileDescriptor.out);
        PrintStream log = System.err;
        System.setOut(log);
        ServerOptions options;
        try {
            options = ServerOptions.parse(args);
        } catch (ServerOptions.UsageException e) {
            log.println("prologtool-mcp-server: " + e.getMessage());
            log.print(ServerOptions.USAGE);
            log.flush();
            System.exit(2);
            return;
        }
        if (options.help() || options.version()) {
            // asked for by a person at a terminal: the answer goes to standard output
            PrintStream out = new PrintStream(protocolOut, true, StandardCharsets.UTF_8);
            out.print(options.help() ? ServerOptions.USAGE : "prologtool-mcp-server " + version() + "\n");
            out.flush();
            System.exit(0);
            return;
        }
        ToolStack stack;
        try {
            stack = ToolStack.open(options);
        } catch (PrologUnavailableException e) {
            log.println("prologtool-mcp-server: cannot start the " + options.backend().word() + " backend: "
                    + e.getMessage());
            log.println(SWIPL_HINT);
            log.flush();
            System.exit(1);
            return;
        } catch (PrologToolException | IllegalStateException e) {
            log.println("prologtool-mcp-server: cannot start the " + options.backend().word() + " backend: "
                    + e.getMessage());
            log.flush();
            System.exit(1);
            return;
        }
        log.println("prologtool-mcp-server " + version() + ": " + options.describe()
                + stack.isolationInEffect().map(i -> " (in effect: " + i + ")").orElse(""));
        serve(stack, System.in, protocolOut, log);
        log.flush();
        // The SDK's stdio threads do not end by themselves; the sessions are closed, so end the process.
        System.exit(0);
    }

    /**
     * Serves {@code stack}'s tools over {@code in} and {@code out} until {@code in} ends (or fails), then
     * closes the stack, waiting at most {@link #CLOSE_GRACE} for goals that are still running. Returns
     * when the client is gone; the caller ends the process.
     */
    static void serve(ToolStack stack, InputStream in, OutputStream out, PrintStream log) {
        CountDownLatch gone = new CountDownLatch(1);
        McpJsonMapper json = new JacksonMcpJsonMapper(new ObjectMapper());
        // notifications/cancelled stops the call it names (PrologTools.cancel)
        StdioTransport transport = new StdioTransport(json, in, out, requestId -> stack.tools().cancel(requestId),
                gone::countDown, log);
        McpAsyncServer server = McpServer.async(transport)
                .serverInfo(NAME, version())
                .jsonMapper(json)
                .instructions("Prolog sessions: consult_text loads a program and returns a load_id; run_goal, "
                        + "inspect_predicate, replace_predicate, run_tests, trace_goal and the other session tools "
                        + "take that load_id; close_session ends it. execute_prolog runs code and a query in one "
                        + "stateless call. Every result is the tool's JSON reply.")
                .capabilities(McpSchema.ServerCapabilities.builder().tools(false).build())
                // PrologTools checks the arguments itself and answers a bad one with its own JSON reply
                .validateToolInputs(false)
                .tools(toolSpecifications(stack.tools()))
                .build();
        try {
            gone.await();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        log.println("prologtool-mcp-server: the client disconnected; closing its sessions");
        closeWithin(stack, CLOSE_GRACE, log);
        server.close();
    }

    /**
     * Closes {@code stack} on a thread of its own and waits at most {@code grace}: a session closes only
     * once its running goal has ended, and a client that left mid-goal does not wait for that. Whatever
     * is left when the process exits, the process backend's shutdown hook kills.
     */
    static void closeWithin(ToolStack stack, Duration grace, PrintStream log) {
        Thread closer = new Thread(() -> {
            try {
                stack.close();
            } catch (RuntimeException e) {
                log.println("prologtool-mcp-server: while closing: " + e);
            }
        }, "prologtool-mcp-close");
        closer.setDaemon(true);
        closer.start();
        try {
            closer.join(grace.toMillis());
            if (closer.isAlive()) {
                log.println("prologtool-mcp-server: a goal still runs; its session is killed on exit");
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    /**
     * One MCP tool per {@link PrologTools} tool, in {@link PrologTools#specs()} order. Each handler runs
     * the call on the thread that subscribes to its result, with no scheduler of its own: the transport
     * decides the thread ({@link StdioTransport} hands a call a thread of its own, so that a long goal
     * never holds up other requests).
     */
    public static List<AsyncToolSpecification> toolSpecifications(PrologTools tools) {
        Objects.requireNonNull(tools, "tools");
        List<AsyncToolSpecification> list = new ArrayList<>();
        for (ToolSpec spec : tools.specs()) {
            list.add(AsyncToolSpecification.builder()
                    .tool(tool(spec))
                    .callHandler((exchange, request) -> Mono.fromCallable(() -> result(tools.call(spec.name(),
                            arguments(request), requestId(request)))))
                    .build());
        }
        return list;
    }

    /** The MCP declaration of one tool: its name, description and input schema, as {@link ToolSpec} has them. */
    public static McpSchema.Tool tool(ToolSpec spec) {
        return McpSchema.Tool.builder()
                .name(spec.name())
                .description(spec.description())
                .inputSchema(TermJson.mapper().convertValue(spec.inputSchema(), MAP))
                .build();
    }

    /** A tool reply as an MCP result: one text content with the JSON, {@code isError} on a failure. */
    public static McpSchema.CallToolResult result(ObjectNode reply) {
        return McpSchema.CallToolResult.builder()
                .addTextContent(reply.toString())
                .isError(PrologTools.isFailure(reply))
                .build();
    }

    /**
     * The JSON-RPC id of the call, which {@link StdioTransport} put in its {@code _meta}, for
     * MCP's {@code notifications/cancelled}; null when it is not there.
     */
    private static String requestId(McpSchema.CallToolRequest request) {
        Map<String, Object> meta = request.meta();
        Object id = meta == null ? null : meta.get(StdioTransport.REQUEST_ID_KEY);
        return id == null ? null : id.toString();
    }

    private static JsonNode arguments(McpSchema.CallToolRequest request) {
        Map<String, Object> args = request.arguments();
        return args == null ? TermJson.mapper().createObjectNode() : TermJson.mapper().valueToTree(args);
    }

    /** This server's version, from the build. */
    static String version() {
        Properties p = new Properties();
        try (InputStream in = PrologMcpServer.class.getResourceAsStream("server.properties")) {
            if (in == null) {
                return "unknown";
            }
            p.load(in);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read server.properties", e);
        }
        return p.getProperty("version", "unknown");
    }
}

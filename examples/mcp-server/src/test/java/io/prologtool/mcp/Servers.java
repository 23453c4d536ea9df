package io.prologtool.mcp;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.modelcontextprotocol.client.McpClient;
import io.modelcontextprotocol.client.McpSyncClient;
import io.modelcontextprotocol.client.transport.ServerParameters;
import io.modelcontextprotocol.client.transport.StdioClientTransport;
import io.modelcontextprotocol.json.McpJsonMapper;
import io.modelcontextprotocol.json.jackson2.JacksonMcpJsonMapper;
import io.modelcontextprotocol.spec.McpSchema;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The MCP server as a child process, driven by the SDK's own client over stdio: the server runs from
 * this test JVM's class path ({@code java -cp ... PrologMcpServer}), or from the runnable jar. Each server
 * carries a tag in a system property, so that its process can be found among this JVM's children.
 */
final class Servers {

    static final ObjectMapper JSON = new ObjectMapper();
    static final McpJsonMapper MCP_JSON = new JacksonMcpJsonMapper(JSON);
    /** Longest wait for one request; every goal the tests run has a shorter limit. */
    static final Duration REQUEST_TIMEOUT = Duration.ofSeconds(60);
    static final String TAG_PROPERTY = "prologtool.mcp.test.tag";

    private Servers() {
    }

    /** A server process with the SDK client connected to it. */
    record Connected(McpSyncClient client, ProcessHandle server, List<String> stderr) implements AutoCloseable {

        /** Calls tool {@code name} with {@code args} (name, value, name, value, ...). */
        McpSchema.CallToolResult call(String name, Object... args) {
            Map<String, Object> map = new LinkedHashMap<>();
            for (int i = 0; i < args.length; i += 2) {
                map.put((String) args[i], args[i + 1]);
            }
            return client.callTool(new McpSchema.CallToolRequest(name, map));
        }

        /** Calls a tool that must succeed and returns its JSON reply. */
        JsonNode ok(String name, Object... args) {
            McpSchema.CallToolResult r = call(name, args);
            assertThat(r.isError()).as(name + ": " + r).isFalse();
            return reply(r);
        }

        /** Calls a tool that must fail and returns its JSON reply. */
        JsonNode failure(String name, Object... args) {
            McpSchema.CallToolResult r = call(name, args);
            assertThat(r.isError()).as(name + ": " + r).isTrue();
            return reply(r);
        }

        /** Consults {@code text} and returns the new session's load_id. */
        String consult(String text) {
            JsonNode r = ok("consult_text", "source_text", text);
            assertThat(r.path("ok").asBoolean()).as(r.toString()).isTrue();
            return r.get("load_id").asText();
        }

        /** The server's stderr so far, for failure messages. */
        String log() {
            synchronized (stderr) {
                return String.join("\n", stderr);
            }
        }

        @Override
        public void close() {
            client.closeGracefully();
        }
    }

    /** The java command of this JVM. */
    static String java() {
        return Path.of(System.getProperty("java.home"), "bin", "java").toString();
    }

    /** Arguments of {@code java} that start the server from this JVM's class path. */
    static List<String> fromClassPath(String tag, String... serverArgs) {
        List<String> a = new ArrayList<>(List.of("-Xmx256m", "-D" + TAG_PROPERTY + "=" + tag,
                "-cp", System.getProperty("java.class.path"), PrologMcpServer.class.getName()));
        a.addAll(Arrays.asList(serverArgs));
        return a;
    }

    /** Starts a server from this JVM's class path and connects the SDK client to it (initialize included). */
    static Connected connect(String... serverArgs) {
        String tag = UUID.randomUUID().toString();
        return connect(tag, fromClassPath(tag, serverArgs));
    }

    /** Starts {@code java javaArgs} (which must carry {@code tag}) and connects the SDK client to it. */
    static Connected connect(String tag, List<String> javaArgs) {
        List<String> stderr = Collections.synchronizedList(new ArrayList<>());
        StdioClientTransport transport = new StdioClientTransport(
                ServerParameters.builder(java()).args(javaArgs).build(), MCP_JSON);
        transport.setStdErrorHandler(stderr::add);
        McpSyncClient client = McpClient.sync(transport).requestTimeout(REQUEST_TIMEOUT)
                .initializationTimeout(REQUEST_TIMEOUT).build();
        try {
            client.initialize();
        } catch (RuntimeException e) {
            client.closeGracefully();
            throw new AssertionError("the server did not initialize; its stderr:\n" + String.join("\n", stderr), e);
        }
        ProcessHandle server = child(tag).orElseThrow(() -> new AssertionError("no server process tagged " + tag));
        return new Connected(client, server, stderr);
    }

    /** The child of this JVM that carries {@code tag}. */
    static Optional<ProcessHandle> child(String tag) {
        return ProcessHandle.current().children().filter(p -> tagged(p, tag)).findFirst();
    }

    static boolean tagged(ProcessHandle p, String tag) {
        return p.info().arguments().map(args -> Arrays.asList(args).contains("-D" + TAG_PROPERTY + "=" + tag))
                .orElse(false);
    }

    /** The tool's JSON reply: the result's single text content, parsed. */
    static JsonNode reply(McpSchema.CallToolResult result) {
        assertThat(result.content()).hasSize(1);
        assertThat(result.content().get(0)).isInstanceOf(McpSchema.TextContent.class);
        try {
            return JSON.readTree(((McpSchema.TextContent) result.content().get(0)).text());
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** The {@code swipl} processes below {@code process}. */
    static List<ProcessHandle> swiplBelow(ProcessHandle process) {
        return process.descendants().filter(p -> p.info().command().map(c -> c.endsWith("swipl")).orElse(false))
                .toList();
    }

    /** Waits until every one of {@code processes} has ended, or {@code timeout} has passed; the ones still alive. */
    static List<ProcessHandle> awaitEnd(List<ProcessHandle> processes, Duration timeout) throws InterruptedException {
        long deadline = System.nanoTime() + timeout.toNanos();
        while (System.nanoTime() < deadline) {
            if (processes.stream().noneMatch(ProcessHandle::isAlive)) {
                return List.of();
            }
            Thread.sleep(50);
        }
        return processes.stream().filter(ProcessHandle::isAlive).toList();
    }
}

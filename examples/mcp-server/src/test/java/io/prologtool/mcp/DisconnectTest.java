package io.prologtool.mcp;

import io.modelcontextprotocol.spec.McpSchema;
import org.junit.jupiter.api.Test;

import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The client goes away while a goal runs: the server closes the client's sessions, its swipl children
 * end, and the server process exits. Both ways a client leaves: its process dies (the server's standard
 * input ends), or the SDK client closes the connection (it stops the server with SIGTERM).
 */
class DisconnectTest {

    /** How long the server and its children may take to go once the client has. */
    static final Duration CLEAN_UP = Duration.ofSeconds(20);

    @Test
    void aClientProcessThatDiesMidGoalTakesTheServerAndItsChildrenWithIt() throws Exception {
        Process client = new ProcessBuilder(Servers.java(), "-Xmx256m", "-cp", System.getProperty("java.class.path"),
                DisconnectingClient.class.getName())
                .redirectError(ProcessBuilder.Redirect.INHERIT).start();
        try {
            List<String> lines = new ArrayList<>();
            BufferedReader out = new BufferedReader(new InputStreamReader(client.getInputStream(), StandardCharsets.UTF_8));
            CompletableFuture<Long> started = CompletableFuture.supplyAsync(() -> {
                try {
                    long pid = -1;
                    for (String line; (line = out.readLine()) != null; ) {
                        lines.add(line);
                        if (line.startsWith("server ")) {
                            pid = Long.parseLong(line.substring(7).trim());
                        } else if (line.equals("running")) {
                            return pid;
                        }
                    }
                    throw new AssertionError("the client ended early: " + lines);
                } catch (java.io.IOException e) {
                    throw new java.io.UncheckedIOException(e);
                }
            });
            long serverPid = started.get(90, TimeUnit.SECONDS);
            ProcessHandle server = ProcessHandle.of(serverPid).orElseThrow();
            List<ProcessHandle> below = server.descendants().toList();
            assertThat(Servers.swiplBelow(server)).as("the spinning session's swipl child").isNotEmpty();

            client.destroyForcibly();
            assertThat(client.waitFor(10, TimeUnit.SECONDS)).isTrue();

            List<ProcessHandle> all = new ArrayList<>(below);
            all.add(server);
            assertThat(Servers.awaitEnd(all, CLEAN_UP)).as("still alive after the client died").isEmpty();
        } finally {
            client.destroyForcibly();
        }
    }

    @Test
    void anSdkClientThatClosesMidGoalTakesTheServerAndItsChildrenWithIt() throws Exception {
        Servers.Connected s = Servers.connect();
        String id = s.consult("spin :- repeat, fail.");
        CompletableFuture<McpSchema.CallToolResult> running = CompletableFuture.supplyAsync(
                () -> s.call("run_goal", "load_id", id, "goal", "spin", "time_limit", 120));
        Thread.sleep(1_000);
        assertThat(running).isNotDone();
        List<ProcessHandle> all = new ArrayList<>(s.server().descendants().toList());
        assertThat(Servers.swiplBelow(s.server())).as("the spinning session's swipl child").isNotEmpty();
        all.add(s.server());

        long t0 = System.nanoTime();
        s.client().closeGracefully();
        assertThat(Servers.awaitEnd(all, CLEAN_UP)).as("still alive after the client closed").isEmpty();
        assertThat(Duration.ofNanos(System.nanoTime() - t0)).isLessThan(CLEAN_UP);
    }
}

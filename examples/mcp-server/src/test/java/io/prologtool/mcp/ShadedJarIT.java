package io.prologtool.mcp;

import com.fasterxml.jackson.databind.JsonNode;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The runnable jar, {@code target/prologtool-mcp-server.jar}, as a user starts it: {@code java -jar}, with
 * nothing else on the class path, driven by the SDK client. Runs after {@code package} (failsafe), on
 * both backends: the JPL backend finds JPL in the SWI-Prolog installation from inside the jar too.
 */
class ShadedJarIT {

    static Path jar() {
        Path jar = Path.of(System.getProperty("prologtool.mcp.jar", "target/prologtool-mcp-server.jar"));
        assertThat(jar).as("built by `make build` (mvn install)").isRegularFile();
        return jar;
    }

    @ParameterizedTest
    @ValueSource(strings = {"process", "jpl"})
    void javaDashJarServesTheTools(String backend) throws Exception {
        assertThat(Files.size(jar())).as("the dependencies are inside").isGreaterThan(1_000_000);
        String tag = UUID.randomUUID().toString();
        List<String> args = new ArrayList<>(List.of("-Xmx256m", "-D" + Servers.TAG_PROPERTY + "=" + tag,
                "-jar", jar().toString(), "--backend", backend));
        try (Servers.Connected s = Servers.connect(tag, args)) {
            assertThat(s.client().getServerInfo().name()).isEqualTo("prologtool");
            assertThat(s.client().listTools().tools()).hasSizeGreaterThanOrEqualTo(14);
            String id = s.consult("likes(mary, wine). likes(john, X) :- likes(mary, X).");
            JsonNode r = s.ok("run_goal", "load_id", id, "goal", "likes(john, X)");
            assertThat(r.get("answers").findValuesAsText("value")).containsExactly("wine");
            assertThat(s.failure("run_goal", "load_id", id, "goal", "likes(").at("/error/kind").asText())
                    .isEqualTo("syntax_error");
            assertThat(s.log()).as("the startup line on stderr").contains(backend + " backend, sandboxed sessions");
        }
    }

    /** The launcher script users register with their MCP client (bin/prologtool-mcp-server). */
    static Path launcher() {
        Path script = Path.of("bin", "prologtool-mcp-server");
        assertThat(Files.isExecutable(script)).as("%s is executable", script).isTrue();
        return script;
    }

    /** Starts the launcher, serves a consult and 200 goals, checks the server's memory and stdout; its command line. */
    private static String runThroughTheLauncher(String backend, Path cache) throws Exception {
        Map<String, String> env = Map.of("XDG_CACHE_HOME", cache.toString(),
                "PROLOGTOOL_MCP_JAR", jar().toAbsolutePath().toString());
        try (StdioTest.RawServer s = new StdioTest.RawServer(List.of(launcher().toString(), "--backend", backend), env)) {
            s.initialize();
            s.call(2, "consult_text", "{\"source_text\": \"p(1). p(2). p(3).\"}");
            String id = StdioTest.RawServer.reply(s.response(2)).get("load_id").asText();
            for (int i = 0; i < 200; i++) {
                s.call(3 + i, "run_goal", "{\"load_id\": \"" + id + "\", \"goal\": \"member(X, [1,2,3])\"}");
                assertThat(StdioTest.RawServer.reply(s.response(3 + i)).get("count").asInt()).isEqualTo(3);
            }
            // the launcher execs java: the process started is the server's JVM
            String cmdline = Files.readString(Path.of("/proc", String.valueOf(s.process.pid()), "cmdline"))
                    .replace('\0', ' ');
            long rssKb = Files.readAllLines(Path.of("/proc", String.valueOf(s.process.pid()), "status")).stream()
                    .filter(l -> l.startsWith("VmRSS:")).map(l -> Long.parseLong(l.replaceAll("\\D", ""))).findFirst()
                    .orElseThrow();
            assertThat(rssKb).as("the server's RSS, %s backend, after 200 calls (kB)", backend).isLessThan(150 * 1024);
            assertThat(s.closeInput(Duration.ofSeconds(60))).isZero();
            synchronized (s.stdout) {
                for (String line : s.stdout) {
                    assertThat(Servers.JSON.readTree(line).path("jsonrpc").asText())
                            .as("every stdout line is JSON-RPC: %s", line).isEqualTo("2.0");
                }
            }
            return cmdline;
        }
    }

    private static List<String> names(Path dir) throws Exception {
        try (Stream<Path> s = Files.list(dir)) {
            return s.map(p -> p.getFileName().toString()).filter(n -> n.startsWith("mcp-server-")).sorted().toList();
        }
    }

    @ParameterizedTest
    @ValueSource(strings = {"process", "jpl"})
    void theLauncherStartsASmallJvmThatStartsFromItsClassArchiveAfterTheFirstRun(String backend, @TempDir Path cache)
            throws Exception {
        String first = runThroughTheLauncher(backend, cache);
        assertThat(first).contains("-XX:+UseSerialGC", "-Xmx256m", "-XX:TieredStopAtLevel=1", "-XX:ArchiveClassesAtExit=");
        Path folder = cache.resolve("prologtool");
        assertThat(names(folder)).as("the first run's dump").singleElement().asString().matches("mcp-server-\\d+\\.jsa\\.\\d+\\.tmp");
        String second = runThroughTheLauncher(backend, cache);
        assertThat(second).contains("-XX:SharedArchiveFile=");
        assertThat(names(folder)).as("the dump, checked and kept").singleElement().asString().matches("mcp-server-\\d+\\.jsa");
        assertThat(runThroughTheLauncher(backend, cache)).contains("-XX:SharedArchiveFile=");
    }

    @Test
    void theLauncherKeepsNoArchiveInAFolderOthersMayWrite(@TempDir Path cache) throws Exception {
        Path folder = Files.createDirectory(cache.resolve("prologtool"));
        Files.setPosixFilePermissions(folder, java.nio.file.attribute.PosixFilePermissions.fromString("rwxrwxrwx"));
        String cmdline = runThroughTheLauncher("process", cache);
        assertThat(cmdline).contains("-XX:+UseSerialGC").doesNotContain("SharedArchiveFile", "ArchiveClassesAtExit");
        assertThat(names(folder)).isEmpty();
    }
}

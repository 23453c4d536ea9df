package io.prologtool.mcp;

import com.fasterxml.jackson.databind.JsonNode;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;

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
}

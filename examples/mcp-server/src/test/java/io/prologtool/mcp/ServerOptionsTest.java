package io.prologtool.mcp;

import io.prologtool.mcp.ServerOptions.Backend;
import io.prologtool.mcp.ServerOptions.IsolationLevel;
import io.prologtool.mcp.ServerOptions.UsageException;
import org.junit.jupiter.api.Test;

import java.nio.file.Path;
import java.time.Duration;
import java.util.Optional;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** The command line of the server, parsed without starting anything. */
class ServerOptionsTest {

    @Test
    void anEmptyCommandLineIsTheProcessBackendWithSandboxedSessions() {
        ServerOptions o = ServerOptions.parse();
        assertThat(o).isEqualTo(ServerOptions.defaults());
        assertThat(o.backend()).isEqualTo(Backend.PROCESS);
        assertThat(o.sandboxed()).isTrue();
        assertThat(o.isolation()).contains(IsolationLevel.AUTO);
        assertThat(o.maxSessions()).isEqualTo(64);
        assertThat(o.idleTtl()).isEqualTo(Duration.ofMinutes(15));
        assertThat(o.poolSize()).isZero();
        assertThat(o.ruleBases()).isEmpty();
        assertThat(o.help()).isFalse();
        assertThat(o.discontiguous()).as("the PrologMCP contract's declarations").isTrue();
        assertThat(o.describe()).isEqualTo("process backend, sandboxed sessions, isolation auto, at most 64 sessions, "
                + "idle TTL 15m");
    }

    @Test
    void everyOptionIsRead() {
        ServerOptions o = ServerOptions.parse("--no-sandbox", "--isolation", "required", "--max-sessions=3",
                "--ttl", "90", "--pool", "2", "--rule-bases", "/tmp/rules", "--no-discontiguous", "--store", "/tmp/st");
        assertThat(o).isEqualTo(new ServerOptions(Backend.PROCESS, false, Optional.of(IsolationLevel.REQUIRED), 3,
                Duration.ofSeconds(90), 2, Optional.of(Path.of("/tmp/rules")), Optional.empty(), false,
                Optional.of("/tmp/st"), false, false));
        assertThat(o.describe()).endsWith(", no discontiguous declarations, sessions kept in /tmp/st");
        assertThat(ServerOptions.parse("--store", "jdbc:postgresql://db/app?user=u&password=secret").describe())
                .as("the password stays out of the log").endsWith(", sessions kept in jdbc:postgresql://db/app");
        assertThat(ServerOptions.USAGE).contains("--store DIR|JDBC-URL");
        assertThat(ServerOptions.parse("--no-discontiguous", "--discontiguous").discontiguous()).isTrue();
        assertThat(ServerOptions.USAGE).contains("--no-discontiguous");
        assertThat(ServerOptions.parse("--swipl", "/opt/swipl/bin/swipl").swipl()).contains(Path.of("/opt/swipl/bin/swipl"));
        assertThat(ServerOptions.parse("--swipl=/usr/bin/swipl").swipl()).contains(Path.of("/usr/bin/swipl"));
        assertThat(ServerOptions.parse("--version").version()).isTrue();
        assertThat(ServerOptions.parse().version()).isFalse();
        assertThat(ServerOptions.USAGE).contains("--swipl PATH").contains("--version");
        ServerOptions jpl = ServerOptions.parse("--backend=JPL", "--no-sandbox", "--sandbox");
        assertThat(jpl.backend()).isEqualTo(Backend.JPL);
        assertThat(jpl.sandboxed()).as("the last word wins").isTrue();
        assertThat(jpl.isolation()).as("the JPL backend has no OS isolation").isEmpty();
        assertThat(ServerOptions.parse("--isolation", "none").isolation()).contains(IsolationLevel.NONE);
        assertThat(ServerOptions.parse("--help").help()).isTrue();
        assertThat(ServerOptions.parse("-h").help()).isTrue();
    }

    @Test
    void theTtlTakesSecondsOrAUnit() {
        assertThat(ServerOptions.parse("--ttl", "45").idleTtl()).isEqualTo(Duration.ofSeconds(45));
        assertThat(ServerOptions.parse("--ttl", "45s").idleTtl()).isEqualTo(Duration.ofSeconds(45));
        assertThat(ServerOptions.parse("--ttl", "30m").idleTtl()).isEqualTo(Duration.ofMinutes(30));
        assertThat(ServerOptions.parse("--ttl", "2h").idleTtl()).isEqualTo(Duration.ofHours(2));
    }

    @Test
    void aBadCommandLineSaysWhatIsWrong() {
        assertThatThrownBy(() -> ServerOptions.parse("--frobnicate")).isInstanceOf(UsageException.class)
                .hasMessage("unknown option '--frobnicate'");
        assertThatThrownBy(() -> ServerOptions.parse("--backend", "prolog")).isInstanceOf(UsageException.class)
                .hasMessage("--backend takes one of process, jpl; got 'prolog'");
        assertThatThrownBy(() -> ServerOptions.parse("--backend")).isInstanceOf(UsageException.class)
                .hasMessage("--backend needs a value");
        assertThatThrownBy(() -> ServerOptions.parse("--max-sessions", "--no-sandbox"))
                .isInstanceOf(UsageException.class).hasMessage("--max-sessions needs a value");
        assertThatThrownBy(() -> ServerOptions.parse("--max-sessions", "0")).isInstanceOf(UsageException.class)
                .hasMessageContaining("at least 1");
        assertThatThrownBy(() -> ServerOptions.parse("--max-sessions", "-1")).isInstanceOf(UsageException.class)
                .hasMessageContaining("whole number");
        assertThatThrownBy(() -> ServerOptions.parse("--ttl", "0")).isInstanceOf(UsageException.class)
                .hasMessageContaining("positive");
        assertThatThrownBy(() -> ServerOptions.parse("--ttl", "PT5M")).isInstanceOf(UsageException.class)
                .hasMessageContaining("90s, 15m, 2h");
        assertThatThrownBy(() -> ServerOptions.parse("--isolation", "custom")).isInstanceOf(UsageException.class)
                .hasMessage("--isolation takes one of auto, required, none; got 'custom'");
        assertThatThrownBy(() -> ServerOptions.parse("--backend", "jpl", "--isolation", "none"))
                .isInstanceOf(UsageException.class).hasMessageContaining("process backend only");
        assertThatThrownBy(() -> ServerOptions.parse("--backend", "jpl", "--pool", "1"))
                .isInstanceOf(UsageException.class).hasMessageContaining("process backend only");
        assertThatThrownBy(() -> ServerOptions.parse("--pool", "300")).isInstanceOf(UsageException.class)
                .hasMessageContaining("0 to 256");
    }

    @Test
    void theUsageNamesEveryOption() {
        for (String option : new String[] {"--backend", "--sandbox", "--no-sandbox", "--isolation", "--max-sessions",
                "--ttl", "--pool", "--rule-bases", "--help"}) {
            assertThat(ServerOptions.USAGE).contains(option);
        }
    }
}

package io.prologtool.process;

import io.prologtool.GoalResult;
import io.prologtool.Outcome;
import io.prologtool.PrologSession;
import io.prologtool.PrologUnavailableException;
import io.prologtool.SessionOptions;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.NetworkInterface;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Collections;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * OS isolation of the process backend, on a real {@code swipl} as root (CI runs as root; these tests
 * fail, never skip, elsewhere): children started through launcher prefixes that share no file with
 * the JVM, and sandboxed sessions that run as another user with no network and no writable folder
 * but their own scratch, even through a hole in {@code library(sandbox)}.
 */
class ProcessIsolationTest {

    private static final SessionOptions SANDBOXED = SessionOptions.builder().sandboxed(true).build();

    @BeforeAll
    static void runsAsRoot() {
        assertThat(Isolation.effectiveUid())
                .as("these tests start children as another user and in new namespaces, which needs root "
                        + "(CI runs as root); run them as root")
                .isZero();
    }

    // ---------------------------------------------------------------- launcher prefixes

    @Test
    void aChildRunsAsAnotherUserThroughASetprivPrefix() {
        try (ProcessBackend backend = ProcessBackend.builder().isolation(Isolation.none())
                .commandPrefix(List.of("setpriv", "--reuid=65534", "--regid=65534", "--clear-groups")).build();
             PrologSession s = backend.open()) {
            assertThat(uidOf(backend)).isEqualTo("65534");
            s.consult("p(1). p(2).");
            assertThat(s.goal("p(X)").run().answers()).hasSize(2);
        }
    }

    @Test
    void aChildRunsWithNoNetworkThroughAnUnsharePrefix() throws Exception {
        try (ServerSocket server = new ServerSocket(0, 5, InetAddress.getByName("0.0.0.0"));
             ProcessBackend backend = ProcessBackend.builder().isolation(Isolation.none())
                     .commandPrefix(List.of("unshare", "--net")).build();
             PrologSession s = backend.open()) {
            GoalResult r = s.goal(connect("127.0.0.1", server.getLocalPort())).run();
            assertThat(r.outcome()).as("%s", r).isEqualTo(Outcome.ERROR);
            assertThat(r.error().orElseThrow().message()).containsIgnoringCase("unreachable");
        }
    }

    @Test
    void aChildThatCannotSeeTheJvmsTmpStillGetsTheHarness() throws Exception {
        String hideTmp = "mount -t tmpfs elsewhere /tmp && exec \"$@\"";
        try (ProcessBackend backend = ProcessBackend.builder().isolation(Isolation.none())
                .commandPrefix(List.of("unshare", "--mount", "sh", "-c", hideTmp, "sh")).build();
             PrologSession s = backend.open()) {
            assertThat(s.goal("exists_directory('" + backend.workDir() + "')").run().outcome())
                    .as("the JVM's work folder %s is hidden from the child", backend.workDir())
                    .isEqualTo(Outcome.FAILURE);
            s.consult("likes(mary, wine).");
            assertThat(s.goal("likes(mary, X)").run().answers().get(0).get("X")).hasToString("wine");
        }
    }

    @Test
    void aCustomIsolationPrefixServesSandboxedSessionsOnly() {
        try (ProcessBackend backend = ProcessBackend.builder()
                .isolation(Isolation.custom("setpriv", "--reuid=65534", "--regid=65534", "--clear-groups")).build()) {
            try (PrologSession trusted = backend.open()) {
                assertThat(uidOf(backend)).isEqualTo("0");
            }
            try (PrologSession sandboxed = backend.open(SANDBOXED)) {
                assertThat(uidOf(backend)).isEqualTo("65534");
                sandboxed.consult("q(1).");
                assertThat(sandboxed.goal("q(X)").run().succeeded()).isTrue();
            }
        }
    }

    // ---------------------------------------------------------------- Isolation.auto / required

    @Test
    void byDefaultSandboxedSessionsRunAsNobodyWithAnAddressSpaceLimit() {
        try (ProcessBackend backend = ProcessBackend.builder().build()) {
            assertThat(backend.isolationInEffect()).as("Isolation.auto() as root on Linux with util-linux").isPresent();
            try (PrologSession trusted = backend.open()) {
                assertThat(uidOf(backend)).isEqualTo("0");
            }
            try (PrologSession s = backend.open(SANDBOXED)) {
                long pid = backend.childPids().get(0);
                assertThat(ChildJvm.procStatus(pid, "Uid:")).startsWith("65534");
                assertThat(ProcessResilienceTest.limitOf(pid)).isEqualTo(Isolation.DEFAULT_ADDRESS_SPACE);
                s.consult("color(red). color(green).");
                assertThat(s.goal("color(C)").run().answers()).hasSize(2);
            }
        }
    }

    @Test
    void anIsolatedSessionCannotOpenASocketEvenThroughAHoleInTheSandbox() throws Exception {
        // allSessions(true) isolates unsandboxed sessions too: one stands in for sandboxed code that
        // found a hole in library(sandbox) and can call anything.
        try (ServerSocket server = new ServerSocket(0, 5, InetAddress.getByName("0.0.0.0"));
             ProcessBackend backend = ProcessBackend.builder().isolation(Isolation.required().allSessions(true)).build();
             ProcessBackend open = ProcessBackend.builder().isolation(Isolation.none()).build()) {
            server.setSoTimeout(1);
            int port = server.getLocalPort();
            try (PrologSession control = open.open()) {
                assertThat(control.goal(connect("127.0.0.1", port)).run().outcome())
                        .as("the same goal without isolation connects").isEqualTo(Outcome.SUCCESS);
            }
            try (PrologSession hole = backend.open()) {
                for (String host : hostAddresses()) {
                    GoalResult r = hole.goal(connect(host, port)).run();
                    assertThat(r.outcome()).as("connect to %s: %s", host, r).isEqualTo(Outcome.ERROR);
                    assertThat(r.error().orElseThrow().message()).containsIgnoringCase("unreachable");
                }
                GoalResult dns = hole.goal(connect("8.8.8.8", 53)).run();
                assertThat(dns.outcome()).as("%s", dns).isEqualTo(Outcome.ERROR);
            }
        }
    }

    @Test
    void anIsolatedSessionCanWriteOnlyToItsOwnScratch() throws Exception {
        Path marker = Path.of("/var/tmp", "prologtool-isolation-" + ProcessHandle.current().pid());
        try (ProcessBackend backend = ProcessBackend.builder()
                .isolation(Isolation.required().allSessions(true).scratchBytes(8L << 20)).build();
             PrologSession hole = backend.open()) {
            assertThat(uidOf(backend)).isEqualTo("65534");
            // The JVM's folders are out of reach: hidden (/tmp) or not writable.
            assertThat(hole.goal("exists_directory('" + backend.workDir() + "')").run().outcome())
                    .isEqualTo(Outcome.FAILURE);
            for (String path : List.of("/root/prologtool-x", "/etc/prologtool-x", "/prologtool-x",
                    backend.workDir() + "/x", "/usr/local/prologtool-x")) {
                GoalResult w = hole.goal(write(path)).run();
                assertThat(w.outcome()).as("write %s: %s", path, w).isEqualTo(Outcome.ERROR);
                assertThat(w.error().orElseThrow().kind()).isIn("permission_error", "existence_error");
                assertThat(Path.of(path)).doesNotExist();
            }
            // Its scratch takes writes, and they land nowhere the JVM can see.
            assertThat(hole.goal(write("/tmp/scratch.txt")).run().outcome()).isEqualTo(Outcome.SUCCESS);
            assertThat(hole.goal(write(marker.toString())).run().outcome()).isEqualTo(Outcome.SUCCESS);
            assertThat(Path.of("/tmp/scratch.txt")).doesNotExist();
            assertThat(marker).doesNotExist();
            // The scratch is bounded.
            GoalResult fill = hole.goal("open('/tmp/big', write, S), "
                    + "forall(between(1, 20000, _), format(S, '~`xt~1024|~n', [])), close(S)").run();
            assertThat(fill.outcome()).as("%s", fill).isEqualTo(Outcome.ERROR);
            assertThat(fill.error().orElseThrow().message()).containsIgnoringCase("space");
        } finally {
            Files.deleteIfExists(marker);
        }
    }

    @Test
    void requiredIsolationSaysWhatIsMissingWhereAutoQuietlyGoesWithout() {
        assertThatThrownBy(() -> Isolation.required().resolve(tool -> java.util.Optional.empty(), 1000))
                .isInstanceOf(PrologUnavailableException.class)
                .hasMessageContaining("Isolation.required()")
                .hasMessageContaining("root (the JVM runs as uid 1000")
                .hasMessageContaining("setpriv (apt-get install util-linux)")
                .hasMessageContaining("unshare").hasMessageContaining("prlimit");
        assertThat(Isolation.auto().resolve(tool -> java.util.Optional.empty(), 1000)).isEmpty();
        assertThat(Isolation.none().resolve()).isEmpty();
        try (ProcessBackend backend = ProcessBackend.builder().isolation(Isolation.required()).build()) {
            assertThat(backend.isolationInEffect()).hasValueSatisfying(d -> assertThat(d).contains("user=65534"));
        }
    }

    // ---------------------------------------------------------------- helpers

    private static String connect(String host, int port) {
        return "use_module(library(socket)), tcp_connect('" + host + "':" + port + ", S, []), close(S)";
    }

    private static String write(String path) {
        return "open('" + path + "', write, S), write(S, x), close(S)";
    }

    /** The uid of the one live child of {@code backend}. */
    private static String uidOf(ProcessBackend backend) {
        List<Long> pids = backend.childPids();
        assertThat(pids).as("live children").hasSize(1);
        return ChildJvm.procStatus(pids.get(0), "Uid:").split("\\s+")[0];
    }

    /** This machine's own addresses: loopback and every interface's IPv4 address. */
    private static List<String> hostAddresses() throws Exception {
        List<String> out = new java.util.ArrayList<>(List.of("127.0.0.1"));
        for (NetworkInterface ni : Collections.list(NetworkInterface.getNetworkInterfaces())) {
            for (InetAddress a : Collections.list(ni.getInetAddresses())) {
                if (a instanceof java.net.Inet4Address && !a.isLoopbackAddress()) {
                    out.add(a.getHostAddress());
                }
            }
        }
        return out;
    }
}

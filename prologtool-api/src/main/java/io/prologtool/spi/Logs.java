package io.prologtool.spi;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;

/**
 * The library's loggers, one per area, all through {@link System.Logger} (route them to SLF4J, Logback
 * or Log4j with the bridge you already use, e.g. {@code org.slf4j:slf4j-jdk-platform-logging}):
 *
 * <ul>
 *   <li>{@code io.prologtool.backend}: INFO when a backend starts (its kind, the SWI-Prolog version,
 *       the isolation in effect, the pool size) and when it closes.</li>
 *   <li>{@code io.prologtool.session}: WARNING when a session's Prolog died and the session was
 *       restored, when a journal entry was dropped while restoring, when a session was closed because it
 *       could not be restored, and when a listener threw; DEBUG when a session opens and closes; TRACE
 *       for each call (kind, outcome, wall time, CPU time, inferences) and each other request to the
 *       harness (its op, its wall time).</li>
 *   <li>{@code io.prologtool.registry}: DEBUG when a registry evicts or expires a session or restores one
 *       from its store; WARNING when a session store lost a lease with its database connection and
 *       another registry took it, when a session let go could not be marked so in its store, and when a
 *       sweep of the store failed.</li>
 *   <li>{@code io.prologtool.pool}: DEBUG when a process backend's warm pool is refilled.</li>
 * </ul>
 *
 * Nothing on the path of a call logs above DEBUG, and no message is built for a level that is off.
 */
public final class Logs {

    /** Backend start and stop. */
    public static final System.Logger BACKEND = System.getLogger("io.prologtool.backend");
    /** Session lifecycle, restores, and each call at TRACE. */
    public static final System.Logger SESSION = System.getLogger("io.prologtool.session");
    /** Registry evictions and expiry. */
    public static final System.Logger REGISTRY = System.getLogger("io.prologtool.registry");
    /** Warm pool refills of the process backend. */
    public static final System.Logger POOL = System.getLogger("io.prologtool.pool");

    private static final Map<Path, String> VERSIONS = new ConcurrentHashMap<>();

    private Logs() {
    }

    /**
     * The first line {@code swipl --version} prints (e.g. {@code SWI-Prolog version 9.0.4 for
     * x86_64-linux}), asked once per {@code swipl} and remembered; {@code "unknown"} when it does not
     * answer within 10 s. For the INFO line of a backend's start: call it only when INFO is on.
     */
    public static String swiplVersion(Path swipl) {
        return VERSIONS.computeIfAbsent(swipl, Logs::askVersion);
    }

    private static String askVersion(Path swipl) {
        try {
            Process p = new ProcessBuilder(swipl.toString(), "--version").redirectErrorStream(true).start();
            byte[] out = p.getInputStream().readNBytes(4096);
            if (!p.waitFor(10, TimeUnit.SECONDS)) {
                p.destroyForcibly();
                return "unknown";
            }
            String first = new String(out, StandardCharsets.UTF_8).lines().findFirst().orElse("").strip();
            return first.isEmpty() ? "unknown" : first;
        } catch (IOException e) {
            return "unknown";
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return "unknown";
        }
    }
}

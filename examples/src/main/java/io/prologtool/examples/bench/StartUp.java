package io.prologtool.examples.bench;

import io.prologtool.GoalResult;
import io.prologtool.PrologSession;
import io.prologtool.mcp.PrologMcpServer;
import io.prologtool.process.ProcessBackend;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.io.PrintStream;
import java.lang.management.ManagementFactory;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.TimeUnit;

/**
 * Start-up. A process backend ready to open sessions ({@code ProcessBackend.builder().build()} returned) on a
 * machine where a backend started before (its saved state in the cache), against the first start on a
 * machine (an empty cache: the state compiled); and the MCP server from launch to its answer to
 * {@code initialize}, on each backend, against the floor of a JVM launched the same way that reads one line
 * from standard input and answers it ({@link LineAnswer}).
 */
final class StartUp {

    private static final String INITIALIZE = "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"initialize\",\"params\":"
            + "{\"protocolVersion\":\"2025-06-18\",\"capabilities\":{},\"clientInfo\":{\"name\":\"bench\",\"version\":\"1\"}}}";

    private StartUp() {
    }

    static List<Row> measure(Plan plan, PrintStream log) throws Exception {
        List<Row> rows = new ArrayList<>();
        Plan.Iterations it = plan.quick() ? new Plan.Iterations(0, 2) : new Plan.Iterations(2, 10);

        Path cache = Files.createTempDirectory("prologtool-bench-cache");
        Timer.progress(log, "backend start, process, saved state cached", it);
        long[] cpu = new long[1];
        long[] cached = times(it, () -> startAndAnswer(cache), cpu);
        long cachedCpu = cpu[0] / it.timed();
        Timer.progress(log, "backend start, process, first start on the machine (empty cache)", it);
        List<Path> empties = new ArrayList<>();
        long[] cold = times(it, () -> {
            Path fresh = Files.createTempDirectory("prologtool-bench-cold");
            empties.add(fresh);
            return startAndAnswer(fresh);
        }, cpu);
        long coldCpu = cpu[0] / it.timed();
        rows.add(Row.of("start_backend", "process backend ready (saved state cached)", "process",
                Summary.ofNanos(cached, Unit.MILLIS), Unit.MILLIS, String.format(Locale.ROOT,
                        "ProcessBackend.builder().build() (default options: OS isolation probed, no pool) timed to its "
                                + "return, then one session answers `true` and all is closed, untimed; the state cache "
                                + "holds the harness's saved state; JVM CPU %.0f ms per start (cold: %.0f ms)",
                        cachedCpu / 1e6, coldCpu / 1e6),
                "the same on an empty cache (the state compiled: a machine's first start)",
                Summary.ofNanos(cold, Unit.MILLIS)).withTarget(Target.below(300)));

        Timer.progress(log, "MCP server start, floor: a JVM that answers one line", it);
        long[] floor = times(it, () -> launchAndAnswer(List.of(LineAnswer.class.getName())), cpu);
        for (String backend : List.of("process", "jpl")) {
            Timer.progress(log, "MCP server start to initialize answered, " + backend, it);
            long[] mcp = times(it, () -> launchAndAnswer(List.of(PrologMcpServer.class.getName(),
                    "--backend", backend)), cpu);
            rows.add(Row.of("start_mcp", "MCP server launched to initialize answered", backend,
                    Summary.ofNanos(mcp, Unit.MILLIS), Unit.MILLIS, "`java -Xmx256m -cp ... PrologMcpServer --backend "
                            + backend + "` launched, the initialize request written to its stdin, timed to the "
                            + "answer's line on its stdout (default options; saved state cached)",
                    "the same JVM launch of a main that reads one line and answers it",
                    Summary.ofNanos(floor, Unit.MILLIS)).withTarget(Target.marginAtMost(500)));
        }
        for (Path p : empties) {
            deleteTree(p);
        }
        deleteTree(cache);
        return rows;
    }

    /** What one start took, in nanoseconds, timed by the start itself. */
    @FunctionalInterface
    private interface Start {
        long run() throws Exception;
    }

    /** Each timed start's own time; {@code cpu[0]} gets this JVM's CPU time over the timed starts. */
    private static long[] times(Plan.Iterations it, Start start, long[] cpu) throws Exception {
        for (int i = 0; i < it.warmup(); i++) {
            start.run();
        }
        long cpu0 = cpuNanos();
        long[] nanos = new long[it.timed()];
        for (int i = 0; i < nanos.length; i++) {
            nanos[i] = start.run();
        }
        cpu[0] = cpuNanos() - cpu0;
        return nanos;
    }

    /** Starts a backend on {@code cache}, has a session answer, closes it; build()'s own time. */
    private static long startAndAnswer(Path cache) throws Exception {
        long t0 = System.nanoTime();
        ProcessBackend backend = ProcessBackend.builder().stateCache(cache).build();
        long ready = System.nanoTime() - t0;
        try (backend; PrologSession s = backend.open()) {
            GoalResult r = s.goal("true").run();
            if (!r.succeeded()) {
                throw new IllegalStateException("a fresh backend's session did not answer true: " + r);
            }
        }
        return ready;
    }

    /**
     * Launches a JVM on this class path running {@code mainAndArgs}, writes initialize, waits for a line; the
     * time from the launch to that line (the JVM's exit after its stdin closes is not timed).
     */
    private static long launchAndAnswer(List<String> mainAndArgs) throws Exception {
        List<String> cmd = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-Xmx256m", "-cp", System.getProperty("java.class.path")));
        cmd.addAll(mainAndArgs);
        long t0 = System.nanoTime();
        Process p = new ProcessBuilder(cmd).redirectError(ProcessBuilder.Redirect.DISCARD).start();
        try {
            OutputStream in = p.getOutputStream();
            in.write((INITIALIZE + "\n").getBytes(StandardCharsets.UTF_8));
            in.flush();
            BufferedReader out = new BufferedReader(new InputStreamReader(p.getInputStream(), StandardCharsets.UTF_8));
            String line = out.readLine();
            if (line == null || !(line.contains("\"result\"") || line.contains("answered"))) {
                throw new IllegalStateException(mainAndArgs.get(0) + " answered " + line);
            }
            return System.nanoTime() - t0;
        } finally {
            p.getOutputStream().close();
            if (!p.waitFor(10, TimeUnit.SECONDS)) {
                p.destroyForcibly().waitFor();
            }
        }
    }

    private static long cpuNanos() {
        return ((com.sun.management.OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean())
                .getProcessCpuTime();
    }

    private static void deleteTree(Path dir) throws IOException {
        try (var paths = Files.walk(dir)) {
            for (Path p : (Iterable<Path>) paths.sorted(java.util.Comparator.reverseOrder())::iterator) {
                Files.deleteIfExists(p);
            }
        }
    }
}

package io.prologtool.examples.bench;

import io.prologtool.GoalResult;
import io.prologtool.PrologSession;
import io.prologtool.process.ProcessBackend;
import io.prologtool.spi.TempFolders;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * Start-up and the MCP server's memory. A process backend ready to open sessions ({@code
 * ProcessBackend.builder().build()} returned) on a machine where a backend started before (its saved state in
 * the cache), against the first start on a machine (an empty cache: the state compiled); the MCP server
 * started by its launcher ({@code examples/mcp-server/bin/prologtool-mcp-server}, with the runnable jar
 * {@code make build} writes) from launch to its answer to {@code initialize}, on each backend, against the
 * floor of a JVM that reads one line from standard input and answers it ({@link LineAnswer}); and the
 * server's RSS after 10,000 {@code run_goal} calls (300 in a quick run) through the launcher, against the
 * same through {@code java -jar} with the JVM's defaults.
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

        Path launcher = Benchmarks.repositoryRoot().resolve("examples/mcp-server/bin/prologtool-mcp-server");
        Path jar = Benchmarks.repositoryRoot().resolve("examples/mcp-server/target/prologtool-mcp-server.jar");
        if (!Files.isRegularFile(jar)) {
            throw new IllegalStateException(jar + " is missing: build it first (make build)");
        }
        // the launcher's own class archive, in a cache of the bench's: made by the warm-up runs
        Map<String, String> env = Map.of("XDG_CACHE_HOME", cache.toString(), "PROLOGTOOL_MCP_JAR", jar.toString());
        Plan.Iterations mcpIt = new Plan.Iterations(2, it.timed());
        Timer.progress(log, "MCP server start, floor: a JVM that answers one line", mcpIt);
        long[] floor = times(mcpIt, () -> launchAndAnswer(List.of(java(), "-Xshare:auto", "-cp",
                System.getProperty("java.class.path"), LineAnswer.class.getName()), Map.of(), 0, null), cpu);
        int calls = plan.quick() ? 300 : 10_000;
        for (String backend : List.of("process", "jpl")) {
            Timer.progress(log, "MCP server start to initialize answered, through the launcher, " + backend, mcpIt);
            long[] mcp = times(mcpIt, () -> launchAndAnswer(List.of(launcher.toString(), "--backend", backend), env, 0,
                    null), cpu);
            rows.add(Row.of("start_mcp", "MCP server launched to initialize answered", backend,
                    Summary.ofNanos(mcp, Unit.MILLIS), Unit.MILLIS, "examples/mcp-server/bin/prologtool-mcp-server "
                            + "--backend " + backend + " (the launcher: its JVM settings and class archive, made by "
                            + "the warm-up runs) launched, the initialize request written to its stdin, timed to the "
                            + "answer's line on its stdout (default options; saved state cached)",
                    "a JVM launched on the same java that reads one line and answers it",
                    Summary.ofNanos(floor, Unit.MILLIS)).withTarget(Target.marginAtMost(500)));
            Timer.progress(log, "MCP server RSS after " + calls + " run_goal calls, " + backend, ONE);
            long[] rss = new long[1];
            launchAndAnswer(List.of(launcher.toString(), "--backend", backend), env, calls, rss);
            long[] plainRss = new long[1];
            launchAndAnswer(List.of(java(), "-jar", jar.toString(), "--backend", backend), Map.of(), calls, plainRss);
            rows.add(new Row("mcp_rss", "MCP server RSS after " + String.format(Locale.ROOT, "%,d", calls)
                    + " run_goal calls", backend, rss[0] / 1e6, java.util.OptionalDouble.empty(), Unit.MB,
                    "the launcher's JVM (serial GC, 16-256 MB heap, C1 only, class archive): VmRSS of the server's "
                            + "process after a consult and " + String.format(Locale.ROOT, "%,d", calls) + " run_goal calls (member(X, [1,2,3])) over stdio"
                            + " (the process backend's swipl children are processes of their own, not counted)",
                    "the same calls to `java -jar prologtool-mcp-server.jar` with the JVM's defaults",
                    java.util.OptionalDouble.of(plainRss[0] / 1e6), java.util.Optional.of(Target.below(150))));
        }
        for (Path p : empties) {
            TempFolders.deleteTree(p);
        }
        TempFolders.deleteTree(cache);
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
        long cpu0 = SessionStores.cpuNanos();
        long[] nanos = new long[it.timed()];
        for (int i = 0; i < nanos.length; i++) {
            nanos[i] = start.run();
        }
        cpu[0] = SessionStores.cpuNanos() - cpu0;
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

    private static final Plan.Iterations ONE = new Plan.Iterations(0, 1);

    private static String java() {
        return Path.of(System.getProperty("java.home"), "bin", "java").toString();
    }

    /**
     * Runs {@code cmd} (with {@code env} added), writes initialize to it and waits for the answer's line; then,
     * when {@code calls > 0}, makes those run_goal calls on a consulted session and puts the process's VmRSS
     * (bytes) in {@code rss[0]}. The time from the launch to the answer to initialize (the process's exit after
     * its stdin closes is not timed).
     */
    private static long launchAndAnswer(List<String> cmd, Map<String, String> env, int calls, long[] rss)
            throws Exception {
        ProcessBuilder pb = new ProcessBuilder(cmd).redirectError(ProcessBuilder.Redirect.DISCARD);
        pb.environment().putAll(env);
        long t0 = System.nanoTime();
        Process p = pb.start();
        try {
            OutputStream in = p.getOutputStream();
            BufferedReader out = new BufferedReader(new InputStreamReader(p.getInputStream(), StandardCharsets.UTF_8));
            send(in, INITIALIZE);
            String line = out.readLine();
            long answered = System.nanoTime() - t0;
            if (line == null || !(line.contains("\"result\"") || line.contains("answered"))) {
                throw new IllegalStateException(cmd + " answered " + line);
            }
            if (calls > 0) {
                send(in, "{\"jsonrpc\":\"2.0\",\"method\":\"notifications/initialized\"}");
                send(in, call(2, "consult_text", "{\"source_text\": \"p(1). p(2). p(3).\"}"));
                String consulted = responseTo(out, 2);
                java.util.regex.Matcher m = java.util.regex.Pattern.compile("load_id\\\\\":\\\\\"([0-9a-f]+)")
                        .matcher(consulted);
                if (!m.find()) {
                    throw new IllegalStateException("consult_text answered " + consulted);
                }
                for (int i = 0; i < calls; i++) {
                    send(in, call(3 + i, "run_goal", "{\"load_id\": \"" + m.group(1)
                            + "\", \"goal\": \"member(X, [1,2,3])\"}"));
                    String r = responseTo(out, 3 + i);
                    if (!r.contains("\\\"count\\\":3")) {
                        throw new IllegalStateException("run_goal answered " + r);
                    }
                }
                rss[0] = ProcMemory.rssKib(p.pid()) * 1024;
            }
            return answered;
        } finally {
            p.getOutputStream().close();
            if (!p.waitFor(30, TimeUnit.SECONDS)) {
                p.destroyForcibly().waitFor();
            }
        }
    }

    private static String call(int id, String tool, String arguments) {
        return "{\"jsonrpc\":\"2.0\",\"id\":" + id + ",\"method\":\"tools/call\",\"params\":{\"name\":\"" + tool
                + "\",\"arguments\":" + arguments + "}}";
    }

    private static void send(OutputStream in, String line) throws IOException {
        in.write((line + "\n").getBytes(StandardCharsets.UTF_8));
        in.flush();
    }

    /** The response line of request {@code id} (notifications and other messages skipped). */
    private static String responseTo(BufferedReader out, int id) throws IOException {
        String prefix = "\"id\":" + id + ",";
        for (String line; (line = out.readLine()) != null; ) {
            if (line.contains(prefix)) {
                return line;
            }
        }
        throw new IOException("the server ended before it answered request " + id);
    }
}

package io.prologtool.examples.bench;

import io.prologtool.examples.CommandLine;

import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;

/**
 * {@code make bench}: the benchmark suite (issues 8 and 16). In one run on this machine it measures both
 * backends next to a baseline that does the same work without prologtool, or next to the floor of that
 * work measured in the same run ({@link Floors}), prints a table, and writes {@code results.csv},
 * {@code results.svg} (a bar chart, log scale) and {@code results.md} (the table for the README) into
 * {@code docs/bench}:
 * <ol>
 *   <li>a whole session (open, consult 20 clauses, one goal, close) on JPL, on the process backend with
 *       a warm pool of 2 (cycles 30 ms apart so the pool refills) and with a child per open, against a
 *       fresh {@code swipl} per session;</li>
 *   <li>a round trip (the goal {@code true} on an open session): on JPL against JPL's own bare query,
 *       on the process backend against a bare {@code swipl} read/call loop over a pipe, the floor of any
 *       process behind a pipe; the CPU time per call (the JVM's and its children's) against the wall time
 *       of the same calls, for the round trip back to back and paced, and for the session cycle
 *       ({@link CpuPerCall}); the harness's own work per goal request, measured inside Prolog; the
 *       1,000th answer fetched from an open query against running the goal again ({@link QueryFetch});
 *       a fork of a session against opening one and consulting the same program ({@link SessionFork});
 *       a call that changes a session on a folder and on a PostgreSQL store against no store, and a restore
 *       from a store against opening and consulting ({@link SessionStores});
 *       and a {@code run_goal} round trip through the MCP server ({@code examples/mcp-server}) from the
 *       SDK's client, against {@code PrologTools.call} of the same goal in the JVM ({@link McpRoundTrip});</li>
 *   <li>start-up: a process backend ready on a machine where one started before (its saved state cached)
 *       against the first start on a machine, and the MCP server through its launcher from launch to its
 *       answer to {@code initialize} on each backend against a JVM that answers one line; the MCP server's
 *       RSS after 10,000 calls through its launcher against {@code java -jar} ({@link StartUp});</li>
 *   <li>{@code execute_prolog} on the 30 prolog-reasoner problems against {@code swipl} started per
 *       call, as prolog-reasoner does, and against the floor of the same work in plain {@code swipl};</li>
 *   <li>PARARULE-Plus {@code sample.jsonl} end to end through the Formalizer agent with 1 thread against
 *       the batch floor (the same programs answered by plain {@code swipl} in one process), and 2 threads
 *       against 1, with the accuracy checked;</li>
 *   <li>memory: a JVM holding 1,000 JPL sessions (in a child JVM, {@link JplMemoryProbe}), and each
 *       process backend child against a bare {@code swipl};</li>
 *   <li>how cost grows with the work, at three sizes each, drawn as curves ({@link CostGrowth}): a
 *       consult of 1,000 to 100,000 clauses against plain {@code swipl} loading the same text, 1,000 to
 *       50,000 open JPL sessions, 10,000 to 1,000,000 answers through a query, 100 kB to 10 MB of output.</li>
 * </ol>
 * Every measurement is warmed up, then timed per iteration with {@link System#nanoTime()}; the table
 * gives median and p90, the baseline's median, their ratio (how many times better than the baseline)
 * and the issue's target where it sets one. Every iteration checks its answer, so nothing broken can
 * report a fast number.
 *
 * <pre>{@code
 * make bench                                   # the full run: about 15 minutes on 2 cores
 * make bench BENCH_ARGS=--quick                # a short run, under a minute
 * make bench BENCH_ARGS="--quick --out /tmp/b" # results elsewhere
 * make bench BENCH_ARGS="--only cycles"        # the session cycles only, with and without isolation
 * make bench BENCH_ARGS="--only roundtrip"     # the round trips against their floors only
 * }</pre>
 * Options:
 * <ul>
 *   <li>{@code --quick}: few iterations, a subset of the questions, 200 JPL sessions;</li>
 *   <li>{@code --out DIR}: where the results go (default {@code docs/bench}; a relative DIR is taken
 *       from the repository root, the nearest directory up with a {@code pom.xml} that lists modules);</li>
 *   <li>{@code --skip-jpl-memory}: leave out the JPL memory rows (they start a second JVM);</li>
 *   <li>{@code --only NAME}: only one measurement, one of {@link #MEASUREMENTS}' names: {@code cycles}
 *       (the session cycles, with and without OS isolation), {@code roundtrip} (the round trips and
 *       their floors, the harness's work), {@code cpu} (CPU per call), {@code observed} (the round trip with the Micrometer binding
 *       registered against the same without it), {@code fetch}, {@code fork}, {@code store}, {@code cancel}, {@code mcp}, {@code start}, {@code check},
 *       {@code history}, {@code execute}, {@code pararule}, {@code memory}, {@code growth}; results in {@code docs/bench/NAME} unless
 *       {@code --out} says otherwise;</li>
 *   <li>{@code --pool-pause MS}: the untimed pause before each warm-pool cycle (default 30 ms); on a
 *       machine where a child takes longer than that to start, the pool runs dry and the row measures
 *       spawns, so give it more.</li>
 * </ul>
 * Reads its data (the prolog-reasoner problems, the PARARULE-Plus sample) from the classpath: the
 * repository's {@code data/} folder, bundled with the examples.
 */
public final class Benchmarks {

    /** The attribution the PARARULE-Plus licence asks for wherever results on it are shown. */
    static final String ATTRIBUTION = io.prologtool.examples.Demo.ATTRIBUTION;

    private Benchmarks() {
    }

    /** One measurement of the suite: the rows it adds. */
    @FunctionalInterface
    interface Measurement {
        List<Row> measure(Plan plan, Path swipl, PrintStream log, long poolPause) throws Exception;
    }

    /** The suite's measurements by name, in the order a full run takes them ({@code --only NAME}). */
    static final Map<String, Measurement> MEASUREMENTS = measurements();

    private static Map<String, Measurement> measurements() {
        Map<String, Measurement> m = new LinkedHashMap<>();
        m.put("cycles", SessionCycles::measure);
        m.put("roundtrip", (plan, swipl, log, pause) -> RoundTrips.measure(plan, swipl, log));
        m.put("cpu", (plan, swipl, log, pause) -> CpuPerCall.measure(plan, log));
        m.put("observed", (plan, swipl, log, pause) -> ObservedRoundTrips.measure(plan, log));
        m.put("fetch", (plan, swipl, log, pause) -> QueryFetch.measure(plan, log));
        m.put("fork", (plan, swipl, log, pause) -> SessionFork.measure(plan, log));
        m.put("store", (plan, swipl, log, pause) -> SessionStores.measure(plan, log));
        m.put("cancel", (plan, swipl, log, pause) -> CancelStop.measure(plan, log));
        m.put("mcp", (plan, swipl, log, pause) -> McpRoundTrip.measure(plan, log));
        m.put("start", (plan, swipl, log, pause) -> StartUp.measure(plan, log));
        m.put("check", (plan, swipl, log, pause) -> ConsultCheck.measure(plan, log));
        m.put("history", (plan, swipl, log, pause) -> SessionHistory.measure(plan, log));
        m.put("execute", (plan, swipl, log, pause) -> ExecuteProlog.measure(plan, swipl, log));
        m.put("pararule", (plan, swipl, log, pause) -> PararuleThroughput.measure(plan, swipl, log));
        m.put("memory", (plan, swipl, log, pause) -> MemoryFootprint.measure(plan, swipl, log));
        m.put("growth", (plan, swipl, log, pause) -> CostGrowth.measure(plan, swipl, log));
        return Collections.unmodifiableMap(m);
    }

    /**
     * The options of a run.
     *
     * @param quick         a short run
     * @param out           where the results go; empty for {@code docs/bench} in the repository
     * @param jplMemory     whether to measure JPL memory in a child JVM
     */
    record Options(boolean quick, Optional<Path> out, boolean jplMemory, Optional<String> only, long poolPause) {

        static Options parse(String... args) {
            List<String> words = CommandLine.words(args);
            boolean quick = false;
            boolean jplMemory = true;
            Optional<Path> out = Optional.empty();
            Optional<String> only = Optional.empty();
            long poolPause = Plan.POOL_PAUSE_MILLIS;
            for (int i = 0; i < words.size(); i++) {
                switch (words.get(i)) {
                    case "--quick" -> quick = true;
                    case "--pool-pause" -> {
                        if (i + 1 >= words.size() || !words.get(i + 1).matches("\\d{1,5}")) {
                            throw new IllegalArgumentException("--pool-pause needs milliseconds");
                        }
                        poolPause = Long.parseLong(words.get(++i));
                    }
                    case "--only" -> {
                        if (i + 1 >= words.size() || !MEASUREMENTS.containsKey(words.get(i + 1))) {
                            throw new IllegalArgumentException("--only takes one measurement name: "
                                    + String.join(", ", MEASUREMENTS.keySet()));
                        }
                        only = Optional.of(words.get(++i));
                    }
                    case "--skip-jpl-memory" -> jplMemory = false;
                    case "--out" -> {
                        if (i + 1 >= words.size()) {
                            throw new IllegalArgumentException("--out needs a directory");
                        }
                        out = Optional.of(Path.of(words.get(++i)));
                    }
                    default -> throw new IllegalArgumentException("unknown option " + words.get(i));
                }
            }
            return new Options(quick, out, jplMemory, only, poolPause);
        }

        Plan plan() {
            Plan p = quick ? Plan.quickRun() : Plan.fullRun();
            return jplMemory ? p : p.withoutJplMemory();
        }

        /** The output directory: {@code --out} (relative to the repository root) or {@code docs/bench}. */
        Path outDir() {
            Path dir = out.orElse(Path.of("docs", "bench"));
            return dir.isAbsolute() ? dir : repositoryRoot().resolve(dir);
        }
    }

    /** What a run produced. */
    record Results(Machine machine, List<Row> rows, Path dir) {
    }

    /**
     * Runs the suite (see the class comment for the options) and writes the results; exits with 2 on
     * a bad option.
     */
    public static void main(String[] args) throws Exception {
        Options options;
        try {
            options = Options.parse(args);
        } catch (IllegalArgumentException e) {
            System.err.println("bench: " + e.getMessage());
            System.err.println("usage: Benchmarks [--quick] [--out DIR] [--skip-jpl-memory] [--only NAME] [--pool-pause MS]");
            System.exit(2);
            return;
        }
        run(options, System.out, System.err);
    }

    /** Runs every measurement, prints the table on {@code out} (progress on {@code log}), writes the files. */
    static Results run(Options options, PrintStream out, PrintStream log) throws Exception {
        long t0 = System.nanoTime();
        Plan plan = options.plan();
        // A partial run does not overwrite the suite's results unless told where to write.
        Path dir = options.only().isPresent() && options.out().isEmpty()
                ? options.outDir().resolve(options.only().get()) : options.outDir();
        Path swipl = BareSwipl.find();
        Machine machine = Machine.probe(swipl);
        log.println("[bench] " + (plan.quick() ? "quick run" : "full run") + " on " + machine.line());

        List<Row> rows = new ArrayList<>();
        for (Map.Entry<String, Measurement> m : MEASUREMENTS.entrySet()) {
            if (options.only().isEmpty() || options.only().get().equals(m.getKey())) {
                rows.addAll(m.getValue().measure(plan, swipl, log, options.poolPause()));
            }
        }

        String args = ((plan.quick() ? "--quick " : "") + options.only().map(o -> "--only " + o + " ").orElse("")
                + (options.poolPause() != Plan.POOL_PAUSE_MILLIS ? "--pool-pause " + options.poolPause() : "")).strip();
        String command = "make bench" + (args.isEmpty() ? "" : " BENCH_ARGS=" + (args.contains(" ") ? "\"" + args + "\"" : args));
        double seconds = (System.nanoTime() - t0) / 1e9;
        out.print(table(machine, rows, command, seconds));
        Files.createDirectories(dir);
        ResultsCsv.write(dir.resolve("results.csv"), rows);
        ResultsChart.write(dir.resolve("results.svg"), machine, rows);
        Files.writeString(dir.resolve("results.md"), markdown(machine, rows, command), StandardCharsets.UTF_8);
        out.println("wrote " + dir.resolve("results.csv") + ", results.svg and results.md");
        return new Results(machine, rows, dir);
    }

    /** The table as printed: one line per row, then what each row and baseline is. */
    static String table(Machine machine, List<Row> rows, String command, double seconds) {
        StringBuilder b = new StringBuilder();
        b.append(String.format(Locale.ROOT, "%nprologtool benchmarks (%s, %.0f s): %s%n%n", command, seconds,
                machine.line()));
        int w = Math.max(4, rows.stream().mapToInt(r -> r.what().length()).max().orElse(4));
        String format = "%-4s %-" + w + "s  %-8s %10s %10s  %-4s %14s %9s  %s%n";
        b.append(String.format(Locale.ROOT, format, "#", "what", "backend", "median", "p90", "unit", "baseline median",
                "ratio", "target"));
        int n = 0;
        for (Row r : rows) {
            b.append(String.format(Locale.ROOT, format, "[" + ++n + "]", r.what(), r.backend(), Numbers.shown(r.median()),
                    r.p90().isPresent() ? Numbers.shown(r.p90().getAsDouble()) : "-", r.unit().symbol,
                    r.baselineMedian().isPresent() ? Numbers.shown(r.baselineMedian().getAsDouble()) : "-",
                    r.ratio().isPresent() ? Numbers.shown(r.ratio().getAsDouble()) + "x" : "-", target(r)));
        }
        b.append(String.format(Locale.ROOT, "%nratio: how many times better than the baseline (baseline / ours for "
                + "times and memory, ours / baseline for throughput); below 1, ours is worse.%n"));
        n = 0;
        for (Row r : rows) {
            b.append(String.format(Locale.ROOT, "[%d] %s.%s%n", ++n, r.details(),
                    r.baseline().isEmpty() ? "" : " Baseline: " + r.baseline() + "."));
        }
        b.append(String.format(Locale.ROOT, "%nData: the PARARULE-Plus sample (data/pararule-plus) and the prolog-reasoner "
                + "problems (data/prolog-reasoner); see data/README.md.%n%s%n", ATTRIBUTION));
        return b.toString();
    }

    private static String target(Row r) {
        return r.target().map(t -> t.text(r.unit()) + (t.metBy(r) ? "  met" : "  MISSED")).orElse("");
    }

    /** The table in Markdown, with the command and the machine, ready for the README. */
    static String markdown(Machine machine, List<Row> rows, String command) {
        StringBuilder b = new StringBuilder();
        b.append("Measured with `").append(command).append("` on ").append(machine.line()).append(".\n\n");
        b.append("| what | backend | median | p90 | baseline | baseline median | ratio | target |\n");
        b.append("| --- | --- | ---: | ---: | --- | ---: | ---: | --- |\n");
        for (Row r : rows) {
            String u = " " + r.unit().symbol;
            b.append("| ").append(md(r.what())).append(" | ").append(r.backend()).append(" | ")
                    .append(Numbers.shown(r.median())).append(u).append(" | ")
                    .append(r.p90().isPresent() ? Numbers.shown(r.p90().getAsDouble()) + u : "").append(" | ")
                    .append(md(r.baseline())).append(" | ")
                    .append(r.baselineMedian().isPresent() ? Numbers.shown(r.baselineMedian().getAsDouble()) + u : "")
                    .append(" | ").append(r.ratio().isPresent() ? Numbers.shown(r.ratio().getAsDouble()) + "x" : "")
                    .append(" | ").append(md(r.target().map(t -> t.text(r.unit()) + (t.metBy(r) ? " met" : " **missed**"))
                            .orElse(""))).append(" |\n");
        }
        b.append("\nratio: how many times better than the baseline (baseline / ours for times and memory, ours / "
                + "baseline for throughput). Details of each row: `results.csv`.\n");
        b.append("\nData: the PARARULE-Plus sample (`data/pararule-plus`) and the prolog-reasoner problems "
                + "(`data/prolog-reasoner`); see `data/README.md`. ").append(ATTRIBUTION).append('\n');
        return b.toString();
    }

    private static String md(String s) {
        return s.replace("|", "\\|");
    }

    /** The repository root: the nearest directory at or above the working directory whose pom.xml has modules. */
    static Path repositoryRoot() {
        for (Path d = Path.of("").toAbsolutePath(); d != null; d = d.getParent()) {
            Path pom = d.resolve("pom.xml");
            try {
                if (Files.isRegularFile(pom) && Files.readString(pom).contains("<modules>")) {
                    return d;
                }
            } catch (IOException e) {
                // unreadable: keep looking
            }
        }
        throw new IllegalStateException("no pom.xml with <modules> above " + Path.of("").toAbsolutePath()
                + "; run from the repository or pass --out DIR");
    }
}

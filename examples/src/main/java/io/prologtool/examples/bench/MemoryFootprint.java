package io.prologtool.examples.bench;

import io.prologtool.Outcome;
import io.prologtool.PrologSession;
import io.prologtool.process.ProcessBackend;

import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.OptionalDouble;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;

/**
 * Measurement 5, memory: the resident set of a JVM holding many JPL sessions (measured in a child JVM,
 * {@link JplMemoryProbe}), and the resident and proportional set of each {@code swipl} child of the
 * process backend against a bare {@code swipl} idling.
 */
final class MemoryFootprint {

    /** The child JVM's settings: a small fixed heap, so the resident set is mostly Prolog's. */
    static final List<String> PROBE_JVM_OPTIONS = List.of("-Xmx128m", "-XX:+UseSerialGC");
    /** How long the children idle before their memory is read. */
    private static final long IDLE_MILLIS = 300;
    private static final Pattern PROBE_LINE = Pattern.compile("rss_kib before=(\\d+) after=(\\d+) sessions=(\\d+)");
    private static final Pattern CYCLES_LINE = Pattern.compile("cycles=(\\d+) rss_kib first=(\\d+) last=(\\d+) "
            + "atoms=(\\d+),(\\d+) functors=(\\d+),(\\d+) modules=(\\d+),(\\d+)");

    private MemoryFootprint() {
    }

    static List<Row> measure(Plan plan, Path swipl, PrintStream log) throws Exception {
        List<Row> rows = new ArrayList<>();
        if (plan.jplMemory()) {
            rows.addAll(jpl(plan.jplSessions(), log));
            rows.add(jplCycles(plan.jplCycles(), log));
        }
        rows.addAll(process(plan.processSessions(), swipl, log));
        return rows;
    }

    private static List<Row> jpl(int n, PrintStream log) throws IOException, InterruptedException {
        log.printf(Locale.ROOT, "[bench] memory, jpl: a child JVM with %,d sessions%n", n);
        String text = probe(Integer.toString(n));
        Matcher m = PROBE_LINE.matcher(text);
        if (!m.find()) {
            throw new IllegalStateException("the JPL memory probe printed no result:\n" + text);
        }
        long before = Long.parseLong(m.group(1));
        long after = Long.parseLong(m.group(2));
        int sessions = Integer.parseInt(m.group(3));
        String count = String.format(Locale.ROOT, "%,d", sessions);
        String jvm = String.join(" ", PROBE_JVM_OPTIONS);
        String details = "VmRSS of a child JVM (" + jvm + ", same java and class path) after JplBackend.get(), one "
                + "session run, and " + count + " sessions opened, each consulted with the 20-clause program; "
                + "read after System.gc()";
        Row total = new Row("memory_total", "RSS, JVM (" + jvm + ") with " + count + " JPL sessions", "jpl",
                ProcMemory.mb(after), OptionalDouble.empty(), Unit.MB, details,
                "the same JVM before it opened them (JPL started, one session run)",
                OptionalDouble.of(ProcMemory.mb(before)), Optional.empty());
        if (sessions == 1_000) {
            total = total.withTarget(Target.below(300));
        }
        Row each = new Row("memory_per_session", "RSS per JPL session (growth / " + count + ")", "jpl",
                ProcMemory.kb((double) (after - before) / sessions), OptionalDouble.empty(), Unit.KB,
                details + "; (after - before) / sessions", "", OptionalDouble.empty(), Optional.empty());
        return List.of(total, each);
    }

    /** Runs {@link JplMemoryProbe} in a child JVM with {@code args}; its output. */
    private static String probe(String... args) throws IOException, InterruptedException {
        return probe(PROBE_JVM_OPTIONS, args);
    }

    /** Runs {@link JplMemoryProbe} in a child JVM with {@code jvmOptions} and {@code args}; its output. */
    static String probe(List<String> jvmOptions, String... args) throws IOException, InterruptedException {
        String java = ProcessHandle.current().info().command()
                .orElse(Path.of(System.getProperty("java.home"), "bin", "java").toString());
        List<String> cmd = new ArrayList<>();
        cmd.add(java);
        cmd.addAll(jvmOptions);
        cmd.addAll(List.of("-cp", System.getProperty("java.class.path"), JplMemoryProbe.class.getName()));
        cmd.addAll(List.of(args));
        Path out = Files.createTempFile("prologtool-bench-probe-", ".txt");
        try {
            Process p = new ProcessBuilder(cmd).redirectErrorStream(true).redirectOutput(out.toFile()).start();
            if (!p.waitFor(10, TimeUnit.MINUTES)) {
                p.destroyForcibly();
                throw new IllegalStateException("the JPL memory probe did not end within 10 minutes");
            }
            return Files.readString(out, StandardCharsets.UTF_8);
        } finally {
            Files.deleteIfExists(out);
        }
    }

    /**
     * Leaks: the resident set of a child JVM after N JPL session cycles against the same JVM after the
     * first 10,000 (or half of N); the row's target is 10% growth at most, and the atom, functor and module counts
     * (in its details) must not grow with the cycles.
     */
    private static Row jplCycles(int n, PrintStream log) throws IOException, InterruptedException {
        log.printf(Locale.ROOT, "[bench] memory, jpl: %,d session cycles in a child JVM%n", n);
        String text = probe("cycles", Integer.toString(n));
        text.lines().filter(l -> l.startsWith("rss_at ")).forEach(l -> log.println("[bench]   " + l));
        Matcher m = CYCLES_LINE.matcher(text);
        if (!m.find()) {
            throw new IllegalStateException("the JPL cycle probe printed no result:\n" + text);
        }
        long first = Long.parseLong(m.group(2));
        long last = Long.parseLong(m.group(3));
        String counts = String.format(Locale.ROOT, "atoms %s -> %s, functors %s -> %s, modules %s -> %s",
                m.group(4), m.group(5), m.group(6), m.group(7), m.group(8), m.group(9));
        log.printf(Locale.ROOT, "[bench] after %s cycles: rss %,d -> %,d KiB, %s%n", m.group(1), first, last, counts);
        String count = String.format(Locale.ROOT, "%,d", n);
        return new Row("memory_cycles", "RSS after " + count + " JPL session cycles", "jpl", ProcMemory.mb(last),
                OptionalDouble.empty(), Unit.MB, "VmRSS of a child JVM (" + String.join(" ", PROBE_JVM_OPTIONS)
                + ") after " + count + " open / consult 20 clauses / goal / close cycles; " + counts
                + " (SWI-Prolog's statistics, atoms after garbage_collect_atoms)",
                "the same JVM after the first " + String.format(Locale.ROOT, "%,d", Math.min(10_000, n / 2)) + " cycles", OptionalDouble.of(ProcMemory.mb(first)),
                Optional.of(Target.below(Math.round(ProcMemory.mb(first) * 11) / 10.0)));
    }

    private static List<Row> process(int n, Path swipl, PrintStream log) throws Exception {
        log.printf(Locale.ROOT, "[bench] memory, process: %d sessions, then %d bare swipl%n", n, n);
        List<long[]> ours = new ArrayList<>();
        try (ProcessBackend backend = ProcessBackend.builder().build()) {
            Set<Long> before = swiplChildren();
            List<PrologSession> sessions = new ArrayList<>();
            try {
                for (int i = 0; i < n; i++) {
                    PrologSession s = backend.open();
                    sessions.add(s);
                    if (s.consult(SessionCycles.PROGRAM).hasErrors()
                            || s.goal(SessionCycles.GOAL).run().outcome() != Outcome.SUCCESS) {
                        throw new IllegalStateException("the bench program does not run on the process backend");
                    }
                }
                Thread.sleep(IDLE_MILLIS);
                Set<Long> children = swiplChildren();
                children.removeAll(before);
                if (children.size() != n) {
                    throw new IllegalStateException(n + " sessions, but " + children.size() + " new swipl children");
                }
                for (long pid : children) {
                    ours.add(new long[] {ProcMemory.rssKib(pid), ProcMemory.pssKib(pid)});
                }
            } finally {
                sessions.forEach(PrologSession::close);
            }
        }
        List<long[]> bare = BareSwipl.idleMemory(swipl, n, IDLE_MILLIS);
        String details = n + " sessions open on ProcessBackend.builder() (no pool), each consulted with the 20-clause "
                + "program and one goal run; the swipl children found through ProcessHandle.descendants(), read after "
                + IDLE_MILLIS + " ms idle; ";
        String baseline = "bare `swipl -q -f none` idling (" + n + " at once, " + IDLE_MILLIS + " ms after a first query)";
        return List.of(
                Row.of("memory_child_rss", "RSS per swipl child (" + n + " sessions open)", "process", mb(ours, 0),
                        Unit.MB, details + "VmRSS from /proc/PID/status, median and p90 over the children",
                        baseline, mb(bare, 0)),
                Row.of("memory_child_pss", "PSS per swipl child (" + n + " sessions open)", "process", mb(ours, 1),
                        Unit.MB, details + "Pss from /proc/PID/smaps_rollup (shared pages divided among their users), "
                                + "median and p90 over the children", baseline, mb(bare, 1)));
    }

    private static Summary mb(List<long[]> kib, int column) {
        return Summary.of(kib.stream().mapToDouble(k -> ProcMemory.mb(k[column])).toArray());
    }

    /** Pids of this JVM's descendants that run swipl. */
    private static Set<Long> swiplChildren() {
        return ProcessHandle.current().descendants()
                .filter(h -> h.info().command().map(c -> Path.of(c).getFileName().toString().startsWith("swipl"))
                        .orElse(false))
                .map(ProcessHandle::pid).collect(Collectors.toSet());
    }
}

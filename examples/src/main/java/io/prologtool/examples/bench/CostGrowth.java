package io.prologtool.examples.bench;

import io.prologtool.Answer;
import io.prologtool.ConsultResult;
import io.prologtool.GoalResult;
import io.prologtool.Outcome;
import io.prologtool.PrologBackend;
import io.prologtool.PrologSession;
import io.prologtool.Query;
import io.prologtool.SessionOptions;
import io.prologtool.Term;
import io.prologtool.jpl.JplBackend;
import io.prologtool.process.ProcessBackend;
import io.prologtool.spi.Harness;
import io.prologtool.spi.TempFolders;

import java.io.IOException;
import java.io.PrintStream;
import java.lang.management.ManagementFactory;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalDouble;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * How cost grows with the work: four curves, each measured at three or more sizes ({@link Plan.Growth})
 * and drawn as curves in the chart, not bars. Each point is a row whose id is the curve's name, then
 * {@code _}, then the size.
 * <ul>
 *   <li>{@code consult}: a program of N clauses (facts, then a rule of its own for every tenth clause)
 *       consulted into a fresh session, against plain {@code swipl} loading the same text from a string
 *       into a fresh module; target at most 1.3x that at every size;</li>
 *   <li>{@code sessions} (JPL, in a child JVM, {@link JplMemoryProbe}): the resident set per session
 *       and the round trip with N sessions open; target at the largest size at most 1.2x the smallest's;</li>
 *   <li>{@code answers}: the N answers of {@code between(1, N, X)} through a {@link Query}'s iterator,
 *       time per answer (target at the largest size at most 1.2x the smallest's: the time is linear), and
 *       the JVM's heap in use with nine tenths of them fetched against the same heap before the query
 *       opened (flat: nothing is kept per answer);</li>
 *   <li>{@code output}: a goal that writes N bytes, against plain {@code swipl} capturing the same
 *       output in a string.</li>
 * </ul>
 */
final class CostGrowth {

    /** A line of output: 99 characters and a newline. */
    private static final String LINE = "0123456789".repeat(9) + "abcdefghi";
    private static final Pattern GROW_LINE = Pattern.compile(
            "grow sessions=(\\d+) rss_kib=(\\d+) before_kib=(\\d+) roundtrip_us=([0-9.]+) p90_us=([0-9.]+)");
    /** Each curve's title in the chart, by its name. */
    static final Map<String, String> CURVE_TITLES = Map.of(
            "consult", "consult N clauses into a fresh session",
            "sessions_rss", "RSS per JPL session, N sessions open",
            "sessions_roundtrip", "round trip, N JPL sessions open",
            "answers", "time per answer, N answers through a query",
            "answers_heap", "JVM heap in use, N answers through a query",
            "output", "a goal's output of N bytes");
    /** The session probe's JVM: a heap with room for the Java side of 50,000 sessions. */
    static final List<String> SESSIONS_JVM_OPTIONS = List.of("-Xmx512m", "-XX:+UseSerialGC");

    /** The sessions the consult curve loads into: room for the largest program, and time for it. */
    private static final SessionOptions CONSULT_OPTIONS = SessionOptions.builder().maxSourceChars(64 << 20)
            .consultTimeLimit(Duration.ofMinutes(5)).build();

    private CostGrowth() {
    }

    static List<Row> measure(Plan plan, Path swipl, PrintStream log) throws Exception {
        Plan.Growth g = plan.growth();
        Map<Integer, String> programs = new LinkedHashMap<>();
        for (int n : g.clauses()) {
            programs.put(n, program(n));
        }
        List<Row> rows = new ArrayList<>();
        Map<Integer, Summary> consultFloor = new LinkedHashMap<>();
        Map<Integer, Summary> outputFloor = new LinkedHashMap<>();
        floors(swipl, plan, programs, g.outputBytes(), consultFloor, outputFloor, log);
        rows.addAll(harnessConsult(swipl, plan, programs, consultFloor, log));
        try (JplBackend backend = JplBackend.get()) {
            rows.addAll(consult(plan, backend, programs, consultFloor, log));
            rows.addAll(answers(plan, backend, g.answers(), log));
            rows.addAll(output(plan, backend, g.outputBytes(), outputFloor, log));
        }
        try (ProcessBackend backend = ProcessBackend.builder().build()) {
            rows.addAll(consult(plan, backend, programs, consultFloor, log));
            rows.addAll(answers(plan, backend, g.answers(), log));
            rows.addAll(output(plan, backend, g.outputBytes(), outputFloor, log));
        }
        rows.addAll(sessions(g.sessions(), log));
        return rows;
    }

    /** N clauses: facts {@code edge(nI, nJ, W)}, then every tenth clause a rule of its own predicate. */
    static String program(int n) {
        StringBuilder facts = new StringBuilder(n * 30);
        StringBuilder rules = new StringBuilder(n * 6);
        for (int i = 0; i < n; i++) {
            if (i % 10 == 9) {
                rules.append("reach_").append(i).append("(X, Y) :- edge(X, Z, _), edge(Z, Y, W), W > ").append(i % 97)
                        .append(".\n");
            } else {
                facts.append("edge(n").append(i).append(", n").append(i + 1).append(", ").append(i % 97).append(").\n");
            }
        }
        return facts.append(rules).toString();
    }

    /**
     * Warm-up and timed iterations for work of {@code size} units, {@code small} the curve's smallest size:
     * the smallest runs most; the largest needs no warm-up (the sizes before it warmed the same path up).
     */
    private static Plan.Iterations iterations(Plan plan, long size, long small) {
        if (plan.quick()) {
            return new Plan.Iterations(1, 3);
        }
        return size <= small ? new Plan.Iterations(3, 10) : size <= 10 * small ? new Plan.Iterations(1, 5)
                : new Plan.Iterations(0, 3);
    }

    private static List<Row> consult(Plan plan, PrologBackend backend, Map<Integer, String> programs,
                                     Map<Integer, Summary> floor, PrintStream log) throws Exception {
        int smallest = programs.keySet().iterator().next();
        List<Row> rows = new ArrayList<>();
        for (Map.Entry<Integer, String> e : programs.entrySet()) {
            int n = e.getKey();
            Plan.Iterations it = iterations(plan, n, smallest);
            Timer.progress(log, String.format(Locale.ROOT, "consult %,d clauses, %s", n, backend.name()), it);
            long[] nanos = new long[it.timed()];
            for (int i = -it.warmup(); i < it.timed(); i++) {
                try (PrologSession s = backend.open(CONSULT_OPTIONS)) {
                    long t0 = System.nanoTime();
                    ConsultResult r = s.consult(e.getValue());
                    long t = System.nanoTime() - t0;
                    if (r.hasErrors() || !r.messages().isEmpty()) {
                        throw new IllegalStateException("the " + n + "-clause program gave " + r.messages());
                    }
                    if (i >= 0) {
                        nanos[i] = t;
                    }
                }
            }
            String count = String.format(Locale.ROOT, "%,d", n);
            rows.add(Row.of("consult", "consult " + count + " clauses", backend.name(),
                            Summary.ofNanos(nanos, Unit.MILLIS), Unit.MILLIS,
                            "session.consult(text) of " + count + " clauses (edge/3 facts, then for every tenth "
                                    + "clause a rule of its own) in a fresh session (open and close untimed), static check on, "
                                    + "checked to load without a message",
                            "plain swipl loading the same text from a string into a fresh module (floor)",
                            floor.get(n))
                    .withTarget(Target.timesFloorAtMost(1.3)).onCurve("consult", n));
        }
        return rows;
    }

    /**
     * The Prolog that times the consults of a script: {@code consult_timed(N, File, Warmup, Timed)} reads
     * the N-clause program from File and prints {@code consult N MILLIS} for each of the timed loads, after
     * the warm-up ones; the script defines {@code load(+Text, -Millis)}.
     */
    private static final String CONSULT_DRIVER = """
            consult_timed(N, File, Warmup, Timed) :-
                read_file_to_string(File, Text, []),
                forall(between(1, Warmup, _), load(Text, _)),
                forall(between(1, Timed, _),
                       ( load(Text, Millis), format("consult ~d ~6f~n", [N, Millis]) )).
            """;

    /**
     * Writes each program to a file in {@code dir} and returns the goal that times them all
     * ({@link #CONSULT_DRIVER}), each size with the iterations the plan gives it.
     */
    private static StringBuilder consultCalls(Path dir, Plan plan, Map<Integer, String> programs)
            throws IOException {
        StringBuilder calls = new StringBuilder("true");
        int smallest = programs.keySet().iterator().next();
        for (Map.Entry<Integer, String> e : programs.entrySet()) {
            Path file = dir.resolve("program_" + e.getKey() + ".pl");
            Files.writeString(file, e.getValue(), StandardCharsets.UTF_8);
            Plan.Iterations it = iterations(plan, e.getKey(), smallest);
            calls.append(", consult_timed(").append(e.getKey()).append(", ").append(BareSwipl.atom(file.toString()))
                    .append(", ").append(it.warmup()).append(", ").append(it.timed()).append(")");
        }
        return calls;
    }

    /**
     * The consult request alone, per size: a {@code swipl} that loaded the harness times
     * {@code handle_request/2} of the consult request that a session of {@link #CONSULT_OPTIONS} sends for
     * the program (a fresh session each time, opened and closed untimed, the request written before the
     * clock starts), against the plain {@code swipl} floor. No JVM or transport: what the harness's own
     * work costs over the floor, which a backend's row adds its transport to.
     */
    private static List<Row> harnessConsult(Path swipl, Plan plan, Map<Integer, String> programs,
                                            Map<Integer, Summary> floor, PrintStream log)
            throws IOException, InterruptedException {
        Path dir = Files.createTempDirectory("prologtool-bench-growth-harness-");
        try {
            Path harness = Harness.extractTo(dir);
            StringBuilder calls = consultCalls(dir, plan, programs);
            Path script = dir.resolve("growth.pl");
            Files.writeString(script, Floors.harnessScriptHead(harness) + CONSULT_DRIVER + """
                    load(Text, Millis) :-
                        flag(harness_growth, Id, Id + 1),
                        format(string(S), "growth~d", [Id]),
                        json_text(_{op:"open", session:S, options:OPEN}, Open),
                        json_text(_{op:"consult", session:S, text:Text, CONSULT}, Consult),
                        json_text(_{op:"close", session:S}, Close),
                        ok(Open),
                        get_time(T0),
                        handle_request(Consult, Reply),
                        get_time(T1),
                        ok_reply(Reply),
                        (   sub_atom(Reply, _, _, _, '"messages":[]')
                        ->  true
                        ;   throw(error(harness_reply(Reply), _))
                        ),
                        ok(Close),
                        Millis is (T1 - T0) * 1000.
                    """.replace("OPEN", Floors.openOptions(CONSULT_OPTIONS))
                    .replace("CONSULT", Floors.consultBounds(CONSULT_OPTIONS)), StandardCharsets.UTF_8);
            log.println("[bench] growth: the consult request alone, in a swipl that loaded the harness");
            List<String> lines = Floors.runScript(swipl, script, calls.toString());
            List<Row> rows = new ArrayList<>();
            for (int n : programs.keySet()) {
                String count = String.format(Locale.ROOT, "%,d", n);
                rows.add(Row.of("consult", "consult " + count + " clauses, the harness alone", "harness",
                                Summary.of(values(lines, "consult " + n + " ")), Unit.MILLIS,
                                "handle_request/2 of the consult request for the same " + count + "-clause text in "
                                        + "a swipl that loaded the harness, a fresh session each time (open and close "
                                        + "untimed), static check on, checked to load without a message; no JVM or "
                                        + "transport",
                                "plain swipl loading the same text from a string into a fresh module (floor)",
                                floor.get(n))
                        .onCurve("consult", n));
            }
            return rows;
        } finally {
            TempFolders.deleteTree(dir);
        }
    }

    private static List<Row> answers(Plan plan, PrologBackend backend, List<Integer> sizes, PrintStream log) {
        int smallest = sizes.get(0);
        double perAnswerAtSmallest = 0;
        List<Row> rows = new ArrayList<>();
        try (PrologSession s = backend.open()) {
            for (int n : sizes) {
                Plan.Iterations it = iterations(plan, n, smallest);
                Timer.progress(log, String.format(Locale.ROOT, "%,d answers through a query, %s", n,
                        backend.name()), it);
                long[] nanos = new long[it.timed()];
                for (int i = -it.warmup(); i < it.timed(); i++) {
                    long t0 = System.nanoTime();
                    fetchAll(s, n, -1, null);
                    long t = System.nanoTime() - t0;
                    if (i >= 0) {
                        nanos[i] = t / n;               // per answer
                    }
                }
                Summary perAnswer = Summary.ofNanos(nanos, Unit.MICROS);
                String count = String.format(Locale.ROOT, "%,d", n);
                Row time = new Row("answers", "time per answer, " + count + " answers through a query",
                        backend.name(), perAnswer.median(), OptionalDouble.of(perAnswer.p90()), Unit.MICROS,
                        "for (Answer a : session.query(\"between(1, " + n + ", X)\")): the iterator's fetches of "
                                + Query.BATCH + ", every answer checked; the call's time / " + count, "",
                        OptionalDouble.empty(), Optional.empty());
                if (n == smallest) {
                    perAnswerAtSmallest = perAnswer.median();
                } else if (n == sizes.get(sizes.size() - 1)) {
                    time = time.withBaseline(String.format(Locale.ROOT, "the same at %,d answers", smallest),
                            perAnswerAtSmallest).withTarget(Target.growthAtMost(1.2));
                }
                rows.add(time.onCurve("answers", n));

                double[] heap = new double[2];
                fetchAll(s, n, n / 10 * 9, heap);
                rows.add(new Row("answers_heap", "JVM heap in use, " + count + " answers through a query",
                        backend.name(), heap[1], OptionalDouble.empty(), Unit.MB,
                        "MemoryMXBean heap used after System.gc(), with 9/10 of the " + count
                                + " answers of between(1, " + n + ", X) fetched through the query's iterator and the "
                                + "query open", "the same JVM before the query opened (after System.gc())",
                        OptionalDouble.of(heap[0]), Optional.empty()).onCurve("answers_heap", n));
            }
        }
        return rows;
    }

    /**
     * Fetches the {@code n} answers of {@code between(1, n, X)} through a query's iterator, checking each;
     * with {@code heap}, the heap in use (MB, after a GC) before the query opens and after {@code at}
     * answers.
     */
    private static void fetchAll(PrologSession s, int n, int at, double[] heap) {
        if (heap != null) {
            heap[0] = heapMb();
        }
        long expected = 1;
        try (Query q = s.query("between(1, " + n + ", X)")) {
            for (Answer a : q) {
                Term x = a.get("X");
                if (!(x instanceof Term.Int i) || i.value().longValueExact() != expected) {
                    throw new IllegalStateException("answer " + expected + " was " + a);
                }
                if (heap != null && expected == at) {
                    heap[1] = heapMb();
                }
                expected++;
            }
        }
        if (expected != n + 1) {
            throw new IllegalStateException("the query gave " + (expected - 1) + " answers, not " + n);
        }
    }

    private static double heapMb() {
        System.gc();
        return ManagementFactory.getMemoryMXBean().getHeapMemoryUsage().getUsed() / 1e6;
    }

    private static List<Row> output(Plan plan, PrologBackend backend, List<Integer> sizes,
                                    Map<Integer, Summary> floor, PrintStream log) throws Exception {
        int smallest = sizes.get(0);
        List<Row> rows = new ArrayList<>();
        SessionOptions options = SessionOptions.builder().maxOutputChars(sizes.get(sizes.size() - 1) + 1_000).build();
        try (PrologSession s = backend.open(options)) {
            for (int n : sizes) {
                Plan.Iterations it = iterations(plan, n / 100, smallest / 100);
                String goal = outputGoal(n);
                Timer.progress(log, String.format(Locale.ROOT, "output of %,d bytes, %s", n, backend.name()), it);
                Summary ours = Summary.ofNanos(Timer.time(it, () -> {
                    GoalResult r = s.goal(goal).run();
                    if (r.outcome() != Outcome.SUCCESS || r.outputTruncated() || r.output().length() != n) {
                        throw new IllegalStateException("the output goal gave " + r.outcome() + " with "
                                + r.output().length() + " characters" + (r.outputTruncated() ? ", truncated" : ""));
                    }
                }), Unit.MILLIS);
                String size = bytes(n);
                rows.add(Row.of("output", "a goal's output, " + size, backend.name(), ours, Unit.MILLIS,
                        "a goal that writes " + String.format(Locale.ROOT, "%,d", n / 100) + " lines of 100 "
                                + "characters (forall/2 over write/1), run with maxOutputChars above " + size
                                + ": the output captured and returned in the result, checked for its length",
                        "plain swipl capturing the same output in a string (with_output_to/2)", floor.get(n))
                        .onCurve("output", n));
            }
        }
        return rows;
    }

    private static String outputGoal(int bytes) {
        return "forall(between(1, " + bytes / 100 + ", _), write('" + LINE + "\\n'))";
    }

    private static String bytes(int n) {
        return n >= 1_000_000 ? Numbers.plain(n / 1e6) + " MB" : Numbers.plain(n / 1e3) + " kB";
    }

    /**
     * The floors in one plain {@code swipl}: per size, the milliseconds of loading each program from a
     * string into a fresh module (then unloaded and destroyed), and of capturing each output in a string.
     */
    private static void floors(Path swipl, Plan plan, Map<Integer, String> programs, List<Integer> outputs,
                               Map<Integer, Summary> consult, Map<Integer, Summary> output, PrintStream log)
            throws IOException, InterruptedException {
        Path dir = Files.createTempDirectory("prologtool-bench-growth-");
        try {
            StringBuilder calls = consultCalls(dir, plan, programs);
            for (int n : outputs) {
                Plan.Iterations it = iterations(plan, n / 100, outputs.get(0) / 100);
                calls.append(", output_floor(").append(n).append(", ").append(it.warmup()).append(", ")
                        .append(it.timed()).append(")");
            }
            Path script = dir.resolve("growth.pl");
            Files.writeString(script, CONSULT_DRIVER + """
                    load(Text, Millis) :-
                        flag(floor_growth, Id, Id + 1),
                        format(atom(M), 'floor_g~d', [Id]),
                        set_module(M:class(temporary)),
                        get_time(T0),
                        setup_call_cleanup(open_string(Text, S),
                                           load_files(M:M, [stream(S), silent(true)]),
                                           close(S)),
                        get_time(T1),
                        Millis is (T1 - T0) * 1000,
                        unload_file(M),
                        '$destroy_module'(M).
                    output_floor(N, Warmup, Timed) :-
                        K is N // 100,
                        forall(between(1, Warmup, _), capture(K, N, _)),
                        forall(between(1, Timed, _),
                               ( capture(K, N, Millis), format("output ~d ~6f~n", [N, Millis]) )).
                    capture(K, N, Millis) :-
                        get_time(T0),
                        with_output_to(string(S), forall(between(1, K, _), write(LINE))),
                        get_time(T1),
                        string_length(S, N),
                        Millis is (T1 - T0) * 1000.
                    """.replace("LINE", "'" + LINE + "\\n'"), StandardCharsets.UTF_8);
            log.println("[bench] growth floors: plain swipl loading the programs and capturing the outputs");
            List<String> lines = Floors.runScript(swipl, script, calls.toString());
            for (int n : programs.keySet()) {
                consult.put(n, Summary.of(values(lines, "consult " + n + " ")));
            }
            for (int n : outputs) {
                output.put(n, Summary.of(values(lines, "output " + n + " ")));
            }
        } finally {
            TempFolders.deleteTree(dir);
        }
    }

    private static double[] values(List<String> lines, String prefix) {
        double[] v = Floors.values(lines, prefix);
        if (v.length == 0) {
            throw new IllegalStateException("the growth floor printed nothing for " + prefix.trim() + ": " + lines);
        }
        return v;
    }

    /** The sessions curve: a child JVM opens the sessions and reports at each size. */
    private static List<Row> sessions(List<Integer> sizes, PrintStream log) throws IOException, InterruptedException {
        log.printf(Locale.ROOT, "[bench] growth, jpl: a child JVM holding %s sessions%n", sizes);
        List<String> args = new ArrayList<>(List.of("grow"));
        sizes.forEach(n -> args.add(Integer.toString(n)));
        String text = MemoryFootprint.probe(SESSIONS_JVM_OPTIONS, args.toArray(String[]::new));
        Matcher m = GROW_LINE.matcher(text);
        List<Row> rows = new ArrayList<>();
        double rssAtSmallest = 0;
        double rtAtSmallest = 0;
        String jvm = String.join(" ", SESSIONS_JVM_OPTIONS);
        for (int n : sizes) {
            if (!m.find() || Integer.parseInt(m.group(1)) != n) {
                throw new IllegalStateException("the JPL sessions probe printed no line for " + n + ":\n" + text);
            }
            double perSession = ProcMemory.kb((double) (Long.parseLong(m.group(2)) - Long.parseLong(m.group(3))) / n);
            double rt = Double.parseDouble(m.group(4));
            String count = String.format(Locale.ROOT, "%,d", n);
            Row rss = new Row("sessions_rss", "RSS per JPL session, " + count + " open", "jpl", perSession,
                    OptionalDouble.empty(), Unit.KB, "VmRSS of a child JVM (" + jvm + ") with " + count
                    + " sessions open, each consulted with the 20-clause program, less the same JVM before the "
                    + "first (JPL started, one session run), / " + count + "; read after System.gc()", "",
                    OptionalDouble.empty(), Optional.empty());
            Row trip = new Row("sessions_roundtrip", "round trip with " + count + " JPL sessions open", "jpl", rt,
                    OptionalDouble.of(Double.parseDouble(m.group(5))), Unit.MICROS,
                    "the goal true, each call on the next of the " + count + " open sessions by a stride that "
                            + "visits them all; median of the timed calls after as many untimed", "",
                    OptionalDouble.empty(), Optional.empty());
            if (n == sizes.get(0)) {
                rssAtSmallest = perSession;
                rtAtSmallest = rt;
            } else if (n == sizes.get(sizes.size() - 1)) {
                String base = "the same with " + String.format(Locale.ROOT, "%,d", sizes.get(0)) + " open";
                rss = rss.withBaseline(base, rssAtSmallest).withTarget(Target.growthAtMost(1.2));
                trip = trip.withBaseline(base, rtAtSmallest).withTarget(Target.growthAtMost(1.2));
            }
            rows.add(rss.onCurve("sessions_rss", n));
            rows.add(trip.onCurve("sessions_roundtrip", n));
        }
        return rows;
    }
}

package io.prologtool.examples.bench;

import io.prologtool.GoalResult;
import io.prologtool.Outcome;
import io.prologtool.PrologBackend;
import io.prologtool.PrologSession;
import io.prologtool.SessionOptions;
import io.prologtool.jpl.JplBackend;
import io.prologtool.process.Isolation;
import io.prologtool.process.ProcessBackend;

import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import java.util.OptionalDouble;
import java.util.stream.Collectors;
import java.util.stream.IntStream;

/**
 * Measurement 1, the cost of a whole session: open, consult a 20-clause program, run one goal, close.
 * On JPL, on the process backend with a warm pool of 2 and with a child started per open, each also
 * for a sandboxed session under OS isolation ({@link Isolation#required()}: another user, no network,
 * a private /tmp, an address-space limit) when the machine allows it; the baseline is a fresh
 * {@code swipl} per session. Beside the JPL cycle, its floor: the same work in plain {@code swipl}
 * ({@link Floors#sessionCycle}), measured in the same run.
 */
final class SessionCycles {

    /** 18 edges and a recursive path/2: the program of every session-shaped measurement. */
    static final String PROGRAM = IntStream.rangeClosed(1, 20)
            .mapToObj(i -> i <= 18 ? "edge(n" + i + ", n" + (i + 1) + ")." : i == 19
                    ? "path(X, Y) :- edge(X, Y)." : "path(X, Y) :- edge(X, Z), path(Z, Y).")
            .collect(Collectors.joining("\n"));

    /** Walks the whole chain: true. */
    static final String GOAL = "path(n1, n19)";

    private static final String WHAT = "session: open + consult 20 clauses + goal + close";
    private static final String BASELINE = "fresh `swipl -q -f none` per session: consult a temp file, one query, "
            + "halt (as a session-per-process tool server does)";

    private SessionCycles() {
    }

    static List<Row> measure(Plan plan, Path swipl, PrintStream log) throws Exception {
        return measure(plan, swipl, log, Plan.POOL_PAUSE_MILLIS);
    }

    /** The same, with {@code poolPause} ms of untimed sleep before each warm-pool cycle. */
    static List<Row> measure(Plan plan, Path swipl, PrintStream log, long poolPause) throws Exception {
        Summary base = baseline(plan, swipl, log);

        Timer.progress(log, "session cycle, jpl", plan.cycleJpl());
        Summary jpl;
        try (JplBackend backend = JplBackend.get()) {
            jpl = Summary.ofNanos(Timer.time(plan.cycleJpl(), () -> cycle(backend)), Unit.MILLIS);
        }
        log.printf(java.util.Locale.ROOT, "[bench] session cycle floor, plain swipl: %d batches of %,d%n",
                plan.harnessBatches(), plan.cycleJpl().timed());
        Summary floorMicros = Floors.sessionCycle(swipl, plan.harnessBatches(), plan.cycleJpl().timed());

        Timer.progress(log, "session cycle, process, warm pool of 2", plan.cyclePool());
        Summary pooled;
        try (ProcessBackend backend = ProcessBackend.builder().isolation(Isolation.none()).poolSize(2).build()) {
            pooled = Summary.ofNanos(Timer.time(plan.cyclePool(), () -> cycle(backend),
                    () -> Thread.sleep(poolPause)), Unit.MILLIS);
        }

        Timer.progress(log, "session cycle, process, child per open", plan.cycleChildPerOpen());
        Summary perOpen;
        try (ProcessBackend backend = ProcessBackend.builder().isolation(Isolation.none()).build()) {
            perOpen = Summary.ofNanos(Timer.time(plan.cycleChildPerOpen(), () -> cycle(backend)), Unit.MILLIS);
        }

        List<Row> isolated = List.of();
        try (ProcessBackend isolatedPool = ProcessBackend.builder().isolation(Isolation.required()).poolSize(2).build();
             ProcessBackend isolatedPerOpen = ProcessBackend.builder().isolation(Isolation.required()).build()) {
            Timer.progress(log, "session cycle, process, isolated, warm pool of 2", plan.cyclePool());
            Summary isoPooled = Summary.ofNanos(Timer.time(plan.cyclePool(), () -> cycle(isolatedPool, SANDBOXED),
                    () -> Thread.sleep(poolPause)), Unit.MILLIS);
            Timer.progress(log, "session cycle, process, isolated, child per open", plan.cycleChildPerOpen());
            Summary isoPerOpen = Summary.ofNanos(Timer.time(plan.cycleChildPerOpen(),
                    () -> cycle(isolatedPerOpen, SANDBOXED)), Unit.MILLIS);
            String how = isolatedPerOpen.isolationInEffect().orElseThrow();
            isolated = List.of(
                    Row.of("cycle_isolated_warm_pool", "sandboxed session cycle, isolated, warm pool of 2, " + poolPause + " ms apart",
                            "process", isoPooled, Unit.MILLIS,
                            "ProcessBackend.builder().isolation(Isolation.required()).poolSize(2), sandboxed sessions ("
                                    + how + "): the warm-pool cycle, children started through prlimit, unshare and setpriv",
                            BASELINE, base),
                    Row.of("cycle_isolated_child_per_open", "sandboxed session cycle, isolated, child per open", "process",
                            isoPerOpen, Unit.MILLIS,
                            "ProcessBackend.builder().isolation(Isolation.required()), sandboxed sessions: the child-per-open "
                                    + "cycle, each child started through prlimit, unshare (net, mount + tmpfs) and setpriv, "
                                    + "the saved state handed over as fd 3", BASELINE, base));
        } catch (io.prologtool.PrologUnavailableException e) {
            log.println("[bench] isolated session cycles skipped: " + e.getMessage());
        }

        return java.util.stream.Stream.concat(List.of(
                Row.of("cycle", WHAT, "jpl", jpl, Unit.MILLIS,
                        "JplBackend.get(): open, consult the 20-clause edge/path program, run " + GOAL + ", close; back to back",
                        BASELINE, base),
                new Row("cycle_floor", "session cycle's work in plain swipl, one process (floor)", "swipl",
                        floorMicros.median() / 1000, OptionalDouble.of(floorMicros.p90() / 1000), Unit.MILLIS,
                        "the 20-clause program loaded from a string into a fresh module (load_files/2, as the harness "
                                + "loads a session's text), " + GOAL + " run and checked, the source unloaded and "
                                + "the module destroyed; wall time per cycle, one value per batch of "
                                + plan.cycleJpl().timed(), "", OptionalDouble.empty(), Optional.empty()),
                Row.of("cycle_warm_pool", "session cycle, warm pool of 2, " + poolPause + " ms apart", "process", pooled, Unit.MILLIS,
                        "ProcessBackend.builder().poolSize(2): the same cycle, with an untimed " + poolPause
                                + " ms sleep before each so that the pool refills, as for requests that arrive over time",
                        BASELINE, base).withTarget(Target.below(2)),
                Row.of("cycle_child_per_open", "session cycle, child per open (saved state)", "process", perOpen,
                        Unit.MILLIS, "ProcessBackend.builder() (no pool): the same cycle, back to back; each open starts "
                                + "a swipl child from the harness's saved state", BASELINE, base)).stream(),
                isolated.stream()).toList();
    }

    private static final SessionOptions SANDBOXED = SessionOptions.builder().sandboxed(true).build();

    /** One cycle; throws unless the program loads and the goal succeeds. */
    static void cycle(PrologBackend backend) {
        cycle(backend, SessionOptions.defaults());
    }

    /** One cycle of a session opened with {@code options}. */
    static void cycle(PrologBackend backend, SessionOptions options) {
        try (PrologSession s = backend.open(options)) {
            if (s.consult(PROGRAM).hasErrors()) {
                throw new IllegalStateException("the bench program does not load on " + backend.name());
            }
            GoalResult r = s.goal(GOAL).run();
            if (r.outcome() != Outcome.SUCCESS) {
                throw new IllegalStateException("unexpected answer on " + backend.name() + ": " + r);
            }
        }
    }

    private static Summary baseline(Plan plan, Path swipl, PrintStream log) throws Exception {
        Timer.progress(log, "session cycle, baseline: swipl per session", plan.cycleBaseline());
        Path file = Files.createTempFile("prologtool-bench-", ".pl");
        try {
            Files.writeString(file, PROGRAM + "\n", StandardCharsets.UTF_8);
            return Summary.ofNanos(Timer.time(plan.cycleBaseline(), () -> {
                String answer = BareSwipl.sessionPerProcess(swipl, file, GOAL);
                if (!answer.equals("yes")) {
                    throw new IllegalStateException("swipl per session answered: " + answer);
                }
            }), Unit.MILLIS);
        } finally {
            Files.deleteIfExists(file);
        }
    }
}

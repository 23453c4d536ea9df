package io.prologtool.examples.bench;

import com.fasterxml.jackson.databind.JsonNode;
import io.prologtool.PrologBackend;
import io.prologtool.RuleBaseStore;
import io.prologtool.examples.BundledData;
import io.prologtool.jpl.JplBackend;
import io.prologtool.json.TermJson;
import io.prologtool.process.ProcessBackend;
import io.prologtool.tools.PrologTools;

import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Supplier;

/**
 * Measurement 3, the prolog-reasoner tool: {@code execute_prolog} on each of the 30 prolog-reasoner
 * problems through {@link PrologTools#call(String, String)}, on both backends, against what
 * prolog-reasoner itself does per call (a temp file and a {@code swipl} started on it), the comparison
 * users make; and against the floor of the same work, measured in the same run: the same load, query and
 * cleanup in plain {@code swipl}, one process ({@link Floors#executeCalls}). A spawn's cost moves with
 * the machine (17 ms on one day, 41 ms on another), so the target is set against the floor.
 */
final class ExecuteProlog {

    private record Problem(String id, String code, String query) {
    }

    private static final String WHAT = "execute_prolog, 30 prolog-reasoner problems";
    private static final String BASELINE = "swipl started per call with the program in a temp file (as prolog-reasoner does)";
    private static final String WHAT_FLOOR = "execute_prolog, 30 prolog-reasoner problems, against its floor";
    private static final String FLOOR = "the same load, query (up to 100 answers, output captured, answers written) "
            + "and cleanup in plain swipl, one process, a fresh module per call (floor)";

    private ExecuteProlog() {
    }

    static List<Row> measure(Plan plan, Path swipl, PrintStream log) throws Exception {
        List<Problem> problems = problems();
        Summary jpl = measure(plan, problems, JplBackend::get, log);
        Summary process = measure(plan, problems, () -> ProcessBackend.builder().build(), log);

        Plan.Iterations it = plan.executeBaselineRounds();
        Timer.progress(log, "execute_prolog, baseline: swipl per call (rounds of " + problems.size() + ")", it);
        Path dir = Files.createTempDirectory("prologtool-bench-");
        Summary base;
        try {
            base = Summary.ofNanos(timeRounds(it, problems, p -> BareSwipl.perCall(swipl, dir, p.id(), p.code(), p.query())),
                    Unit.MILLIS);
        } finally {
            Files.deleteIfExists(dir);
        }
        Plan.Iterations rounds = plan.executeRounds();
        log.printf(java.util.Locale.ROOT, "[bench] execute_prolog, floor: plain swipl, one process: %d warm-up + "
                + "%d timed round(s) of %d%n", rounds.warmup(), rounds.timed(), problems.size());
        Summary floor = Floors.executeCalls(swipl, problems.stream().map(p -> new String[] {p.code(), p.query()})
                .toList(), rounds.warmup(), rounds.timed());
        String details = "PrologTools.call(\"execute_prolog\", {prolog_code, query}) per problem (pooled scratch "
                + "sessions); each reply checked for success and output; " + rounds.timed() + " round(s) "
                + "over the problems after " + rounds.warmup() + " warm-up round(s)";
        return List.of(
                Row.of("execute_prolog", WHAT, "jpl", jpl, Unit.MILLIS, details, BASELINE, base),
                Row.of("execute_prolog", WHAT, "process", process, Unit.MILLIS, details, BASELINE, base),
                Row.of("execute_prolog_floor", WHAT_FLOOR, "jpl", jpl, Unit.MILLIS, details, FLOOR, floor)
                        .withTarget(Target.timesFloorAtMost(3)),
                Row.of("execute_prolog_floor", WHAT_FLOOR, "process", process, Unit.MILLIS, details, FLOOR, floor)
                        .withTarget(Target.timesFloorAtMost(3)));
    }

    private static Summary measure(Plan plan, List<Problem> problems, Supplier<PrologBackend> make, PrintStream log)
            throws Exception {
        Path rules = Files.createTempDirectory("prologtool-bench-rules-");
        try (PrologBackend backend = make.get();
             PrologTools tools = PrologTools.builder(backend).ruleBases(RuleBaseStore.directory(rules)).build()) {
            Timer.progress(log, "execute_prolog, " + backend.name() + " (rounds of " + problems.size() + ")",
                    plan.executeRounds());
            return Summary.ofNanos(timeRounds(plan.executeRounds(), problems, p -> executeProlog(tools, p)), Unit.MILLIS);
        } finally {
            Files.deleteIfExists(rules);
        }
    }

    private interface Call {
        void run(Problem p) throws Exception;
    }

    /** Warm-up rounds over every problem, then timed rounds; one time per call. */
    private static long[] timeRounds(Plan.Iterations rounds, List<Problem> problems, Call call) throws Exception {
        int[] next = {0};
        Plan.Iterations calls = new Plan.Iterations(rounds.warmup() * problems.size(), rounds.timed() * problems.size());
        return Timer.time(calls, () -> call.run(problems.get(next[0]++ % problems.size())));
    }

    private static void executeProlog(PrologTools tools, Problem p) throws IOException {
        String args = TermJson.mapper().createObjectNode().put("prolog_code", p.code()).put("query", p.query())
                .toString();
        JsonNode r = TermJson.mapper().readTree(tools.call("execute_prolog", args));
        if (!r.path("success").asBoolean() || r.path("output").asText().isEmpty()) {
            throw new IllegalStateException(p.id() + ": " + r);
        }
    }

    private static List<Problem> problems() throws IOException {
        String file = "data/prolog-reasoner/problems.json";
        List<Problem> problems = new ArrayList<>();
        for (JsonNode p : TermJson.mapper().readTree(BundledData.text("prolog-reasoner/problems.json")).get("problems")) {
            problems.add(new Problem(p.get("id").asText(), p.get("prolog_code").asText(), p.get("query").asText()));
        }
        if (problems.size() != 30) {
            throw new IllegalStateException(file + " holds " + problems.size() + " problems, not 30");
        }
        return problems;
    }
}

package io.prologtool.examples.bench;

import io.prologtool.PrologBackend;
import io.prologtool.SessionRegistry;
import io.prologtool.examples.formalizer.FormalizerAgent;
import io.prologtool.examples.formalizer.TemplateFormalizer;
import io.prologtool.examples.pararule.PararuleEvaluation;
import io.prologtool.examples.pararule.PararuleEvaluation.Report;
import io.prologtool.examples.pararule.PararuleQuestion;
import io.prologtool.jpl.JplBackend;
import io.prologtool.process.ProcessBackend;

import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.OptionalDouble;
import java.util.function.Supplier;

/**
 * Measurement 4, the PARARULE-Plus pipeline end to end: the questions of {@code sample.jsonl} through
 * the {@link FormalizerAgent} with {@link TemplateFormalizer#paper()} (formalize, open, consult, query,
 * close; the demo's settings), with 1 and 2 worker threads, on both backends. Every run must score
 * what the demo scores (1.000 on this file), so a broken pipeline cannot report fast numbers.
 *
 * <p>The batch floor ({@link Floors#pararuleBatch}) is measured right before each timed 1-thread run, and
 * a backend's row is set against the median of the floors measured next to its own runs: measured once
 * at the start, the floor drifted with the machine in the minutes before the rows it bounds (544 against
 * 675 questions/s in two runs twenty minutes apart), and a ratio moved with it.
 * Thanks to Qiming Bao for development of the PARARULE Plus dataset and permission to freely utilise it.
 */
final class PararuleThroughput {

    /** The demo's inference limit per goal. */
    private static final long MAX_INFERENCES = 100_000;
    /** The demo scores 1.000 (200/200) on sample.jsonl with the paper's reading; allow for a rare timeout. */
    static final double MIN_ACCURACY = 0.99;

    private PararuleThroughput() {
    }

    private static final String FLOOR = "batch floor: the same programs answered by plain swipl in one process, "
            + "a fresh module per question (load from a string, query, destroy), measured right before each timed "
            + "1-thread run";

    static List<Row> measure(Plan plan, Path swipl, PrintStream log) throws IOException, InterruptedException {
        List<PararuleQuestion> all = PararuleQuestion.bundled("sample.jsonl");
        List<PararuleQuestion> qs = PararuleQuestion.spread(all, plan.pararuleQuestions());
        log.printf(Locale.ROOT, "[bench] PARARULE-Plus %d questions, batch floor: plain swipl, %d run(s) before each "
                + "timed 1-thread run%n", qs.size(), plan.batchFloorRuns());
        List<Row> rows = new ArrayList<>();
        rows.add(harnessAlone(plan, swipl, qs, log));
        rows.addAll(measure(plan, swipl, qs, "jpl", JplBackend::get, 0.6, log));
        rows.addAll(measure(plan, swipl, qs, "process", () -> ProcessBackend.builder().poolSize(2).build(), 0.4, log));
        return rows;
    }

    /**
     * The harness alone ({@link Floors#pararuleHarness}) against the batch floor, each run of it right
     * after a floor's: what the harness's own Prolog work leaves of the floor, to which a backend adds its
     * transport and the Java side.
     */
    private static Row harnessAlone(Plan plan, Path swipl, List<PararuleQuestion> qs, PrintStream log)
            throws IOException, InterruptedException {
        int runs = plan.pararuleRuns().timed();
        String statistic = runs == 1 ? "1 run" : "median of " + runs + " runs";
        log.printf(Locale.ROOT, "[bench] PARARULE-Plus %d questions through the harness alone in plain swipl, "
                + "%d run(s) each, after the batch floor's%n", qs.size(), plan.batchFloorRuns());
        double[] floors = new double[runs];
        double[] harness = new double[runs];
        for (int i = 0; i < runs; i++) {
            floors[i] = Summary.of(Floors.pararuleBatch(swipl, qs, plan.batchFloorRuns())).median();
            harness[i] = Summary.of(Floors.pararuleHarness(swipl, qs, plan.batchFloorRuns())).median();
        }
        return new Row("pararule_harness", "PARARULE-Plus sample through the harness alone, 1 thread ("
                + statistic + ")", "harness", Summary.of(harness).median(), OptionalDouble.empty(),
                Unit.QUESTIONS_PER_SECOND, "sample.jsonl (" + qs.size() + " questions) in a swipl that loaded the "
                + "harness: per question, handle_request/2 of the requests a session of SessionOptions.defaults() "
                + "makes (open, consult the program of TemplateFormalizer.paper(), the goal with at most 100,000 "
                + "inferences, close), no transport; questions per second of wall time, " + statistic, FLOOR,
                OptionalDouble.of(Summary.of(floors).median()), Optional.empty());
    }

    private static List<Row> measure(Plan plan, Path swipl, List<PararuleQuestion> qs, String name,
                                     Supplier<PrologBackend> make, double floorShare, PrintStream log)
            throws IOException, InterruptedException {
        int runs = plan.pararuleRuns().timed();
        String statistic = runs == 1 ? "1 run" : "median of " + runs + " runs";
        double[] floors = new double[runs];
        double[] oneThread = new double[runs];
        double[] twoThreads = new double[runs];
        List<Double> latencies = new ArrayList<>();
        // the demo's settings: a registry over the backend, sessions for twice the workers and a few more
        try (PrologBackend backend = make.get();
             SessionRegistry registry = SessionRegistry.builder(backend).maxSessions(2 * 2 + 4)
                     .idleTtl(Duration.ofMinutes(5)).build()) {
            FormalizerAgent agent = FormalizerAgent.builder(registry).formalizer(TemplateFormalizer.paper())
                    .maxInferences(MAX_INFERENCES).timeLimit(Duration.ofSeconds(10)).build();
            for (int threads = 1; threads <= 2; threads++) {
                Timer.progress(log, "PARARULE-Plus " + qs.size() + " questions, " + name + ", " + threads
                        + (threads == 1 ? " thread" : " threads") + " (runs)", plan.pararuleRuns());
                for (int i = 0; i < plan.pararuleRuns().warmup(); i++) {
                    checked(PararuleEvaluation.run(agent, qs, threads, p -> { }), name, threads);
                }
                for (int i = 0; i < runs; i++) {
                    if (threads == 1) {
                        floors[i] = Summary.of(Floors.pararuleBatch(swipl, qs, plan.batchFloorRuns())).median();
                    }
                    Report r = checked(PararuleEvaluation.run(agent, qs, threads, p -> { }), name, threads);
                    if (threads == 1) {
                        oneThread[i] = r.throughput();
                        r.results().forEach(x -> latencies.add(x.solution().elapsed().toNanos() / 1e6));
                    } else {
                        twoThreads[i] = r.throughput();
                    }
                }
            }
        }
        String pipeline = "sample.jsonl (" + qs.size() + " questions, one per context) through FormalizerAgent with "
                + "TemplateFormalizer.paper() (formalize, open, consult, query, close; at most 100,000 inferences a goal) "
                + "and PararuleEvaluation.run" + ("process".equals(name) ? "; ProcessBackend.builder().poolSize(2)" : "")
                + "; every run scored at least " + MIN_ACCURACY;
        Row single = new Row("pararule_throughput_1", "PARARULE-Plus sample, 1 thread (" + statistic + ")", name,
                Summary.of(oneThread).median(), OptionalDouble.empty(), Unit.QUESTIONS_PER_SECOND,
                pipeline + "; questions per second of wall time, " + statistic, FLOOR,
                OptionalDouble.of(Summary.of(floors).median()),
                Optional.of(Target.ratioAtLeast(floorShare)));
        Row rate = new Row("pararule_throughput", "PARARULE-Plus sample, 2 threads (" + statistic + ")", name,
                Summary.of(twoThreads).median(), OptionalDouble.empty(), Unit.QUESTIONS_PER_SECOND,
                pipeline + "; questions per second of wall time, " + statistic, "the same, 1 thread",
                OptionalDouble.of(Summary.of(oneThread).median()),
                "jpl".equals(name) ? Optional.of(Target.ratioAtLeast(1.7)) : Optional.empty());
        Summary latency = Summary.of(latencies.stream().mapToDouble(Double::doubleValue).toArray());
        Row each = new Row("pararule_latency", "PARARULE-Plus per-question latency, 1 thread", name, latency.median(),
                OptionalDouble.of(latency.p90()), Unit.MILLIS,
                pipeline + "; Solution.elapsed() of every question of the timed 1-thread runs", "",
                OptionalDouble.empty(), Optional.empty());
        return List.of(single, rate, each);
    }

    private static Report checked(Report r, String backend, int threads) {
        if (r.accuracy().rate() < MIN_ACCURACY) {
            throw new IllegalStateException(String.format(Locale.ROOT,
                    "PARARULE-Plus on %s with %d thread(s) scored %s, below %.2f: the pipeline is broken", backend,
                    threads, r.accuracy(), MIN_ACCURACY));
        }
        return r;
    }
}

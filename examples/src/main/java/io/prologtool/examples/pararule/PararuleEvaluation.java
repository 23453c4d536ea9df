package io.prologtool.examples.pararule;

import io.prologtool.examples.formalizer.Attempt;
import io.prologtool.examples.formalizer.AttemptError;
import io.prologtool.examples.formalizer.FormalizerAgent;
import io.prologtool.examples.formalizer.Solution;
import io.prologtool.examples.formalizer.Tokens;
import io.prologtool.examples.formalizer.Verdict;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.TreeMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Consumer;
import java.util.function.Function;
import java.util.function.Predicate;

/**
 * Runs a {@link FormalizerAgent} over PARARULE-Plus questions, several at once, and scores the answers.
 *
 * <pre>{@code
 * List<PararuleQuestion> qs = PararuleQuestion.bundled("sample.jsonl");
 * PararuleEvaluation.Report r = PararuleEvaluation.run(agent, qs, 4, p -> {});
 * r.accuracy();                       // 1.000 (200/200)
 * r.byDepth();                        // {2=1.000 (50/50), 3=..., 4=..., 5=...}
 * }</pre>
 *
 * Questions that share a context are handed to {@link FormalizerAgent#solveAll} together, so a
 * deterministic formalizer answers them in one session that loads the context once; the groups run in
 * parallel, each in sessions of its own.
 */
public final class PararuleEvaluation {

    private PararuleEvaluation() {
    }

    /** One question and what the agent answered. */
    public record Result(PararuleQuestion question, Solution solution) {
        /** Checks the components: none is null. */
        public Result {
            Objects.requireNonNull(question, "question");
            Objects.requireNonNull(solution, "solution");
        }

        /** True when the answer is the gold label. */
        public boolean correct() {
            return solution.answer().matches(question.label());
        }

        /**
         * Why the question has no answer, empty when it has one: the bound that stopped the goal, or the
         * last attempt's error ({@code TemplateFormalizer}'s names the sentence it could not translate).
         */
        public Optional<String> whyUnanswered() {
            if (solution.answer() != Verdict.UNKNOWN) {
                return Optional.empty();
            }
            if (solution.hitBound()) {
                return Optional.of("stopped by a bound ("
                        + solution.outcome().map(o -> o.wireName()).orElse("no outcome") + ")");
            }
            List<Attempt> attempts = solution.attempts();
            return Optional.of(attempts.get(attempts.size() - 1).error().map(AttemptError::toString)
                    .orElse("no answer"));
        }
    }

    /**
     * A share of correct answers.
     *
     * @param correct answers that matched
     * @param total   answers scored
     */
    public record Accuracy(int correct, int total) {
        /** correct / total, or 0 when nothing was scored. */
        public double rate() {
            return total == 0 ? 0 : (double) correct / total;
        }

        /** {@code 0.985 (197/200)}. */
        @Override
        public String toString() {
            return String.format(java.util.Locale.ROOT, "%.3f (%d/%d)", rate(), correct, total);
        }
    }

    /**
     * How far a run is.
     *
     * @param done    questions finished
     * @param total   questions in the run
     * @param elapsed time since the run started
     */
    public record Progress(int done, int total, Duration elapsed) {
    }

    /**
     * Solves every question with {@code parallelism} worker threads; {@code progress} is called (from
     * the workers, so it must be thread-safe) after each question.
     *
     * @throws IllegalStateException when solving a question threw (a bug or a closed registry)
     */
    public static Report run(FormalizerAgent agent, List<PararuleQuestion> questions, int parallelism,
                             Consumer<Progress> progress) {
        Objects.requireNonNull(agent, "agent");
        Objects.requireNonNull(questions, "questions");
        Objects.requireNonNull(progress, "progress");
        if (parallelism < 1) {
            throw new IllegalArgumentException("parallelism must be at least 1, was " + parallelism);
        }
        long t0 = System.nanoTime();
        AtomicInteger done = new AtomicInteger();
        ExecutorService pool = Executors.newFixedThreadPool(parallelism, r -> {
            Thread t = new Thread(r, "pararule-eval");
            t.setDaemon(true);
            return t;
        });
        try {
            // Questions on one context go to one worker together, so that the agent can answer them in
            // one session (FormalizerAgent.solveAll) when their programs are the same.
            Map<String, List<Integer>> byContext = new LinkedHashMap<>();
            for (int i = 0; i < questions.size(); i++) {
                byContext.computeIfAbsent(questions.get(i).context(), k -> new ArrayList<>()).add(i);
            }
            List<Future<List<Solution>>> futures = new ArrayList<>(byContext.size());
            for (List<Integer> group : byContext.values()) {
                futures.add(pool.submit(() -> {
                    List<Solution> solved = agent.solveAll(group.stream().map(i -> questions.get(i).problem()).toList());
                    for (int k = 0; k < solved.size(); k++) {
                        progress.accept(new Progress(done.incrementAndGet(), questions.size(),
                                Duration.ofNanos(System.nanoTime() - t0)));
                    }
                    return solved;
                }));
            }
            Result[] results = new Result[questions.size()];
            int g = 0;
            for (List<Integer> group : byContext.values()) {
                List<Solution> solved;
                try {
                    solved = futures.get(g++).get();
                } catch (ExecutionException e) {
                    throw new IllegalStateException("solving a question failed: " + e.getCause(), e.getCause());
                }
                for (int k = 0; k < group.size(); k++) {
                    results[group.get(k)] = new Result(questions.get(group.get(k)), solved.get(k));
                }
            }
            return new Report(agent.formalizer().name(), List.of(results), Duration.ofNanos(System.nanoTime() - t0));
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted", e);
        } finally {
            pool.shutdownNow();
        }
    }

    /**
     * The answers of one run, in the order of the questions.
     *
     * @param formalizer the formalizer's name
     * @param results    one per question, in input order
     * @param wall       wall time of the run
     */
    public record Report(String formalizer, List<Result> results, Duration wall) {

        /** Checks the components: none is null. */
        public Report {
            Objects.requireNonNull(formalizer, "formalizer");
            results = List.copyOf(results);
            Objects.requireNonNull(wall, "wall");
        }

        /** Accuracy against the gold labels. */
        public Accuracy accuracy() {
            return accuracy(r -> true);
        }

        /** Accuracy against the gold labels, over the results that pass {@code filter}. */
        public Accuracy accuracy(Predicate<Result> filter) {
            return against(q -> Optional.of(q.label()), filter);
        }

        /**
         * Accuracy against another label (e.g. {@link PararuleQuestion#nafLabel()}), over the results
         * that pass {@code filter} and have that label.
         */
        public Accuracy against(Function<PararuleQuestion, Optional<Boolean>> label, Predicate<Result> filter) {
            int correct = 0;
            int total = 0;
            for (Result r : results) {
                Optional<Boolean> l = label.apply(r.question());
                if (l.isPresent() && filter.test(r)) {
                    total++;
                    if (r.solution().answer().matches(l.get())) {
                        correct++;
                    }
                }
            }
            return new Accuracy(correct, total);
        }

        /** Accuracy per group, groups in their natural order. */
        public <K extends Comparable<K>> Map<K, Accuracy> by(Function<PararuleQuestion, K> key) {
            Map<K, Accuracy> out = new TreeMap<>();
            for (K k : results.stream().map(r -> key.apply(r.question())).distinct().toList()) {
                out.put(k, accuracy(r -> key.apply(r.question()).equals(k)));
            }
            return Collections.unmodifiableMap(out);
        }

        /** Accuracy per reasoning depth. */
        public Map<Integer, Accuracy> byDepth() {
            return by(PararuleQuestion::depth);
        }

        /** Accuracy per rule type. */
        public Map<String, Accuracy> byRuleType() {
            return by(PararuleQuestion::ruleType);
        }

        /**
         * How often this report and {@code other} (over the same questions, in the same order) give the
         * same answer, among the results that pass {@code filter} and that both answered (an unanswered
         * question on either side is left out): {@code correct} counts the agreements, {@code total}
         * the questions both answered.
         *
         * @throws IllegalArgumentException when the reports are not over the same questions
         */
        public Accuracy agreement(Report other, Predicate<Result> filter) {
            if (other.results.size() != results.size()) {
                throw new IllegalArgumentException("reports over " + results.size() + " and "
                        + other.results.size() + " questions");
            }
            int same = 0;
            int both = 0;
            for (int i = 0; i < results.size(); i++) {
                Result a = results.get(i);
                Result b = other.results.get(i);
                if (!a.question().id().equals(b.question().id())) {
                    throw new IllegalArgumentException("question " + i + " is " + a.question().id() + " in one "
                            + "report and " + b.question().id() + " in the other");
                }
                Optional<Boolean> x = a.solution().answer().asBoolean();
                Optional<Boolean> y = b.solution().answer().asBoolean();
                if (filter.test(a) && x.isPresent() && y.isPresent()) {
                    both++;
                    if (x.equals(y)) {
                        same++;
                    }
                }
            }
            return new Accuracy(same, both);
        }

        /** The results whose goal hit a bound (time, depth, inferences) instead of finishing. */
        public List<Result> hitBound() {
            return results.stream().filter(r -> r.solution().hitBound()).toList();
        }

        /** The results with no answer for any reason (bounds, or every attempt failed). */
        public List<Result> unknown() {
            return results.stream().filter(r -> r.solution().answer().asBoolean().isEmpty()).toList();
        }

        /** Tokens over all questions, when the formalizer reported any. */
        public Optional<Tokens> tokens() {
            return results.stream().map(r -> r.solution().tokens()).flatMap(Optional::stream).reduce(Tokens::plus);
        }

        /** Questions per second of wall time. */
        public double throughput() {
            double s = wall.toNanos() / 1e9;
            return s <= 0 ? 0 : results.size() / s;
        }

        /** The questions with at least one failed model call (rate limit, network, authentication, ...). */
        public List<Result> modelErrors() {
            return results.stream().filter(r -> !r.solution().modelErrors().isEmpty()).toList();
        }

        /** Mean number of attempts per question. */
        public double meanAttempts() {
            return results.stream().mapToInt(r -> r.solution().attemptCount()).average().orElse(0);
        }
    }
}

package io.prologtool.examples;

import io.prologtool.PrologBackend;
import io.prologtool.PrologSession;
import io.prologtool.SessionRegistry;
import io.prologtool.TraceResult;
import io.prologtool.examples.formalizer.Formalization;
import io.prologtool.examples.formalizer.Formalizer;
import io.prologtool.examples.formalizer.FormalizerAgent;
import io.prologtool.examples.formalizer.ModelUnreachableException;
import io.prologtool.examples.formalizer.LlmFormalizer;
import io.prologtool.examples.formalizer.TemplateFormalizer;
import io.prologtool.examples.pararule.PararuleEvaluation;
import io.prologtool.examples.pararule.PararuleEvaluation.Accuracy;
import io.prologtool.examples.pararule.PararuleEvaluation.Report;
import io.prologtool.examples.pararule.PararuleEvaluation.Result;
import io.prologtool.examples.pararule.PararuleQuestion;
import io.prologtool.process.ProcessBackend;

import dev.langchain4j.model.anthropic.AnthropicChatModel;
import dev.langchain4j.model.chat.ChatModel;
import dev.langchain4j.model.openai.OpenAiChatModel;

import java.io.IOException;
import java.io.PrintStream;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Consumer;
import java.util.function.Predicate;

/**
 * {@code make demo}: the Formalizer agent of the PrologMCP paper on PARARULE-Plus.
 *
 * <p>Without options it evaluates {@code sample.jsonl}, {@code sample-counterfactual.jsonl} and
 * {@code diverging.jsonl} (the repository's {@code data/pararule-plus}, bundled on the classpath) with the deterministic {@link TemplateFormalizer} in three semantics:
 * the paper's reading of negation ({@code initially/2}), standard negation as failure with tabling, and
 * plain untabled SLDNF under an inference limit, through the {@link FormalizerAgent}. The questions on one
 * context share a fresh session per semantics ({@link FormalizerAgent#solveAll}); several contexts run in
 * parallel, through one {@link SessionRegistry} on the process backend. It prints accuracy per file,
 * depth and rule type, the questions where the two semantics disagree and where plain SLDNF does not
 * terminate (the paper's Table 6 analysis), throughput, and the proof tree of one depth-5 question.
 *
 * <p>Options (through {@code make demo DEMO_ARGS="..."} or {@code -Dexec.args="..."}):
 * <ul>
 *   <li>{@code --model openai|anthropic}: the {@link LlmFormalizer} with GPT-4.1 or Claude Sonnet 4.6
 *       (temperature 0, 4,096 tokens, as in the paper) instead; needs {@code OPENAI_API_KEY} or
 *       {@code ANTHROPIC_API_KEY}; {@code --model-name NAME} picks another model, {@code --base-url URL}
 *       another endpoint (a proxy, or a server that speaks the same API);</li>
 *   <li>{@code --limit N}: at most N questions per file, spread evenly over it (with a model the
 *       default is 10);</li>
 *   <li>{@code --parallel N}: questions in parallel, each group in sessions of its own (default 6).</li>
 * </ul>
 */
public final class Demo {

    /** The attribution the PARARULE-Plus licence asks every use of the data to print. */
    public static final String ATTRIBUTION =
            "Thanks to Qiming Bao for development of the PARARULE Plus dataset and permission to freely utilise it.";

    /** Inference limit of each goal: terminating PARARULE-Plus questions need under 100. */
    static final long MAX_INFERENCES = 100_000;

    static final List<String> FILES = List.of("sample.jsonl", "sample-counterfactual.jsonl", "diverging.jsonl");

    private final PrintStream out;
    private final Options options;

    private Demo(PrintStream out, Options options) {
        this.out = out;
        this.options = options;
    }

    /** Runs the demo; see the class comment for the options. Exits with 2 on a bad option. */
    public static void main(String[] args) throws IOException {
        int status = run(System.out, System.err, args);
        if (status != 0) {
            System.exit(status);
        }
    }

    /**
     * Runs the demo, printing to {@code out} (progress and usage to {@code err}); returns the exit status:
     * 0, 1 when {@code --model} has no API key, 2 for a bad option.
     */
    static int run(PrintStream out, PrintStream err, String... args) throws IOException {
        Options options;
        try {
            options = Options.parse(args);
        } catch (IllegalArgumentException e) {
            err.println("demo: " + e.getMessage());
            err.println("usage: Demo [--model openai|anthropic] [--model-name NAME] [--base-url URL] [--limit N] [--parallel N]");
            return 2;
        }
        return new Demo(out, options).run(err);
    }

    record Options(Optional<String> model, Optional<String> modelName, Optional<String> baseUrl, int limit, int parallel) {
        static Options parse(String[] args) {
            Optional<String> model = Optional.empty();
            Optional<String> modelName = Optional.empty();
            Optional<String> baseUrl = Optional.empty();
            int limit = -1;
            int parallel = 6;
            List<String> as = CommandLine.words(args);
            for (int i = 0; i < as.size(); i++) {
                String a = as.get(i);
                String value = i + 1 < as.size() ? as.get(i + 1) : null;
                switch (a) {
                    case "--model" -> model = Optional.of(required(a, value).toLowerCase(Locale.ROOT));
                    case "--model-name" -> modelName = Optional.of(required(a, value));
                    case "--base-url" -> baseUrl = Optional.of(required(a, value));
                    case "--limit" -> limit = positive(a, required(a, value));
                    case "--parallel" -> parallel = positive(a, required(a, value));
                    default -> throw new IllegalArgumentException("unknown option " + a);
                }
                i++;
            }
            if (model.isPresent() && !List.of("openai", "anthropic").contains(model.get())) {
                throw new IllegalArgumentException("--model is openai or anthropic, not " + model.get());
            }
            if (limit < 0) {
                limit = model.isPresent() ? 10 : Integer.MAX_VALUE;
            }
            return new Options(model, modelName, baseUrl, limit, parallel);
        }

        private static String required(String option, String value) {
            if (value == null) {
                throw new IllegalArgumentException(option + " needs a value");
            }
            return value;
        }

        private static int positive(String option, String value) {
            try {
                int n = Integer.parseInt(value);
                if (n > 0) {
                    return n;
                }
            } catch (NumberFormatException ignored) {
                // reported below
            }
            throw new IllegalArgumentException(option + " needs a positive number, not " + value);
        }
    }

    private int run(PrintStream err) throws IOException {
        long t0 = System.nanoTime();
        Map<String, List<PararuleQuestion>> files = new LinkedHashMap<>();
        for (String f : FILES) {
            List<PararuleQuestion> qs = PararuleQuestion.bundled(f);
            files.put(f, PararuleQuestion.spread(qs, options.limit));
        }
        List<PararuleQuestion> all = files.values().stream().flatMap(List::stream).toList();

        out.println("PARARULE-Plus through prologtool: the Formalizer agent of the PrologMCP paper");
        out.println(ATTRIBUTION);
        out.println();
        out.print("data: PARARULE-Plus (data/pararule-plus, bundled):");
        files.forEach((f, qs) -> out.print(" " + f + " (" + qs.size() + ")"));
        out.println();
        Optional<ChatModel> model = Optional.empty();
        if (options.model.isPresent()) {
            String env = options.model.get().equals("openai") ? "OPENAI_API_KEY" : "ANTHROPIC_API_KEY";
            String key = System.getenv(env);
            if (key == null || key.isBlank()) {
                err.println("demo: --model " + options.model.get() + " needs an API key in the environment variable "
                        + env);
                out.println(ATTRIBUTION);
                return 1;
            }
            model = Optional.of(chatModel(options.model.get(), key));
        }

        try (PrologBackend backend = ProcessBackend.builder().poolSize(2).build();
             SessionRegistry registry = SessionRegistry.builder(backend)
                     .maxSessions(options.parallel * 2 + 4).idleTtl(Duration.ofMinutes(5)).build()) {
            if (model.isPresent()) {
                try {
                    runModel(registry, model.get(), files, all, err);
                } catch (RuntimeException e) {
                    Throwable t = e;
                    while (t != null && !(t instanceof ModelUnreachableException)) {
                        t = t.getCause();
                    }
                    if (t == null) {
                        throw e;
                    }
                    err.println();
                    err.println("demo: " + t.getMessage());
                    out.println(ATTRIBUTION);
                    return 1;
                }
            } else {
                runTemplates(backend, registry, files, all, err);
            }
            out.printf(Locale.ROOT, "%nsessions opened: %d; done in %.1f s%n", registry.stats().opened(),
                    (System.nanoTime() - t0) / 1e9);
        }
        out.println(ATTRIBUTION);
        return 0;
    }

    // ------------------------------------------------------------------ the template run

    private void runTemplates(PrologBackend backend, SessionRegistry registry,
                              Map<String, List<PararuleQuestion>> files, List<PararuleQuestion> all,
                              PrintStream err) {
        out.println("formalizers: TemplateFormalizer in three semantics; " + options.parallel
                + " sessions in parallel on the " + backend.name() + " backend, "
                + Runtime.getRuntime().availableProcessors() + " cores; goals limited to "
                + String.format(Locale.ROOT, "%,d", MAX_INFERENCES) + " inferences");
        out.println("  paper: a negated condition reads the initial facts, \\+ initially(P, X) (tabled)");
        out.println("  naf:   standard negation as failure, tnot(P(X)) (tabled; a well-founded undefined is not true)");
        out.println("  plain: standard negation as failure, \\+ P(X), untabled SLDNF");
        out.println();

        long t0 = System.nanoTime();
        long opened = registry.stats().opened();
        Progress progress = new Progress(err, all.size() * 3);
        Report paper = evaluate(registry, TemplateFormalizer.paper(), all, progress);
        Report naf = evaluate(registry, TemplateFormalizer.negationAsFailure(), all, progress);
        Report plain = evaluate(registry, TemplateFormalizer.plainSldnf(), all, progress);
        double wall = (System.nanoTime() - t0) / 1e9;
        long sessions = registry.stats().opened() - opened;
        progress.finish();

        out.println("Accuracy against the gold label (a question left unanswered counts as wrong)");
        out.printf("  %-34s %-18s %-18s %-18s%n", "", "paper", "naf", "plain");
        for (var e : files.entrySet()) {
            String f = e.getKey();
            Predicate<Result> inFile = inFile(e.getValue());
            row("  " + f, paper.accuracy(inFile), naf.accuracy(inFile), plain.accuracy(inFile));
            for (int depth : e.getValue().stream().map(PararuleQuestion::depth).distinct().sorted().toList()) {
                Predicate<Result> p = inFile.and(r -> r.question().depth() == depth);
                row("    depth " + depth, paper.accuracy(p), naf.accuracy(p), plain.accuracy(p));
            }
            for (String type : e.getValue().stream().map(PararuleQuestion::ruleType).distinct().sorted().toList()) {
                Predicate<Result> p = inFile.and(r -> r.question().ruleType().equals(type));
                row("    " + type, paper.accuracy(p), naf.accuracy(p), plain.accuracy(p));
            }
        }
        List<PararuleQuestion> diverging = files.get("diverging.jsonl");
        if (!diverging.isEmpty()) {
            Predicate<Result> inDiv = inFile(diverging);
            row("  diverging.jsonl against naf_label", paper.against(PararuleQuestion::nafLabel, inDiv),
                    naf.against(PararuleQuestion::nafLabel, inDiv), plain.against(PararuleQuestion::nafLabel, inDiv));
        }
        out.println();

        out.println("Where the semantics part (the paper's Table 6 analysis)");
        out.printf("  %-34s %-10s %-14s %-20s %s%n", "", "questions", "paper != naf", "plain SLDNF loops",
                "plain = naf where both answer");
        for (var e : files.entrySet()) {
            Predicate<Result> inFile = inFile(e.getValue());
            long loops = plain.hitBound().stream().filter(inFile).count();
            Accuracy agree = plain.agreement(naf, inFile);
            out.printf("  %-34s %-10d %-14d %-20d %d of %d%n", e.getKey(), e.getValue().size(),
                    differ(paper, naf, inFile), loops, agree.correct(), agree.total());
        }
        if (!diverging.isEmpty()) {
            Predicate<Result> inDiv = inFile(diverging);
            Map<String, Boolean> looped = new LinkedHashMap<>();
            plain.results().stream().filter(inDiv).forEach(r -> looped.put(r.question().id(), r.solution().hitBound()));
            long agree = diverging.stream().filter(q -> q.plainSldnfTerminates().isPresent()
                    && q.plainSldnfTerminates().get() != looped.getOrDefault(q.id(), false)).count();
            long flagged = diverging.stream().filter(q -> q.plainSldnfTerminates().orElse(true) == Boolean.FALSE).count();
            out.printf("  diverging.jsonl: looping or not agrees with plain_sldnf_terminates on %d of %d "
                    + "(%d flagged as looping)%n", agree, diverging.size(), flagged);
        }
        out.println("  questions left unanswered: paper " + paper.unknown().size() + ", naf " + naf.unknown().size()
                + ", plain " + plain.unknown().size() + " (" + plain.hitBound().size() + " stopped by the inference limit)");
        for (Report r : List.of(paper, naf, plain)) {
            unanswered(r);
        }
        out.println();

        int total = paper.results().size() + naf.results().size() + plain.results().size();
        out.printf(Locale.ROOT, "Throughput: %d questions in %.1f s, %.0f questions/s; %d sessions (one per context "
                        + "and semantics), %d in parallel%n", total, wall, total / wall, sessions, options.parallel);
        out.println();

        proofTree(registry, all);
    }

    private Report evaluate(SessionRegistry registry, Formalizer formalizer, List<PararuleQuestion> qs,
                            Progress progress) {
        FormalizerAgent agent = FormalizerAgent.builder(registry).formalizer(formalizer)
                .maxInferences(MAX_INFERENCES).timeLimit(Duration.ofSeconds(10)).build();
        return PararuleEvaluation.run(agent, qs, options.parallel, progress.step());
    }

    /** The unanswered questions of a report that no bound stopped, each with why (at most 10). */
    private void unanswered(Report r) {
        List<Result> why = r.unknown().stream().filter(x -> !x.solution().hitBound()).toList();
        for (Result x : why.subList(0, Math.min(10, why.size()))) {
            out.println("    " + r.formalizer() + " " + x.question().id() + ": " + x.whyUnanswered().orElseThrow());
        }
        if (why.size() > 10) {
            out.println("    ... and " + (why.size() - 10) + " more for " + r.formalizer());
        }
    }

    private static long differ(Report a, Report b, Predicate<Result> filter) {
        long n = 0;
        for (int i = 0; i < a.results().size(); i++) {
            Result x = a.results().get(i);
            Result y = b.results().get(i);
            if (filter.test(x) && x.solution().answer() != y.solution().answer()) {
                n++;
            }
        }
        return n;
    }

    /**
     * The proof of a depth-5 question under the paper's reading, traced untabled (a tabled predicate is
     * one step in a trace): the first true one whose proof chains at least five rules through a negated
     * condition, else the deepest such proof among those tried.
     */
    private void proofTree(SessionRegistry registry, List<PararuleQuestion> candidates) {
        TemplateFormalizer untabled = TemplateFormalizer.of(TemplateFormalizer.Negation.INITIAL_FACTS, false);
        PararuleQuestion best = null;
        TraceResult bestTrace = null;
        String bestGoal = null;
        int tried = 0;
        for (PararuleQuestion q : candidates) {
            if (q.depth() != 5 || !q.label() || !q.negationRule() || q.question().contains(" not ")) {
                continue;
            }
            if (++tried > 60 || (bestTrace != null && bestTrace.tree().get().depth() >= 7)) {
                break;
            }
            Formalization.Parsed f = untabled.translate(q.problem());
            try (PrologSession s = registry.open()) {
                s.consult(f.program());
                TraceResult tr = s.trace(f.goal()).maxDepth(12).maxNodes(200).run();
                if (tr.succeeded() && tr.tree().isPresent() && !tr.truncated()
                        && !tr.tree().get().find(n -> n.kind().equals("negation")).isEmpty()
                        && (bestTrace == null || tr.tree().get().depth() > bestTrace.tree().get().depth())) {
                    best = q;
                    bestTrace = tr;
                    bestGoal = f.goal();
                }
            }
        }
        if (best == null) {
            out.println("(no depth-5 question with a proof through a negated condition in this selection)");
            return;
        }
        out.println("Proof tree of " + best.id() + " (the paper's reading, traced untabled): \""
                + best.question() + "\" gold " + best.label() + ", goal " + bestGoal);
        out.print(bestTrace.toText().indent(2));
    }

    // ------------------------------------------------------------------ the model run

    /** GPT-4.1 or Claude Sonnet 4.6 (or {@code --model-name}) at temperature 0 and 4,096 tokens, as in the paper. */
    private ChatModel chatModel(String provider, String key) {
        if (provider.equals("openai")) {
            var b = OpenAiChatModel.builder().apiKey(key).modelName(modelName())
                    .temperature(0.0).maxTokens(4096).timeout(Duration.ofSeconds(120));
            options.baseUrl.ifPresent(b::baseUrl);
            return b.build();
        }
        var b = AnthropicChatModel.builder().apiKey(key).modelName(modelName())
                .temperature(0.0).maxTokens(4096).timeout(Duration.ofSeconds(120));
        options.baseUrl.ifPresent(b::baseUrl);
        return b.build();
    }

    private String modelName() {
        return options.modelName.orElse(options.model.orElseThrow().equals("openai") ? "gpt-4.1" : "claude-sonnet-4-6");
    }

    private void runModel(SessionRegistry registry, ChatModel model, Map<String, List<PararuleQuestion>> files,
                          List<PararuleQuestion> all, PrintStream err) {
        out.println("formalizer: LlmFormalizer (" + options.model.orElseThrow() + ", " + modelName()
                + options.baseUrl.map(u -> " at " + u).orElse("")
                + ") with the paper's prompt, at most 5 attempts; " + options.parallel + " questions in parallel");
        out.println();
        Progress progress = new Progress(err, all.size());
        FormalizerAgent agent = FormalizerAgent.builder(registry).formalizer(new LlmFormalizer(model, LlmFormalizer.PAPER_PROMPT,
                        options.baseUrl.orElse(options.model.orElseThrow() + "'s default URL")))
                .maxInferences(MAX_INFERENCES).timeLimit(Duration.ofSeconds(10)).build();
        Report r = PararuleEvaluation.run(agent, all, options.parallel, progress.step());
        progress.finish();

        out.println("Accuracy against the gold label");
        for (var e : files.entrySet()) {
            Predicate<Result> inFile = inFile(e.getValue());
            out.printf("  %-34s %s%n", e.getKey(), r.accuracy(inFile));
            for (int depth : e.getValue().stream().map(PararuleQuestion::depth).distinct().sorted().toList()) {
                out.printf("    %-32s %s%n", "depth " + depth, r.accuracy(inFile.and(x -> x.question().depth() == depth)));
            }
            for (String type : e.getValue().stream().map(PararuleQuestion::ruleType).distinct().sorted().toList()) {
                out.printf("    %-32s %s%n", type, r.accuracy(inFile.and(x -> x.question().ruleType().equals(type))));
            }
        }
        if (!files.get("diverging.jsonl").isEmpty()) {
            out.printf("  %-34s %s%n", "diverging.jsonl against naf_label",
                    r.against(PararuleQuestion::nafLabel, inFile(files.get("diverging.jsonl"))));
        }
        out.printf(Locale.ROOT, "%nmean attempts %.2f; unanswered %d; ", r.meanAttempts(), r.unknown().size());
        out.println(r.tokens().map(t -> String.format(Locale.ROOT, "tokens %d (%.0f per question)", t.total(),
                (double) t.total() / r.results().size())).orElse("tokens not reported"));
        unanswered(r);
        out.printf(Locale.ROOT, "Throughput: %d questions in %.1f s (%d in parallel); %.1f s per question on average%n",
                r.results().size(), r.wall().toNanos() / 1e9, options.parallel,
                r.results().stream().mapToLong(x -> x.solution().elapsed().toMillis()).average().orElse(0) / 1000);
        r.results().stream().filter(x -> !x.correct()).limit(3).forEach(x -> out.println("  wrong: " + x.question().id()
                + " \"" + x.question().question() + "\" gold " + x.question().label() + ", answered "
                + x.solution().answer() + " after " + x.solution().attemptCount() + " attempt(s)"));
        List<Result> failedCalls = r.modelErrors();
        if (!failedCalls.isEmpty()) {
            out.println("Model calls that failed (recorded as failed attempts; the run went on): "
                    + failedCalls.stream().mapToLong(x -> x.solution().modelErrors().size()).sum()
                    + " in " + failedCalls.size() + " question(s), first: " + failedCalls.get(0).question().id()
                    + " " + failedCalls.get(0).solution().modelErrors().get(0).message());
        }
    }

    // ------------------------------------------------------------------ helpers

    private void row(String label, Accuracy a, Accuracy b, Accuracy c) {
        out.printf("%-36s %-18s %-18s %-18s%n", label, a, b, c);
    }

    private static Predicate<Result> inFile(List<PararuleQuestion> qs) {
        java.util.Set<PararuleQuestion> set = java.util.Collections.newSetFromMap(new java.util.IdentityHashMap<>());
        set.addAll(qs);
        return r -> set.contains(r.question());
    }

    /** A progress line on stderr every few seconds, for runs long enough to need one. */
    private static final class Progress {
        private final PrintStream err;
        private final int total;
        private final long t0 = System.nanoTime();
        private final AtomicLong done = new AtomicLong();
        private final AtomicLong lastPrint = new AtomicLong(System.nanoTime());
        private volatile boolean printed;

        Progress(PrintStream err, int total) {
            this.err = err;
            this.total = total;
        }

        Consumer<PararuleEvaluation.Progress> step() {
            return p -> {
                long n = done.incrementAndGet();
                long now = System.nanoTime();
                long last = lastPrint.get();
                if (now - last > 3_000_000_000L && lastPrint.compareAndSet(last, now)) {
                    printed = true;
                    err.printf(Locale.ROOT, "  ... %d/%d questions, %.0f s%n", n, total, (now - t0) / 1e9);
                }
            };
        }

        void finish() {
            if (printed) {
                err.printf(Locale.ROOT, "  ... %d/%d questions, %.0f s%n", done.get(), total,
                        (System.nanoTime() - t0) / 1e9);
            }
        }
    }

}

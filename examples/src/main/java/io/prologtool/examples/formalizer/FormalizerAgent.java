package io.prologtool.examples.formalizer;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.prologtool.ConsultResult;
import io.prologtool.Diagnostic;
import io.prologtool.GoalRequest;
import io.prologtool.GoalResult;
import io.prologtool.Outcome;
import io.prologtool.PrologError;
import io.prologtool.PrologSession;
import io.prologtool.SessionOptions;
import io.prologtool.SessionRegistry;

import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;

/**
 * The Formalizer agent of the PrologMCP paper (section 4.1): a {@link Formalizer} turns the context and
 * question into a Prolog program and a goal; the agent consults the program into a fresh session, runs
 * the goal, and reads the answer (success: TRUE, failure: FALSE). When the reply cannot be parsed, the
 * program does not load, or the goal raises an error, the structured error goes back to the
 * formalizer and it tries again, up to {@code maxAttempts} (default 5, as in the paper).
 *
 * <pre>{@code
 * try (SessionRegistry registry = SessionRegistry.builder(backend).build()) {
 *     FormalizerAgent agent = FormalizerAgent.builder(registry)
 *             .formalizer(new LlmFormalizer(chatModel))      // or TemplateFormalizer.paper()
 *             .build();
 *     Solution s = agent.solve(new Problem("q1", "Anne is kind. All kind people are nice.", "Anne is nice."));
 *     s.answer();          // TRUE
 *     s.attemptCount();    // 1
 *     s.program();         // the final program
 * }
 * }</pre>
 *
 * <p>A goal that hits a bound (time, depth, inferences) ends the solve with {@link Verdict#UNKNOWN} and
 * no retry: for a deterministic translation such as untabled SLDNF on a rule cycle that is the answer
 * ("does not terminate within its limit"), not something a repair round changes. Each attempt runs in
 * its own session, closed when the attempt ends. Thread-safe: one agent can solve many problems at once,
 * each in its own sessions.
 */
public final class FormalizerAgent {

    /** The paper's number of attempts. */
    public static final int DEFAULT_MAX_ATTEMPTS = 5;

    private static final JsonNodeFactory F = JsonNodeFactory.instance;

    private final SessionRegistry registry;
    private final Formalizer formalizer;
    private final int maxAttempts;
    private final SessionOptions sessionOptions;
    private final Duration timeLimit;
    private final long maxDepth;
    private final long maxInferences;

    private FormalizerAgent(Builder b) {
        this.registry = b.registry;
        this.formalizer = Objects.requireNonNull(b.formalizer, "formalizer: set one with Builder.formalizer(...)");
        this.maxAttempts = b.maxAttempts;
        this.sessionOptions = b.sessionOptions != null ? b.sessionOptions
                : b.formalizer instanceof LlmFormalizer
                ? SessionOptions.builder().declareDiscontiguous(true).build() : SessionOptions.defaults();
        this.timeLimit = b.timeLimit;
        this.maxDepth = b.maxDepth;
        this.maxInferences = b.maxInferences;
    }

    /** A builder whose sessions come from {@code registry}. */
    public static Builder builder(SessionRegistry registry) {
        return new Builder(registry);
    }

    /** The formalizer this agent asks. */
    public Formalizer formalizer() {
        return formalizer;
    }

    /** Most attempts per problem. */
    public int maxAttempts() {
        return maxAttempts;
    }

    /**
     * Solves one problem: formalize, consult, run, and on a format, load or goal error feed the error back
     * and try again. Never throws for anything the formalizer or Prolog does wrong: an exception from the
     * formalizer (a model call that fails with HTTP 429, a network or an authentication error, ...) is a
     * failed attempt with an {@link AttemptError.Stage#MODEL} error that says why, and the agent goes on
     * (see {@link Solution#modelErrors()}). A closed registry is a programming error and throws.
     */
    public Solution solve(Problem problem) {
        Objects.requireNonNull(problem, "problem");
        return retry(problem, new ArrayList<>(), Optional.empty(), System.nanoTime());
    }

    /**
     * Solves several problems, sharing sessions where it can: problems whose first formalization is the
     * same program (the questions on one PARARULE-Plus context, translated by a
     * {@link TemplateFormalizer}) are answered in one session that loads the program once, each goal
     * run in turn. Each problem's answer is the one {@link #solve} gives; a problem whose shared attempt
     * fails goes on alone, through the usual repair rounds. The solutions come in the order of the
     * problems; the shared load counts in the elapsed time of each.
     */
    public List<Solution> solveAll(List<Problem> problems) {
        Objects.requireNonNull(problems, "problems");
        int size = problems.size();
        long[] started = new long[size];
        Formalization[] first = new Formalization[size];
        Solution[] solutions = new Solution[size];
        Map<String, List<Integer>> byProgram = new LinkedHashMap<>();
        for (int i = 0; i < size; i++) {
            started[i] = System.nanoTime();
            first[i] = formalize(problems.get(i), List.of());
            if (first[i] instanceof Formalization.Parsed p) {
                byProgram.computeIfAbsent(p.program(), k -> new ArrayList<>()).add(i);
            } else {
                solutions[i] = afterFirst(problems.get(i), first[i], Optional.empty(), started[i]);
            }
        }
        Run[] runs = new Run[size];
        for (Map.Entry<String, List<Integer>> group : byProgram.entrySet()) {
            PrologSession session = registry.open(sessionOptions);
            try {
                ConsultResult c = session.consult(group.getKey());
                for (int i : group.getValue()) {
                    Formalization.Parsed p = (Formalization.Parsed) first[i];
                    runs[i] = c.hasErrors() ? new Run(Verdict.UNKNOWN, Optional.empty(), Optional.of(loadError(c)))
                            : goal(session, p.goal());
                }
            } finally {
                registry.close(session.id());
            }
            // repair rounds (if any) only once the shared session is closed
            for (int i : group.getValue()) {
                solutions[i] = afterFirst(problems.get(i), first[i], Optional.of(runs[i]), started[i]);
            }
        }
        return List.of(solutions);
    }

    /** The solution once the first formalization ran (or could not): done, or on to the repair rounds. */
    private Solution afterFirst(Problem problem, Formalization f, Optional<Run> run, long t0) {
        List<Attempt> attempts = new ArrayList<>();
        if (f instanceof Formalization.Malformed m) {
            attempts.add(new Attempt(1, f, Optional.empty(), Optional.of(errorOf(m))));
        } else {
            Run r = run.orElseThrow();
            attempts.add(new Attempt(1, f, r.outcome, r.error));
            if (r.error.isEmpty()) {
                return new Solution(problem, r.verdict, r.outcome, attempts, f.tokens(), since(t0));
            }
        }
        return retry(problem, attempts, f.tokens(), t0);
    }

    /** Attempts after those in {@code attempts}, up to {@code maxAttempts}. */
    private Solution retry(Problem problem, List<Attempt> attempts, Optional<Tokens> tokens, long t0) {
        for (int n = attempts.size() + 1; n <= maxAttempts; n++) {
            Formalization f = formalize(problem, List.copyOf(attempts));
            tokens = add(tokens, f.tokens());
            if (f instanceof Formalization.Malformed m) {
                attempts.add(new Attempt(n, f, Optional.empty(), Optional.of(errorOf(m))));
                continue;
            }
            Formalization.Parsed p = (Formalization.Parsed) f;
            Run run = run(p);
            attempts.add(new Attempt(n, f, run.outcome, run.error));
            if (run.error.isEmpty()) {
                return new Solution(problem, run.verdict, run.outcome, attempts, tokens, since(t0));
            }
        }
        Optional<Outcome> lastOutcome = attempts.get(attempts.size() - 1).outcome();
        return new Solution(problem, Verdict.UNKNOWN, lastOutcome, attempts, tokens, since(t0));
    }

    private record Run(Verdict verdict, Optional<Outcome> outcome, Optional<AttemptError> error) {
    }

    private Run run(Formalization.Parsed p) {
        PrologSession session = registry.open(sessionOptions);
        try {
            ConsultResult c = session.consult(p.program());
            if (c.hasErrors()) {
                return new Run(Verdict.UNKNOWN, Optional.empty(), Optional.of(loadError(c)));
            }
            return goal(session, p.goal());
        } finally {
            registry.close(session.id());
        }
    }

    private Run goal(PrologSession session, String goal) {
        GoalRequest g = session.goal(goal).maxAnswers(1).timeLimit(timeLimit).maxDepth(maxDepth);
        if (maxInferences > 0) {
            g.maxInferences(maxInferences);
        }
        GoalResult r = g.run();
        return switch (r.outcome()) {
            case SUCCESS -> new Run(Verdict.TRUE, Optional.of(r.outcome()), Optional.empty());
            case FAILURE -> new Run(Verdict.FALSE, Optional.of(r.outcome()), Optional.empty());
            case ERROR -> new Run(Verdict.UNKNOWN, Optional.of(r.outcome()),
                    Optional.of(goalError(goal, r.error().orElseThrow())));
            case TIMEOUT, DEPTH_EXCEEDED, INFERENCE_LIMIT, CANCELLED ->
                    new Run(Verdict.UNKNOWN, Optional.of(r.outcome()), Optional.empty());
        };
    }

    /** Marks the {@link Formalization.Malformed} that stands for a formalizer that threw. */
    private static final String MODEL_ERROR = "model error: ";

    /**
     * Asks the formalizer; an exception it throws (the model call failed) becomes a
     * {@link Formalization.Malformed} whose message starts with {@value #MODEL_ERROR}, so the attempt
     * is recorded as failed and the agent goes on. A {@link ModelUnreachableException} is thrown on: no
     * attempt could succeed.
     */
    private Formalization formalize(Problem problem, List<Attempt> previous) {
        Formalization f;
        try {
            f = formalizer.formalize(problem, previous);
        } catch (ModelUnreachableException e) {
            throw e;                    // no attempt can succeed: stop, with one message naming the URL
        } catch (RuntimeException e) {
            String why = e.getClass().getSimpleName() + (e.getMessage() == null ? "" : ": " + e.getMessage());
            return new Formalization.Malformed(MODEL_ERROR + why, "", Optional.empty());
        }
        return Objects.requireNonNull(f, "the formalizer returned null");
    }

    private static AttemptError errorOf(Formalization.Malformed m) {
        if (m.response().isEmpty() && m.message().startsWith(MODEL_ERROR)) {
            ObjectNode d = F.objectNode();
            d.put("stage", "model");
            d.put("message", m.message().substring(MODEL_ERROR.length()));
            return new AttemptError(AttemptError.Stage.MODEL, m.message(), d.toString());
        }
        return formatError(m);
    }

    private static AttemptError formatError(Formalization.Malformed m) {
        ObjectNode d = F.objectNode();
        d.put("stage", "format");
        d.put("message", m.message());
        return new AttemptError(AttemptError.Stage.FORMAT, m.message(), d.toString());
    }

    private static AttemptError loadError(ConsultResult c) {
        ObjectNode d = F.objectNode();
        d.put("stage", "load");
        ArrayNode ms = d.putArray("messages");
        for (Diagnostic x : c.messages()) {
            ObjectNode o = ms.addObject();
            o.put("severity", x.severity().wireName());
            o.put("kind", x.kind());
            o.put("message", x.message());
            if (x.line() > 0) {
                o.put("line", x.line());
            }
            if (x.column() > 0) {
                o.put("column", x.column());
            }
        }
        List<Diagnostic> errors = c.errors();
        String message = errors.size() + (errors.size() == 1 ? " error" : " errors") + ", first: " + errors.get(0);
        return new AttemptError(AttemptError.Stage.LOAD, message, d.toString());
    }

    private static AttemptError goalError(String goal, PrologError e) {
        ObjectNode d = F.objectNode();
        d.put("stage", "goal");
        d.put("goal", goal);
        ObjectNode err = d.putObject("error");
        err.put("kind", e.kind());
        err.put("message", e.message());
        if (e.prologTerm().isPresent()) {
            err.put("prolog_term", e.prologTerm().get());
        } else {
            err.putNull("prolog_term");
        }
        if (!e.candidates().isEmpty()) {
            ArrayNode cs = err.putArray("candidates");
            e.candidates().forEach(cs::add);
        }
        return new AttemptError(AttemptError.Stage.GOAL, e.kind() + ": " + e.message(), d.toString());
    }

    private static Optional<Tokens> add(Optional<Tokens> sum, Optional<Tokens> more) {
        if (more.isEmpty()) {
            return sum;
        }
        return Optional.of(sum.map(s -> s.plus(more.get())).orElse(more.get()));
    }

    private static Duration since(long t0) {
        return Duration.ofNanos(System.nanoTime() - t0);
    }

    /** Builds a {@link FormalizerAgent}. */
    public static final class Builder {
        private final SessionRegistry registry;
        private Formalizer formalizer;
        private int maxAttempts = DEFAULT_MAX_ATTEMPTS;
        private SessionOptions sessionOptions;
        private Duration timeLimit = Duration.ofSeconds(10);
        private long maxDepth = GoalRequest.DEFAULT_MAX_DEPTH;
        private long maxInferences = -1;

        private Builder(SessionRegistry registry) {
            this.registry = Objects.requireNonNull(registry, "registry");
        }

        /** The formalizer to ask (required). */
        public Builder formalizer(Formalizer formalizer) {
            this.formalizer = Objects.requireNonNull(formalizer, "formalizer");
            return this;
        }

        /** Most attempts per problem, at least 1 (default 5). */
        public Builder maxAttempts(int n) {
            if (n < 1) {
                throw new IllegalArgumentException("maxAttempts must be at least 1, was " + n);
            }
            this.maxAttempts = n;
            return this;
        }

        /**
         * Options of the sessions the agent opens. Default: {@link SessionOptions#defaults()}, with
         * {@link SessionOptions#declareDiscontiguous()} on for an {@link LlmFormalizer} (the paper's prompt
         * tells the model that discontiguous declarations are injected, so a program in sentence order
         * loads without warnings); a {@link TemplateFormalizer} groups clauses by predicate and needs no
         * extra pass over its texts.
         */
        public Builder sessionOptions(SessionOptions options) {
            this.sessionOptions = Objects.requireNonNull(options, "options");
            return this;
        }

        /** Wall-clock limit of each goal (default 10 s). */
        public Builder timeLimit(Duration limit) {
            Objects.requireNonNull(limit, "limit");
            if (limit.toMillis() < 1) {
                throw new IllegalArgumentException("timeLimit must be at least 1 ms, was " + limit);
            }
            this.timeLimit = limit;
            return this;
        }

        /** Depth limit of each goal (default 1,000,000). */
        public Builder maxDepth(long depth) {
            if (depth < 1) {
                throw new IllegalArgumentException("maxDepth must be at least 1, was " + depth);
            }
            this.maxDepth = depth;
            return this;
        }

        /**
         * Inference limit of each goal's whole search (default none). A few hundred thousand is plenty
         * for PARARULE-Plus (a terminating question takes under 100) and stops a loop of untabled SLDNF
         * in milliseconds, even one inside a negation, where a depth limit would only make the negated
         * goal fail.
         */
        public Builder maxInferences(long inferences) {
            if (inferences < 1) {
                throw new IllegalArgumentException("maxInferences must be at least 1, was " + inferences);
            }
            this.maxInferences = inferences;
            return this;
        }

        /** The agent; a formalizer must have been set. */
        public FormalizerAgent build() {
            return new FormalizerAgent(this);
        }
    }
}

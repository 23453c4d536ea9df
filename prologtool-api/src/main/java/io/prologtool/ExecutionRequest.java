package io.prologtool;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Objects;
import java.util.function.Function;

/**
 * One stateless run of {@link PrologExecutor}: code, a query, and what to run them with. Obtained from
 * {@link PrologExecutor#execute(String, String)}; set what differs from the defaults, then {@link #run()}:
 *
 * <pre>{@code
 * ExecutionResult r = executor.execute("parent(tom, bob). parent(bob, ann).", "grandparent(tom, X).")
 *                             .ruleBases("family")
 *                             .maxResults(10)
 *                             .timeLimit(Duration.ofSeconds(5))
 *                             .trace(true)
 *                             .run();
 * }</pre>
 *
 * Defaults: no rule bases, 100 results, 10 s for the whole call (loading included), no trace. A request
 * may be run more than once; each run starts from nothing.
 */
public final class ExecutionRequest {

    /** Default maximum number of solutions. */
    public static final int DEFAULT_MAX_RESULTS = 100;
    /** Largest number of solutions one call may ask for. */
    public static final int MAX_RESULTS_LIMIT = 10_000;
    /** Default wall-clock limit of the whole call (prolog-reasoner's default). */
    public static final Duration DEFAULT_TIME_LIMIT = Duration.ofSeconds(10);

    private final String code;
    private final String query;
    private final Function<ExecutionRequest, ExecutionResult> runner;
    private List<String> ruleBases = List.of();
    private int maxResults = DEFAULT_MAX_RESULTS;
    private Duration timeLimit = DEFAULT_TIME_LIMIT;
    private boolean trace;

    /** For executor implementations: a run of {@code query} against {@code code} that {@code runner} executes. */
    public ExecutionRequest(String code, String query, Function<ExecutionRequest, ExecutionResult> runner) {
        this.code = Objects.requireNonNull(code, "code");
        this.query = Objects.requireNonNull(query, "query");
        this.runner = Objects.requireNonNull(runner, "runner");
    }

    /**
     * Rule bases to load before the code, in this order (a name given twice loads once). An unknown
     * name makes the run a failure with {@code error_code} {@code RULEBASE_001}; nothing runs.
     */
    public ExecutionRequest ruleBases(String... names) {
        return ruleBases(Arrays.asList(names));
    }

    /** Like {@link #ruleBases(String...)}. */
    public ExecutionRequest ruleBases(List<String> names) {
        Objects.requireNonNull(names, "names");
        List<String> copy = new ArrayList<>();
        for (String n : names) {
            copy.add(Objects.requireNonNull(n, "rule base name"));
        }
        this.ruleBases = List.copyOf(copy);
        return this;
    }

    /** At most this many solutions, 1 to {@value #MAX_RESULTS_LIMIT} (default 100). */
    public ExecutionRequest maxResults(int n) {
        if (n < 1 || n > MAX_RESULTS_LIMIT) {
            throw new IllegalArgumentException("maxResults must be 1.." + MAX_RESULTS_LIMIT + ", was " + n);
        }
        this.maxResults = n;
        return this;
    }

    /** Wall-clock limit of the whole call: loading, the query and the trace (at least 1 ms, at most {@link GoalRequest#MAX_TIME_LIMIT}, 365 days;
     * default 10 s). */
    public ExecutionRequest timeLimit(Duration limit) {
        this.timeLimit = GoalRequest.checkTimeLimit("timeLimit", limit);
        return this;
    }

    /**
     * With {@code true}, the query also runs under a meta-interpreter and {@code metadata.proof_trace}
     * holds one proof tree per returned solution, in solution order (an empty list when there is none;
     * see {@link ExecutionResult#proofTrace()}). The query then runs twice; a program whose result
     * changes when run again gives {@code trace_mechanism_error}.
     */
    public ExecutionRequest trace(boolean trace) {
        this.trace = trace;
        return this;
    }

    /** Runs the code and the query. Never throws for anything the Prolog code does; see {@link ExecutionResult}. */
    public ExecutionResult run() {
        return runner.apply(this);
    }

    public String code() {
        return code;
    }

    public String query() {
        return query;
    }

    public List<String> ruleBases() {
        return ruleBases;
    }

    public int maxResults() {
        return maxResults;
    }

    public Duration timeLimit() {
        return timeLimit;
    }

    public boolean trace() {
        return trace;
    }

    @Override
    public String toString() {
        return "ExecutionRequest[query=" + query + ", ruleBases=" + ruleBases + ", maxResults=" + maxResults
                + ", timeLimit=" + timeLimit + ", trace=" + trace + "]";
    }
}

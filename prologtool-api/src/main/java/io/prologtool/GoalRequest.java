package io.prologtool;

import java.time.Duration;
import java.util.Objects;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.function.Function;

/**
 * A goal about to run in a session, with its bounds. Obtained from {@link PrologSession#goal(String)};
 * set what differs from the defaults, then {@link #run()}:
 *
 * <pre>{@code
 * GoalResult r = session.goal("ancestor(tom, Who)")
 *                       .maxAnswers(5).timeLimit(Duration.ofSeconds(2))
 *                       .run();
 * }</pre>
 *
 * Defaults: 10 answers, 30 s, depth 1,000,000, no inference limit, side effects allowed.
 * A request may be run more than once; each run is a new search.
 */
public final class GoalRequest {

    /** Default maximum number of answers. */
    public static final int DEFAULT_MAX_ANSWERS = 10;
    /** Default wall-clock limit. */
    public static final Duration DEFAULT_TIME_LIMIT = Duration.ofSeconds(30);
    /** Default depth limit (as {@code call_with_depth_limit/3} counts it). */
    public static final long DEFAULT_MAX_DEPTH = 1_000_000;
    /** Largest number of answers one call may ask for. */
    public static final int MAX_ANSWERS_LIMIT = 100_000;
    /**
     * The longest time limit of any request (goals, queries, traces, executions, consults) and the
     * longest grace or wait a backend takes: 365 days. The wait for a reply is counted in nanoseconds,
     * which a {@code long} holds for 292 years; a longer limit is an {@link IllegalArgumentException}
     * when it is set, never an error when the call runs.
     */
    public static final Duration MAX_TIME_LIMIT = Duration.ofDays(365);

    private final String goal;
    private final Function<GoalRequest, GoalResult> runner;
    private final Function<GoalRequest, Query> opener;
    private int maxAnswers = DEFAULT_MAX_ANSWERS;
    private Duration timeLimit = DEFAULT_TIME_LIMIT;
    private long maxDepth = DEFAULT_MAX_DEPTH;
    private long maxInferences = -1;
    private boolean allowSideEffects = true;

    /**
     * For backend implementations: a request for {@code goal} that {@code runner} executes.
     */
    public GoalRequest(String goal, Function<GoalRequest, GoalResult> runner) {
        this(goal, runner, null);
    }

    /**
     * For backend implementations: a request for {@code goal} that {@code runner} executes and
     * {@code opener} opens as a {@link Query} (null: the backend has no queries).
     */
    public GoalRequest(String goal, Function<GoalRequest, GoalResult> runner, Function<GoalRequest, Query> opener) {
        this.goal = Objects.requireNonNull(goal, "goal");
        this.runner = Objects.requireNonNull(runner, "runner");
        this.opener = opener;
    }

    /** At most this many answers, 1 to {@value #MAX_ANSWERS_LIMIT}. */
    public GoalRequest maxAnswers(int n) {
        if (n < 1 || n > MAX_ANSWERS_LIMIT) {
            throw new IllegalArgumentException("maxAnswers must be 1.." + MAX_ANSWERS_LIMIT + ", was " + n);
        }
        this.maxAnswers = n;
        return this;
    }

    /**
     * Wall-clock limit for the whole search (at least 1 ms, at most {@link #MAX_TIME_LIMIT}, 365 days).
     *
     * @throws IllegalArgumentException when it is out of that range
     */
    public GoalRequest timeLimit(Duration limit) {
        this.timeLimit = checkTimeLimit("timeLimit", limit);
        return this;
    }

    /**
     * {@code limit} as a time limit option named {@code option} takes it: at least 1 ms and at most
     * {@link #MAX_TIME_LIMIT}.
     *
     * @throws IllegalArgumentException naming the option when it is out of that range
     */
    static Duration checkTimeLimit(String option, Duration limit) {
        Objects.requireNonNull(limit, option);
        if (limit.compareTo(Duration.ofMillis(1)) < 0) {
            throw new IllegalArgumentException(option + " must be at least 1 ms, was " + limit);
        }
        if (limit.compareTo(MAX_TIME_LIMIT) > 0) {
            throw new IllegalArgumentException(option + " must be at most " + MAX_TIME_LIMIT.toDays()
                    + " days (GoalRequest.MAX_TIME_LIMIT), was " + limit);
        }
        return limit;
    }

    /** Depth limit of the search, at least 1. */
    public GoalRequest maxDepth(long depth) {
        if (depth < 1) {
            throw new IllegalArgumentException("maxDepth must be at least 1, was " + depth);
        }
        this.maxDepth = depth;
        return this;
    }

    /** Inference limit for the whole search, at least 1 (default: none). */
    public GoalRequest maxInferences(long inferences) {
        if (inferences < 1) {
            throw new IllegalArgumentException("maxInferences must be at least 1, was " + inferences);
        }
        this.maxInferences = inferences;
        return this;
    }

    /**
     * With {@code false}, the goal is first checked by SWI-Prolog's {@code library(sandbox)}; a goal
     * that could have side effects (files, processes, assert, ...) is refused with kind
     * {@code sandbox_violation} and does not run.
     */
    public GoalRequest allowSideEffects(boolean allow) {
        this.allowSideEffects = allow;
        return this;
    }

    /**
     * Runs the goal. Never throws for anything the goal does; see {@link GoalResult}.
     *
     * <p>Interrupting the calling thread cancels the goal: it is stopped in its Prolog (no CPU is spent
     * on it after), {@code run()} returns {@link Outcome#CANCELLED} with the answers found before it, and
     * the thread's interrupt status is set again. A thread interrupted before {@code run()} gets
     * {@code CANCELLED} at once, nothing run. The session stays usable, its program kept; an interrupt
     * is never reported as a crash.
     */
    public GoalResult run() {
        return runner.apply(this);
    }

    /**
     * Runs the goal on a thread of the library's own (daemon threads, made as needed, reused) and returns
     * its future. {@code cancel(true)} on the future stops the goal, as {@link PrologSession#cancel()}
     * does, and the session stays usable; {@code cancel(false)} only keeps a goal that has not started
     * from running. As with every cancelled future, {@code get()} then throws
     * {@link java.util.concurrent.CancellationException}; the session's next call waits until the goal
     * has stopped (milliseconds).
     *
     * <pre>{@code
     * CompletableFuture<GoalResult> f = session.goal("long_search(X)").runAsync();
     * ...
     * f.cancel(true);                                   // the user pressed stop
     * }</pre>
     */
    public java.util.concurrent.CompletableFuture<GoalResult> runAsync() {
        return runAsync(AsyncGoal.THREADS);
    }

    /** {@link #runAsync()} on {@code executor}'s threads. */
    public java.util.concurrent.CompletableFuture<GoalResult> runAsync(java.util.concurrent.Executor executor) {
        Objects.requireNonNull(executor, "executor");
        AsyncGoal f = new AsyncGoal(this);
        executor.execute(f);
        return f;
    }

    /**
     * Opens the goal as a {@link Query}: a search kept open between fetches, with these bounds (the time
     * limit per fetch; {@link #maxAnswers(int)} does not apply, each fetch says how many).
     *
     * @throws PrologToolException          when the goal text does not read, the sandbox refuses it, or
     *                                       the session holds {@link SessionOptions#maxOpenQueries()}
     *                                       queries already (the message says which)
     * @throws SessionClosedException        when the session is closed
     * @throws UnsupportedOperationException when the backend has no queries
     */
    public Query query() {
        if (opener == null) {
            throw new UnsupportedOperationException("this session does not open queries");
        }
        return opener.apply(this);
    }

    public String goal() {
        return goal;
    }

    public int maxAnswers() {
        return maxAnswers;
    }

    public Duration timeLimit() {
        return timeLimit;
    }

    public long maxDepth() {
        return maxDepth;
    }

    /** The inference limit, empty when there is none. */
    public OptionalLong maxInferences() {
        return maxInferences < 0 ? OptionalLong.empty() : OptionalLong.of(maxInferences);
    }

    public boolean allowSideEffects() {
        return allowSideEffects;
    }

    @Override
    public String toString() {
        return "GoalRequest[" + goal + ", maxAnswers=" + maxAnswers + ", timeLimit=" + timeLimit
                + ", maxDepth=" + maxDepth
                + Optional.of(maxInferences).filter(i -> i > 0).map(i -> ", maxInferences=" + i).orElse("")
                + ", allowSideEffects=" + allowSideEffects + "]";
    }
}

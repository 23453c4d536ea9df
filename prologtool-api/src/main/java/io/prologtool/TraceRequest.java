package io.prologtool;

import java.time.Duration;
import java.util.Objects;
import java.util.function.Function;

/**
 * A goal to trace, with its bounds; from {@link PrologSession#trace(String)}:
 *
 * <pre>{@code
 * TraceResult tr = session.trace("ancestor(tom, ann)").maxDepth(10).maxNodes(200).run();
 * System.out.println(tr.tree().orElseThrow().toText());
 * }</pre>
 *
 * Defaults: depth 10, 200 nodes, 30 s.
 */
public final class TraceRequest {

    /** Default depth of the proof tree. */
    public static final int DEFAULT_MAX_DEPTH = 10;
    /** Default number of nodes of the proof tree. */
    public static final int DEFAULT_MAX_NODES = 200;

    private final String goal;
    private final Function<TraceRequest, TraceResult> runner;
    private int maxDepth = DEFAULT_MAX_DEPTH;
    private int maxNodes = DEFAULT_MAX_NODES;
    private Duration timeLimit = GoalRequest.DEFAULT_TIME_LIMIT;

    /** For backend implementations: a trace of {@code goal} that {@code runner} executes. */
    public TraceRequest(String goal, Function<TraceRequest, TraceResult> runner) {
        this.goal = Objects.requireNonNull(goal, "goal");
        this.runner = Objects.requireNonNull(runner, "runner");
    }

    /**
     * Most levels in the tree, the root being level 1 (at least 1; the harness caps it at 200 so that
     * the JSON stays readable by common clients). A predicate on the last level shows its clause but
     * its body runs untraced, and the result is marked truncated.
     */
    public TraceRequest maxDepth(int depth) {
        if (depth < 1) {
            throw new IllegalArgumentException("maxDepth must be at least 1, was " + depth);
        }
        this.maxDepth = depth;
        return this;
    }

    /** Most nodes in the tree, at least 1; a bigger proof is cut (truncated). */
    public TraceRequest maxNodes(int nodes) {
        if (nodes < 1) {
            throw new IllegalArgumentException("maxNodes must be at least 1, was " + nodes);
        }
        this.maxNodes = nodes;
        return this;
    }

    /** Wall-clock limit (at least 1 ms, at most {@link GoalRequest#MAX_TIME_LIMIT}, 365 days). */
    public TraceRequest timeLimit(Duration limit) {
        this.timeLimit = GoalRequest.checkTimeLimit("timeLimit", limit);
        return this;
    }

    /** Runs the trace. Never throws for anything the goal does. */
    public TraceResult run() {
        return runner.apply(this);
    }

    public String goal() {
        return goal;
    }

    public int maxDepth() {
        return maxDepth;
    }

    public int maxNodes() {
        return maxNodes;
    }

    public Duration timeLimit() {
        return timeLimit;
    }
}

package io.prologtool;

import java.util.Objects;

/**
 * A {@link Query}'s fetch ended other than with answers or their end: an error of the goal, its time
 * limit, another bound, or the query or its session closed. {@link #result()} holds the fetch as
 * {@link Query#fetch(int)} would have returned it, with the answers found before the stop.
 */
public class QueryStoppedException extends PrologToolException {

    private final transient GoalResult result;

    /** For the fetch that stopped. */
    public QueryStoppedException(GoalResult result) {
        super(describe(Objects.requireNonNull(result, "result")));
        this.result = result;
    }

    /** The fetch that stopped. */
    public GoalResult result() {
        return result;
    }

    private static String describe(GoalResult r) {
        return "the query stopped: " + r.outcome().wireName()
                + r.error().map(e -> " (" + e.kind() + ": " + e.message() + ")").orElse("");
    }
}

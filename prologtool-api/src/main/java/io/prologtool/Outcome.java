package io.prologtool;

import java.util.Locale;

/** How a goal ended. Every outcome but {@link #ERROR} may come with the answers found before it. */
public enum Outcome {
    /** At least one answer. */
    SUCCESS,
    /** The search ended without an answer. */
    FAILURE,
    /** The wall-clock time limit hit; answers found before it are kept. */
    TIMEOUT,
    /** Some branch went deeper than the depth limit, so answers may be missing. */
    DEPTH_EXCEEDED,
    /** The whole search used more inferences than allowed. */
    INFERENCE_LIMIT,
    /** The goal raised an exception, see {@link GoalResult#error()}. */
    ERROR,
    /**
     * The call was cancelled ({@link PrologSession#cancel()}, {@code cancel(true)} on the future of
     * {@link GoalRequest#runAsync()}, an interrupt of the calling thread, or the session's close) and
     * stopped; answers found before it are kept.
     */
    CANCELLED;

    /** The wire and tool-layer name, e.g. {@code "depth_exceeded"}. */
    public String wireName() {
        return name().toLowerCase(Locale.ROOT);
    }

    /** The outcome named by {@link #wireName()}. */
    public static Outcome fromWireName(String name) {
        return valueOf(name.toUpperCase(Locale.ROOT));
    }
}

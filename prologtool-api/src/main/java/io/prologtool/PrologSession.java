package io.prologtool;

/**
 * A stateful, isolated, bounded Prolog session: a module of its own in which loaded clauses persist
 * across calls. Calls on one session are serialised; different sessions run independently.
 *
 * <pre>{@code
 * try (PrologSession s = backend.open()) {
 *     ConsultResult c = s.consult("parent(tom, bob). parent(bob, ann).");
 *     GoalResult r = s.goal("parent(tom, X)").run();
 *     Term x = r.answers().get(0).get("X");            // bob
 * }
 * }</pre>
 *
 * Everything Prolog can do wrong comes back as data ({@link Diagnostic}, {@link Outcome},
 * {@link PrologError}); exceptions are kept for misuse, such as calling a closed session
 * ({@link SessionClosedException}).
 */
public interface PrologSession extends AutoCloseable {

    /** The session's id (the tool layer's {@code load_id}). */
    String id();

    /** The Prolog module that holds the session's program, {@code m_<id>}. */
    String moduleName();

    /**
     * Loads Prolog text into the session, adding to what is loaded. Non-fatal: clauses that compile
     * stay loaded; every problem is a {@link Diagnostic} with its line in {@code text}. Text that
     * declares its own {@code :- module(...)} still loads into this session's module.
     *
     * @throws SessionClosedException when the session is closed
     */
    ConsultResult consult(String text);

    /**
     * A goal to run in this session; set its bounds on the returned request, then call
     * {@link GoalRequest#run()}. The text must hold exactly one term; its final full stop is optional.
     */
    GoalRequest goal(String goalText);

    /** True until {@link #close()} (or the backend's close). */
    boolean isOpen();

    /** Ends the session and releases what it holds. Idempotent. */
    @Override
    void close();
}

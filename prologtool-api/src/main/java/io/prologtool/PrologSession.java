package io.prologtool;

import java.nio.file.Path;
import java.util.List;

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
     * <p>Unless the session was opened with {@link SessionOptions.Builder#staticCheck(boolean)
     * staticCheck(false)}, the loaded clauses are then checked: each call to a predicate the session
     * cannot call is a warning of kind {@code undefined_predicate} (see {@link SessionOptions#staticCheck()}).
     *
     * @throws SessionClosedException when the session is closed
     */
    ConsultResult consult(String text);

    /**
     * {@link #consult(String)}, with the static check on or off for this call whatever the session's
     * {@link SessionOptions#staticCheck()} says.
     *
     * <pre>{@code
     * ConsultResult c = s.consult("best(X) :- solve(X, 2).", true);
     * // warning undefined_predicate at line 1: Undefined procedure solve/2 called from best/1 (line 1)
     * }</pre>
     *
     * @throws SessionClosedException when the session is closed
     */
    ConsultResult consult(String text, boolean staticCheck);

    /**
     * Loads the Prolog file {@code file} (UTF-8) into the session, as {@link #consult(String)} loads a
     * text. Files it loads by a relative name ({@code :- consult('helper.pl')},
     * {@code :- use_module(other)}, {@code :- include(part)}, {@code :- ensure_loaded(...)},
     * {@code :- load_files(...)}) are found in {@code file}'s own folder, whatever the working folder
     * of the Prolog serving the session. Every diagnostic names the file ({@link Diagnostic#file()});
     * lines are lines of {@code file}.
     *
     * <pre>{@code
     * ConsultResult c = s.consult(Path.of("rules/family.pl"));
     * c.errors().forEach(System.out::println);   // error syntax_error in /.../rules/family.pl at line 3, ...
     * }</pre>
     *
     * @throws PrologToolException    when the file cannot be read or is not valid UTF-8 (the message names
     *                                the file and the encoding)
     * @throws SessionClosedException when the session is closed
     */
    default ConsultResult consult(Path file) {
        Path abs = file.toAbsolutePath().normalize();
        ConsultResult r = consult(SourceFiles.read(abs));
        return r.inFile(abs.toString());
    }

    /**
     * A goal to run in this session; set its bounds on the returned request, then call
     * {@link GoalRequest#run()}. The text must hold exactly one term; its final full stop is optional.
     */
    GoalRequest goal(String goalText);

    /**
     * Opens {@code goalText} as a {@link Query} with the default bounds: answers fetched on demand from
     * a search kept open between calls. {@code goal(goalText).timeLimit(...).query()} sets the bounds.
     *
     * @throws PrologToolException when the goal text does not read, the sandbox refuses it, or the
     *                             session holds {@link SessionOptions#maxOpenQueries()} queries already
     */
    default Query query(String goalText) {
        return goal(goalText).query();
    }

    /**
     * The live definition of {@code name/arity} in this session; on a miss, similar predicates as
     * candidates.
     */
    PredicateInfo inspect(String name, int arity);

    /**
     * Every predicate the session's own code defines, in the order it was defined, each with its type
     * and clause count ({@link PredicateInfo#clauses()} is left empty here: use {@link #inspect}).
     */
    List<PredicateInfo> predicates();

    /**
     * The session's program rebuilt from its live clauses (dynamic declarations, facts and rules),
     * as text that consults back to the same program. Reflects every consult and replacement.
     */
    String source();

    /**
     * Replaces every clause of {@code name/arity} by the clauses in {@code text}, atomically: when the
     * text does not compile or defines anything but {@code name/arity}, nothing changes and the result
     * says why. The patch may declare its target dynamic.
     */
    ReplaceResult replacePredicate(String name, int arity, String text);

    /**
     * {@link #replacePredicate(String, int, String)}, with the static check of the new clauses on or off
     * for this call whatever the session's {@link SessionOptions#staticCheck()} says.
     */
    ReplaceResult replacePredicate(String name, int arity, String text, boolean staticCheck);

    /** Every diagnostic gathered in this session so far, across all calls, oldest first. */
    default List<Diagnostic> messages() {
        return messages(Severity.INFO);
    }

    /** The diagnostics gathered so far at {@code minimum} severity or above. */
    List<Diagnostic> messages(Severity minimum);

    /**
     * Loads {@code testText} (plunit units; may be empty) into the session and runs every unit of the
     * session. Running the same text again replaces its units.
     */
    TestReport runTests(String testText);

    /** Runs the session's plunit units without loading anything new. */
    default TestReport runTests() {
        return runTests("");
    }

    /** A goal to trace with a meta-interpreter; set bounds, then {@link TraceRequest#run()}. */
    TraceRequest trace(String goalText);

    /**
     * Loads the rule base {@code name} from {@link #ruleBases()} into the session: a consult of its
     * text, journalled like any other (diagnostics have lines in the rule base's text). A name that
     * is invalid or not found is a result with one error diagnostic (kind {@code load_error}) whose
     * message starts with the rule base error code ({@code RULEBASE_001 ...}); nothing is loaded.
     *
     * <pre>{@code
     * session.useRuleBase("family");
     * session.goal("grandparent(tom, Who)").run();
     * }</pre>
     */
    default ConsultResult useRuleBase(String name) {
        java.util.Objects.requireNonNull(name, "name");
        RuleBaseResult<String> text = ruleBases().get(name);
        if (text.error().isPresent()) {
            RuleBaseError e = text.error().get();
            return new ConsultResult(List.of(new Diagnostic(Severity.ERROR, "load_error",
                    e.code().wireName() + ": " + e.message(), 0, 0)), "", false);
        }
        return consult(text.value());
    }

    /** The rule bases {@link #useRuleBase(String)} loads from (see {@link SessionOptions#ruleBases()}). */
    default RuleBaseStore ruleBases() {
        return RuleBaseStore.defaultStore();
    }

    /**
     * How many times the Prolog serving this session died (a crash, a kill, a time limit that had to be
     * enforced by stopping it). Always 0 on backends where that cannot happen.
     */
    default int crashCount() {
        return 0;
    }

    /** How many times this session was restored into a fresh Prolog by replaying its journal. */
    default int restoreCount() {
        return 0;
    }

    /**
     * A new, independent session of the same backend, with the same options, holding what this one
     * holds now: its program (clauses, declarations, dynamic facts as they are at this moment), its
     * operators and flags, and its plunit units. Later changes to either are invisible to the other.
     * The copy is loaded from this session's program as {@link #source()} rebuilds it (plus its flags
     * and test sources), so its clauses' line numbers refer to that text.
     *
     * @throws PrologToolException           when the copy could not be opened or loaded
     * @throws SessionClosedException         when this session is closed
     * @throws UnsupportedOperationException  when the backend cannot fork sessions
     */
    default PrologSession fork() {
        throw new UnsupportedOperationException("this session cannot be forked");
    }

    /**
     * A checkpoint of this session now: what {@link #fork()} copies (its program with dynamic facts as they
     * are, its operators and flags, its plunit units) and its options, as a value that a {@link
     * SessionStore} keeps and {@link PrologBackend#restore(SessionCheckpoint)} opens again, in this JVM or
     * another. Waits for the call running on the session, if one is.
     *
     * @throws PrologToolException           when the session's state could not be read
     * @throws SessionClosedException         when this session is closed
     * @throws UnsupportedOperationException  when the backend cannot take checkpoints
     */
    default SessionCheckpoint checkpoint() {
        throw new UnsupportedOperationException("this session cannot take checkpoints");
    }

    /**
     * True until the session is closed: by {@link #close()}, by its backend's close, by the registry
     * that holds it (idle or over its limits), or by itself when its Prolog died and it could not be
     * restored. Calls on a closed session throw {@link SessionClosedException}.
     */
    boolean isOpen();

    /**
     * Stops whatever runs on this session now, from any thread: a goal, a fetch of a {@link Query}, a
     * consult, a trace. The call returns at once; the call it stops ends within milliseconds
     * ({@link GoalResult#outcome()} {@link Outcome#CANCELLED} with the answers found before it, a
     * consult with an error diagnostic whose message starts with {@code cancelled:} and what loaded
     * before it kept, a fetch {@code CANCELLED} with its query closed). The session stays open and
     * usable, its program kept. Code where Prolog blocks signals (a cleanup handler) is reached when it
     * leaves it, or stopped by the call's own bounds.
     *
     * <p>A no-op returning false when nothing runs on the session: a cancel never waits for the next
     * call, and a cancel that comes as a call ends reaches that call or nothing, never the next one.
     * Calls waiting for the session (behind the running one) are not cancelled; interrupt their threads,
     * or cancel their futures ({@link GoalRequest#runAsync()}).
     *
     * @return true when a call was running and was asked to stop
     */
    default boolean cancel() {
        return false;
    }

    /**
     * Ends the session and releases what it holds. Idempotent. A call running on the session is
     * cancelled first ({@link #cancel()}), so close returns once it has stopped, not at its time limit;
     * calls waiting for the session fail with {@link SessionClosedException}.
     */
    @Override
    void close();
}

package io.prologtool.spi;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.prologtool.Answer;
import io.prologtool.ConsultResult;
import io.prologtool.Cost;
import io.prologtool.Diagnostic;
import io.prologtool.GoalRequest;
import io.prologtool.GoalResult;
import io.prologtool.Outcome;
import io.prologtool.PredicateInfo;
import io.prologtool.PredicateType;
import io.prologtool.PrologError;
import io.prologtool.PrologListener;
import io.prologtool.PrologSession;
import io.prologtool.PrologToolException;
import io.prologtool.ReplaceResult;
import io.prologtool.SessionCheckpoint;
import io.prologtool.SessionClosedException;
import io.prologtool.SessionOptions;
import io.prologtool.Severity;
import io.prologtool.TestReport;
import io.prologtool.TraceRequest;
import io.prologtool.TraceResult;
import io.prologtool.json.TermJson;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.Supplier;

/**
 * The {@link PrologSession} of every backend: it turns calls into harness requests, sends them over a
 * {@link HarnessTransport}, and turns replies into result values.
 *
 * <p>Nothing is lost when the Prolog behind the transport dies (a crash, a kill, or the kill that
 * ends a goal which ignored its time limit): the call in flight reports it once, and the next call
 * gets a fresh transport from the backend, into which the session replays its journal (every text it
 * consulted, in order). Clauses added or removed by goals ({@code assertz/1}, {@code retract/1}) are
 * not journalled and do not survive a restart.
 */
public final class HarnessSession implements PrologSession {

    /** Extra time a call waits beyond its own Prolog-side limit before the transport is stopped. */
    public static final Duration DEFAULT_GRACE = Duration.ofSeconds(2);

    /**
     * {@code grace} as a backend's {@code timeoutGrace} setting takes it.
     *
     * @throws IllegalArgumentException when it is negative or more than {@link GoalRequest#MAX_TIME_LIMIT}
     */
    public static Duration checkGrace(Duration grace) {
        Objects.requireNonNull(grace, "grace");
        if (grace.isNegative()) {
            throw new IllegalArgumentException("grace must not be negative: " + grace);
        }
        if (grace.compareTo(GoalRequest.MAX_TIME_LIMIT) > 0) {
            throw new IllegalArgumentException("grace must be at most " + GoalRequest.MAX_TIME_LIMIT.toDays()
                    + " days (GoalRequest.MAX_TIME_LIMIT), was " + grace);
        }
        return grace;
    }

    private static final Duration OPEN_TIMEOUT = Duration.ofSeconds(60);
    /** Bound for requests that run no user code (inspect, source, messages). */
    private static final Duration ADMIN_TIMEOUT = Duration.ofSeconds(60);

    private final String id;
    private final String moduleName;
    private final SessionOptions options;
    private final Supplier<HarnessTransport> transports;
    private final Duration grace;
    private final Runnable onClose;
    private final ReentrantLock lock = new ReentrantLock(true);
    /** Requests that changed the program, replayed in order into a fresh Prolog. */
    private final List<ObjectNode> journal = new ArrayList<>();

    /** What restores dropped from the journal, and why: reported by {@link #messages} from then on. */
    private final List<Diagnostic> restoreNotes = new ArrayList<>();

    /** Opens a sibling session of the same backend, for {@link #fork()}; null: the backend cannot fork. */
    private volatile java.util.function.Function<SessionOptions, PrologSession> siblings;

    /** The queries open now (harness cursors), closed with the session. */
    private final java.util.Set<HarnessQuery> queries = java.util.concurrent.ConcurrentHashMap.newKeySet();
    private final java.util.concurrent.atomic.AtomicLong nextCursor = new java.util.concurrent.atomic.AtomicLong();

    private HarnessTransport transport;
    private volatile boolean open = true;
    /** Set by {@link #close()} before it cancels the running call: no call starts after it. */
    private volatile boolean closing;
    /** Guards {@link #calling} against {@link #cancel()}: a cancel reaches only the call that runs. */
    private final Object cancelGuard = new Object();
    /** True while a call holds the lock; guarded by {@link #cancelGuard}. */
    private boolean calling;
    /** Why the session closed itself (it could not be restored); null when it did not. */
    private volatile String closedReason;
    private volatile int crashes;
    /** Calls that may have changed the session's program, flags, operators or units: {@link #changes()}. */
    private final java.util.concurrent.atomic.AtomicLong changes = new java.util.concurrent.atomic.AtomicLong();
    private volatile int restores;
    /** The backend's name, for listener events and logs. */
    private final String backendName;
    /** The backend's listener; {@link PrologListener#NONE} when none is registered. */
    private final PrologListener listener;
    /** False when there is no listener: nothing is built for one. */
    private final boolean listening;

    private HarnessSession(String id, SessionOptions options, Supplier<HarnessTransport> transports,
                           Duration grace, Runnable onClose, String backendName, PrologListener listener) {
        this.backendName = backendName;
        this.listener = listener;
        this.listening = listener != PrologListener.NONE;
        this.id = id;
        this.moduleName = "m_" + id;
        this.options = options;
        this.transports = transports;
        this.grace = grace;
        this.onClose = onClose;
    }

    /**
     * Opens session {@code id} on a transport from {@code transports} (called again whenever the
     * session must be restored).
     *
     * @param id         letters, digits and underscores only
     * @param grace      how long a call waits beyond its Prolog-side limit
     * @param onClose    run once when the session closes (the backend's bookkeeping)
     */
    public static HarnessSession open(String id, SessionOptions options, Supplier<HarnessTransport> transports,
                                      Duration grace, Runnable onClose) {
        return open(id, options, transports, grace, onClose, "unnamed", PrologListener.NONE);
    }

    /**
     * {@link #open(String, SessionOptions, Supplier, Duration, Runnable)} for backend {@code backendName},
     * whose {@code listener} hears what the session does ({@link PrologListener#NONE}: nothing is built
     * for one).
     */
    public static HarnessSession open(String id, SessionOptions options, Supplier<HarnessTransport> transports,
                                      Duration grace, Runnable onClose, String backendName,
                                      PrologListener listener) {
        if (!id.matches("[A-Za-z0-9_]{1,64}")) {
            throw new IllegalArgumentException("session id must be 1-64 letters, digits or underscores: " + id);
        }
        Objects.requireNonNull(backendName, "backendName");
        Objects.requireNonNull(listener, "listener");
        HarnessSession s = new HarnessSession(id, options, transports, grace, onClose, backendName, listener);
        s.transport = s.startTransport(true);
        if (Logs.SESSION.isLoggable(System.Logger.Level.DEBUG)) {
            Logs.SESSION.log(System.Logger.Level.DEBUG, "session " + id + " opened on the " + backendName
                    + " backend" + (options.sandboxed() ? ", sandboxed" : ""));
        }
        if (s.listening) {
            s.notifyListener(() -> s.listener.sessionOpened(backendName, id));
        }
        return s;
    }

    @Override
    public String id() {
        return id;
    }

    @Override
    public String moduleName() {
        return moduleName;
    }

    /** {@code PrologSession[3f2a..., open]}, or {@code closed} with the reason when it closed itself. */
    @Override
    public String toString() {
        return "PrologSession[" + id + ", " + (open ? "open" : closedReason == null ? "closed" : "closed: " + closedReason)
                + "]";
    }

    /** The options this session was opened with. */
    public SessionOptions options() {
        return options;
    }

    @Override
    public boolean isOpen() {
        return open;
    }

    @Override
    public ConsultResult consult(String text) {
        return observedConsult(text, null, null);
    }

    @Override
    public ConsultResult consult(String text, boolean staticCheck) {
        return observedConsult(text, staticCheck, null);
    }

    /** {@code directory}: the folder relative loads in the text resolve against; null, none. */
    private ConsultResult observedConsult(String text, Boolean staticCheck, String directory) {
        long start = System.nanoTime();
        Object context = listening ? started("consult") : null;
        ConsultResult r;
        try {
            r = consultChecked(text, staticCheck, directory);
        } catch (RuntimeException e) {
            failed("consult", start, context, e);
            throw e;
        }
        r = r.withCost(r.cost().withWallTime(since(start)));
        if (listening || Logs.SESSION.isLoggable(System.Logger.Level.TRACE)) {
            Optional<Diagnostic> refused = r.messages().stream()
                    .filter(d -> "sandbox_violation".equals(d.kind())).findFirst();
            Optional<String> kind = r.errors().stream().map(Diagnostic::kind).findFirst();
            finished("consult", r.hasErrors() ? "error" : "ok", kind, r.cost(), context,
                    refused.map(Diagnostic::message).orElse(null));
        }
        return r;
    }

    @Override
    public ConsultResult consult(java.nio.file.Path file) {
        java.nio.file.Path abs = file.toAbsolutePath().normalize();
        String text = io.prologtool.SourceFiles.read(abs);
        java.nio.file.Path dir = abs.getParent();
        return observedConsult(text, null, dir == null ? null : dir.toString()).inFile(abs.toString());
    }

    /** {@code staticCheck} null: the harness follows the session's option. */
    private ConsultResult consultChecked(String text, Boolean staticCheck, String directory) {
        Objects.requireNonNull(text, "text");
        Optional<PrologError> tooLong = tooLong("text", text);
        if (tooLong.isPresent()) {
            ensureOpen();
            return new ConsultResult(List.of(new Diagnostic(Severity.ERROR, "resource_error",
                    tooLong.get().message(), 0, 0)), "", false);
        }
        try {
            return consultLocked(text, staticCheck, directory);
        } catch (HarnessCancelledException e) {
            return new ConsultResult(List.of(new Diagnostic(Severity.ERROR, "load_error",
                    "cancelled: the consult was cancelled before it started; nothing was loaded", 0, 0)), "", false);
        }
    }

    private ConsultResult consultLocked(String text, Boolean staticCheck, String directory) {
        return locked(() -> {
            ObjectNode req = consultRequest(text, staticCheck);
            if (directory != null) {
                req.put("directory", directory);
            }
            HarnessTransport t;
            try {
                t = liveTransport();
            } catch (JournalDroppedException e) {
                return new ConsultResult(List.of(new Diagnostic(Severity.ERROR, "session_crashed", e.getMessage(), 0, 0)),
                        "", false);
            }
            JsonNode reply;
            try {
                reply = t.call(req, options.consultTimeLimit().plus(grace));
            } catch (HarnessTimeoutException | HarnessCrashedException e) {
                // It may have half-loaded, and replaying it is what the user asked for: the session is
                // restored now, with it. If it stops the fresh Prolog as well, it is dropped, and this
                // reply says so; either way the next call finds the session ready.
                journaled(req);
                List<Diagnostic> out = new ArrayList<>();
                out.add(new Diagnostic(Severity.ERROR, "load_error",
                        "session_crashed: the Prolog serving this session stopped while loading ("
                                + e.getMessage() + ")", 0, 0));
                if (transport.isAlive()) { // the backend kept its Prolog: nothing to restore
                    return new ConsultResult(out, "", false);
                }
                try {
                    liveTransport();
                    out.add(new Diagnostic(Severity.INFO, "other", "The session was restored in a fresh Prolog, "
                            + "with this text loaded again.", 0, 0));
                } catch (JournalDroppedException dropped) {
                    out.add(new Diagnostic(Severity.ERROR, "session_crashed", dropped.getMessage()
                            .replace(" Nothing of this call was run; call again.", ""), 0, 0));
                } catch (HarnessCrashedException | HarnessTimeoutException again) {
                    out.add(new Diagnostic(Severity.ERROR, "session_crashed", "The session could not be restored "
                            + "yet (" + again.getMessage() + "); it is tried again on the next call.", 0, 0));
                }
                return new ConsultResult(out, "", false);
            }
            if (!reply.path("ok").asBoolean(false) && "reply_too_large".equals(reply.path("error").path("kind").asText())) {
                // loaded, but its diagnostics and output do not fit in a reply: the text stays in the session
                journaled(req);
                PrologError e = error(reply.path("error"));
                return new ConsultResult(List.of(new Diagnostic(Severity.ERROR, e.kind(), e.message(), 0, 0)), "", false);
            }
            if (!reply.path("ok").asBoolean(false) && "cancelled".equals(reply.path("error").path("kind").asText())) {
                // cancelled before it started loading: nothing was loaded
                return new ConsultResult(List.of(new Diagnostic(Severity.ERROR, "load_error",
                        "cancelled: the consult was cancelled before it started; nothing was loaded", 0, 0)), "", false);
            }
            requireOk(reply, "consult");
            journaled(req);
            return new ConsultResult(diagnostics(reply.path("messages")), reply.path("output").asText(""),
                    reply.path("output_truncated").asBoolean(false), cost(reply));
        });
    }

    @Override
    public PredicateInfo inspect(String name, int arity) {
        checkIndicator(name, arity);
        return locked(() -> {
            ObjectNode req = request("inspect");
            req.put("name", name);
            req.put("arity", arity);
            JsonNode r = call(req, ADMIN_TIMEOUT);
            requireOk(r, "inspect");
            return new PredicateInfo(r.path("found").asBoolean(), name, arity,
                    PredicateType.fromWireName(r.path("type").asText("undefined")),
                    r.path("exported").asBoolean(), r.path("clause_count").asInt(),
                    texts(r.path("clauses")), texts(r.path("candidates")));
        });
    }

    @Override
    public List<PredicateInfo> predicates() {
        return locked(() -> {
            JsonNode r = call(request("predicates"), ADMIN_TIMEOUT);
            requireOk(r, "predicates");
            List<PredicateInfo> out = new ArrayList<>();
            for (JsonNode p : r.path("predicates")) {
                out.add(new PredicateInfo(true, p.path("name").asText(), p.path("arity").asInt(),
                        PredicateType.fromWireName(p.path("type").asText()), p.path("exported").asBoolean(),
                        p.path("clause_count").asInt(), List.of(), List.of()));
            }
            return out;
        });
    }

    @Override
    public String source() {
        return locked(() -> {
            JsonNode r = call(request("source"), ADMIN_TIMEOUT);
            requireOk(r, "source");
            return r.path("source").asText();
        });
    }

    @Override
    public ReplaceResult replacePredicate(String name, int arity, String text) {
        return replaceChecked(name, arity, text, null);
    }

    @Override
    public ReplaceResult replacePredicate(String name, int arity, String text, boolean staticCheck) {
        return replaceChecked(name, arity, text, staticCheck);
    }

    /** {@code staticCheck} null: the harness follows the session's option. */
    private ReplaceResult replaceChecked(String name, int arity, String text, Boolean staticCheck) {
        checkIndicator(name, arity);
        Objects.requireNonNull(text, "text");
        Optional<PrologError> tooLong = tooLong("patch", text);
        if (tooLong.isPresent()) {
            ensureOpen();
            return new ReplaceResult(false, name + "/" + arity, List.of(), tooLong);
        }
        return locked(() -> {
            ObjectNode req = request("replace");
            req.put("name", name);
            req.put("arity", arity);
            req.put("text", text);
            req.put("time_limit", seconds(options.consultTimeLimit()));
            if (staticCheck != null) {
                req.put("check", staticCheck.booleanValue());
            }
            JsonNode r;
            try {
                r = call(req, options.consultTimeLimit().plus(grace));
            } catch (JournalDroppedException e) {
                return new ReplaceResult(false, name + "/" + arity, List.of(),
                        Optional.of(PrologError.of("session_crashed", e.getMessage())));
            }
            requireOk(r, "replace");
            boolean replaced = r.path("replaced").asBoolean(false);
            if (replaced) {
                journaled(req);
            }
            return new ReplaceResult(replaced, name + "/" + arity, diagnostics(r.path("messages")),
                    replaced ? Optional.empty() : Optional.of(error(r.path("error"))));
        });
    }

    @Override
    public List<Diagnostic> messages(Severity minimum) {
        Objects.requireNonNull(minimum, "minimum");
        return locked(() -> {
            ObjectNode req = request("messages");
            req.put("min_severity", minimum.wireName());
            JsonNode r;
            try {
                r = call(req, ADMIN_TIMEOUT);
            } catch (JournalDroppedException e) {
                r = call(req, ADMIN_TIMEOUT); // restored without the entry: the notes say so below
            }
            requireOk(r, "messages");
            List<Diagnostic> out = new ArrayList<>(restoreNotes);
            out.addAll(diagnostics(r.path("messages")));
            return out;
        });
    }

    @Override
    public TestReport runTests(String testText) {
        long start = System.nanoTime();
        Object context = listening ? started("run_tests") : null;
        TestReport r;
        try {
            r = runTestsUnobserved(testText);
        } catch (RuntimeException e) {
            failed("run_tests", start, context, e);
            throw e;
        }
        r = r.withCost(r.cost().withWallTime(since(start)));
        if (listening || Logs.SESSION.isLoggable(System.Logger.Level.TRACE)) {
            finished("run_tests", r.error().isPresent() ? "error" : r.failed() > 0 ? "failed" : "passed",
                    r.error().map(PrologError::kind), r.cost(), context, null);
        }
        return r;
    }

    private TestReport runTestsUnobserved(String testText) {
        Objects.requireNonNull(testText, "testText");
        Optional<PrologError> tooLong = tooLong("test source", testText);
        if (tooLong.isPresent()) {
            ensureOpen();
            return new TestReport(0, 0, 0, 0, List.of(), List.of(), tooLong);
        }
        return locked(() -> {
            ObjectNode req = request("run_tests");
            req.put("text", testText);
            req.put("time_limit", seconds(options.consultTimeLimit()));
            options.testTimeLimit().ifPresent(t -> req.put("test_time_limit", seconds(t)));
            req.put("max_output", options.maxOutputChars());
            JsonNode r;
            try {
                r = call(req, options.consultTimeLimit().plus(grace));
            } catch (JournalDroppedException e) {
                return new TestReport(0, 0, 0, 0, List.of(), List.of(),
                        Optional.of(PrologError.of("session_crashed", e.getMessage())));
            } catch (HarnessTimeoutException | HarnessCrashedException e) {
                return new TestReport(0, 0, 0, 0, List.of(), List.of(),
                        Optional.of(PrologError.of("session_crashed", "The Prolog serving this session stopped "
                                + "while running tests (" + e.getMessage() + "); it is restored on the next call.")));
            }
            if (!testText.isBlank() && r.path("ok").asBoolean(false)) {
                ObjectNode replay = req.deepCopy();
                replay.put("run", false); // replay loads the units without running them
                journaled(replay);
            }
            return TestReplies.testReport(r).withCost(cost(r));
        });
    }

    @Override
    public TraceRequest trace(String goalText) {
        Objects.requireNonNull(goalText, "goalText");
        return new TraceRequest(goalText, this::runTrace);
    }

    private TraceResult runTrace(TraceRequest t) {
        return locked(() -> {
            ObjectNode req = request("trace");
            req.put("goal", t.goal());
            req.put("max_depth", t.maxDepth());
            req.put("max_nodes", t.maxNodes());
            req.put("time_limit", seconds(t.timeLimit()));
            req.put("stack_limit", options.stackLimitBytes());
            try {
                return TraceReplies.traceResult(call(req, t.timeLimit().plus(grace)));
            } catch (HarnessCancelledException e) {
                return new TraceResult(Outcome.CANCELLED, Optional.empty(), 0, false, Optional.empty());
            } catch (HarnessTimeoutException e) {
                return new TraceResult(Outcome.TIMEOUT, Optional.empty(), 0, false, Optional.empty());
            } catch (JournalDroppedException e) {
                return new TraceResult(Outcome.ERROR, Optional.empty(), 0, false,
                        Optional.of(PrologError.of("session_crashed", e.getMessage())));
            } catch (HarnessCrashedException e) {
                return new TraceResult(Outcome.ERROR, Optional.empty(), 0, false, Optional.of(PrologError.of(
                        "session_crashed", "The Prolog serving this session died during the trace ("
                                + e.getMessage() + "); it is restored on the next call.")));
            }
        });
    }

    /**
     * How {@link #fork()} opens the copy: the backend's own {@code open}, so that the copy is one of its
     * sessions like any other. Backends call it right after {@link #open}.
     */
    public void forkWith(java.util.function.Function<SessionOptions, PrologSession> opener) {
        this.siblings = Objects.requireNonNull(opener, "opener");
    }

    @Override
    public PrologSession fork() {
        java.util.function.Function<SessionOptions, PrologSession> opener = siblings;
        if (opener == null) {
            throw new UnsupportedOperationException("this session's backend does not fork sessions");
        }
        SessionCheckpoint state = checkpoint();
        PrologSession copy = opener.apply(options);
        try {
            if (!(copy instanceof HarnessSession h)) {
                throw new UnsupportedOperationException("the fork of session " + id + " cannot load its program");
            }
            h.load(state);
            return copy;
        } catch (RuntimeException e) {
            copy.close();
            throw e;
        }
    }

    @Override
    public SessionCheckpoint checkpoint() {
        return locked(this::takeCheckpoint);
    }

    /**
     * A checkpoint, as {@link #checkpoint()}, from which the session's journal then starts: a Prolog that
     * dies later is restored from this checkpoint, dynamic facts included, and the calls journaled after
     * it, rather than from the consults since the session opened. A registry on a
     * {@link io.prologtool.SessionStore} takes its checkpoints this way.
     */
    public SessionCheckpoint checkpointAndRestartJournal() {
        return locked(() -> {
            SessionCheckpoint c = takeCheckpoint();
            journal.clear();
            journal.add(consultRequest(c.program(), Boolean.FALSE));
            for (String tests : c.tests()) {
                journal.add(testLoadRequest(tests));
            }
            return c;
        });
    }

    /** Called holding the lock. */
    private SessionCheckpoint takeCheckpoint() {
        JsonNode state = call(request("fork_state"), ADMIN_TIMEOUT);
        requireOk(state, "fork_state");
        List<String> tests = new ArrayList<>();
        for (JsonNode t : state.path("tests")) {
            tests.add(t.asText());
        }
        return new SessionCheckpoint(id, options, state.path("text").asText(""), tests, Instant.now());
    }

    /**
     * Loads a checkpoint's program and plunit units into this session, which has just opened: what
     * {@link io.prologtool.PrologBackend#restore} and {@link #fork()} do after opening it.
     *
     * The program is loaded whatever its length: it was rebuilt from a session's own state, which the
     * session's budgets bounded, and its goals may have grown it past {@link SessionOptions#maxSourceChars()},
     * which bounds the texts a caller sends.
     *
     * @throws PrologToolException when the program or a unit does not load
     */
    public void load(SessionCheckpoint checkpoint) {
        ConsultResult c = consultLocked(checkpoint.program(), null, null);
        if (c.hasErrors()) {
            throw new PrologToolException("the program of session " + checkpoint.sessionId()
                    + " did not load into session " + id + ": " + c.errors());
        }
        for (String tests : checkpoint.tests()) {
            loadTests(tests);
        }
    }

    /** Journals a request that changed the session's program, and counts the change. */
    private void journaled(ObjectNode request) {
        journal.add(request);
        changes.incrementAndGet();
    }

    /**
     * How many calls so far may have changed what a {@link #checkpoint()} holds: consults, replacements,
     * loaded plunit units, goals that added or removed a clause of the session or set one of its flags or
     * operators (the harness tells), and fetches of a query (counted, whatever they did). A registry on a
     * {@link io.prologtool.SessionStore} takes a checkpoint when it moves. Restoring the session after its
     * Prolog died does not count: the checkpoint kept holds more than the journal replayed.
     */
    public long changes() {
        return changes.get();
    }

    /** Loads plunit units without running them (a fork's copy of another session's units). */
    private void loadTests(String testText) {
        locked(() -> {
            ObjectNode req = testLoadRequest(testText);
            JsonNode r = call(req, options.consultTimeLimit().plus(grace));
            requireOk(r, "run_tests");
            journaled(req);
            return null;
        });
    }

    @Override
    public GoalRequest goal(String goalText) {
        Objects.requireNonNull(goalText, "goalText");
        return new GoalRequest(goalText, g -> observedGoal("goal", () -> runGoal(g)), this::openQuery);
    }

    // ---------------------------------------------------------------- queries (harness_cursor.pl)

    private io.prologtool.Query openQuery(GoalRequest g) {
        Optional<PrologError> tooLong = tooLong("goal text", g.goal());
        if (tooLong.isPresent()) {
            ensureOpen();
            return HarnessQuery.refused(this, tooLong.get());
        }
        return locked(() -> {
            if (queries.size() >= options.maxOpenQueries()) {
                throw new PrologToolException("resource_error: session " + id + " holds " + queries.size()
                        + " open queries, the most SessionOptions.maxOpenQueries allows (" + options.maxOpenQueries()
                        + "); close one first");
            }
            String cursor = "q" + nextCursor.incrementAndGet();
            ObjectNode req = request("query_open");
            req.put("cursor", cursor);
            req.put("goal", g.goal());
            req.put("max_depth", g.maxDepth());
            g.maxInferences().ifPresent(n -> req.put("max_inferences", n));
            req.put("allow_side_effects", g.allowSideEffects());
            req.put("stack_limit", options.stackLimitBytes());
            JsonNode reply;
            try {
                reply = liveTransport().call(req, ADMIN_TIMEOUT);
            } catch (JournalDroppedException e) {
                return HarnessQuery.refused(this, PrologError.of("session_crashed", e.getMessage()));
            } catch (HarnessCrashedException | HarnessTimeoutException e) {
                return HarnessQuery.refused(this, PrologError.of("session_crashed",
                        "The Prolog serving this session died while opening the query (" + e.getMessage() + ")."
                                + errorTail()));
            }
            if (!reply.path("ok").asBoolean(false)) {
                return HarnessQuery.refused(this, error(reply.path("error")));
            }
            List<String> variables = texts(reply.path("variables"));
            HarnessQuery q = HarnessQuery.opened(this, cursor, variables, g, crashes);
            queries.add(q);
            return q;
        });
    }

    GoalResult fetchQuery(HarnessQuery q, int n) {
        return observedGoal("fetch", () -> {
            try {
                return fetchQueryLocked(q, n);
            } catch (HarnessCancelledException e) {
                return cancelled();
            }
        });
    }

    private GoalResult fetchQueryLocked(HarnessQuery q, int n) {
        return locked(() -> {
            if (crashes != q.epoch() || !transport.isAlive()) {
                return GoalResult.failedWith(PrologError.of("session_crashed", "The Prolog serving this session "
                        + "died after the query opened; its search is gone (a query is never replayed). Open it again."));
            }
            ObjectNode req = request("query_next");
            req.put("cursor", q.cursor());
            req.put("max_answers", n);
            req.put("time_limit", seconds(q.timeLimit()));
            req.put("max_output", options.maxOutputChars());
            JsonNode reply;
            try {
                // the harness gives up on the cursor's thread 5 s past the limit; wait a little longer
                reply = transport.call(req, q.timeLimit().plus(grace).plusSeconds(5));
            } catch (HarnessTimeoutException e) {
                q.ended(PrologError.of("session_crashed", "the query's Prolog was stopped: its fetch did not end "
                        + "within the time limit"));
                return new GoalResult(io.prologtool.Outcome.TIMEOUT, List.of(), "", false, false, Optional.empty());
            } catch (HarnessCrashedException e) {
                return GoalResult.failedWith(PrologError.of("session_crashed", "The Prolog serving this session died "
                        + "during the fetch (" + e.getMessage() + "); the session is restored with its program on the "
                        + "next call, the query is gone." + errorTail()));
            }
            changes.incrementAndGet(); // a fetch may have changed the session: counted whatever it did
            return goalResult(reply);   // an unknown cursor: kind cursor_closed
        });
    }

    void forgetQuery(HarnessQuery q) {
        queries.remove(q);
    }

    void closeQuery(HarnessQuery q) {
        if (!open || q.epoch() != crashes) {
            return;
        }
        try {
            locked(() -> {
                if (transport.isAlive() && crashes == q.epoch()) {
                    ObjectNode req = request("query_close");
                    req.put("cursor", q.cursor());
                    try {
                        transport.call(req, ADMIN_TIMEOUT);
                    } catch (PrologToolException ignored) {
                        // the Prolog is gone or stopped: so is the cursor
                    }
                }
                return null;
            });
        } catch (PrologToolException ignored) {
            // closed meanwhile (its cursors went with it), or this call cancelled: the cursor closes with the session
        }
    }

    private GoalResult runGoal(GoalRequest g) {
        Optional<PrologError> tooLong = tooLong("goal text", g.goal());
        if (tooLong.isPresent()) {
            ensureOpen();
            return GoalResult.failedWith(tooLong.get());
        }
        try {
            return runGoalLocked(g);
        } catch (HarnessCancelledException e) {
            return cancelled();
        }
    }

    /** The result of a call cancelled before anything of it ran. */
    private static GoalResult cancelled() {
        return new GoalResult(Outcome.CANCELLED, List.of(), "", false, false, Optional.empty());
    }

    private GoalResult runGoalLocked(GoalRequest g) {
        return locked(() -> {
            ObjectNode req = request("goal");
            req.put("goal", g.goal());
            putGoalBounds(req, g);
            JsonNode reply;
            try {
                reply = liveTransport().call(req, g.timeLimit().plus(grace));
            } catch (HarnessTimeoutException e) {
                return new GoalResult(Outcome.TIMEOUT, List.of(), "", false, false, Optional.empty());
            } catch (JournalDroppedException e) {
                return GoalResult.failedWith(PrologError.of("session_crashed", e.getMessage()));
            } catch (HarnessCrashedException e) {
                return GoalResult.failedWith(PrologError.of("session_crashed",
                        "The Prolog serving this session died during the goal (" + e.getMessage()
                                + "); the session is restored with its program on the next call."
                                + errorTail()));
            }
            if (reply.path("changed").asBoolean(false)) {
                changes.incrementAndGet();
            }
            return goalResult(reply);
        });
    }

    /**
     * Sends one {@code execute} request (the stateless run behind {@link io.prologtool.PrologExecutor}):
     * the harness runs it in a temporary module of this session's Prolog and destroys that module
     * afterwards, so the session's own program is neither seen nor changed. A Prolog that died since
     * the last call is restored first. The request's {@code op} and {@code session} are set here.
     *
     * @param timeout how long to wait for the reply; past it the Prolog is stopped
     * @return the reply: {@code ok: true}, or {@code ok: false} with an error of kind {@code reply_too_large}
     * @throws HarnessTimeoutException when no reply came in time (the Prolog was stopped)
     * @throws HarnessCrashedException when the Prolog died during the call
     * @throws SessionClosedException  when this session is closed
     */
    public JsonNode execute(ObjectNode request, Duration timeout) {
        Objects.requireNonNull(request, "request");
        Objects.requireNonNull(timeout, "timeout");
        long start = System.nanoTime();
        Object context = listening ? started("execute") : null;
        JsonNode reply;
        try {
            reply = executeUnobserved(request, timeout);
        } catch (HarnessTimeoutException e) {
            if (listening || Logs.SESSION.isLoggable(System.Logger.Level.TRACE)) {
                finished("execute", "timeout", Optional.empty(), Cost.NONE.withWallTime(since(start)), context, null);
            }
            throw e;
        } catch (RuntimeException e) {
            failed("execute", start, context, e);
            throw e;
        }
        if (listening || Logs.SESSION.isLoggable(System.Logger.Level.TRACE)) {
            String outcome = reply.path("ok").asBoolean(false) ? reply.path("outcome").asText("error") : "error";
            JsonNode err = reply.path("error");
            finished("execute", outcome, err.isObject() ? Optional.of(err.path("kind").asText("error")) : Optional.empty(),
                    cost(reply).withWallTime(since(start)), context, null);
        }
        return reply;
    }

    private JsonNode executeUnobserved(ObjectNode request, Duration timeout) {
        return locked(() -> {
            ObjectNode req = request.deepCopy();
            req.put("op", "execute");
            req.put("session", id);
            JsonNode reply = call(req, timeout);
            if (!"reply_too_large".equals(reply.path("error").path("kind").asText())) {
                requireOk(reply, "execute");
            }
            return reply;
        });
    }

    /**
     * Reads {@code text} as Prolog clauses without running anything (no directive runs; only
     * {@code op/3} declarations and the operators of loaded libraries named by {@code use_module}
     * take effect while reading) and returns its syntax errors and singleton warnings, with lines
     * in {@code text}. The session's program is not touched.
     */
    public List<Diagnostic> checkSyntax(String text) {
        Objects.requireNonNull(text, "text");
        return locked(() -> {
            ObjectNode req = request("parse");
            req.put("text", text);
            JsonNode reply = call(req, ADMIN_TIMEOUT);
            requireOk(reply, "parse");
            return diagnostics(reply.path("messages"));
        });
    }

    @Override
    public io.prologtool.RuleBaseStore ruleBases() {
        return options.ruleBases();
    }

    @Override
    public void close() {
        close(PrologListener.CloseReason.CLOSED);
    }

    /**
     * {@link #close()}, saying why to the backend's {@link PrologListener} (a registry evicting or
     * expiring the session, the backend closing).
     */
    public void close(PrologListener.CloseReason reason) {
        Objects.requireNonNull(reason, "reason");
        if (!open) {
            return;
        }
        boolean closedHere = false;
        closing = true;
        cancel(); // a running call stops now rather than at its limit
        lock.lock(); // close waits for the running call to have stopped
        try {
            if (!open) {
                return;
            }
            open = false;
            closedHere = true;
            for (HarnessQuery q : List.copyOf(queries)) {
                q.ended(PrologError.of("cursor_closed", "the query's session is closed"));
            }
            if (transport != null && transport.isAlive() && !transport.closingEndsProlog()) {
                try {
                    ObjectNode req = TermJson.mapper().createObjectNode();
                    req.put("op", "close");
                    req.put("session", id);
                    transport.post(req, Duration.ofSeconds(10)); // its reply changes nothing
                } catch (PrologToolException ignored) {
                    // the transport is closed below either way
                }
            }
            if (transport != null) {
                transport.close();
            }
            journal.clear();
            restoreNotes.clear();
        } finally {
            lock.unlock();
            onClose.run();
            if (closedHere) {
                closed(reason);
            }
        }
    }

    /** Tells the log and the listener that this session closed, once. */
    private void closed(PrologListener.CloseReason reason) {
        if (Logs.SESSION.isLoggable(System.Logger.Level.DEBUG)) {
            Logs.SESSION.log(System.Logger.Level.DEBUG, "session " + id + " closed (" + reason.wireName() + ")");
        }
        if (listening) {
            notifyListener(() -> listener.sessionClosed(backendName, id, reason));
        }
    }

    // ---------------------------------------------------------------- transport and restore

    /**
     * A transport on which this session is open. With {@code ahead} (a new session), the open request
     * is sent ahead ({@link HarnessTransport#callAhead}): the session's first request finds out whether
     * it succeeded, and a child process works on it while the caller prepares that request. A restore
     * waits for it, so that a Prolog that cannot open the session fails the restore itself.
     */
    private HarnessTransport startTransport(boolean ahead) {
        HarnessTransport t = transports.get();
        try {
            ObjectNode req = request("open");
            ObjectNode opts = req.putObject("options");
            opts.put("sandboxed", options.sandboxed())
                    .put("allow_threads", options.allowThreads())
                    .put("program_space", options.clauseSpaceBytes())
                    .put("max_atom_chars", options.maxAtomChars())
                    .put("table_space", options.tableSpaceBytes())
                    .put("max_open_streams", options.maxOpenStreams())
                    .put("stack_limit", options.stackLimitBytes())
                    .put("static_check", options.staticCheck());
            if (options.declareDiscontiguous()) {
                opts.put("declare_discontiguous", true);
            }
            if (ahead) {
                t.callAhead(req, OPEN_TIMEOUT, reply -> requireOk(reply, "open"));
            } else {
                requireOk(t.call(req, OPEN_TIMEOUT), "open");
            }
            return t;
        } catch (RuntimeException e) {
            t.close();
            throw e;
        }
    }

    @Override
    public int crashCount() {
        return crashes;
    }

    @Override
    public int restoreCount() {
        return restores;
    }

    /**
     * The transport, restored with the journal if its Prolog died since the last call.
     *
     * <p>An entry whose replay stops the fresh Prolog (a directive that halts it, loops past the time
     * limit, or kills it) would stop every restore after it: it is dropped, the Prolog is started
     * again, and the rest is replayed. The call that restored reports what was dropped and why
     * ({@link JournalDroppedException}, nothing of the call is run), and {@link #messages} keeps
     * reporting it. A session that still cannot be restored (a fresh Prolog fails to start or open) is
     * closed, with the reason in every later call's {@link SessionClosedException}.
     *
     * @throws JournalDroppedException when the session came back without some of its journal
     * @throws SessionClosedException  when it could not be restored and was closed
     */
    private HarnessTransport liveTransport() {
        if (transport.isAlive()) {
            return transport;
        }
        crashes++;
        transport.close();
        if (listening) {
            notifyListener(() -> listener.sessionCrashed(backendName, id));
        }
        List<ObjectNode> kept = new ArrayList<>(journal);
        List<String> dropped = new ArrayList<>();
        HarnessTransport fresh = null;
        restore:
        for (int attempt = 0; attempt <= journal.size(); attempt++) {
            try {
                fresh = startTransport(false);
            } catch (RuntimeException e) {
                throw giveUp("a fresh Prolog could not be started to restore it (" + e.getMessage() + ")");
            }
            for (int i = 0; i < kept.size(); i++) {
                ObjectNode req = kept.get(i);
                String why;
                try {
                    JsonNode r = fresh.call(req.deepCopy(), options.consultTimeLimit().plus(grace));
                    if (r.path("ok").asBoolean(false)) {
                        continue;
                    }
                    why = "the harness refused it: " + error(r.path("error"));
                } catch (HarnessTimeoutException e) {
                    why = "replaying it did not end within the time limit (" + e.getMessage() + ")";
                } catch (HarnessCrashedException e) {
                    why = "replaying it stopped the Prolog (" + e.getMessage() + ")";
                }
                kept.remove(i);
                String note = "Dropped from session " + id + " while restoring it: " + describe(req) + ", because "
                        + why + ".";
                dropped.add(note);
                Logs.SESSION.log(System.Logger.Level.WARNING, note);
                restoreNotes.add(new Diagnostic(Severity.ERROR, "session_crashed", note, 0, 0));
                if (!fresh.isAlive()) {
                    fresh.close();
                    fresh = null;
                    continue restore;
                }
                i--;
            }
            break;
        }
        if (fresh == null) {
            throw giveUp("every restore attempt stopped the Prolog");
        }
        journal.clear();
        journal.addAll(kept);
        transport = fresh;
        restores++;
        if (Logs.SESSION.isLoggable(System.Logger.Level.WARNING)) {
            Logs.SESSION.log(System.Logger.Level.WARNING, "the Prolog serving session " + id + " on the " + backendName
                    + " backend died; the session was restored in a fresh one with " + kept.size()
                    + " journal entries replayed" + (dropped.isEmpty() ? "" : " and " + dropped.size() + " dropped"));
        }
        if (listening) {
            int droppedCount = dropped.size();
            notifyListener(() -> listener.sessionRestored(backendName, id, droppedCount));
        }
        if (!dropped.isEmpty()) {
            throw new JournalDroppedException("The Prolog serving session " + id + " had stopped; the session was "
                    + "restored without part of its program. " + String.join(" ", dropped)
                    + " Nothing of this call was run; call again.");
        }
        return fresh;
    }

    /** Closes this session because it cannot be restored, and returns the exception that says so. */
    private SessionClosedException giveUp(String why) {
        closedReason = "it could not be restored after its Prolog stopped: " + why;
        open = false;
        journal.clear();
        Logs.SESSION.log(System.Logger.Level.WARNING, "session " + id + " on the " + backendName + " backend is closed: "
                + closedReason);
        try {
            onClose.run();
        } catch (RuntimeException ignored) {
            // the backend's bookkeeping; the session is closed either way
        }
        closed(PrologListener.CloseReason.NOT_RESTORED);
        return new SessionClosedException("session " + id + " is closed: " + closedReason);
    }

    /** A journal entry as a person recognises it: its kind and the start of its text. */
    private static String describe(ObjectNode req) {
        String op = req.path("op").asText();
        String kind = switch (op) {
            case "consult" -> "the consulted text";
            case "replace" -> "the replacement of " + req.path("name").asText() + "/" + req.path("arity").asInt();
            case "run_tests" -> "the test source";
            default -> "the " + op + " request";
        };
        String text = req.path("text").asText("").strip();
        String firstLine = text.lines().findFirst().orElse("");
        if (firstLine.length() > 120) {
            firstLine = firstLine.substring(0, 120) + "...";
        }
        return kind + " starting \"" + firstLine + "\" (" + text.length() + " characters)";
    }

    private ObjectNode request(String op) {
        ObjectNode req = TermJson.mapper().createObjectNode();
        req.put("op", op);
        req.put("session", id);
        return req;
    }

    private JsonNode call(ObjectNode req, Duration timeout) {
        if (!Logs.SESSION.isLoggable(System.Logger.Level.TRACE)) {
            return liveTransport().call(req, timeout);
        }
        long start = System.nanoTime();
        JsonNode reply = liveTransport().call(req, timeout);
        Logs.SESSION.log(System.Logger.Level.TRACE, "session " + id + " request " + req.path("op").asText() + ": "
                + (reply.path("ok").asBoolean(false) ? "ok" : "refused") + " in " + since(start).toNanos() / 1_000 + " us");
        return reply;
    }

    /** A resource_error when {@code text} is longer than the session accepts. */
    private Optional<PrologError> tooLong(String what, String text) {
        if (text.length() <= options.maxSourceChars()) {
            return Optional.empty();
        }
        return Optional.of(PrologError.of("resource_error", "The " + what + " is " + text.length()
                + " characters; this session accepts at most " + options.maxSourceChars()
                + " (SessionOptions.maxSourceChars). Nothing was run."));
    }

    private static void checkIndicator(String name, int arity) {
        Objects.requireNonNull(name, "name");
        if (arity < 0) {
            throw new IllegalArgumentException("arity must not be negative, was " + arity);
        }
    }

    private static List<String> texts(JsonNode array) {
        List<String> out = new ArrayList<>();
        array.forEach(n -> out.add(n.asText()));
        return out;
    }

    /**
     * The bounds of a goal request, each only when it differs from what the harness takes without it:
     * its defaults for a goal ({@link GoalRequest#DEFAULT_MAX_ANSWERS}, {@link GoalRequest#DEFAULT_TIME_LIMIT},
     * {@link GoalRequest#DEFAULT_MAX_DEPTH}, no inference limit, side effects allowed,
     * {@link SessionOptions#DEFAULT_MAX_OUTPUT_CHARS}) and the session's stack limit, which the open
     * request gave it. The harness reads every request, so a shorter one is cheaper to read (a sixth of
     * the harness's work on a trivial goal request was reading and checking these fields); the bounds
     * are the same either way.
     */
    private void putGoalBounds(ObjectNode req, GoalRequest g) {
        if (g.maxAnswers() != GoalRequest.DEFAULT_MAX_ANSWERS) {
            req.put("max_answers", g.maxAnswers());
        }
        if (!g.timeLimit().equals(GoalRequest.DEFAULT_TIME_LIMIT)) {
            req.put("time_limit", seconds(g.timeLimit()));
        }
        if (g.maxDepth() != GoalRequest.DEFAULT_MAX_DEPTH) {
            req.put("max_depth", g.maxDepth());
        }
        g.maxInferences().ifPresent(n -> req.put("max_inferences", n));
        if (!g.allowSideEffects()) {
            req.put("allow_side_effects", false);
        }
        if (options.maxOutputChars() != SessionOptions.DEFAULT_MAX_OUTPUT_CHARS) {
            req.put("max_output", options.maxOutputChars());
        }
    }

    /** A run_tests request that loads plunit units without running them. */
    private ObjectNode testLoadRequest(String testText) {
        ObjectNode req = request("run_tests");
        req.put("text", testText);
        req.put("run", false);
        req.put("time_limit", seconds(options.consultTimeLimit()));
        req.put("max_output", options.maxOutputChars());
        return req;
    }

    private ObjectNode consultRequest(String text, Boolean staticCheck) {
        ObjectNode req = request("consult");
        req.put("text", text);
        req.put("time_limit", seconds(options.consultTimeLimit()));
        req.put("max_output", options.maxOutputChars());
        if (staticCheck != null) {
            req.put("check", staticCheck.booleanValue());
        }
        return req;
    }

    private <T> T locked(Supplier<T> body) {
        ensureOpen();
        try {
            // A call holding the lock is bounded by its own limit plus grace; wait at most a long bound.
            if (!lock.tryLock(30, TimeUnit.MINUTES)) {
                throw new PrologToolException("session " + id + " stayed busy for 30 minutes");
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new HarnessCancelledException("interrupted while waiting for session " + id
                    + " (an interrupt cancels the call); nothing of the call ran");
        }
        try {
            ensureOpen();
            synchronized (cancelGuard) {
                calling = true;
            }
            return body.get();
        } finally {
            synchronized (cancelGuard) {
                calling = false;
                HarnessTransport t = transport;
                if (t != null) {
                    t.clearCancel();
                }
            }
            lock.unlock();
        }
    }

    /**
     * Stops the call running on this session now, if one runs: see {@link PrologSession#cancel()}.
     * The cancel goes to the transport under {@link #cancelGuard}, which the call takes to end, so it
     * reaches that call and never the next one.
     */
    @Override
    public boolean cancel() {
        synchronized (cancelGuard) {
            if (!calling) {
                return false;
            }
            HarnessTransport t = transport;
            if (t != null) {
                t.cancel();
            }
            return true;
        }
    }

    private void ensureOpen() {
        if (!open || closing) {
            String why = closedReason;
            throw new SessionClosedException("session " + id + " is closed" + (why == null ? "" : ": " + why));
        }
    }

    private String errorTail() {
        String err = transport == null ? "" : transport.recentErrorOutput().strip();
        return err.isEmpty() ? "" : " Last error output: " + err;
    }

    private static double seconds(Duration d) {
        return d.toNanos() / 1e9;
    }

    // ---------------------------------------------------------------- replies

    private static void requireOk(JsonNode reply, String op) {
        if (!reply.path("ok").asBoolean(false)) {
            PrologError e = error(reply.path("error"));
            throw new PrologToolException("the harness refused " + op + ": " + e);
        }
    }

    static GoalResult goalResult(JsonNode reply) {
        if (!reply.path("ok").asBoolean(false)) {
            if ("cancelled".equals(reply.path("error").path("kind").asText())) {
                return cancelled().withCost(cost(reply)); // cancelled before the goal started
            }
            return GoalResult.failedWith(error(reply.path("error"))).withCost(cost(reply));
        }
        Outcome outcome = Outcome.fromWireName(reply.path("outcome").asText());
        List<Answer> answers = answers(reply);
        Optional<PrologError> error = outcome == Outcome.ERROR
                ? Optional.of(error(reply.path("error"))) : Optional.empty();
        return new GoalResult(outcome, answers, reply.path("output").asText(""),
                reply.path("output_truncated").asBoolean(false), reply.path("truncated").asBoolean(false), error,
                cost(reply));
    }

    /**
     * The cost the harness measured for a request ({@code cost: {inferences, cpu_us}}, CPU time in
     * microseconds), with no wall time (the caller measures it); {@link Cost#NONE} when the reply has none.
     */
    public static Cost cost(JsonNode reply) {
        JsonNode c = reply.path("cost");
        if (!c.isObject()) {
            return Cost.NONE;
        }
        long cpuMicros = Math.max(0, c.path("cpu_us").asLong(0));
        return new Cost(Duration.ZERO, Duration.ofNanos(cpuMicros * 1000), Math.max(0, c.path("inferences").asLong(0)));
    }

    // ---------------------------------------------------------------- observing calls

    private GoalResult observedGoal(String kind, Supplier<GoalResult> body) {
        long start = System.nanoTime();
        Object context = listening ? started(kind) : null;
        GoalResult r;
        try {
            r = body.get();
        } catch (RuntimeException e) {
            failed(kind, start, context, e);
            throw e;
        }
        GoalResult done = r.withCost(r.cost().withWallTime(since(start)));
        if (listening || Logs.SESSION.isLoggable(System.Logger.Level.TRACE)) {
            Optional<String> errorKind = done.error().map(PrologError::kind);
            finished(kind, done.outcome().wireName(), errorKind, done.cost(), context,
                    errorKind.filter("sandbox_violation"::equals).map(k -> done.error().get().message()).orElse(null));
        }
        return done;
    }

    private static Duration since(long startNanos) {
        return Duration.ofNanos(Math.max(0, System.nanoTime() - startNanos));
    }

    private Object started(String kind) {
        try {
            return listener.callStarted(backendName, id, kind);
        } catch (RuntimeException e) {
            listenerFailed(e);
            return null;
        }
    }

    /** A call that threw (a closed session, a refused request): reported with outcome {@code error}. */
    private void failed(String kind, long start, Object context, RuntimeException e) {
        if (listening || Logs.SESSION.isLoggable(System.Logger.Level.TRACE)) {
            String errorKind = e instanceof SessionClosedException ? "session_closed" : "exception";
            finished(kind, "error", Optional.of(errorKind), Cost.NONE.withWallTime(since(start)), context, null);
        }
    }

    /** Logs the call at TRACE and tells the listener; {@code refusal}: the sandbox's message, or null. */
    private void finished(String kind, String outcome, Optional<String> errorKind, Cost cost, Object context,
                          String refusal) {
        if (Logs.SESSION.isLoggable(System.Logger.Level.TRACE)) {
            Logs.SESSION.log(System.Logger.Level.TRACE, "session " + id + " " + kind + ": " + outcome
                    + errorKind.map(k -> " (" + k + ")").orElse("") + ", wall " + cost.wallTimeMillis() + " ms, cpu "
                    + cost.cpuTimeMillis() + " ms, " + cost.inferences() + " inferences");
        }
        if (listening) {
            PrologListener.Call call = new PrologListener.Call(backendName, id, kind, outcome, errorKind, cost, context);
            notifyListener(() -> listener.callFinished(call));
            if (refusal != null) {
                notifyListener(() -> listener.sandboxRefused(backendName, id, kind, refusal));
            }
        }
    }

    private void notifyListener(Runnable event) {
        try {
            event.run();
        } catch (RuntimeException e) {
            listenerFailed(e);
        }
    }

    private static void listenerFailed(RuntimeException e) {
        Logs.SESSION.log(System.Logger.Level.WARNING, "a PrologListener threw; the event is dropped", e);
    }

    /** The answers of a goal or execute reply, with their residual goals (a parallel list, optional). */
    static List<Answer> answers(JsonNode reply) {
        List<Answer> answers = new ArrayList<>();
        JsonNode residuals = reply.path("residuals");
        int i = 0;
        for (JsonNode a : reply.path("answers")) {
            Map<String, io.prologtool.Term> bindings = new LinkedHashMap<>();
            for (Iterator<Map.Entry<String, JsonNode>> it = a.fields(); it.hasNext(); ) {
                Map.Entry<String, JsonNode> e = it.next();
                bindings.put(e.getKey(), TermJson.decode(e.getValue()));
            }
            answers.add(new Answer(bindings, texts(residuals.path(i++))));
        }
        return answers;
    }

    static PrologError error(JsonNode e) {
        List<String> candidates = new ArrayList<>();
        e.path("candidates").forEach(c -> candidates.add(c.asText()));
        JsonNode term = e.path("prolog_term");
        return new PrologError(e.path("kind").asText("protocol_error"),
                e.path("message").asText("malformed error reply"),
                term.isTextual() ? Optional.of(term.asText()) : Optional.empty(), candidates);
    }

    static List<Diagnostic> diagnostics(JsonNode messages) {
        List<Diagnostic> out = new ArrayList<>();
        for (JsonNode m : messages) {
            out.add(new Diagnostic(Severity.fromWireName(m.path("severity").asText("error")),
                    m.path("kind").asText("other"), m.path("message").asText(""),
                    m.path("line").asInt(0), m.path("column").asInt(0)));
        }
        return out;
    }
}

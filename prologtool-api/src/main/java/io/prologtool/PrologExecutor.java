package io.prologtool;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.prologtool.json.TermJson;
import io.prologtool.spi.ExecutionReplies;
import io.prologtool.spi.HarnessCrashedException;
import io.prologtool.spi.HarnessSession;
import io.prologtool.spi.HarnessTimeoutException;

import java.time.Duration;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.OptionalDouble;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Stateless execution, the {@code execute_prolog} call of prolog-reasoner: code and a query in, a
 * reply out, nothing kept between calls.
 *
 * <pre>{@code
 * try (PrologExecutor executor = PrologExecutor.builder(backend).build()) {
 *     ExecutionResult r = executor.execute("human(socrates). mortal(X) :- human(X).", "mortal(X).").run();
 *     r.success();      // true
 *     r.output();       // "X = socrates\n"
 *     r.answers();      // [X = socrates]
 *     r.metadata();     // {execution_time_ms=1, result_count=1, truncated=false, rule_bases_used=[], warnings=[]}
 * }
 * }</pre>
 *
 * <p>Each call runs on one of a few pooled scratch sessions (default 2), in a temporary module that the
 * harness creates, loads (rule bases, then the code), queries and destroys in a single request: no
 * process is started per call, and no call sees another's clauses, operators or flags. The query is
 * read as a term, never pasted into source text, so a final full stop or a {@code %} comment in it is
 * fine. A scratch session whose Prolog died is replaced on its next call.
 *
 * <p>Thread-safe: up to {@code scratchSessions} calls run at once; more wait for a free session.
 */
public final class PrologExecutor implements AutoCloseable {

    /** Default number of scratch sessions. */
    public static final int DEFAULT_SCRATCH_SESSIONS = 2;
    /** Default number of calls after which a scratch session is replaced by a fresh one. */
    public static final int DEFAULT_RECYCLE_AFTER = 5_000;
    private static final Duration ACQUIRE_WAIT = Duration.ofMinutes(10);

    private final PrologBackend backend;
    private final RuleBaseStore store;
    private final int scratchSessions;
    private final SessionOptions options;
    private final int recycleAfter;
    private final Map<HarnessSession, AtomicInteger> uses = new ConcurrentHashMap<>();
    private final LinkedBlockingQueue<HarnessSession> idle = new LinkedBlockingQueue<>();
    private final Set<HarnessSession> all = ConcurrentHashMap.newKeySet();
    private final AtomicInteger opened = new AtomicInteger();
    private volatile boolean closed;

    private PrologExecutor(Builder b) {
        this.backend = b.backend;
        this.scratchSessions = b.scratchSessions;
        this.options = b.options;
        this.recycleAfter = b.recycleAfter;
        RuleBaseStore s = b.store != null ? b.store : RuleBaseStore.defaultStore();
        this.store = s.isChecked() ? s : s.checkedBy(this);
    }

    /** A builder over {@code backend}: the system rule base store, 2 scratch sessions, default session options. */
    public static Builder builder(PrologBackend backend) {
        return new Builder(backend);
    }

    /** An executor over {@code backend} with the defaults. */
    public static PrologExecutor over(PrologBackend backend) {
        return builder(backend).build();
    }

    /**
     * A run of {@code query} against {@code code}; set rule bases, bounds and trace on the request,
     * then {@link ExecutionRequest#run()}.
     */
    public ExecutionRequest execute(String code, String query) {
        Objects.requireNonNull(code, "code");
        Objects.requireNonNull(query, "query");
        return new ExecutionRequest(code, query, this::run);
    }

    /** The rule bases this executor loads from; its {@code save} checks syntax with this executor. */
    public RuleBaseStore ruleBases() {
        return store;
    }

    /**
     * The syntax errors and singleton warnings of {@code text}, read without running anything (see
     * {@link HarnessSession#checkSyntax(String)}).
     */
    public List<Diagnostic> checkSyntax(String text) {
        Objects.requireNonNull(text, "text");
        HarnessSession s = acquire();
        try {
            return s.checkSyntax(text);
        } finally {
            release(s);
        }
    }

    /** Closes the scratch sessions (not the backend). Idempotent; later calls throw. */
    @Override
    public void close() {
        closed = true;
        for (HarnessSession s : List.copyOf(all)) {
            s.close();
        }
        idle.clear();
    }

    @Override
    public String toString() {
        return "PrologExecutor[" + backend.name() + ", " + opened.get() + "/" + scratchSessions
                + " scratch sessions, " + store + "]";
    }

    // ------------------------------------------------------------------ a run

    private ExecutionResult run(ExecutionRequest r) {
        long start = System.nanoTime();
        List<String> names = List.copyOf(new LinkedHashSet<>(r.ruleBases()));
        ExecutionReplies.Call early = new ExecutionReplies.Call(r.query(), names, OptionalDouble.empty(),
                r.timeLimit(), start);
        ArrayNode ruleBases = TermJson.mapper().createArrayNode();
        OptionalDouble readMs = OptionalDouble.empty();
        if (!names.isEmpty()) {
            long t0 = System.nanoTime();
            for (String name : names) {
                RuleBaseResult<String> text = store.get(name);
                if (text.error().isPresent()) {
                    RuleBaseError e = text.error().get();
                    return ExecutionReplies.failure(early, e.message(), "unknown",
                            "Load only saved rule bases: list_rule_bases shows them, save_rule_base adds one.",
                            Map.of("error_code", e.code().wireName()));
                }
                ruleBases.addObject().put("name", name).put("text", text.value());
            }
            readMs = OptionalDouble.of((System.nanoTime() - t0) / 1e6);
        }
        String tooLong = r.code().length() > options.maxSourceChars() ? "code"
                : r.query().length() > options.maxSourceChars() ? "query" : null;
        if (tooLong != null) {
            return ExecutionReplies.failure(early, "The " + tooLong + " is longer than "
                            + options.maxSourceChars() + " characters; nothing was run", "unknown",
                    "Send less text: split the problem, or move stable rules into a rule base.", Map.of());
        }
        ObjectNode req = TermJson.mapper().createObjectNode();
        req.put("code", r.code());
        req.put("query", r.query());
        req.set("rule_bases", ruleBases);
        req.put("max_results", r.maxResults());
        req.put("time_limit", r.timeLimit().toNanos() / 1e9);
        // no max_depth: stateless execution has no depth limit (time, stack and inferences bound it)
        req.put("max_output", options.maxOutputChars());
        req.put("stack_limit", options.stackLimitBytes());
        req.put("trace", r.trace());
        req.put("trace_max_depth", TraceRequest.DEFAULT_MAX_DEPTH);
        req.put("trace_max_nodes", TraceRequest.DEFAULT_MAX_NODES);
        ExecutionReplies.Call call = new ExecutionReplies.Call(r.query(), names, readMs, r.timeLimit(), start);
        HarnessSession s = acquire();
        JsonNode reply;
        try {
            reply = s.execute(req, r.timeLimit().plus(HarnessSession.DEFAULT_GRACE));
        } catch (HarnessTimeoutException e) {
            return ExecutionReplies.failure(call, "Prolog execution timed out after " + r.timeLimit().toMillis() / 1000.0
                            + "s and was stopped", "timeout",
                    "The run did not finish within its time limit: look for infinite recursion or a search space "
                            + "too large, and narrow it or allow more time.", Map.of());
        } catch (HarnessCrashedException e) {
            return ExecutionReplies.failure(call, "The Prolog process serving the call died: " + e.getMessage(),
                    "unknown", "Run the call again (the process is replaced); if it dies again, look for code "
                            + "that exhausts memory, such as an ever-growing term.", Map.of());
        } finally {
            release(s);
        }
        if (!reply.path("ok").asBoolean(false)) { // reply_too_large, the one refusal execute() returns
            return ExecutionReplies.failure(call, reply.path("error").path("message").asText("the reply is too large"),
                    "reply_too_large", "The results or the output are larger than a reply may be: ask for fewer "
                            + "results (max_results), bind less, or print less.", Map.of());
        }
        return ExecutionReplies.result(reply, call);
    }

    // ------------------------------------------------------------------ the scratch pool

    private HarnessSession acquire() {
        if (closed) {
            throw new IllegalStateException("this PrologExecutor is closed");
        }
        HarnessSession s = idle.poll();
        while (s == null) {
            int n = opened.get();
            if (n < scratchSessions) {
                if (opened.compareAndSet(n, n + 1)) {
                    try {
                        s = openScratch();
                    } catch (RuntimeException e) {
                        opened.decrementAndGet();
                        throw e;
                    }
                }
                continue;
            }
            try {
                s = idle.poll(ACQUIRE_WAIT.toMillis(), TimeUnit.MILLISECONDS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new PrologToolException("interrupted while waiting for a scratch session", e);
            }
            if (s == null) {
                throw new PrologToolException("all " + scratchSessions + " scratch sessions stayed busy for "
                        + ACQUIRE_WAIT.toMinutes() + " minutes");
            }
        }
        if (!s.isOpen()) { // closed under us (the backend closed): forget it, try again
            all.remove(s);
            uses.remove(s);
            opened.decrementAndGet();
            return acquire();
        }
        return s;
    }

    private HarnessSession openScratch() {
        PrologSession s = backend.open(options);
        if (s instanceof HarnessSession h) {
            all.add(h);
            uses.put(h, new AtomicInteger());
            if (closed) {
                h.close();
                throw new IllegalStateException("this PrologExecutor is closed");
            }
            return h;
        }
        s.close();
        throw new UnsupportedOperationException("the " + backend.name() + " backend's sessions do not run the "
                + "prologtool harness, so PrologExecutor cannot use them");
    }

    /**
     * Back to the pool; after {@code recycleAfter} calls the session is closed instead (its Prolog may
     * have grown: SWI-Prolog does not give back every byte of a destroyed module), and the next call
     * opens a fresh one.
     */
    private void release(HarnessSession s) {
        AtomicInteger n = uses.get(s);
        boolean worn = n != null && n.incrementAndGet() >= recycleAfter;
        if (closed || worn || !s.isOpen()) {
            if (all.remove(s)) {
                opened.decrementAndGet();
            }
            uses.remove(s);
            s.close();
            return;
        }
        idle.add(s);
    }

    /** Builds a {@link PrologExecutor}. */
    public static final class Builder {
        private final PrologBackend backend;
        private RuleBaseStore store;
        private int scratchSessions = DEFAULT_SCRATCH_SESSIONS;
        private SessionOptions options = SessionOptions.defaults();
        private int recycleAfter = DEFAULT_RECYCLE_AFTER;

        private Builder(PrologBackend backend) {
            this.backend = Objects.requireNonNull(backend, "backend");
        }

        /**
         * Where rule bases come from (default {@link RuleBaseStore#defaultStore()}). A store without a
         * syntax checker gets this executor as its checker ({@link #ruleBases()} returns that store).
         */
        public Builder ruleBases(RuleBaseStore store) {
            this.store = Objects.requireNonNull(store, "store");
            return this;
        }

        /** How many scratch sessions run calls at once, 1 to 64 (default 2); opened on demand. */
        public Builder scratchSessions(int n) {
            if (n < 1 || n > 64) {
                throw new IllegalArgumentException("scratchSessions must be 1..64, was " + n);
            }
            this.scratchSessions = n;
            return this;
        }

        /**
         * Options of the scratch sessions: stack limit, output cap, text cap, and {@code sandboxed} for
         * untrusted code (default {@link SessionOptions#defaults()}).
         */
        public Builder sessionOptions(SessionOptions options) {
            this.options = Objects.requireNonNull(options, "options");
            return this;
        }

        /**
         * Replace a scratch session by a fresh one after this many calls (default 5,000), which bounds
         * the memory a long-lived Prolog can accumulate; the call after a replacement opens a session.
         */
        public Builder recycleAfter(int calls) {
            if (calls < 1) {
                throw new IllegalArgumentException("recycleAfter must be at least 1, was " + calls);
            }
            this.recycleAfter = calls;
            return this;
        }

        public PrologExecutor build() {
            return new PrologExecutor(this);
        }
    }

}

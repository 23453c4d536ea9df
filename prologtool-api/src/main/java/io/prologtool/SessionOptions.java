package io.prologtool;

import java.time.Duration;
import java.util.Objects;
import java.util.Optional;

/**
 * Settings fixed when a session opens. Immutable; build with {@link #builder()}.
 *
 * <pre>{@code
 * SessionOptions opts = SessionOptions.builder().stackLimitBytes(64L << 20).build();
 * PrologSession s = backend.open(opts);
 * }</pre>
 */
public final class SessionOptions {

    /** Default Prolog stack limit of a session: 256 MiB. */
    public static final long DEFAULT_STACK_LIMIT = 256L << 20;
    /** Default cap on captured output per call: 64 Ki characters. */
    public static final int DEFAULT_MAX_OUTPUT_CHARS = 64 * 1024;
    /** Default time limit for loading a text (its directives may loop): 30 s. */
    public static final Duration DEFAULT_CONSULT_TIME_LIMIT = Duration.ofSeconds(30);

    /** Default cap on one text (a consult, a patch, a test source, a goal): 4 Mi characters. */
    public static final int DEFAULT_MAX_SOURCE_CHARS = 4 * 1024 * 1024;

    /** Default budget of clause memory (SWI-Prolog's program space) of a session's module: 256 MiB. */
    public static final long DEFAULT_CLAUSE_SPACE = 256L << 20;
    /** Default cap on the length of one atom that session code creates: 1 Mi characters. */
    public static final int DEFAULT_MAX_ATOM_CHARS = 1 << 20;
    /** Default budget of the tables (tabled answers) a session's goal may build: 128 MiB. */
    public static final long DEFAULT_TABLE_SPACE = 128L << 20;
    /** Default most streams a session's code keeps open at once: 64. */
    public static final int DEFAULT_MAX_OPEN_STREAMS = 64;
    /** Default most queries ({@link PrologSession#query}) a session keeps open at once. */
    public static final int DEFAULT_MAX_OPEN_QUERIES = 8;

    private static final SessionOptions DEFAULTS = builder().build();

    private final long stackLimitBytes;
    private final int maxOutputChars;
    private final Duration consultTimeLimit;
    private final Duration testTimeLimit;
    private final boolean sandboxed;
    private final int maxSourceChars;
    private final RuleBaseStore ruleBases;
    private final long clauseSpaceBytes;
    private final int maxAtomChars;
    private final long tableSpaceBytes;
    private final int maxOpenStreams;
    private final boolean allowThreads;
    private final int maxOpenQueries;
    private final boolean staticCheck;
    private final boolean declareDiscontiguous;

    private SessionOptions(Builder b) {
        this.declareDiscontiguous = b.declareDiscontiguous;
        this.maxOpenQueries = b.maxOpenQueries;
        this.staticCheck = b.staticCheck;
        this.clauseSpaceBytes = b.clauseSpaceBytes;
        this.maxAtomChars = b.maxAtomChars;
        this.tableSpaceBytes = b.tableSpaceBytes;
        this.maxOpenStreams = b.maxOpenStreams;
        this.allowThreads = b.allowThreads;
        this.ruleBases = b.ruleBases;
        this.maxSourceChars = b.maxSourceChars;
        this.stackLimitBytes = b.stackLimitBytes;
        this.maxOutputChars = b.maxOutputChars;
        this.consultTimeLimit = b.consultTimeLimit;
        this.testTimeLimit = b.testTimeLimit;
        this.sandboxed = b.sandboxed;
    }

    /** The defaults: 256 MiB stack, 64 Ki characters of output, 30 s to consult. */
    public static SessionOptions defaults() {
        return DEFAULTS;
    }

    /** A builder starting from the defaults. */
    public static Builder builder() {
        return new Builder();
    }

    /** The session's Prolog stack limit in bytes (runaway recursion ends in a resource_error). */
    public long stackLimitBytes() {
        return stackLimitBytes;
    }

    /** Cap on the output captured per call, in characters. */
    public int maxOutputChars() {
        return maxOutputChars;
    }

    /** How long loading one text may take. */
    public Duration consultTimeLimit() {
        return consultTimeLimit;
    }

    /**
     * How long each plunit test that {@link PrologSession#runTests(String)} runs may take: a test past it
     * fails with "time limit exceeded" and the run goes on with the next test; empty (the default) for
     * no limit per test. The whole run is bounded by {@link #consultTimeLimit()} either way.
     */
    public Optional<Duration> testTimeLimit() {
        return Optional.ofNullable(testTimeLimit);
    }

    /** Cap on the length of one text the session is given; longer ones are refused, nothing runs. */
    public int maxSourceChars() {
        return maxSourceChars;
    }

    /**
     * True when the session runs untrusted code: its text is loaded with SWI-Prolog's sandboxed
     * loader and every goal must pass {@code library(sandbox)}'s {@code safe_goal/1}, so the code
     * cannot reach files, processes, the network, other sessions or the system.
     */
    public boolean sandboxed() {
        return sandboxed;
    }

    /**
     * The most clause memory the session's program may take, in bytes (SWI-Prolog's program space of
     * its module): consulted clauses and clauses its goals assert together. Beyond it an assert raises
     * {@code resource_error(program_space)} and the session goes on.
     */
    public long clauseSpaceBytes() {
        return clauseSpaceBytes;
    }

    /**
     * The longest atom the session's code may create, in characters. Atoms are not bounded by the stack
     * limit (they live outside the stacks); an atom built past this cap is a {@code resource_error}.
     */
    public int maxAtomChars() {
        return maxAtomChars;
    }

    /**
     * The most memory the tables of the session's tabled predicates may take, in bytes (SWI-Prolog's
     * {@code table_space} flag of the thread that runs the request). Beyond it a tabled goal raises
     * {@code resource_error(private_table_space)}. On the in-process backend a session's tables last
     * for one request: they are abolished when it ends, so no worker thread keeps them (tabling still
     * gives the same answers; a later request computes them again).
     */
    public long tableSpaceBytes() {
        return tableSpaceBytes;
    }

    /**
     * The most streams the session's code may keep open at once ({@code open/3,4}, {@code open_string/2},
     * {@code open_null_stream/1}, {@code tmp_file_stream/3}); one more is {@code resource_error(streams)}.
     * Closing the session closes every stream its code left open.
     */
    public int maxOpenStreams() {
        return maxOpenStreams;
    }

    /**
     * Whether the session's code may create threads ({@code thread_create/3}); default false, and
     * never in a sandboxed session. Threads a session creates are its own: closing it stops and joins
     * them.
     */
    public boolean allowThreads() {
        return allowThreads;
    }

    /**
     * The most queries ({@link PrologSession#query(String)}) the session keeps open at once, each a
     * search waiting in the session's Prolog; opening one more is refused until one is closed or runs
     * out of answers.
     */
    public int maxOpenQueries() {
        return maxOpenQueries;
    }

    /**
     * Whether each consult and predicate replacement is followed by the static check (default true):
     * every call in the loaded clauses to a predicate that is neither defined in the session, nor a
     * built-in, nor in a preloaded or autoloadable library is a warning {@link Diagnostic} of kind
     * {@code undefined_predicate} naming the caller, the line of the calling clause and up to three
     * similar predicates of the session. A goal built at run time ({@code call(G)} with {@code G}
     * unbound in the clause) is not guessed. {@link PrologSession#consult(String, boolean)} and
     * {@link PrologSession#replacePredicate(String, int, String, boolean)} decide it per call.
     */
    public boolean staticCheck() {
        return staticCheck;
    }

    /**
     * Whether a consult declares discontiguous, before loading, each predicate whose clauses are apart
     * in the text (default false): a program written in the order of its sentences then loads without
     * {@code discontiguous} warnings, and one {@link Severity#INFO} {@link Diagnostic} of kind
     * {@code discontiguous} names the predicates it declared. Off, such clauses load all the same,
     * each with a warning.
     */
    public boolean declareDiscontiguous() {
        return declareDiscontiguous;
    }

    /**
     * Where {@link PrologSession#useRuleBase(String)} finds rule bases: the store set with
     * {@link Builder#ruleBases(RuleBaseStore)}, else {@link RuleBaseStore#defaultStore()}.
     */
    public RuleBaseStore ruleBases() {
        return ruleBases != null ? ruleBases : RuleBaseStore.defaultStore();
    }

    /** A builder holding these options, to change some of them. */
    public Builder toBuilder() {
        Builder b = new Builder();
        b.stackLimitBytes = stackLimitBytes;
        b.maxOutputChars = maxOutputChars;
        b.consultTimeLimit = consultTimeLimit;
        b.testTimeLimit = testTimeLimit;
        b.sandboxed = sandboxed;
        b.maxSourceChars = maxSourceChars;
        b.clauseSpaceBytes = clauseSpaceBytes;
        b.maxAtomChars = maxAtomChars;
        b.tableSpaceBytes = tableSpaceBytes;
        b.maxOpenStreams = maxOpenStreams;
        b.maxOpenQueries = maxOpenQueries;
        b.allowThreads = allowThreads;
        b.staticCheck = staticCheck;
        b.declareDiscontiguous = declareDiscontiguous;
        b.ruleBases = ruleBases;
        return b;
    }

    @Override
    public String toString() {
        return "SessionOptions[stackLimitBytes=" + stackLimitBytes + ", maxOutputChars=" + maxOutputChars
                + ", consultTimeLimit=" + consultTimeLimit
                + (testTimeLimit != null ? ", testTimeLimit=" + testTimeLimit : "") + ", sandboxed=" + sandboxed
                + ", maxSourceChars=" + maxSourceChars + ", clauseSpaceBytes=" + clauseSpaceBytes
                + ", maxAtomChars=" + maxAtomChars + ", tableSpaceBytes=" + tableSpaceBytes + ", maxOpenStreams=" + maxOpenStreams
                + ", allowThreads=" + allowThreads
                + ", maxOpenQueries=" + maxOpenQueries + ", staticCheck=" + staticCheck
                + ", declareDiscontiguous=" + declareDiscontiguous + "]";
    }

    /** Builds {@link SessionOptions}; each setter validates its argument. */
    public static final class Builder {
        private long stackLimitBytes = DEFAULT_STACK_LIMIT;
        private int maxOutputChars = DEFAULT_MAX_OUTPUT_CHARS;
        private Duration consultTimeLimit = DEFAULT_CONSULT_TIME_LIMIT;
        private Duration testTimeLimit;
        private boolean sandboxed;
        private int maxSourceChars = DEFAULT_MAX_SOURCE_CHARS;
        private long clauseSpaceBytes = DEFAULT_CLAUSE_SPACE;
        private int maxAtomChars = DEFAULT_MAX_ATOM_CHARS;
        private long tableSpaceBytes = DEFAULT_TABLE_SPACE;
        private int maxOpenStreams = DEFAULT_MAX_OPEN_STREAMS;
        private int maxOpenQueries = DEFAULT_MAX_OPEN_QUERIES;
        private boolean allowThreads;
        private boolean staticCheck = true;
        private boolean declareDiscontiguous;
        private RuleBaseStore ruleBases;

        private Builder() {
        }

        /** The rule bases {@link PrologSession#useRuleBase(String)} loads from (default: the system store). */
        public Builder ruleBases(RuleBaseStore store) {
            this.ruleBases = Objects.requireNonNull(store, "store");
            return this;
        }

        /** Cap on one text (consult, patch, test source, goal) in characters, at least 1. */
        public Builder maxSourceChars(int chars) {
            if (chars < 1) {
                throw new IllegalArgumentException("maxSourceChars must be at least 1, was " + chars);
            }
            this.maxSourceChars = chars;
            return this;
        }

        /** Clause memory budget of the session (default 256 MiB); see {@link SessionOptions#clauseSpaceBytes()}. */
        public Builder clauseSpaceBytes(long bytes) {
            if (bytes < (1L << 20)) {
                throw new IllegalArgumentException("clauseSpaceBytes must be at least 1 MiB, was " + bytes);
            }
            this.clauseSpaceBytes = bytes;
            return this;
        }

        /** Longest atom the session may create (default 1 Mi characters); see {@link SessionOptions#maxAtomChars()}. */
        public Builder maxAtomChars(int chars) {
            if (chars < 1024) {
                throw new IllegalArgumentException("maxAtomChars must be at least 1024, was " + chars);
            }
            this.maxAtomChars = chars;
            return this;
        }

        /** Table space budget of the session (default 128 MiB, at least 1 MiB); see {@link SessionOptions#tableSpaceBytes()}. */
        public Builder tableSpaceBytes(long bytes) {
            if (bytes < (1L << 20)) {
                throw new IllegalArgumentException("tableSpaceBytes must be at least 1 MiB, was " + bytes);
            }
            this.tableSpaceBytes = bytes;
            return this;
        }

        /** Most streams the session's code keeps open at once (default 64, at least 1); see {@link SessionOptions#maxOpenStreams()}. */
        public Builder maxOpenStreams(int streams) {
            if (streams < 1) {
                throw new IllegalArgumentException("maxOpenStreams must be at least 1, was " + streams);
            }
            this.maxOpenStreams = streams;
            return this;
        }

        /** Let the session's code create threads (default false); see {@link SessionOptions#allowThreads()}. */
        public Builder allowThreads(boolean allow) {
            this.allowThreads = allow;
            return this;
        }

        /**
         * Check every consult and replacement for calls to undefined predicates (default true); see
         * {@link SessionOptions#staticCheck()}.
         */
        public Builder staticCheck(boolean check) {
            this.staticCheck = check;
            return this;
        }

        /**
         * Declare discontiguous the predicates whose clauses are apart in a consulted text (default
         * false); see {@link SessionOptions#declareDiscontiguous()}.
         */
        public Builder declareDiscontiguous(boolean declare) {
            this.declareDiscontiguous = declare;
            return this;
        }

        /** Run the session's code in SWI-Prolog's sandbox (default false); see {@link SessionOptions#sandboxed()}. */
        public Builder sandboxed(boolean sandboxed) {
            this.sandboxed = sandboxed;
            return this;
        }

        /** Prolog stack limit in bytes, at least 1 MiB. */
        public Builder stackLimitBytes(long bytes) {
            if (bytes < (1L << 20)) {
                throw new IllegalArgumentException("stack limit must be at least 1 MiB, was " + bytes);
            }
            this.stackLimitBytes = bytes;
            return this;
        }

        /** Cap on captured output per call in characters, at least 0. */
        public Builder maxOutputChars(int chars) {
            if (chars < 0) {
                throw new IllegalArgumentException("maxOutputChars must not be negative, was " + chars);
            }
            this.maxOutputChars = chars;
            return this;
        }

        /** Time limit for one consult: at least 1 ms, at most {@link GoalRequest#MAX_TIME_LIMIT} (365 days). */
        public Builder consultTimeLimit(Duration limit) {
            this.consultTimeLimit = GoalRequest.checkTimeLimit("consultTimeLimit", limit);
            return this;
        }

        /**
         * Time limit for each plunit test of {@link PrologSession#runTests(String)}: at least 1 ms, at most
         * {@link GoalRequest#MAX_TIME_LIMIT} (365 days); a test past it fails with "time limit exceeded"
         * and the run goes on. Without it (the default) only the whole run is bounded
         * ({@link #consultTimeLimit(Duration)}).
         */
        public Builder testTimeLimit(Duration limit) {
            this.testTimeLimit = GoalRequest.checkTimeLimit("testTimeLimit", limit);
            return this;
        }

        /** The most queries kept open at once, 1 to 1,000 (default 8). */
        public Builder maxOpenQueries(int queries) {
            if (queries < 1 || queries > 1_000) {
                throw new IllegalArgumentException("maxOpenQueries must be 1..1000, was " + queries);
            }
            this.maxOpenQueries = queries;
            return this;
        }

        public SessionOptions build() {
            return new SessionOptions(this);
        }
    }
}

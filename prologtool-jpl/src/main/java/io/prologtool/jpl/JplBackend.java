package io.prologtool.jpl;

import io.prologtool.PrologBackend;
import io.prologtool.PrologSession;
import io.prologtool.PrologUnavailableException;
import io.prologtool.SessionOptions;
import io.prologtool.spi.HarnessSession;
import io.prologtool.spi.Logs;
import io.prologtool.spi.SavedStateCache;

import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Sessions inside this JVM: SWI-Prolog embedded through JPL, each session a module of the one Prolog
 * that a JVM can hold. It runs the same harness as the process backend, so sessions behave the same;
 * a call costs microseconds instead of a pipe round trip.
 *
 * <pre>{@code
 * try (PrologBackend backend = JplBackend.get();
 *      PrologSession s = backend.open()) {
 *     s.consult("likes(mary, wine).");
 *     GoalResult r = s.goal("likes(mary, X)").run();
 * }
 * }</pre>
 *
 * <p>The embedded Prolog starts on first use and lives as long as the JVM. Each {@link #get()} (or
 * {@link Builder#build()}) returns a new handle on it; closing a handle closes the sessions it opened,
 * not the Prolog. Nothing is needed from the environment: JPL and {@code libswipl} are found through
 * {@code swipl --dump-runtime-variables}, without {@code LD_PRELOAD} or {@code java.library.path}.
 *
 * <p>Limits hold as on the process backend, with one difference: a goal cannot be killed with its
 * process. A goal that overruns its time limit is interrupted (user code cannot catch the harness's
 * own time limit), so it ends at its limit; the rare goal that still runs (one looping inside a
 * cleanup handler, where Prolog blocks signals) is reported as {@code TIMEOUT} at its limit plus
 * {@link Builder#timeoutGrace grace} and keeps one engine busy until it ends. {@code halt/0,1} in user
 * code never ends the JVM. Many threads may use many sessions at once; calls to one session are
 * serialised, and calls beyond {@link Builder#maxConcurrentCalls} wait in a fair queue.
 */
public final class JplBackend implements PrologBackend {

    /** The Debian packages that provide SWI-Prolog and JPL. */
    public static final String APT_PACKAGES = SwiplInstallation.PACKAGES;

    private final JplRuntime runtime;
    private final Duration grace;
    private final Duration queueTimeout;
    private final Set<HarnessSession> sessions = ConcurrentHashMap.newKeySet();
    private volatile boolean closed;
    private final io.prologtool.PrologListener listener;

    private JplBackend(JplRuntime runtime, Builder b) {
        this.runtime = runtime;
        this.grace = b.grace;
        this.queueTimeout = b.queueTimeout;
        this.listener = io.prologtool.PrologListener.of(b.listeners);
        if (Logs.BACKEND.isLoggable(System.Logger.Level.INFO)) {
            Logs.BACKEND.log(System.Logger.Level.INFO, "jpl backend started: SWI-Prolog version "
                    + runtime.installation().dottedVersion() + " embedded in this JVM from " + runtime.installation().home()
                    + runtime.startedFrom().map(s -> " (started from the saved state " + s + ")").orElse("")
                    + ", isolation none (sessions are modules of one Prolog in the JVM's process), no pool, "
                    + runtime.workers() + " concurrent calls");
        }
    }

    /** The saved state the embedded Prolog started from ({@link Builder#stateCache}); empty when it loaded sources. */
    Optional<Path> savedState() {
        return runtime.startedFrom();
    }

    /** The embedded Prolog this handle uses (for tests). */
    JplRuntime runtime() {
        return runtime;
    }

    /**
     * A handle on this JVM's embedded Prolog with the default settings, starting it on first use.
     *
     * @throws PrologUnavailableException when SWI-Prolog or JPL is not installed; the message names
     *                                    the packages
     */
    public static JplBackend get() {
        return builder().build();
    }

    /** A builder with the defaults: {@code swipl} from the PATH, 8 concurrent calls, 2 s grace. */
    public static Builder builder() {
        return new Builder();
    }

    @Override
    public PrologSession open(SessionOptions options) {
        Objects.requireNonNull(options, "options");
        if (closed) {
            throw new IllegalStateException("this JplBackend is closed");
        }
        String id = UUID.randomUUID().toString().replace("-", "").substring(0, 16);
        HarnessSession[] holder = new HarnessSession[1];
        HarnessSession session = HarnessSession.open(id, options, () -> new JplTransport(runtime, queueTimeout),
                grace, () -> sessions.remove(holder[0]), name(), listener);
        holder[0] = session;
        sessions.add(session);
        session.forkWith(this::open);
        if (closed) { // closed while this session opened
            session.close();
            throw new IllegalStateException("this JplBackend is closed");
        }
        return session;
    }

    @Override
    public String name() {
        return "jpl";
    }

    @Override
    public io.prologtool.PrologListener listener() {
        return listener;
    }

    /** {@code JplBackend[swipl /usr/bin/swipl, 2 sessions open]}, or {@code closed}. */
    @Override
    public String toString() {
        return "JplBackend[swipl " + swiplPath() + ", " + (closed ? "closed" : sessions.size() + " sessions open") + "]";
    }

    /** The {@code swipl} whose installation the embedded Prolog runs from. */
    public Path swiplPath() {
        return runtime.installation().swipl();
    }

    /** Closes the sessions this handle opened; the embedded Prolog and other handles go on. */
    @Override
    public void close() {
        if (closed) {
            return;
        }
        closed = true;
        for (HarnessSession s : List.copyOf(sessions)) {
            s.close(io.prologtool.PrologListener.CloseReason.BACKEND_CLOSED);
        }
        Logs.BACKEND.log(System.Logger.Level.INFO, "jpl backend closed (the embedded Prolog goes on)");
    }

    /**
     * The floor of any call into the embedded Prolog, for benchmarks that report their figures as a
     * ratio to it: JPL's own {@code new Query("true").hasSolution()}, opened and closed {@code count}
     * times back to back on a thread attached to the embedded Prolog, with nothing of prologtool in
     * between. Runs no session code and changes nothing.
     *
     * @param count how many queries to time, at least 1
     * @return the nanoseconds of each query, in order
     * @throws IllegalArgumentException when {@code count} is below 1
     */
    public long[] timeBareQueries(int count) {
        if (count < 1) {
            throw new IllegalArgumentException("count must be at least 1, was " + count);
        }
        return runtime.timeBareQueries(count);
    }

    /** Modules in the embedded Prolog: what sessions hold, on top of the harness and libraries. */
    int moduleCount() {
        return runtime.moduleCount();
    }

    /** Modules that sessions hold (their own and their plunit units'); libraries not counted. */
    int sessionModuleCount() {
        return runtime.sessionModuleCount();
    }

    /** Requests running in Prolog now, including any whose caller gave up on them. */
    int runningCalls() {
        return runtime.running();
    }

    /** Workers abandoned with a request that outlived its budget, while that request still runs. */
    int abandonedWorkers() {
        return runtime.abandonedWorkers();
    }

    /**
     * Builds a {@link JplBackend}. Settings of the embedded Prolog itself ({@link #swiplPath},
     * {@link #maxConcurrentCalls}) are fixed when it starts: a later builder that sets them differently
     * is refused with {@link IllegalStateException}.
     */
    public static final class Builder {
        private Path swipl;
        private Integer workers;
        private Path stateCache = SavedStateCache.defaultFolder();
        private Duration grace = HarnessSession.DEFAULT_GRACE;
        private Duration queueTimeout = Duration.ofSeconds(60);
        private final List<io.prologtool.PrologListener> listeners = new java.util.ArrayList<>();

        private Builder() {
        }

        /**
         * Adds a listener that hears every session this handle opens (see
         * {@link io.prologtool.PrologListener}); may be called more than once. Without one (the
         * default), nothing is built for listeners.
         */
        public Builder listener(io.prologtool.PrologListener listener) {
            listeners.add(Objects.requireNonNull(listener, "listener"));
            return this;
        }

        /** The {@code swipl} whose installation to embed (default: the one on the PATH). */
        public Builder swiplPath(Path swipl) {
            this.swipl = Objects.requireNonNull(swipl, "swipl");
            return this;
        }

        /**
         * Where the embedded Prolog's saved state is cached between JVMs (default
         * {@code $XDG_CACHE_HOME/prologtool}, else {@code ~/.cache/prologtool}; a folder of this user's that
         * no one else may write, made when missing): the harness compiled once on a machine, about a second,
         * after which the embedded Prolog starts from it in tens of milliseconds instead of loading the
         * harness's sources (about 0.3 s). The file's name holds a hash of the harness, SWI-Prolog's version
         * and path, so a new version of either makes a new one. {@code null}: no cache, the sources are
         * loaded at each start. Like {@link #swiplPath}, it counts when the embedded Prolog starts, for the
         * first backend of the JVM.
         */
        public Builder stateCache(Path folder) {
            this.stateCache = folder;
            return this;
        }

        /**
         * How many calls may run in Prolog at once, 1 to 64 (default 8): each runs on a worker thread
         * with a Prolog engine of its own. Further calls wait their turn in order.
         */
        public Builder maxConcurrentCalls(int calls) {
            if (calls < 1 || calls > JplRuntime.MAX_WORKERS) {
                throw new IllegalArgumentException("maxConcurrentCalls must be 1 to " + JplRuntime.MAX_WORKERS
                        + ", was " + calls);
            }
            this.workers = calls;
            return this;
        }

        /**
         * How long a call waits beyond its own time limit before it returns {@code TIMEOUT} (default
         * 2 s). Only a goal that defeats the Prolog-side limit ever waits that long.
         */
        public Builder timeoutGrace(Duration grace) {
            this.grace = HarnessSession.checkGrace(grace);
            return this;
        }

        /**
         * How long a call may wait for a free engine before it fails with a
         * {@link io.prologtool.PrologToolException} (default 60 s, at most
         * {@link io.prologtool.GoalRequest#MAX_TIME_LIMIT}).
         */
        public Builder queueTimeout(Duration timeout) {
            Objects.requireNonNull(timeout, "timeout");
            if (timeout.isNegative() || timeout.isZero()) {
                throw new IllegalArgumentException("queueTimeout must be positive: " + timeout);
            }
            if (timeout.compareTo(io.prologtool.GoalRequest.MAX_TIME_LIMIT) > 0) {
                throw new IllegalArgumentException("queueTimeout must be at most 365 days (GoalRequest.MAX_TIME_LIMIT): "
                        + timeout);
            }
            this.queueTimeout = timeout;
            return this;
        }

        /**
         * A handle on the embedded Prolog, starting it on first use.
         *
         * @throws PrologUnavailableException when SWI-Prolog or JPL is not installed
         * @throws IllegalStateException      when the embedded Prolog already runs with other settings
         */
        public JplBackend build() {
            return new JplBackend(JplRuntime.get(new JplRuntime.Settings(swipl, workers, stateCache)), this);
        }
    }
}

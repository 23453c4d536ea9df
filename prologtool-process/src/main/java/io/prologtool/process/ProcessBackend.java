package io.prologtool.process;

import io.prologtool.PrologBackend;
import io.prologtool.PrologSession;
import io.prologtool.PrologUnavailableException;
import io.prologtool.SessionOptions;
import io.prologtool.spi.Executables;
import io.prologtool.spi.Harness;
import io.prologtool.spi.HarnessCrashedException;
import io.prologtool.spi.HarnessSession;
import io.prologtool.spi.HarnessTransport;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Sessions in {@code swipl} child processes: one child per session, speaking newline-delimited JSON
 * on its stdin and stdout. A child that dies or ignores its time limit is stopped and replaced, and
 * the session is restored from its journal on the next call.
 *
 * <pre>{@code
 * try (PrologBackend backend = ProcessBackend.builder().build();
 *      PrologSession s = backend.open()) {
 *     s.consult("likes(mary, wine).");
 *     GoalResult r = s.goal("likes(mary, X)").run();
 * }
 * }</pre>
 */
public final class ProcessBackend implements PrologBackend {

    /** The Debian package that provides {@code swipl}. */
    public static final String APT_PACKAGE = "swi-prolog-nox";

    private final Path swipl;
    private final Duration grace;
    private final List<String> commandPrefix;
    private final int poolSize;
    private final Path workDir;
    private final Path harnessFile;
    /** The harness saved with its libraries loaded: a child starts from it in ~20 ms; null if it could not be built. */
    private final Path savedState;
    private final BlockingQueue<ProcessTransport> pool = new LinkedBlockingQueue<>();
    private final AtomicInteger spawning = new AtomicInteger();
    private final ExecutorService spawner;
    private final Set<HarnessSession> sessions = ConcurrentHashMap.newKeySet();
    private final Set<ProcessTransport> children = ConcurrentHashMap.newKeySet();
    private final Thread shutdownHook;
    private volatile boolean closed;

    private ProcessBackend(Builder b) {
        this.swipl = b.swipl != null ? b.swipl : Executables.findOnPath("swipl").orElseThrow(() -> new PrologUnavailableException(
                "SWI-Prolog's swipl was not found on the PATH; install it with `apt-get install " + APT_PACKAGE
                        + "` or name it with ProcessBackend.builder().swiplPath(...)"));
        if (b.commandPrefix.isEmpty() && !Files.isExecutable(swipl)) {
            throw new PrologUnavailableException("swipl at " + swipl + " is not an executable file; install it with `apt-get install "
                    + APT_PACKAGE + "`");
        }
        this.grace = b.grace;
        this.commandPrefix = List.copyOf(b.commandPrefix);
        this.poolSize = b.poolSize;
        try {
            this.workDir = Files.createTempDirectory("prologtool-");
            this.harnessFile = Harness.extractTo(workDir);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write the Prolog harness to a temporary directory", e);
        }
        this.savedState = b.savedState ? buildSavedState() : null;
        this.spawner = Executors.newSingleThreadExecutor(r -> {
            Thread t = new Thread(r, "prologtool-process-pool");
            t.setDaemon(true);
            return t;
        });
        this.shutdownHook = new Thread(this::killChildren, "prologtool-process-shutdown");
        Runtime.getRuntime().addShutdownHook(shutdownHook);
        refillPool();
    }

    /**
     * A builder with the defaults: {@code swipl} from the PATH, a 2 s grace period, no warm pool,
     * children started from a saved state, no command prefix.
     */
    public static Builder builder() {
        return new Builder();
    }

    @Override
    public PrologSession open(SessionOptions options) {
        Objects.requireNonNull(options, "options");
        if (closed) {
            throw new IllegalStateException("this ProcessBackend is closed");
        }
        String id = UUID.randomUUID().toString().replace("-", "").substring(0, 16);
        HarnessSession[] holder = new HarnessSession[1];
        HarnessSession session = HarnessSession.open(id, options, this::takeChild, grace,
                () -> sessions.remove(holder[0]));
        holder[0] = session;
        sessions.add(session);
        if (closed) { // closed while we spawned: do not leak the child
            session.close();
            throw new IllegalStateException("this ProcessBackend is closed");
        }
        return session;
    }

    @Override
    public String name() {
        return "process";
    }

    /** The saved state children start from; empty when it could not be built (they load the source). */
    Optional<Path> savedState() {
        return Optional.ofNullable(savedState);
    }

    /** The {@code swipl} this backend starts. */
    public Path swiplPath() {
        return swipl;
    }

    /** Number of live child processes: those serving sessions and those waiting in the warm pool. */
    public int liveChildren() {
        children.removeIf(c -> !c.isAlive());
        return children.size();
    }

    @Override
    public void close() {
        if (closed) {
            return;
        }
        closed = true;
        spawner.shutdownNow();
        for (HarnessSession s : List.copyOf(sessions)) {
            s.close();
        }
        killChildren();
        try {
            Runtime.getRuntime().removeShutdownHook(shutdownHook);
        } catch (IllegalStateException ignored) {
            // the JVM is shutting down already
        }
        deleteTree(workDir);
    }

    /** A started child: from the warm pool when one is ready, else a new one. The pool is refilled. */
    private HarnessTransport takeChild() {
        ProcessTransport t;
        do {
            t = pool.poll();
        } while (t != null && !t.isAlive());
        if (t == null) {
            t = spawn();
        }
        refillPool();
        return t;
    }

    private void refillPool() {
        if (closed || poolSize == 0) {
            return;
        }
        while (pool.size() + spawning.get() < poolSize) {
            spawning.incrementAndGet();
            try {
                spawner.execute(() -> {
                    try {
                        if (!closed) {
                            pool.add(spawn());
                        }
                    } catch (RuntimeException ignored) {
                        // open() spawns on demand and reports the problem there
                    } finally {
                        spawning.decrementAndGet();
                    }
                    if (closed) {
                        killPool();
                    }
                });
            } catch (java.util.concurrent.RejectedExecutionException e) {
                spawning.decrementAndGet();
                return;
            }
        }
    }

    /**
     * Starts a child. Its stack limit is the default; each goal sets its session's own limit
     * (the stack_limit flag is per thread), so pooled children suit every session.
     */
    private ProcessTransport spawn() {
        if (closed) {
            throw new HarnessCrashedException("the backend is closed");
        }
        List<String> cmd = new ArrayList<>(commandPrefix);
        cmd.add(swipl.toString());
        if (savedState != null) {
            cmd.add("-x");
            cmd.add(savedState.toString());
        }
        cmd.add("--stack-limit=" + (SessionOptions.DEFAULT_STACK_LIMIT >> 10) + "k");
        cmd.addAll(List.of("-q", "--no-packs", "--no-tty", "-f", "none", "-g", Harness.SERVE_GOAL, "-t", "halt(1)"));
        if (savedState == null) {
            cmd.add(harnessFile.toString());
        }
        ProcessBuilder pb = new ProcessBuilder(cmd).directory(workDir.toFile());
        pb.environment().put("LANG", "C.UTF-8");
        Process p;
        try {
            p = pb.start();
        } catch (IOException e) {
            throw new PrologUnavailableException("cannot start " + String.join(" ", cmd.subList(0, commandPrefix.size() + 1))
                    + " (install SWI-Prolog with `apt-get install " + APT_PACKAGE + "`): " + e.getMessage(), e);
        }
        ProcessTransport t = new ProcessTransport(p);
        children.add(t);
        children.removeIf(c -> !c.isAlive());
        return t;
    }

    /**
     * Compiles the harness with its libraries into a saved state ({@code swipl -o STATE -c harness.pl}),
     * so that children start in tens of milliseconds instead of loading sources. Null when that fails;
     * children then load the harness source.
     */
    private Path buildSavedState() {
        Path state = workDir.resolve("harness.state");
        List<String> cmd = List.of(swipl.toString(), "-q", "--no-packs", "-f", "none", "-o", state.toString(),
                "-c", harnessFile.toString());
        try {
            Process p = new ProcessBuilder(cmd).directory(workDir.toFile()).redirectErrorStream(true)
                    .redirectOutput(ProcessBuilder.Redirect.DISCARD).start();
            if (p.waitFor(60, TimeUnit.SECONDS) && p.exitValue() == 0 && Files.isRegularFile(state)) {
                return state;
            }
            p.destroyForcibly();
        } catch (IOException e) {
            return null;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        return null;
    }

    private void killPool() {
        ProcessTransport t;
        while ((t = pool.poll()) != null) {
            t.kill();
        }
    }

    private void killChildren() {
        killPool();
        for (ProcessTransport c : List.copyOf(children)) {
            c.kill();
        }
        children.clear();
    }

    /** Deletes the work directory with whatever goals wrote there (children run in it). */
    private static void deleteTree(Path dir) {
        try (var paths = Files.walk(dir)) {
            paths.sorted(java.util.Comparator.reverseOrder()).forEach(p -> {
                try {
                    Files.deleteIfExists(p);
                } catch (IOException ignored) {
                    // best effort: a file still open elsewhere stays behind
                }
            });
        } catch (IOException ignored) {
            // already gone
        }
    }

    /** Builds a {@link ProcessBackend}. */
    public static final class Builder {
        private Path swipl;
        private Duration grace = HarnessSession.DEFAULT_GRACE;
        private List<String> commandPrefix = List.of();
        private int poolSize;
        private boolean savedState = true;

        private Builder() {
        }

        /**
         * The {@code swipl} executable to start (default: found on the PATH). With a
         * {@link #commandPrefix}, this is the path as the prefixed command sees it.
         */
        public Builder swiplPath(Path swipl) {
            this.swipl = Objects.requireNonNull(swipl, "swipl");
            return this;
        }

        /**
         * How long a call waits beyond its own time limit before the child is killed and the call
         * returns {@code TIMEOUT} (default 2 s). Covers goals that catch and ignore the harness's
         * time-limit exception.
         */
        public Builder timeoutGrace(Duration grace) {
            this.grace = HarnessSession.checkGrace(grace);
            return this;
        }

        /**
         * Keep {@code n} children started and loaded ahead of demand (default 0: start one per
         * {@link #open}). A child serves one session and dies with it; it is never reused.
         */
        public Builder poolSize(int n) {
            if (n < 0 || n > 256) {
                throw new IllegalArgumentException("poolSize must be 0..256, was " + n);
            }
            this.poolSize = n;
            return this;
        }

        /**
         * A command that starts each child, put before the {@code swipl} command line: e.g.
         * {@code List.of("prlimit", "--as=1000000000")}, {@code List.of("setpriv", "--reuid=nobody", ...)},
         * or {@code List.of("docker", "run", "-i", "--rm", "-v", "/tmp:/tmp", "swipl")}. The prefix must
         * pass stdin, stdout and stderr through and run the rest of the line. The harness files live
         * in a temporary directory, which a container must mount at the same path.
         */
        public Builder commandPrefix(List<String> prefix) {
            Objects.requireNonNull(prefix, "prefix");
            prefix.forEach(p -> Objects.requireNonNull(p, "prefix element"));
            this.commandPrefix = List.copyOf(prefix);
            return this;
        }

        /**
         * Whether children start from a saved state of the harness (default true: about 20 ms per
         * child instead of 100-300 ms). Turn it off when the prefix runs swipl somewhere that cannot
         * read the state built here (a different SWI-Prolog version).
         */
        public Builder savedState(boolean use) {
            this.savedState = use;
            return this;
        }

        /**
         * Builds the backend.
         *
         * @throws PrologUnavailableException when {@code swipl} cannot be found
         */
        public ProcessBackend build() {
            return new ProcessBackend(this);
        }
    }

}

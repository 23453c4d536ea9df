package io.prologtool.process;

import io.prologtool.PrologBackend;
import io.prologtool.PrologSession;
import io.prologtool.PrologUnavailableException;
import io.prologtool.SessionOptions;
import io.prologtool.spi.Harness;
import io.prologtool.spi.HarnessCrashedException;
import io.prologtool.spi.HarnessSession;
import io.prologtool.spi.HarnessTransport;

import java.io.File;
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
import java.util.concurrent.ConcurrentHashMap;

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
    private final Path workDir;
    private final Path harnessFile;
    private final Set<HarnessSession> sessions = ConcurrentHashMap.newKeySet();
    private final Set<ProcessTransport> children = ConcurrentHashMap.newKeySet();
    private final Thread shutdownHook;
    private volatile boolean closed;

    private ProcessBackend(Builder b) {
        this.swipl = b.swipl != null ? b.swipl : findOnPath("swipl").orElseThrow(() -> new PrologUnavailableException(
                "SWI-Prolog's swipl was not found on the PATH; install it with `apt-get install " + APT_PACKAGE
                        + "` or name it with ProcessBackend.builder().swiplPath(...)"));
        if (!Files.isExecutable(swipl)) {
            throw new PrologUnavailableException("swipl at " + swipl + " is not an executable file; install it with `apt-get install "
                    + APT_PACKAGE + "`");
        }
        this.grace = b.grace;
        try {
            this.workDir = Files.createTempDirectory("prologtool-");
            this.harnessFile = Harness.extractTo(workDir);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write the Prolog harness to a temporary directory", e);
        }
        this.shutdownHook = new Thread(this::killChildren, "prologtool-process-shutdown");
        Runtime.getRuntime().addShutdownHook(shutdownHook);
    }

    /** A builder with the defaults: {@code swipl} from the PATH, a 2 s grace period. */
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
        HarnessSession session = HarnessSession.open(id, options, () -> spawn(options), grace,
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

    /** The {@code swipl} this backend starts. */
    public Path swiplPath() {
        return swipl;
    }

    /** Number of live child processes (sessions whose child is running). */
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

    private HarnessTransport spawn(SessionOptions options) {
        if (closed) {
            throw new HarnessCrashedException("the backend is closed");
        }
        List<String> cmd = new ArrayList<>();
        cmd.add(swipl.toString());
        cmd.add("--stack-limit=" + Math.max(1, options.stackLimitBytes() >> 10) + "k");
        cmd.add("-q");
        cmd.add("--no-packs");
        cmd.add("--no-tty");
        cmd.add("-f");
        cmd.add("none");
        cmd.add("-g");
        cmd.add(Harness.SERVE_GOAL);
        cmd.add("-t");
        cmd.add("halt(1)");
        cmd.add(harnessFile.toString());
        ProcessBuilder pb = new ProcessBuilder(cmd).directory(workDir.toFile());
        pb.environment().put("LANG", "C.UTF-8");
        Process p;
        try {
            p = pb.start();
        } catch (IOException e) {
            throw new PrologUnavailableException("cannot start " + swipl + " (install SWI-Prolog with `apt-get install "
                    + APT_PACKAGE + "`): " + e.getMessage(), e);
        }
        ProcessTransport t = new ProcessTransport(p);
        children.add(t);
        return t;
    }

    private void killChildren() {
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

    static Optional<Path> findOnPath(String name) {
        String path = System.getenv("PATH");
        if (path == null) {
            return Optional.empty();
        }
        for (String dir : path.split(File.pathSeparator)) {
            if (dir.isEmpty()) {
                continue;
            }
            Path candidate = Path.of(dir, name);
            if (Files.isExecutable(candidate) && !Files.isDirectory(candidate)) {
                return Optional.of(candidate);
            }
        }
        return Optional.empty();
    }

    /** Builds a {@link ProcessBackend}. */
    public static final class Builder {
        private Path swipl;
        private Duration grace = HarnessSession.DEFAULT_GRACE;

        private Builder() {
        }

        /** The {@code swipl} executable to start (default: found on the PATH). */
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
            Objects.requireNonNull(grace, "grace");
            if (grace.isNegative()) {
                throw new IllegalArgumentException("grace must not be negative: " + grace);
            }
            this.grace = grace;
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

package io.prologtool.process;

import io.prologtool.PrologBackend;
import io.prologtool.PrologSession;
import io.prologtool.PrologUnavailableException;
import io.prologtool.SessionOptions;
import io.prologtool.spi.Executables;
import io.prologtool.spi.Harness;
import io.prologtool.spi.HarnessCrashedException;
import io.prologtool.spi.HarnessSession;
import io.prologtool.spi.Logs;
import io.prologtool.spi.SavedStateCache;
import io.prologtool.spi.TempFolders;
import io.prologtool.spi.HarnessTransport;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.BlockingDeque;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executors;
import java.util.concurrent.LinkedBlockingDeque;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Sessions in {@code swipl} child processes: one child per session, speaking newline-delimited JSON
 * on its stdin and stdout. A child that dies or ignores its time limit is stopped and replaced, and
 * the session is restored from its journal on the next call.
 *
 * <p>Each child leads a process group of its own, killed as a whole; runs under an address-space
 * limit ({@link Builder#addressSpaceLimit}); may write at most {@link Builder#maxReplyBytes} per
 * protocol line; and, for sandboxed sessions where the machine allows it, runs under OS isolation
 * ({@link Builder#isolation}: another user, no network, a private {@code /tmp}). The harness reaches
 * a child over its stdin, so a child may run behind any launcher ({@link Builder#commandPrefix},
 * {@link Isolation#custom}). A backend not closed before the JVM exits is cleaned up by a shutdown
 * hook (children killed, work folder removed).
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

    /** Default cap on one line a child writes on its protocol stream: 16 MiB. */
    public static final long DEFAULT_MAX_REPLY_BYTES = 16L << 20;
    /** Default address-space limit of every child: 1 GiB. */
    public static final long DEFAULT_ADDRESS_SPACE_LIMIT = 1L << 30;

    private final Path swipl;
    private final Duration grace;
    private final List<String> commandPrefix;
    /** Whether {@link #commandPrefix} hands the rest of the command to a shell as one line (ssh does). */
    private final boolean remoteShell;
    private final int poolSize;
    private final boolean reuseChildren;
    private final long maxReplyBytes;
    private final long addressSpaceLimit;
    private final Isolation isolation;
    /** How isolated children start; null when sessions are not isolated. */
    private final Isolation.Plan isolationPlan;
    private final Path setsid;
    private final Path killCommand;
    private final Path prlimit;
    private final Path workDir;
    private final Path harnessFile;
    /** The harness saved with its libraries loaded: a child starts from it in ~20 ms; null if it could not be built. */
    private final Path savedState;
    /**
     * Warm children: [0] plain, [1] isolated. A child taken back goes in front and is the next one taken,
     * a fresh one at the back: a child that served a moment ago has its code and data in the CPU caches,
     * and sessions that take children in turn from several ran about 40% slower (PARARULE-Plus, two
     * children against one). Extra children are trimmed from the back, the coldest first.
     */
    @SuppressWarnings("unchecked")
    private final BlockingDeque<ProcessTransport>[] pools = new BlockingDeque[] {
            new LinkedBlockingDeque<ProcessTransport>(), new LinkedBlockingDeque<ProcessTransport>()};
    private final AtomicInteger[] spawning = {new AtomicInteger(), new AtomicInteger()};
    private final java.util.concurrent.atomic.AtomicLong recycled = new java.util.concurrent.atomic.AtomicLong();
    /** Children of each kind taken back whose check has not ended yet: they may join the pool soon. */
    private final AtomicInteger[] checking = {new AtomicInteger(), new AtomicInteger()};
    /** Sessions of each kind waiting for a child that is being started or checked ({@link #takeChild}). */
    private final AtomicInteger[] waiting = {new AtomicInteger(), new AtomicInteger()};
    /** Starts the pools' children (and trims the pools). */
    private final java.util.concurrent.ScheduledExecutorService spawner;
    /** When a session last took a child from a pool (System.nanoTime()). */
    private volatile long lastTake = System.nanoTime();
    private final Set<HarnessSession> sessions = ConcurrentHashMap.newKeySet();
    private final Set<ProcessTransport> children = ConcurrentHashMap.newKeySet();
    /** Children started so far: names each local child's folder of temporary files. */
    private final AtomicInteger childCount = new AtomicInteger();
    private final Thread shutdownHook;
    private volatile boolean closed;
    private final io.prologtool.PrologListener listener;

    private ProcessBackend(Builder b) {
        this.swipl = b.swipl != null ? b.swipl : Executables.findOnPath("swipl").orElseThrow(() -> new PrologUnavailableException(
                "SWI-Prolog's swipl was not found on the PATH; " + PrologUnavailableException.INSTALL_SWIPL
                        + " or name it with ProcessBackend.builder().swiplPath(...)"));
        if (b.commandPrefix.isEmpty() && !Files.isExecutable(swipl)) {
            throw new PrologUnavailableException("swipl at " + swipl + " is not an executable file; "
                    + PrologUnavailableException.INSTALL_SWIPL);
        }
        if (b.swipl != null && b.commandPrefix.isEmpty()) {
            requireSwiProlog(swipl);
        }
        this.grace = b.grace;
        this.listener = io.prologtool.PrologListener.of(b.listeners);
        this.commandPrefix = List.copyOf(b.commandPrefix);
        this.remoteShell = b.remoteShell != null ? b.remoteShell : startsWithSsh(commandPrefix);
        this.poolSize = b.poolSize;
        this.reuseChildren = b.reuseChildren;
        this.maxReplyBytes = b.maxReplyBytes;
        this.addressSpaceLimit = b.addressSpaceLimit;
        this.isolation = b.isolation;
        this.isolationPlan = isolation.resolve().orElse(null);
        this.setsid = Executables.findOnPath("setsid").orElse(null);
        this.killCommand = setsid == null ? null : Executables.findOnPath("kill").orElse(null);
        this.prlimit = Executables.findOnPath("prlimit").orElse(null);
        try {
            this.workDir = TempFolders.create("prologtool-");
            this.harnessFile = Harness.extractTo(workDir);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write the Prolog harness to a temporary directory", e);
        }
        // Registered before anything can fail below, so that the folder never outlives the JVM.
        this.shutdownHook = new Thread(() -> {
            killChildren();
            TempFolders.deleteTree(workDir);
        }, "prologtool-process-shutdown");
        Runtime.getRuntime().addShutdownHook(shutdownHook);
        this.savedState = b.savedState ? savedState(b.stateCache) : null;
        this.spawner = Executors.newSingleThreadScheduledExecutor(r -> {
            Thread t = new Thread(r, "prologtool-process-pool");
            t.setDaemon(true);
            return t;
        });
        if (poolSize > 0 && reuseChildren) {
            spawner.scheduleWithFixedDelay(this::trimPools, 1, 1, TimeUnit.SECONDS);
            spawner.scheduleWithFixedDelay(this::expireChecks, 1, 1, TimeUnit.SECONDS);
        }
        // The kind a default session takes is warmed now; the other kind once a session takes one.
        refillPool(isolationPlan != null && isolation.allSessions() ? 1 : 0);
        if (Logs.BACKEND.isLoggable(System.Logger.Level.INFO)) {
            Logs.BACKEND.log(System.Logger.Level.INFO, "process backend started: "
                    + (commandPrefix.isEmpty() ? Logs.swiplVersion(swipl) + " at " + swipl
                    : "swipl behind the command prefix " + commandPrefix)
                    + ", isolation " + (isolationPlan == null ? "none (children run as the JVM's user)"
                    : isolationPlan.describe() + (isolation.allSessions() ? " for every session" : " for sandboxed sessions"))
                    + ", pool size " + poolSize + (reuseChildren && poolSize > 0 ? " (children reused)" : "")
                    + (savedState == null ? ", children load the harness source" : ""));
        }
    }

    /**
     * A builder with the defaults: {@code swipl} from the PATH, a 2 s grace period, no warm pool,
     * children started from a saved state (cached in {@link Builder#stateCache}), no command prefix,
     * {@link Isolation#auto()}, a 1 GiB
     * address-space limit per child, and 16 MiB at most per protocol line.
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
        int kind = isolationPlan != null && isolation.appliesTo(options) ? 1 : 0;
        // An isolated child may serve again only after sandboxed code: unsandboxed code could have left
        // files in its private scratch space, which a fresh child would not have.
        boolean reusable = reuseChildren && poolSize > 0 && (kind == 0 || options.sandboxed());
        HarnessSession session = HarnessSession.open(id, options, () -> takeChild(kind, reusable), grace,
                () -> sessions.remove(holder[0]), name(), listener);
        holder[0] = session;
        sessions.add(session);
        session.forkWith(this::open);
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

    @Override
    public io.prologtool.PrologListener listener() {
        return listener;
    }

    /** Children waiting in the warm pools now, ready for a session. */
    public int idleChildren() {
        return pools[0].size() + pools[1].size();
    }

    /** Tells the listener how many children wait in the pools now. */
    private void poolChanged() {
        if (listener != io.prologtool.PrologListener.NONE) {
            try {
                listener.poolChanged(name(), idleChildren());
            } catch (RuntimeException e) {
                Logs.SESSION.log(System.Logger.Level.WARNING, "a PrologListener threw; the event is dropped", e);
            }
        }
    }

    /** {@code ProcessBackend[swipl /usr/bin/swipl, 2 sessions open, 3 children]}, or {@code closed}. */
    @Override
    public String toString() {
        return "ProcessBackend[swipl " + swipl + ", " + (closed ? "closed"
                : sessions.size() + " sessions open, " + children.size() + " children") + "]";
    }

    /** The saved state children start from; empty when it could not be built (they load the source). */
    Optional<Path> savedState() {
        return Optional.ofNullable(savedState);
    }

    /**
     * The OS isolation this backend gives isolated sessions, as resolved on this machine: e.g.
     * {@code "Isolation.auto()[user=65534:65534, network=false, ...]"}, or empty when sessions run
     * as the JVM's user (the {@link Isolation#none()} level, or {@link Isolation#auto()} where the tools
     * or root are missing).
     */
    public Optional<String> isolationInEffect() {
        return isolationPlan == null ? Optional.empty() : Optional.of(isolationPlan.describe());
    }

    /** The {@code swipl} this backend starts. */
    public Path swiplPath() {
        return swipl;
    }

    /** The folder this backend works in (harness files, saved state); removed on close or JVM exit. */
    Path workDir() {
        return workDir;
    }

    /** Process ids of the live children (serving sessions or waiting in a pool). */
    List<Long> childPids() {
        children.removeIf(c -> !c.inService());
        return children.stream().map(ProcessTransport::pid).toList();
    }

    /** Number of live child processes: those serving sessions and those waiting in the warm pool. */
    public int liveChildren() {
        children.removeIf(c -> !c.inService());
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
            s.close(io.prologtool.PrologListener.CloseReason.BACKEND_CLOSED);
        }
        killChildren();
        try {
            Runtime.getRuntime().removeShutdownHook(shutdownHook);
        } catch (IllegalStateException ignored) {
            // the JVM is shutting down already
        }
        TempFolders.deleteTree(workDir);
        Logs.BACKEND.log(System.Logger.Level.INFO, "process backend closed");
    }

    /**
     * A started child of {@code kind}: one from the warm pool when one is ready; else the next child
     * that joins the pool, when one is being started or checked for this session to take (a new child
     * would take as long to start as that one, and take a core from it meanwhile); else a new one. The
     * pool is refilled. With {@code reusable}, the child goes back to the pool when its session closes,
     * if it is then as clean as a fresh one ({@link #takeBack}).
     *
     * <p>A child whose session has just closed joins the pool only once its check has passed: a
     * session opened meanwhile takes a checked child rather than wait behind that check (up to about
     * 1.5 ms after an unsandboxed session, whose check covers every module). With two cores, the check
     * then runs beside the next session instead of before it: the PARARULE-Plus sample through
     * unsandboxed sessions, one after another on a pool of two, took 4.3 ms a question this way against
     * 6.3 ms when each session took the child just closed and waited for its check.
     */
    private HarnessTransport takeChild(int kind, boolean reusable) {
        ProcessTransport t = pooled(kind);
        if (t == null) {
            t = awaitPooled(kind);
        }
        if (t == null) {
            t = spawn(kind == 1);
        }
        lastTake = System.nanoTime();
        t.serveSession(reusable ? child -> takeBack(child, kind) : null);
        refillPool(kind);
        poolChanged();
        return t;
    }

    /** A live child from the pool of {@code kind}, or null when it holds none. */
    private ProcessTransport pooled(int kind) {
        ProcessTransport t;
        do {
            t = pools[kind].poll();
        } while (t != null && !t.isAlive());
        return t;
    }

    /** How long a session waits for a child being started or checked before it starts one itself. */
    private static final Duration AWAIT_POOLED = Duration.ofSeconds(1);

    /**
     * The next child to join the pool of {@code kind}, when children are being started or checked for
     * it and fewer sessions wait than there are such children; null otherwise, or after
     * {@link #AWAIT_POOLED}.
     */
    private ProcessTransport awaitPooled(int kind) {
        try {
            if (waiting[kind].incrementAndGet() > spawning[kind].get() + checking[kind].get()) {
                return null;
            }
            long until = System.nanoTime() + AWAIT_POOLED.toNanos();
            while (!closed) {
                long left = until - System.nanoTime();
                if (left <= 0) {
                    return null;
                }
                ProcessTransport t = pools[kind].poll(Math.min(left, TimeUnit.MILLISECONDS.toNanos(20)), TimeUnit.NANOSECONDS);
                if (t != null && t.isAlive()) {
                    return t;
                }
                if (t == null && spawning[kind].get() + checking[kind].get() == 0) {
                    return pooled(kind); // what was under way ended without a child for the pool
                }
            }
            return null;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return null;
        } finally {
            waiting[kind].decrementAndGet();
        }
    }

    /** The most sessions one pooled child serves ({@link Builder#reuseChildren}); then it ends and a fresh one takes its place. */
    public static final int MAX_SESSIONS_PER_CHILD = 1_000;
    /** How long the check of a child taken back may take. */
    private static final Duration RECYCLE_CHECK_TIMEOUT = Duration.ofSeconds(5);

    /**
     * A child whose session closed: checked (the child checks itself right after the close reply, and
     * the check ends on the thread that reads its replies) and put back in the pool when it is
     * clean (no session, module, thread, stream, global, flag, record, operator or clause of user left
     * that a fresh child lacks, no process left behind), there is room, and it has served fewer than
     * {@link #MAX_SESSIONS_PER_CHILD} sessions; ended otherwise, and the pool refilled. There is room
     * while the pool holds fewer than twice {@code poolSize}: sessions that overlap take children faster
     * than their checks give them back, and sessions opened one after another would otherwise start a
     * process each as before. Once sessions stop coming, {@link #trimPools} ends the extra children.
     */
    private boolean takeBack(ProcessTransport child, int kind) {
        // Children waiting for their check are running processes: never more of them than the pool holds,
        // so that sessions closing faster than the checks run end their children as before.
        if (closed || child.sessionsServed() >= MAX_SESSIONS_PER_CHILD
                || pools[kind].size() + checking[kind].get() >= 2 * poolSize) {
            return false;
        }
        checking[kind].incrementAndGet();
        // On the child's reader thread, as the check's reply comes in: no other thread to wake.
        child.checkClean().whenComplete((clean, failure) -> takenBack(child, kind, failure == null && clean));
        return true;
    }

    /** The end of a child's check ({@link #takeBack}): back to the pool when clean and there is room, else ended. */
    private void takenBack(ProcessTransport child, int kind, boolean clean) {
        boolean pooled = false;
        try {
            if (clean && !closed && pools[kind].size() < 2 * poolSize) {
                child.reopen();
                recycled.incrementAndGet(); // before a session can take it
                pools[kind].addFirst(child);
                pooled = true;
                poolChanged();
                if (closed) {
                    killPool();
                }
            } else {
                child.end();
            }
        } finally {
            checking[kind].decrementAndGet();
        }
        if (!pooled) {
            refillPool(kind);
        }
    }

    /**
     * Children taken back may fill a pool to twice its size while sessions come and go; once no session
     * has taken a child for {@link #TRIM_AFTER}, the pool goes back to {@code poolSize}.
     */
    private void trimPools() {
        if (closed || System.nanoTime() - lastTake < TRIM_AFTER.toNanos()) {
            return;
        }
        boolean trimmed = false;
        for (BlockingDeque<ProcessTransport> pool : pools) {
            ProcessTransport extra;
            while (pool.size() > poolSize && (extra = pool.pollLast()) != null) {
                extra.end();
                trimmed = true;
            }
        }
        if (trimmed) {
            poolChanged();
        }
    }

    /** Gives up the checks that took longer than {@link #RECYCLE_CHECK_TIMEOUT}: their children end. */
    private void expireChecks() {
        for (ProcessTransport child : children) {
            child.expireCheck(RECYCLE_CHECK_TIMEOUT);
        }
    }

    /** How long a pool stays above its size with no child taken: see {@link #trimPools}. */
    private static final Duration TRIM_AFTER = Duration.ofSeconds(2);

    /** Children taken back clean after a session, counted as they go back to the pool (for tests and the bench). */
    long recycledChildren() {
        return recycled.get();
    }

    private void refillPool(int kind) {
        if (closed || poolSize == 0) {
            return;
        }
        // A child under check will most likely join the pool: only what it cannot cover is started.
        while (pools[kind].size() + spawning[kind].get() + checking[kind].get() < poolSize) {
            spawning[kind].incrementAndGet();
            try {
                spawner.execute(() -> {
                    try {
                        if (!closed) {
                            ProcessTransport fresh = spawn(kind == 1);
                            if (pools[kind].size() < 2 * poolSize) {
                                pools[kind].addLast(fresh);
                                if (Logs.POOL.isLoggable(System.Logger.Level.DEBUG)) {
                                    Logs.POOL.log(System.Logger.Level.DEBUG, "pool refilled: a fresh "
                                            + (kind == 1 ? "isolated" : "plain") + " child joined, "
                                            + pools[kind].size() + " waiting");
                                }
                                poolChanged();
                            } else {
                                fresh.end(); // children taken back filled the pool meanwhile
                            }
                        }
                    } catch (RuntimeException e) {
                        // open() spawns on demand and reports the problem there
                        if (Logs.POOL.isLoggable(System.Logger.Level.DEBUG)) {
                            Logs.POOL.log(System.Logger.Level.DEBUG, "a child for the pool did not start: " + e.getMessage());
                        }
                    } finally {
                        spawning[kind].decrementAndGet();
                    }
                    if (closed) {
                        killPool();
                    }
                });
            } catch (java.util.concurrent.RejectedExecutionException e) {
                spawning[kind].decrementAndGet();
                return;
            }
        }
    }

    /**
     * Starts a child. Its stack limit is the default; each goal sets its session's own limit
     * (the stack_limit flag is per thread), so pooled children suit every session.
     *
     * <p>The command line, outside in: {@code setsid} (the child leads a process group, killed as a
     * whole), then either the isolation launcher or the address-space limit and the user's command
     * prefix, then swipl. A local child starts from the saved state (an isolated one gets it as fd 3,
     * since the folder is not its to read); any other gets the harness text on stdin.
     */
    private ProcessTransport spawn(boolean isolated) {
        if (closed) {
            throw new HarnessCrashedException("the backend is closed");
        }
        List<String> cmd = new ArrayList<>();
        if (setsid != null) {
            cmd.add(setsid.toString());
        }
        boolean local;
        String state = null;
        if (isolated && isolationPlan.viaFd3()) {
            cmd.addAll(isolationPlan.prefix());
            cmd.add("sh"); // the script's $0
            local = true;
            if (savedState != null) {
                state = "/proc/self/fd/3";
                cmd.add(savedState.toString());
            } else {
                cmd.add("");
            }
        } else if (isolated) {
            cmd.addAll(isolationPlan.prefix());
            local = false;
        } else {
            local = commandPrefix.isEmpty();
            if (addressSpaceLimit > 0) {
                if (prlimit != null) {
                    cmd.add(prlimit.toString());
                    cmd.add("--as=" + addressSpaceLimit);
                } else {
                    cmd.addAll(List.of("sh", "-c", "ulimit -v " + (addressSpaceLimit >> 10) + " && exec \"$@\"", "sh"));
                }
            }
            cmd.addAll(commandPrefix);
            if (local && savedState != null) {
                state = savedState.toString();
            }
        }
        int prefixLength = cmd.size();
        cmd.add(swipl.toString());
        if (state != null) {
            cmd.add("-x");
            cmd.add(state);
        }
        cmd.add("--stack-limit=" + (SessionOptions.DEFAULT_STACK_LIMIT >> 10) + "k");
        cmd.addAll(List.of("-q", "--no-packs", "--no-tty", "-f", "none"));
        if (state == null) {
            cmd.addAll(List.of("-g", Harness.BOOTSTRAP_GOAL));
        }
        // the toplevel goal, which SWI-Prolog starts again when an abort ends it (the harness's serve/0)
        cmd.addAll(List.of("-t", Harness.SERVE_GOAL));
        // an isolating prefix of the application's own (Isolation.custom) that starts with ssh is quoted too
        if (isolated ? !isolationPlan.viaFd3() && startsWithSsh(isolationPlan.prefix()) : remoteShell) {
            for (int i = prefixLength; i < cmd.size(); i++) {
                cmd.set(i, shellQuoted(cmd.get(i)));
            }
        }
        ProcessBuilder pb = new ProcessBuilder(cmd).directory(workDir.toFile());
        pb.environment().put("LANG", "C.UTF-8");
        // A local child's temporary files (SWI-Prolog's tmp_dir, from TMP) go to a folder of its own,
        // deleted when it ends however it ends; an isolated child has a private /tmp of its own already.
        Path tmp = null;
        if (local && !isolated) {
            tmp = workDir.resolve("tmp-" + childCount.incrementAndGet());
            try {
                Files.createDirectory(tmp);
                pb.environment().put("TMP", tmp.toString());
            } catch (IOException e) {
                tmp = null; // the child uses the system's temporary directory, as swipl does by default
            }
        }
        Process p;
        try {
            p = pb.start();
        } catch (IOException e) {
            TempFolders.deleteTree(tmp);
            throw new PrologUnavailableException("cannot start " + String.join(" ", cmd.subList(0, prefixLength + 1))
                    + " (" + PrologUnavailableException.INSTALL_SWIPL + "): " + e.getMessage(), e);
        }
        if (tmp != null) {
            Path childTmp = tmp;
            p.onExit().thenRun(() -> TempFolders.deleteTree(childTmp));
        }
        ProcessTransport t = new ProcessTransport(p, state == null ? Harness.bootstrapText() : null, maxReplyBytes,
                setsid != null ? killCommand : null);
        children.add(t);
        children.removeIf(c -> !c.inService());
        return t;
    }

    /** Whether {@code prefix} is an ssh command: its first word names {@code ssh}. */
    static boolean startsWithSsh(List<String> prefix) {
        return !prefix.isEmpty() && Path.of(prefix.get(0)).getFileName().toString().equals("ssh");
    }

    /** {@code word} as one word of a POSIX shell's command line: single-quoted, quotes inside escaped. */
    static String shellQuoted(String word) {
        return "'" + word.replace("'", "'\\''") + "'";
    }

    /**
     * Refuses a {@code swiplPath} that is not SWI-Prolog: {@code swipl --version} must say
     * {@code SWI-Prolog version}.
     *
     * @throws PrologUnavailableException in one sentence naming the path and what to do
     */
    static void requireSwiProlog(Path swipl) {
        String said;
        try {
            Process p = new ProcessBuilder(swipl.toString(), "--version").redirectErrorStream(true).start();
            p.getOutputStream().close();
            byte[] head = p.getInputStream().readNBytes(4096);
            if (!p.waitFor(30, TimeUnit.SECONDS)) {
                p.destroyForcibly();
            }
            said = new String(head, StandardCharsets.UTF_8).strip();
        } catch (IOException e) {
            throw new PrologUnavailableException("swipl at " + swipl + " could not be started (" + e.getMessage()
                    + "); name SWI-Prolog's swipl with swiplPath(...) or " + PrologUnavailableException.INSTALL_SWIPL, e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new PrologUnavailableException("interrupted while asking " + swipl + " for its version", e);
        }
        if (!said.startsWith("SWI-Prolog version")) {
            String firstLine = said.lines().findFirst().orElse("");
            throw new PrologUnavailableException(swipl + " is not SWI-Prolog (`" + swipl + " --version` said \""
                    + (firstLine.length() > 80 ? firstLine.substring(0, 80) + "..." : firstLine)
                    + "\"); name SWI-Prolog's swipl with swiplPath(...) or " + PrologUnavailableException.INSTALL_SWIPL);
        }
    }

    /**
     * The saved state children start from: the one cached in {@code cache} for this {@code swipl} and harness
     * ({@link SavedStateCache}), compiled there on the first start on a machine; or, without a cache or
     * when it cannot be used, one compiled into this backend's folder. Null when neither can be compiled;
     * children then load the harness source.
     */
    private Path savedState(Path cache) {
        if (cache != null) {
            String version = Logs.swiplVersion(swipl);
            Optional<Path> cached = Optional.empty();
            try {
                if (!version.equals("unknown")) {
                    cached = SavedStateCache.stateFor(cache, "harness",
                            SavedStateCache.key(version, swipl.toRealPath().toString()), this::compileState);
                }
            } catch (IOException e) {
                // no real path: no cache
            }
            if (cached.isPresent()) {
                return cached.get();
            }
        }
        Path state = workDir.resolve("harness.state");
        if (!compileState(state)) {
            return null;
        }
        try {
            // Isolated children (another user) read it through a descriptor their launcher opened.
            Files.setPosixFilePermissions(state, java.nio.file.attribute.PosixFilePermissions.fromString("rw-r--r--"));
        } catch (IOException | UnsupportedOperationException e) {
            return null;
        }
        return state;
    }

    /**
     * Compiles the harness with its libraries into a saved state at {@code state} ({@code swipl -o STATE -c
     * harness.pl}), so that children start in tens of milliseconds instead of loading sources; whether it
     * was written.
     */
    private boolean compileState(Path state) {
        List<String> cmd = List.of(swipl.toString(), "-q", "--no-packs", "-f", "none", "-o", state.toString(),
                "-c", harnessFile.toString());
        try {
            Process p = new ProcessBuilder(cmd).directory(workDir.toFile()).redirectErrorStream(true)
                    .redirectOutput(ProcessBuilder.Redirect.DISCARD).start();
            if (p.waitFor(60, TimeUnit.SECONDS) && p.exitValue() == 0 && Files.isRegularFile(state)) {
                return true;
            }
            p.destroyForcibly();
        } catch (IOException e) {
            return false;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        return false;
    }

    private void killPool() {
        for (BlockingDeque<ProcessTransport> pool : pools) {
            ProcessTransport t;
            while ((t = pool.poll()) != null) {
                t.kill();
            }
        }
    }

    private void killChildren() {
        killPool();
        for (ProcessTransport c : List.copyOf(children)) {
            c.kill();
        }
        children.clear();
    }

    /** Builds a {@link ProcessBackend}. */
    public static final class Builder {
        private Path swipl;
        private Duration grace = HarnessSession.DEFAULT_GRACE;
        private List<String> commandPrefix = List.of();
        private Boolean remoteShell;
        private int poolSize;
        private final List<io.prologtool.PrologListener> listeners = new java.util.ArrayList<>();
        private boolean reuseChildren = true;
        private boolean savedState = true;
        private Path stateCache = SavedStateCache.defaultFolder();
        private long maxReplyBytes = DEFAULT_MAX_REPLY_BYTES;
        private long addressSpaceLimit = DEFAULT_ADDRESS_SPACE_LIMIT;
        private Isolation isolation = Isolation.auto();

        private Builder() {
        }

        /**
         * OS isolation of sessions' children (default {@link Isolation#auto()}: sandboxed sessions run
         * as an unprivileged user, with no network, a private {@code /tmp} and an address-space limit,
         * where the machine allows it). {@link Isolation#none()} turns it off, {@link Isolation#required()}
         * makes {@link #build()} fail where it cannot be had.
         */
        public Builder isolation(Isolation isolation) {
            this.isolation = Objects.requireNonNull(isolation, "isolation");
            return this;
        }

        /**
         * The longest line a child may write on its protocol stream (default 16 MiB, at least 64 KiB,
         * at most 1 GiB). A child that writes a longer one (a goal writing to the real standard output
         * without newlines) is stopped and its session reports {@code session_crashed}; the JVM never
         * buffers more than this for it.
         */
        public Builder maxReplyBytes(long bytes) {
            if (bytes < (64L << 10) || bytes > (1L << 30)) {
                throw new IllegalArgumentException("maxReplyBytes must be 64 KiB..1 GiB, was " + bytes);
            }
            this.maxReplyBytes = bytes;
            return this;
        }

        /**
         * Address-space limit of every child not otherwise isolated (default 1 GiB; 0 for none), set
         * with {@code prlimit --as} (or the shell's {@code ulimit -v}). A child that reaches it gets
         * allocation failures (Prolog resource errors) instead of taking the machine's memory.
         * Isolated children take theirs from {@link Isolation#addressSpaceBytes(long)}.
         */
        public Builder addressSpaceLimit(long bytes) {
            if (bytes != 0 && bytes < (256L << 20)) {
                throw new IllegalArgumentException("addressSpaceLimit must be 0 or at least 256 MiB, was " + bytes);
            }
            this.addressSpaceLimit = bytes;
            return this;
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
         * Whether a pooled child may serve again after its session closed (default true; needs a
         * {@link #poolSize pool}). It does only when it is as clean as a fresh child: the harness
         * compares its state with the state it started in (sessions, modules, threads, streams,
         * globals, flags, records, operators, the clauses of {@code user}, the working directory) and
         * no process the session started is left. After an unsandboxed session it also checks that nothing
         * outside the session's module changed: the clauses of every other module ({@code system},
         * {@code user}, {@code prolog}, the libraries), multifile hooks, import modules and format
         * directives (trusted code that names a module built at run time reaches them; a sandboxed session
         * cannot, and skips this part). Otherwise, and after
         * {@value #MAX_SESSIONS_PER_CHILD} sessions, the child ends and a fresh one takes its place.
         * An isolated child serves again only after a sandboxed session. Closing a session then costs
         * a close request instead of a process; the check runs in the background.
         */
        public Builder reuseChildren(boolean reuse) {
            this.reuseChildren = reuse;
            return this;
        }

        /**
         * Adds a listener that hears every session this backend opens (see
         * {@link io.prologtool.PrologListener}), and the warm pool's size as it changes; may be called
         * more than once. Without one (the default), nothing is built for listeners.
         */
        public Builder listener(io.prologtool.PrologListener listener) {
            listeners.add(Objects.requireNonNull(listener, "listener"));
            return this;
        }

        /**
         * Keep {@code n} children started and loaded ahead of demand (default 0: start one per
         * {@link #open}). With a pool, a child whose session closed cleanly goes back to it and serves
         * a later session, unless {@link #reuseChildren(boolean) reuseChildren(false)}; without one,
         * a child serves one session and ends with it.
         */
        public Builder poolSize(int n) {
            if (n < 0 || n > 256) {
                throw new IllegalArgumentException("poolSize must be 0..256, was " + n);
            }
            this.poolSize = n;
            return this;
        }

        /**
         * A command that starts each child that is not isolated, put before the {@code swipl} command
         * line: e.g. {@code List.of("ssh", "-T", "host")}, {@code List.of("docker", "exec", "-i", "box")},
         * {@code List.of("kubectl", "exec", "-i", "pod", "--")} or
         * {@code List.of("setpriv", "--reuid=65534", "--regid=65534", "--clear-groups")}. The prefix must
         * pass stdin, stdout and stderr through and run the rest of the line. The harness is sent over
         * stdin, so nothing needs to be shared with the far side but the pipe. (For isolated sessions,
         * see {@link Isolation#custom(List)}.)
         */
        public Builder commandPrefix(List<String> prefix) {
            Objects.requireNonNull(prefix, "prefix");
            prefix.forEach(p -> Objects.requireNonNull(p, "prefix element"));
            this.commandPrefix = List.copyOf(prefix);
            return this;
        }

        /**
         * Whether the {@link #commandPrefix} hands the rest of the command line to a shell on the far side
         * as one line, as {@code ssh} does (it joins its arguments with spaces for the remote login shell):
         * then each word after the prefix is quoted for a POSIX shell, so that the harness's goals reach
         * {@code swipl} as they are. Default: true when the prefix's first word is {@code ssh}, false
         * otherwise ({@code docker exec}, {@code kubectl exec} and {@code setpriv} pass their arguments on
         * as they are). An {@link Isolation#custom} prefix whose first word is {@code ssh} is quoted the
         * same way.
         */
        public Builder remoteShell(boolean quoted) {
            this.remoteShell = quoted;
            return this;
        }

        /**
         * Whether local children start from a saved state of the harness (default true: about 20 ms
         * per child instead of 300-500 ms). Children started through a {@link #commandPrefix} or a
         * {@link Isolation#custom} prefix always get the harness text on stdin instead.
         */
        public Builder savedState(boolean use) {
            this.savedState = use;
            return this;
        }

        /**
         * The folder where the saved state is kept between JVMs (default {@code $XDG_CACHE_HOME/prologtool},
         * or {@code ~/.cache/prologtool}): the first backend on a machine compiles it there (about a second),
         * later ones, in this JVM or another, start from it. One file per harness and SWI-Prolog version,
         * a new one when either changes; states unused for 30 days are deleted. Only a folder of this user
         * that no one else may write is used; for any other, or {@code null}, each backend compiles a state
         * of its own.
         */
        public Builder stateCache(Path folder) {
            this.stateCache = folder;
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

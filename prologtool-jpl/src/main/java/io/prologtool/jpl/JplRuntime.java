package io.prologtool.jpl;

import com.sun.jna.Library;
import com.sun.jna.NativeLibrary;
import io.prologtool.PrologToolException;
import io.prologtool.PrologUnavailableException;
import io.prologtool.jpl.internal.JplBridge;
import io.prologtool.jpl.internal.JplCallException;
import io.prologtool.spi.Harness;
import io.prologtool.spi.HarnessTimeoutException;
import io.prologtool.spi.SavedStateCache;
import io.prologtool.spi.TempFolders;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;

/**
 * The one embedded SWI-Prolog of this JVM, with the harness loaded, and the threads that may talk to
 * it.
 *
 * <p>Threads. Each worker thread attaches a Prolog engine of its own for its whole life (not one of
 * JPL's pool of ten, which JPL lends a thread for the length of its outermost query: an engine that moves
 * between OS threads from one query to the next can trip SWI-Prolog's C-stack check, seen here as
 * {@code stack_avail: Assertion failed: here > info->c_stack_base}, which aborts the JVM). Every request
 * runs on a worker's engine, on the worker's thread, whose C stack is 256 MiB (reserved, not committed):
 * SWI-Prolog's C code recurses on nested terms, and a JVM cannot survive a C-stack overflow. Requests
 * wait for a worker in one FIFO queue, so callers are served in order and never block inside JPL. The
 * control thread initialises JPL (and so holds the main engine), loads the harness, and sends
 * interrupts.
 *
 * <p>Abandoned workers. A request that has not ended a little after its caller's bound (the call's
 * budget) is abandoned: its caller gets a timeout, another worker starts in its place, and the
 * abandoned worker, interrupted again and again, ends with its engine once the request does. So a goal
 * that ignores every limit never takes a worker from the others. Requests that run no user code and end
 * within a bound of their own (a session's open and close, see {@link #submitUntimed}) are never
 * interrupted or abandoned.
 *
 * <p>Limits. A request that overruns its Prolog-side time limit is interrupted from the control
 * thread (time_limit_exceeded thrown into its worker) until it ends: a sweep every 20 ms, which runs
 * only while such calls run, looks for calls past their deadline or their budget, so a call itself
 * schedules nothing. The caller does not wait for that: {@link Call#await} gives up at the caller's
 * bound.
 */
final class JplRuntime {

    /**
     * A bound of our own on the workers (each a thread with its own engine and C stack), not JPL's: the
     * workers do not use JPL's pool of ten engines.
     */
    static final int MAX_WORKERS = 64;
    static final int DEFAULT_WORKERS = 8;
    /** Calls that may wait for a worker; beyond it a call fails at once. */
    static final int QUEUE_CAPACITY = 10_000;

    /**
     * C stack of the control thread: SWI-Prolog's C code recurses on deep terms (copying, comparing,
     * writing them) and is used to the 8 MiB of a native thread rather than a Java thread's 1 MiB. The
     * memory is reserved, not committed.
     */
    private static final long C_STACK_BYTES = 16L << 20;
    /**
     * C stack of a worker, which runs the requests: far more than what the harness's depth limits let
     * SWI-Prolog's recursive C code use. Reserved, not committed: only what a request touches becomes
     * memory.
     */
    private static final long WORKER_STACK_BYTES = 256L << 20;
    private static final int RTLD_NOW = 0x2;
    private static final int RTLD_GLOBAL = 0x100;
    private static final Duration START_BOUND = Duration.ofMinutes(2);
    private static final String ENTRY_RESOURCE = "io/prologtool/jpl/prologtool_jpl.pl";
    private static final String ENTRY_MODULE = "prologtool_jpl";
    /** Changes when what the embedded Prolog's saved state holds changes in a way its key does not see. */
    private static final String STATE_FORMAT = "jpl-1";

    private static final Object LOCK = new Object();
    private static JplRuntime instance;
    private static RuntimeException failure;
    /** Keeps libswipl loaded with RTLD_GLOBAL for the life of the JVM. */
    @SuppressWarnings("unused")
    private static NativeLibrary libswipl;

    /**
     * JVM-wide settings; null fields mean "the default" (and so agree with any running value). The state
     * cache matters only to the start ({@link JplBackend.Builder#stateCache}); null means none.
     */
    record Settings(Path swipl, Integer workers, Path stateCache) {
    }

    private final SwiplInstallation installation;
    /** JPL's API, with its classes from the installation (see {@link JplClasses}). */
    private final JplBridge jpl;
    private final int workers;
    private final Settings settings;
    /** The saved state the embedded Prolog started from; null when it loaded the harness's sources. */
    private volatile Path startedFrom;
    private final ScheduledThreadPoolExecutor control;
    private final HandoffQueue<Call> queue = new HandoffQueue<>(QUEUE_CAPACITY);
    private final AtomicLong tickets = new AtomicLong();
    private final AtomicInteger running = new AtomicInteger();
    /** Calls queued or running: polling (see {@link #POLL_NANOS}) is worth it only while a core is free. */
    private final AtomicInteger inFlight = new AtomicInteger();
    /**
     * Calls running with an interrupt deadline, abandoned or not, until their worker returns from them;
     * the control thread's sweep looks at them.
     */
    private final Set<Call> watched = ConcurrentHashMap.newKeySet();
    /** Whether a sweep is scheduled; it stops when no call runs, so an idle JVM has no timer. */
    private final AtomicBoolean sweeping = new AtomicBoolean();
    /** Numbers the worker threads, replacements included. */
    private final AtomicInteger workerNames = new AtomicInteger();
    /** When a worker last handed a reply over ({@link System#nanoTime()}). */
    private volatile long repliedAt = System.nanoTime() - Duration.ofDays(1).toNanos();
    /** How long after the last reply the last request came, in nanoseconds: whether workers poll ({@link #pollFor}). */
    private volatile long gap = Long.MAX_VALUE;
    /** Workers that were abandoned and whose request still runs. */
    private final AtomicInteger abandoned = new AtomicInteger();

    private JplRuntime(SwiplInstallation installation, JplBridge jpl, Settings settings) {
        this.installation = installation;
        this.jpl = jpl;
        this.workers = settings.workers() != null ? settings.workers() : DEFAULT_WORKERS;
        this.settings = settings;
        this.control = new ScheduledThreadPoolExecutor(1, r -> daemon(r, "prologtool-jpl-control"));
        this.control.setRemoveOnCancelPolicy(true);
    }

    /**
     * How often the control thread looks for calls past their interrupt deadline. Interrupts are a
     * backstop behind the Prolog-side time limit (they come 100 ms to 1 s after it), so a coarse sweep
     * is enough, and calls made while it runs schedule nothing: a timer per call woke the control thread
     * twice per request (about 40 us each on two cores).
     */
    private static final Duration SWEEP = Duration.ofMillis(20);

    /**
     * How long a worker that has just replied polls for its next request before it blocks, when polling
     * paid the last time (see {@link #pollFor}). Waking a parked thread costs about 33 us and 24 us of CPU
     * on two cores (a park/unpark ping-pong between two threads takes 67 us and 48 us of CPU), about a
     * fifth of a whole trivial request; a worker whose next request comes within this bound saves that
     * by polling. It polls with {@link Thread#yield()}, so any other runnable thread (a caller, another
     * process) gets the core first, and only while a core is free (fewer calls in flight than cores).
     *
     * <p>A caller never polls: it would burn a core for as long as its request runs (the worker works
     * on the other), twice the CPU of the request; it blocks at once and is woken with the reply.
     */
    static final long POLL_NANOS = 150_000;
    /** How often a caller waiting for its call to start looks whether it did (see {@link Call#awaitStart}). */
    static final Duration START_LOOK = Duration.ofMillis(20);
    private static final int CORES = Runtime.getRuntime().availableProcessors();

    /**
     * The runtime of this JVM, started on first use.
     *
     * @throws PrologUnavailableException when SWI-Prolog or JPL is missing or does not start
     * @throws IllegalStateException      when it already runs with settings that conflict
     */
    static JplRuntime get(Settings wanted) {
        synchronized (LOCK) {
            if (instance != null) {
                instance.checkCompatible(wanted);
                return instance;
            }
            if (failure != null) {
                throw failure instanceof PrologUnavailableException u
                        ? new PrologUnavailableException(u.getMessage(), u)
                        : new PrologToolException("the embedded SWI-Prolog failed to start earlier: "
                        + failure.getMessage(), failure);
            }
            SwiplInstallation inst = SwiplInstallation.locate(wanted.swipl());
            JplBridge bridge = JplClasses.bridge(inst); // nothing native yet: a missing jar may be installed later
            JplRuntime rt = new JplRuntime(inst, bridge, wanted);
            try {
                rt.start();
            } catch (RuntimeException e) {
                rt.control.shutdownNow();
                failure = e; // native state may be half set up: JPL cannot be initialised twice
                throw e;
            }
            instance = rt;
            return rt;
        }
    }

    private void checkCompatible(Settings wanted) {
        if (wanted.swipl() != null && !sameFile(wanted.swipl(), installation.swipl())) {
            throw new IllegalStateException("the embedded SWI-Prolog of this JVM already runs from "
                    + installation.swipl() + "; one SWI-Prolog per JVM, so swiplPath(" + wanted.swipl()
                    + ") cannot apply");
        }
        if (wanted.workers() != null && wanted.workers() != workers) {
            throw new IllegalStateException("the embedded SWI-Prolog of this JVM already runs with "
                    + workers + " concurrent calls; maxConcurrentCalls(" + wanted.workers() + ") cannot apply");
        }
    }

    private static boolean sameFile(Path a, Path b) {
        return a.toAbsolutePath().normalize().equals(b.toAbsolutePath().normalize());
    }

    SwiplInstallation installation() {
        return installation;
    }

    int workers() {
        return workers;
    }

    /** The class loader that JPL's classes came from (the installation's jar, or the classpath). */
    ClassLoader jplClassLoader() {
        try {
            return Class.forName("org.jpl7.JPL", false, jpl.getClass().getClassLoader()).getClassLoader();
        } catch (ClassNotFoundException e) {
            throw new IllegalStateException("JPL's classes vanished", e);
        }
    }

    /** Calls running in Prolog now (including calls whose callers gave up on them). */
    int running() {
        return running.get();
    }

    // ---------------------------------------------------------------- start

    private void start() {
        runOnControl(this::initialise);
        CountDownLatch ready = new CountDownLatch(workers);
        AtomicReference<Throwable> workerFailure = new AtomicReference<>();
        for (int i = 1; i <= workers; i++) {
            startWorker(ready, workerFailure);
        }
        try {
            if (!ready.await(START_BOUND.toMillis(), TimeUnit.MILLISECONDS)) {
                throw new PrologToolException("the embedded SWI-Prolog's " + workers + " worker engines did not "
                        + "start within " + START_BOUND.toSeconds() + " s");
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new PrologToolException("interrupted while starting the embedded SWI-Prolog", e);
        }
        if (workerFailure.get() != null) {
            throw new PrologToolException("a worker engine of the embedded SWI-Prolog did not start: "
                    + workerFailure.get(), workerFailure.get());
        }
    }

    /** On the control thread: native libraries, JPL, flags, the harness. */
    private void initialise() {
        try {
            // JPL loads libjpl (and through it libswipl) with RTLD_LOCAL: the foreign libraries SWI-Prolog
            // loads later (time.so, json.so, ...) would not find libswipl's symbols. Opening libswipl
            // first with RTLD_GLOBAL makes them visible to every later library (FACTS, "JPL").
            libswipl = NativeLibrary.getInstance(installation.libswipl().toString(),
                    Map.of(Library.OPTION_OPEN_FLAGS, RTLD_NOW | RTLD_GLOBAL));
        } catch (UnsatisfiedLinkError e) {
            throw SwiplInstallation.unavailable("SWI-Prolog's library " + installation.libswipl()
                    + " could not be loaded (" + e.getMessage() + ")", e);
        }
        Path state = cachedState(settings.stateCache());
        List<String> args = new ArrayList<>(List.of("swipl"));
        if (state != null) {
            args.addAll(List.of("-x", state.toString()));  // the harness compiled in: no source to load
        }
        args.addAll(List.of("--home=" + installation.home(), "--no-signals", "--no-packs", "--no-tty",
                "-q", "-f", "none", "-g", "true"));
        try {
            jpl.init(installation.libjpl(), args.toArray(String[]::new));
        } catch (UnsatisfiedLinkError e) {
            throw SwiplInstallation.unavailable("JPL's library " + installation.libjpl()
                    + " could not be loaded (" + e.getMessage() + ")", e);
        } catch (RuntimeException e) {
            throw SwiplInstallation.unavailable("SWI-Prolog could not be started in this JVM (" + e + ")", e);
        }
        // A failure inside JPL would otherwise enter the debugger, which reads stdin (FACTS, "JPL").
        require(jpl.hasSolution("set_prolog_flag(debug_on_error, false)"), "set debug_on_error");
        // A saved state starts with autoloading off; sessions rely on it (member/2, call_with_time_limit/2).
        require(jpl.hasSolution("set_prolog_flag(autoload, true)"), "set autoload");
        // Temporary files go to a folder of this JVM's: a session deletes those it made when it closes,
        // the folder goes when the JVM exits, and the next JVM sweeps it away if this one is killed.
        Path tmp = temporaryFolder();
        if (tmp != null) {
            require(jpl.hasSolution("set_prolog_flag(tmp_dir, " + quoted(tmp) + ")"), "set tmp_dir");
        }
        if (state == null) {
            Path dir = null;
            try {
                dir = TempFolders.create("prologtool-jpl-");
                load(Harness.extractTo(dir));
                load(writeEntry(dir));
            } catch (IOException e) {
                throw new UncheckedIOException("cannot write the Prolog harness to a temporary directory", e);
            } finally {
                TempFolders.deleteTree(dir);
            }
        }
        require(jpl.hasSolution("current_predicate(prologtool_harness:handle_request/2), "
                + "current_predicate(prologtool_jpl:request/3)"), "load the harness (see the errors above)");
        require(jpl.hasSolution("prologtool_jpl:setup_engine"), "set up the main engine");
        startedFrom = state;
    }

    /**
     * The embedded Prolog's folder of temporary files ({@link TempFolders}), deleted when the JVM exits;
     * null when it cannot be made (SWI-Prolog's default, the system's temporary directory, is kept).
     */
    private static Path temporaryFolder() {
        try {
            Path dir = TempFolders.create("prologtool-jpl-tmp-");
            Runtime.getRuntime().addShutdownHook(new Thread(() -> TempFolders.deleteTree(dir),
                    "prologtool-jpl-tmp-delete"));
            return dir;
        } catch (IOException | RuntimeException e) {
            return null;
        }
    }

    /** The entry module's source (prologtool_jpl.pl) written into {@code dir}. */
    private static Path writeEntry(Path dir) throws IOException {
        Path entry = dir.resolve("prologtool_jpl.pl");
        Files.write(entry, entryText().getBytes(StandardCharsets.UTF_8));
        return entry;
    }

    private static String entryText() {
        try (InputStream in = JplRuntime.class.getClassLoader().getResourceAsStream(ENTRY_RESOURCE)) {
            if (in == null) {
                throw new PrologToolException("the resource " + ENTRY_RESOURCE + " is missing from the classpath");
            }
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read " + ENTRY_RESOURCE, e);
        }
    }

    /**
     * The saved state the embedded Prolog starts from: the harness and the entry module compiled, cached
     * in {@code folder} ({@link SavedStateCache}, kind {@code jpl}) and compiled there by {@code swipl} on
     * the first start on a machine (about a second). Starting from it takes tens of milliseconds where
     * loading the sources took about 0.3 s. Null without a cache, or when the state cannot be made there:
     * the sources are loaded as before.
     */
    private Path cachedState(Path folder) {
        if (folder == null || installation.version().equals("unknown")) {
            return null;
        }
        try {
            String key = SavedStateCache.key(STATE_FORMAT, installation.version(),
                    installation.libswipl().toRealPath().toString(), installation.swipl().toRealPath().toString(),
                    entryText());
            return SavedStateCache.stateFor(folder, "jpl", key, this::compileState).orElse(null);
        } catch (IOException e) {
            return null;
        }
    }

    /**
     * Compiles the harness and the entry module into a saved state at {@code state} with this
     * installation's {@code swipl}, and checks that a Prolog started from it has both; whether it did.
     */
    private boolean compileState(Path state) {
        Path dir = null;
        try {
            dir = TempFolders.create("prologtool-jpl-state-");
            Path harness = Harness.extractTo(dir);
            Path entry = writeEntry(dir);
            // the entry module arms the harness's refusal of halt; the compiling swipl takes it back to end
            String compile = "load_files([" + quoted(harness) + ", " + quoted(entry) + "], [silent(true)]), "
                    + "qsave_program(" + quoted(state) + ", [goal(true), toplevel(halt)]), "
                    + "retract(prologtool_harness:halt_armed)";
            String check = "current_predicate(prologtool_harness:handle_request/2), "
                    + "current_predicate(prologtool_jpl:request/3), retract(prologtool_harness:halt_armed), "
                    + "write(state_ok)";
            return swipl(dir, List.of("-q", "--no-packs", "-f", "none", "-g", compile, "-t", "halt")) != null
                    && "state_ok".equals(swipl(dir, List.of("-x", state.toString(), "-q", "--no-packs", "-f", "none",
                    "-g", check, "-t", "halt")));
        } catch (IOException e) {
            return false;
        } finally {
            TempFolders.deleteTree(dir);
        }
    }

    /**
     * Runs this installation's {@code swipl} with {@code args} in {@code dir}: what it wrote on its standard
     * output, or null when it did not end with status 0 within a minute.
     */
    private String swipl(Path dir, List<String> args) {
        List<String> cmd = new ArrayList<>();
        cmd.add(installation.swipl().toString());
        cmd.addAll(args);
        try {
            Path out = Files.createTempFile(dir, "swipl-", ".out");
            Process p = new ProcessBuilder(cmd).directory(dir.toFile()).redirectError(ProcessBuilder.Redirect.DISCARD)
                    .redirectOutput(out.toFile()).start();
            if (!p.waitFor(60, TimeUnit.SECONDS)) {
                p.destroyForcibly();
                return null;
            }
            return p.exitValue() == 0 ? Files.readString(out, StandardCharsets.UTF_8).strip() : null;
        } catch (IOException e) {
            return null;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return null;
        }
    }

    private static String quoted(Path file) {
        return "'" + file.toAbsolutePath().toString().replace("\\", "\\\\").replace("'", "\\'") + "'";
    }

    /** The saved state the embedded Prolog started from, if it did ({@link #cachedState}). */
    Optional<Path> startedFrom() {
        return Optional.ofNullable(startedFrom);
    }

    private void load(Path file) {
        try {
            require(jpl.loadFile(file), "load " + file.getFileName());
        } catch (JplCallException e) {
            throw new PrologToolException("the embedded SWI-Prolog could not load " + file.getFileName() + ": "
                    + e.getMessage(), e);
        }
    }

    private static void require(boolean ok, String what) {
        if (!ok) {
            throw new PrologToolException("the embedded SWI-Prolog could not " + what);
        }
    }

    // ---------------------------------------------------------------- workers

    private void startWorker(CountDownLatch ready, AtomicReference<Throwable> failed) {
        Thread t = new Thread(null, () -> workerLoop(ready, failed),
                "prologtool-jpl-worker-" + workerNames.incrementAndGet(), WORKER_STACK_BYTES);
        t.setDaemon(true);
        t.start();
    }

    private void workerLoop(CountDownLatch ready, AtomicReference<Throwable> failed) {
        Runnable destroyEngine = null;
        try {
            destroyEngine = jpl.attachEngine();
            oneShot("prologtool_jpl:setup_engine");
        } catch (Throwable t) {
            failed.compareAndSet(null, t);
            ready.countDown();
            if (destroyEngine != null) {
                destroyEngine.run();
            }
            return;
        }
        ready.countDown();
        long poll = 0;
        boolean announced = false;
        try {
            while (true) {
                Call c = queue.take(poll, announced);
                announced = true; // from the next round on, by pollFor
                if (!c.begin()) {
                    poll = 0;
                    announced = false;
                    continue; // its caller gave up waiting for a worker
                }
                running.incrementAndGet();
                String reply = null;
                Throwable failure = null;
                try {
                    if (c.firstInterruptNanos > 0) {
                        long now = System.nanoTime();
                        c.interruptAt = now + c.firstInterruptNanos;
                        c.abandonAt = now + c.budgetNanos;
                        watched.add(c);
                        if (!sweeping.get() && sweeping.compareAndSet(false, true)) {
                            control.schedule(this::sweep, SWEEP.toNanos(), TimeUnit.NANOSECONDS);
                        }
                    }
                    reply = jpl.request(ENTRY_MODULE, c.ticket, c.text);
                } catch (Throwable t) {
                    failure = t;
                } finally {
                    watched.remove(c);
                    running.decrementAndGet();
                }
                // Finished before the caller learns the reply: its next request (a close) must see
                // this call as ended, or it would be deferred for nothing.
                if (!c.finish()) {
                    abandoned.decrementAndGet();
                    return; // abandoned: its caller has its answer and another worker took this one's place
                }
                // decided (and announced) before the reply is handed over: see HandoffQueue.announceTake
                poll = pollFor();
                repliedAt = System.nanoTime();
                if (failure == null) {
                    c.complete(reply);
                } else {
                    c.fail(failure);
                }
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } finally {
            destroyEngine.run();
        }
    }

    /**
     * How long a worker that has just finished a call polls for its next request, announced to the queue
     * (see {@link HandoffQueue#announceTake}): only when polling pays, that is a core is free
     * and the last request came within {@link #POLL_NANOS} after the reply before it (calls back to back,
     * a batch: see {@link #gap}). When requests come further apart (an agent that thinks between calls, a
     * server's sparse requests), polling would only burn the bound after every reply, so the worker parks
     * at once; the gap is measured on every request, and workers poll again once requests come close.
     */
    private long pollFor() {
        long poll = gap >= POLL_NANOS || inFlight.get() >= CORES ? 0 : POLL_NANOS;
        queue.announceTake(poll);
        return poll;
    }

    private void oneShot(String goal) {
        if (!jpl.hasSolution(goal)) {
            throw new PrologToolException("the goal " + goal + " failed");
        }
    }

    // ---------------------------------------------------------------- interrupts

    /**
     * On the control thread, every {@link #SWEEP} while calls run: abandon each call past its budget
     * (its caller gets a timeout and a new worker takes its worker's place), and interrupt each call
     * past its deadline, then again after 1 s, 2 s, ... (at most every 10 s) until its worker returns
     * from it. When no such call runs the sweep stops; the next call that needs one starts it again. (A
     * worker adds its call before it looks at {@link #sweeping}, and the sweep clears it before it looks
     * at the calls once more, so a call is never left without a sweep.)
     */
    private void sweep() {
        long now = System.nanoTime();
        for (Call c : watched) {
            if (now - c.abandonAt >= 0 && c.abandon()) {
                abandoned.incrementAndGet();
                // nobody waits for the replacement: one that cannot start leaves a worker fewer, and the
                // calls go to the others
                startWorker(new CountDownLatch(1), new AtomicReference<>());
                c.fail(new HarnessTimeoutException("the request did not stop at its time limit; the thread "
                        + "running it was left to end on its own and the session goes on"));
            }
            if (now - c.interruptAt < 0) {
                continue;
            }
            interrupt(c.ticket);
            c.interruptAt = now + c.interruptPeriod;
            c.interruptPeriod = Math.min(c.interruptPeriod * 2, Duration.ofSeconds(10).toNanos());
        }
        if (watched.isEmpty()) {
            sweeping.set(false);
            if (watched.isEmpty() || !sweeping.compareAndSet(false, true)) {
                return;
            }
        }
        control.schedule(this::sweep, SWEEP.toNanos(), TimeUnit.NANOSECONDS);
    }

    /** Workers that were abandoned (their request outlived its budget) and whose request still runs. */
    int abandonedWorkers() {
        return abandoned.get();
    }

    /**
     * Cancels {@code c}: a call still queued is withdrawn (its caller gets a
     * {@link io.prologtool.spi.HarnessCancelledException}); a running one is signalled from the control
     * thread (prologtool_jpl:cancel(Ticket)), and its reply says it was cancelled. A call that has ended
     * is left alone, and so is what its worker runs next.
     */
    void cancel(Call c) {
        if (c.withdrawCancelled()) {
            return;
        }
        try {
            control.execute(() -> jpl.callQuietly(ENTRY_MODULE, "cancel", c.ticket));
        } catch (java.util.concurrent.RejectedExecutionException ignored) {
            // the runtime is shutting down
        }
    }

    /** On the control thread: prologtool_jpl:interrupt(Ticket). */
    private void interrupt(long ticket) {
        jpl.callQuietly(ENTRY_MODULE, "interrupt", ticket);
    }

    /** The number of modules in the embedded Prolog (asked on the control thread). */
    int moduleCount() {
        return count("module_count");
    }

    /** The number of modules that sessions hold: their own and their plunit units'. */
    int sessionModuleCount() {
        return count("session_module_count");
    }

    /** JPL's {@code Query("true").hasSolution()}, {@code count} times on the control thread: each one's nanoseconds. */
    long[] timeBareQueries(int count) {
        return onControl(() -> {
            long[] nanos = new long[count];
            for (int i = 0; i < count; i++) {
                long t0 = System.nanoTime();
                boolean ok = jpl.hasSolution("true");
                nanos[i] = System.nanoTime() - t0;
                if (!ok) {
                    throw new PrologToolException("the embedded SWI-Prolog failed the query true");
                }
            }
            return nanos;
        });
    }

    private int count(String predicate) {
        return onControl(() -> countHere(predicate));
    }

    /** prologtool_jpl:Predicate(Count) on this thread (the control thread). */
    private int countHere(String predicate) {
        return jpl.count(ENTRY_MODULE, predicate);
    }

    private void runOnControl(Runnable r) {
        onControl(() -> {
            r.run();
            return null;
        });
    }

    private <T> T onControl(java.util.concurrent.Callable<T> task) {
        try {
            return control.submit(task).get(START_BOUND.toMillis(), TimeUnit.MILLISECONDS);
        } catch (ExecutionException e) {
            Throwable cause = e.getCause();
            if (cause instanceof RuntimeException re) {
                throw re;
            }
            if (cause instanceof Error err) {
                throw err;
            }
            throw new PrologToolException("the embedded SWI-Prolog failed: " + cause, cause);
        } catch (TimeoutException e) {
            throw new PrologToolException("the embedded SWI-Prolog did not answer within "
                    + START_BOUND.toSeconds() + " s");
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new PrologToolException("interrupted while waiting for the embedded SWI-Prolog", e);
        }
    }

    // ---------------------------------------------------------------- calls

    /**
     * Queues one request. The caller then waits with {@link Call#awaitStart} and {@link Call#await}.
     *
     * @param firstInterrupt when to interrupt the request if it still runs
     * @param budget         when to abandon it if it still runs: its call then fails with a
     *                       {@link HarnessTimeoutException}, and another worker takes its worker's place
     * @throws PrologToolException when {@value #QUEUE_CAPACITY} calls wait already
     */
    Call submit(String requestText, Duration firstInterrupt, Duration budget) {
        return submit(new Call(tickets.incrementAndGet(), requestText, Math.max(1, firstInterrupt.toNanos()),
                Math.max(1, budget.toNanos()), inFlight));
    }

    /**
     * Queues one request that is never interrupted or abandoned. Only for requests that run no user code
     * and end within a bound of their own whatever the session did (the harness's open and close: a
     * close stops the session's cursors and threads, waiting at most a second for each), so that no goal
     * can keep the worker.
     *
     * @throws PrologToolException when {@value #QUEUE_CAPACITY} calls wait already
     */
    Call submitUntimed(String requestText) {
        return submit(new Call(tickets.incrementAndGet(), requestText, 0, 0, inFlight));
    }

    private Call submit(Call c) {
        gap = System.nanoTime() - repliedAt;
        inFlight.incrementAndGet();
        if (!queue.offer(c)) {
            inFlight.decrementAndGet();
            throw new PrologToolException("the embedded SWI-Prolog is overloaded: " + QUEUE_CAPACITY
                    + " calls wait for its " + workers + " workers");
        }
        return c;
    }

    private static Thread daemon(Runnable r, String name) {
        Thread t = new Thread(null, r, name, C_STACK_BYTES);
        t.setDaemon(true);
        return t;
    }

    /** One request on its way through the queue and a worker. */
    static final class Call {
        private enum State { QUEUED, RUNNING, WITHDRAWN, FINISHED, ABANDONED }

        final long ticket;
        final String text;
        /** After how long a running call is interrupted, and after how long abandoned; 0: never. */
        final long firstInterruptNanos;
        final long budgetNanos;
        private final Object lock = new Object();
        private State state = State.QUEUED;                  // guarded by lock
        private final List<Runnable> afterwards = new ArrayList<>(); // guarded by lock
        private final CountDownLatch started = new CountDownLatch(1);
        private volatile long startedAt;
        private final CompletableFuture<String> reply = new CompletableFuture<>();
        /** When the control thread should interrupt it next (System.nanoTime), and then how often. */
        volatile long interruptAt;
        /** When the control thread abandons it if it still runs (System.nanoTime). */
        volatile long abandonAt;
        volatile long interruptPeriod = Duration.ofSeconds(1).toNanos();
        /** The runtime's count of calls in flight; this call leaves it once, when it ends. */
        private final AtomicInteger inFlight;
        private boolean counted = true; // guarded by lock

        private Call(long ticket, String text, long firstInterruptNanos, long budgetNanos, AtomicInteger inFlight) {
            this.ticket = ticket;
            this.text = Objects.requireNonNull(text);
            this.firstInterruptNanos = firstInterruptNanos;
            this.budgetNanos = budgetNanos;
            this.inFlight = inFlight;
        }

        /** A worker takes the call; false if its caller withdrew it. */
        private boolean begin() {
            synchronized (lock) {
                if (state != State.QUEUED) {
                    return false;
                }
                state = State.RUNNING;
            }
            startedAt = System.nanoTime();
            started.countDown();
            return true;
        }

        /**
         * Withdraws the call if no worker took it yet, failing it as cancelled; false if one did (or it
         * has ended).
         */
        private boolean withdrawCancelled() {
            if (!end(State.WITHDRAWN, State.QUEUED)) {
                return false;
            }
            reply.completeExceptionally(new io.prologtool.spi.HarnessCancelledException(
                    "the call was cancelled before it started; nothing of it ran"));
            startedAt = System.nanoTime(); // its reply is there from now on
            started.countDown();
            return true;
        }

        private void complete(String replyText) {
            reply.complete(replyText);
        }

        private void fail(Throwable t) {
            reply.completeExceptionally(t);
        }

        /** The worker is done with the call; false if the call was abandoned before. */
        private boolean finish() {
            return end(State.FINISHED, State.RUNNING);
        }

        /**
         * The call outlived its budget: it ends now for its caller (who is then failed with a timeout),
         * while its worker still runs it. False if the worker finished it first.
         */
        private boolean abandon() {
            return end(State.ABANDONED, State.RUNNING);
        }

        /** Moves to {@code last} (from {@code from}, if given) and runs what waited for the end. */
        private boolean end(State last, State... from) {
            List<Runnable> todo;
            synchronized (lock) {
                if (from.length > 0 && state != from[0]) {
                    return false;
                }
                state = last;
                todo = List.copyOf(afterwards);
                afterwards.clear();
                if (counted) {
                    counted = false;
                    inFlight.decrementAndGet();
                }
            }
            for (Runnable r : todo) {
                try {
                    r.run();
                } catch (RuntimeException ignored) {
                    // a deferred action (a session's close) must never end the thread running it
                }
            }
            return true;
        }

        /** Runs {@code action} once this call has ended, was withdrawn or abandoned (at once if it has). */
        void whenFinished(Runnable action) {
            synchronized (lock) {
                if (state == State.QUEUED || state == State.RUNNING) {
                    afterwards.add(action);
                    return;
                }
            }
            action.run();
        }

        /**
         * Waits until a worker takes this call. False when none did within {@code bound}: the call is
         * then withdrawn (unless a worker took it at that very moment, which counts as started).
         *
         * <p>It waits on the reply, not on the start: a worker takes a call within microseconds when one
         * is free, and a caller woken when its call starts would only block again for the reply (each
         * wake-up costs about 24 us of CPU, see {@link #POLL_NANOS}). It looks whether the call started
         * every {@link #START_LOOK}, so that a call that runs longer is soon waited for by
         * {@link #await} in the caller's own way (which delivers a cancel again while the call runs).
         */
        boolean awaitStart(Duration bound) throws InterruptedException {
            long end = System.nanoTime() + bound.toNanos();
            while (true) {
                long left = end - System.nanoTime();
                try {
                    reply.get(Math.max(0, Math.min(left, START_LOOK.toNanos())), TimeUnit.NANOSECONDS);
                    return true;
                } catch (TimeoutException e) {
                    if (started.getCount() == 0) {
                        return true;
                    }
                    if (left <= START_LOOK.toNanos()) {
                        return !end(State.WITHDRAWN, State.QUEUED);
                    }
                } catch (ExecutionException e) {
                    return true; // the failure is the reply's: await reports it
                }
            }
        }

        /** When a worker took this call ({@link System#nanoTime()}); only once {@link #awaitStart} said it did. */
        long startedAt() {
            return startedAt;
        }

        /** The reply text, waiting at most {@code bound}. */
        String await(Duration bound) throws InterruptedException, TimeoutException, ExecutionException {
            return reply.get(bound.toNanos(), TimeUnit.NANOSECONDS);
        }
    }
}

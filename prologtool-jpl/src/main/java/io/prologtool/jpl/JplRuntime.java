package io.prologtool.jpl;

import com.sun.jna.Library;
import com.sun.jna.NativeLibrary;
import io.prologtool.PrologToolException;
import io.prologtool.PrologUnavailableException;
import io.prologtool.jpl.internal.JplBridge;
import io.prologtool.jpl.internal.JplCallException;
import io.prologtool.spi.Harness;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
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
import java.util.function.BooleanSupplier;

/**
 * The one embedded SWI-Prolog of this JVM, with the harness loaded, and the threads that may talk to
 * it.
 *
 * <p>Threads. JPL lends each Java thread a Prolog engine from a pool of ten (the first is Prolog's
 * main engine) for the length of its outermost query. An engine that moves between OS threads from one
 * query to the next can trip SWI-Prolog's C-stack check (seen here:
 * {@code stack_avail: Assertion failed: here > info->c_stack_base}, which aborts the JVM), so no
 * engine ever moves: each worker thread holds one engine for its whole life by keeping an "anchor"
 * query open, and every request runs nested inside it. Requests wait for a worker in one FIFO queue,
 * so callers are served in order and never block inside JPL waiting for an engine (JPL itself would
 * make them wait without a bound). The control thread initialises JPL (and so holds the main
 * engine), loads the harness, and sends interrupts.
 *
 * <p>Executors. A worker does not run the request on its own engine: it hands it to its executor, a
 * Prolog thread that the harness entry creates with a large C stack (SWI-Prolog's C code recurses on
 * nested terms, and a JVM cannot survive a C-stack overflow), and waits at most the call's budget. An
 * executor that has not answered by then is abandoned: the worker answers the call itself (a timeout)
 * and takes a new executor, so a goal that ignores every limit never keeps an engine. The exceptions are
 * requests that run no user code and end within a bound of their own (a session's open and close, see
 * {@link #submitOnWorker}): a worker runs those on its own engine, which spares the two thread switches to the
 * executor and back (each a wake-up of a blocked thread, 40-50 us on two cores).
 *
 * <p>Limits. A request that overruns its Prolog-side time limit is interrupted again from the control
 * thread (time_limit_exceeded thrown into its executor) until it ends: a sweep every 20 ms, which runs
 * only while calls run or abandoned executors may still run, looks for calls past their deadline, so a
 * call itself schedules nothing. The caller does not wait for that: {@link Call#await} gives up at the
 * caller's bound.
 */
final class JplRuntime {

    /** JPL's engine pool holds ten engines; Prolog's main engine belongs to the control thread. */
    static final int MAX_WORKERS = 9;
    static final int DEFAULT_WORKERS = 8;
    /** Calls that may wait for a worker; beyond it a call fails at once. */
    static final int QUEUE_CAPACITY = 10_000;

    /**
     * C stack of the threads that run Prolog: SWI-Prolog's C code recurses on deep terms (copying,
     * comparing, writing them) and is used to the 8 MiB of a native thread rather than a Java thread's
     * 1 MiB. The memory is reserved, not committed.
     */
    private static final long C_STACK_BYTES = 16L << 20;
    private static final int RTLD_NOW = 0x2;
    private static final int RTLD_GLOBAL = 0x100;
    private static final Duration START_BOUND = Duration.ofMinutes(2);
    private static final String ENTRY_RESOURCE = "io/prologtool/jpl/prologtool_jpl.pl";
    private static final String ENTRY_MODULE = "prologtool_jpl";

    private static final Object LOCK = new Object();
    private static JplRuntime instance;
    private static RuntimeException failure;
    /** Keeps libswipl loaded with RTLD_GLOBAL for the life of the JVM. */
    @SuppressWarnings("unused")
    private static NativeLibrary libswipl;

    /** JVM-wide settings; null fields mean "the default" (and so agree with any running value). */
    record Settings(Path swipl, Integer workers) {
    }

    private final SwiplInstallation installation;
    /** JPL's API, with its classes from the installation (see {@link JplClasses}). */
    private final JplBridge jpl;
    private final int workers;
    private final ScheduledThreadPoolExecutor control;
    private final HandoffQueue<Call> queue = new HandoffQueue<>(QUEUE_CAPACITY);
    private final AtomicLong tickets = new AtomicLong();
    private final AtomicInteger running = new AtomicInteger();
    /** Calls queued or running: polling (see {@link #POLL_NANOS}) is worth it only while a core is free. */
    private final AtomicInteger inFlight = new AtomicInteger();
    /** Calls running with an interrupt deadline; the control thread's sweep looks at them. */
    private final Set<Call> watched = ConcurrentHashMap.newKeySet();
    /** Whether a sweep is scheduled; it stops when no call runs, so an idle JVM has no timer. */
    private final AtomicBoolean sweeping = new AtomicBoolean();
    /** Whether abandoned executors may still run; the sweep interrupts them while they do. */
    private final AtomicBoolean abandonedRunning = new AtomicBoolean();
    /** When the sweep next interrupts abandoned executors (System.nanoTime; control thread only). */
    private long nextAbandonedSweep;
    private static final Duration ABANDONED_SWEEP = Duration.ofSeconds(1);

    private JplRuntime(SwiplInstallation installation, JplBridge jpl, Settings settings) {
        this.installation = installation;
        this.jpl = jpl;
        this.workers = settings.workers() != null ? settings.workers() : DEFAULT_WORKERS;
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
     * How long a thread polls before it blocks: a worker waiting for the next request, a caller waiting
     * for its reply. Waking a parked thread costs 30-60 us on two cores, about as much as a whole trivial
     * request, so a thread that will be needed again within this bound keeps polling instead. It polls
     * with {@link Thread#yield()}, so any other runnable thread (a worker, another process) gets the core
     * first, and only while fewer calls are in flight than there are cores.
     */
    static final long POLL_NANOS = 150_000;
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
            Thread t = new Thread(null, () -> workerLoop(ready, workerFailure), "prologtool-jpl-worker-" + i,
                    C_STACK_BYTES);
            t.setDaemon(true);
            t.start();
        }
        try {
            if (!ready.await(START_BOUND.toMillis(), TimeUnit.MILLISECONDS)) {
                throw new PrologToolException("the embedded SWI-Prolog's " + workers + " worker engines did not "
                        + "start within " + START_BOUND.toSeconds() + " s (is JPL's engine pool used elsewhere?)");
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
        try {
            jpl.init(installation.libjpl(), new String[]{
                    "swipl", "--home=" + installation.home(), "--no-signals", "--no-packs", "--no-tty",
                    "-q", "-f", "none", "-g", "true"});
        } catch (UnsatisfiedLinkError e) {
            throw SwiplInstallation.unavailable("JPL's library " + installation.libjpl()
                    + " could not be loaded (" + e.getMessage() + ")", e);
        } catch (RuntimeException e) {
            throw SwiplInstallation.unavailable("SWI-Prolog could not be started in this JVM (" + e + ")", e);
        }
        // A failure inside JPL would otherwise enter the debugger, which reads stdin (FACTS, "JPL").
        require(jpl.hasSolution("set_prolog_flag(debug_on_error, false)"), "set debug_on_error");
        Path dir = null;
        try {
            dir = Files.createTempDirectory("prologtool-jpl-");
            Path harness = Harness.extractTo(dir);
            Path entry = dir.resolve("prologtool_jpl.pl");
            try (InputStream in = JplRuntime.class.getClassLoader().getResourceAsStream(ENTRY_RESOURCE)) {
                if (in == null) {
                    throw new PrologToolException("the resource " + ENTRY_RESOURCE + " is missing from the classpath");
                }
                Files.write(entry, in.readAllBytes());
            }
            load(harness);
            load(entry);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write the Prolog harness to a temporary directory", e);
        } finally {
            deleteQuietly(dir);
        }
        require(jpl.hasSolution("current_predicate(prologtool_harness:handle_request/2), "
                + "current_predicate(prologtool_jpl:request/4)"), "load the harness (see the errors above)");
        require(jpl.hasSolution("prologtool_jpl:setup_engine"), "set up the main engine");
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

    private static void deleteQuietly(Path dir) {
        if (dir == null) {
            return;
        }
        try (var files = Files.list(dir)) {
            for (Path f : (Iterable<Path>) files::iterator) {
                Files.deleteIfExists(f);
            }
            Files.deleteIfExists(dir);
        } catch (IOException ignored) {
            // a leftover temporary file is harmless
        }
    }

    // ---------------------------------------------------------------- workers

    private void workerLoop(CountDownLatch ready, AtomicReference<Throwable> failed) {
        // The anchor attaches a pool engine to this thread until the thread ends: every request is a
        // query nested inside it, so this engine never runs on another thread, nor this thread on
        // another engine.
        Runnable closeAnchor = null;
        try {
            closeAnchor = jpl.openAnchor();
            oneShot("prologtool_jpl:setup_engine");
        } catch (Throwable t) {
            failed.compareAndSet(null, t);
            ready.countDown();
            if (closeAnchor != null) {
                closeAnchor.run();
            }
            return;
        }
        ready.countDown();
        try {
            while (true) {
                Call c = nextCall();
                if (!c.begin()) {
                    continue; // its caller gave up waiting for a worker
                }
                running.incrementAndGet();
                String reply = null;
                Throwable failure = null;
                try {
                    if (c.firstInterruptNanos > 0) {
                        c.interruptAt = System.nanoTime() + c.firstInterruptNanos;
                        watched.add(c);
                        if (!sweeping.get() && sweeping.compareAndSet(false, true)) {
                            control.schedule(this::sweep, SWEEP.toNanos(), TimeUnit.NANOSECONDS);
                        }
                    }
                    reply = request(c);
                } catch (Throwable t) {
                    failure = t;
                } finally {
                    watched.remove(c);
                    running.decrementAndGet();
                }
                // Finished before the caller learns the reply: its next request (a close) must see
                // this call as ended, or it would be deferred for nothing.
                c.finish();
                if (failure == null) {
                    c.complete(reply);
                } else {
                    c.fail(failure);
                }
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } finally {
            closeAnchor.run();
        }
    }

    /** The next request: polls for a moment first when a core is free, then parks. */
    private Call nextCall() throws InterruptedException {
        return queue.take(inFlight.get() < CORES ? POLL_NANOS : 0);
    }

    private void oneShot(String goal) {
        if (!jpl.hasSolution(goal)) {
            throw new PrologToolException("the goal " + goal + " failed");
        }
    }

    /**
     * prologtool_jpl:request(Ticket, Budget, RequestText, Reply) on the worker's executor, or
     * prologtool_jpl:request_here(RequestText, Reply) on the worker's own engine: the only predicates
     * requests call.
     */
    private String request(Call c) {
        return c.onWorker ? jpl.requestHere(ENTRY_MODULE, c.text)
                : jpl.request(ENTRY_MODULE, c.ticket, c.budgetSeconds, c.text);
    }

    // ---------------------------------------------------------------- interrupts

    /**
     * On the control thread, every {@link #SWEEP} while calls run: interrupt each running call past its
     * deadline, then again after 1 s, 2 s, ... (at most every 10 s) until it ends. When no call runs
     * the sweep stops; the next call that needs one starts it again. (A worker adds its call before it
     * looks at {@link #sweeping}, and the sweep clears it before it looks at the calls once more, so a
     * call is never left without a sweep.)
     */
    private void sweep() {
        long now = System.nanoTime();
        if (abandonedRunning.get() && now - nextAbandonedSweep >= 0) {
            nextAbandonedSweep = now + ABANDONED_SWEEP.toNanos();
            abandonedRunning.set(countHere("interrupt_abandoned") > 0);
        }
        for (Call c : watched) {
            if (c.isFinished() || now - c.interruptAt < 0) {
                continue;
            }
            interrupt(c.ticket);
            c.interruptAt = now + c.interruptPeriod;
            c.interruptPeriod = Math.min(c.interruptPeriod * 2, Duration.ofSeconds(10).toNanos());
        }
        if (watched.isEmpty() && !abandonedRunning.get()) {
            sweeping.set(false);
            if ((watched.isEmpty() && !abandonedRunning.get()) || !sweeping.compareAndSet(false, true)) {
                return;
            }
        }
        control.schedule(this::sweep, SWEEP.toNanos(), TimeUnit.NANOSECONDS);
    }

    /**
     * A worker gave up waiting for its executor (the reply says "abandoned"): from now on the sweep also
     * asks the abandoned executors to stop, once a second, until none runs.
     */
    void noteAbandoned() {
        abandonedRunning.set(true);
        if (!sweeping.get() && sweeping.compareAndSet(false, true)) {
            control.schedule(this::sweep, SWEEP.toNanos(), TimeUnit.NANOSECONDS);
        }
    }

    /** Whether executors that their workers abandoned may still run (as last seen by the sweep). */
    boolean abandonedRunning() {
        return abandonedRunning.get();
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
     * @param firstInterrupt when to interrupt the request if it still runs (null: never)
     * @param budget         how long its worker waits for the reply before it abandons the executor
     *                       running it (and answers the call with a timeout itself)
     * @throws PrologToolException when {@value #QUEUE_CAPACITY} calls wait already
     */
    Call submit(String requestText, Duration firstInterrupt, Duration budget) {
        return submit(new Call(tickets.incrementAndGet(), requestText,
                firstInterrupt == null ? 0 : Math.max(1, firstInterrupt.toNanos()), budget.toNanos() / 1e9, false,
                inFlight));
    }

    /**
     * Queues one request that its worker runs on its own engine rather than on its executor. Only for
     * requests that run no user code and end within a bound of their own whatever the session did (the
     * harness's open and close: a close stops the session's cursors and threads, waiting at most a second
     * for each), so that no goal can keep the engine. Such a request is never interrupted or abandoned.
     *
     * @throws PrologToolException when {@value #QUEUE_CAPACITY} calls wait already
     */
    Call submitOnWorker(String requestText) {
        return submit(new Call(tickets.incrementAndGet(), requestText, 0, 0, true, inFlight));
    }

    private Call submit(Call c) {
        inFlight.incrementAndGet();
        if (!queue.offer(c)) {
            inFlight.decrementAndGet();
            throw new PrologToolException("the embedded SWI-Prolog is overloaded: " + QUEUE_CAPACITY
                    + " calls wait for its " + workers + " engines");
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
        private enum State { QUEUED, RUNNING, WITHDRAWN, FINISHED }

        final long ticket;
        final String text;
        final long firstInterruptNanos;
        final double budgetSeconds;
        /** Run on the worker's own engine, not on its executor (see {@link #submitOnWorker}). */
        final boolean onWorker;
        private final Object lock = new Object();
        private State state = State.QUEUED;                  // guarded by lock
        private final List<Runnable> afterwards = new ArrayList<>(); // guarded by lock
        private final CountDownLatch started = new CountDownLatch(1);
        private final CompletableFuture<String> reply = new CompletableFuture<>();
        /** When the control thread should interrupt it next (System.nanoTime), and then how often. */
        volatile long interruptAt;
        volatile long interruptPeriod = Duration.ofSeconds(1).toNanos();
        /** The runtime's count of calls in flight; this call leaves it once, when it ends. */
        private final AtomicInteger inFlight;
        private boolean counted = true; // guarded by lock

        private Call(long ticket, String text, long firstInterruptNanos, double budgetSeconds, boolean onWorker,
                     AtomicInteger inFlight) {
            this.ticket = ticket;
            this.text = Objects.requireNonNull(text);
            this.firstInterruptNanos = firstInterruptNanos;
            this.budgetSeconds = budgetSeconds;
            this.onWorker = onWorker;
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
            started.countDown();
            return true;
        }

        private void complete(String replyText) {
            reply.complete(replyText);
        }

        private void fail(Throwable t) {
            reply.completeExceptionally(t);
        }

        /** The worker is done with the call. */
        private void finish() {
            end(State.FINISHED);
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

        /** True once the call ran to its end, or was withdrawn before it started. */
        boolean isFinished() {
            synchronized (lock) {
                return state == State.FINISHED || state == State.WITHDRAWN;
            }
        }

        /** Runs {@code action} once this call has ended (at once if it has). */
        void whenFinished(Runnable action) {
            synchronized (lock) {
                if (state != State.FINISHED && state != State.WITHDRAWN) {
                    afterwards.add(action);
                    return;
                }
            }
            action.run();
        }

        /**
         * Waits until a worker takes this call. False when none did within {@code bound}: the call is
         * then withdrawn (unless a worker took it at that very moment, which counts as started).
         */
        boolean awaitStart(Duration bound) throws InterruptedException {
            pollBriefly(() -> started.getCount() == 0);
            if (started.await(bound.toNanos(), TimeUnit.NANOSECONDS)) {
                return true;
            }
            return !end(State.WITHDRAWN, State.QUEUED);
        }

        /** The reply text, waiting at most {@code bound}. */
        String await(Duration bound) throws InterruptedException, TimeoutException, ExecutionException {
            pollBriefly(reply::isDone);
            return reply.get(bound.toNanos(), TimeUnit.NANOSECONDS);
        }

        /** Polls {@code done} for up to {@link #POLL_NANOS} while a core is free (see there). */
        private void pollBriefly(BooleanSupplier done) {
            if (done.getAsBoolean() || inFlight.get() > CORES) {
                return;
            }
            long until = System.nanoTime() + POLL_NANOS;
            while (!done.getAsBoolean() && System.nanoTime() < until) {
                Thread.yield();
            }
        }
    }
}

package io.prologtool;

import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.SynchronousQueue;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * The future of {@link GoalRequest#runAsync()}: {@code cancel(true)} interrupts the thread running the
 * goal, which cancels it ({@link GoalRequest#run()}). The interrupt reaches only that run: it is given
 * while the run holds the thread, and whatever of it is left is cleared before the thread serves anything
 * else.
 */
final class AsyncGoal extends CompletableFuture<GoalResult> implements Runnable {

    private static final AtomicInteger NAMES = new AtomicInteger();

    /** The library's threads for {@link GoalRequest#runAsync()}: made as needed, ended after a minute idle. */
    static final ExecutorService THREADS = new ThreadPoolExecutor(0, Integer.MAX_VALUE, 60, TimeUnit.SECONDS,
            new SynchronousQueue<>(), r -> {
                Thread t = new Thread(r, "prologtool-async-" + NAMES.incrementAndGet());
                t.setDaemon(true);
                return t;
            });

    private final GoalRequest request;
    /** The thread running the goal; null before and after. Guarded by this. */
    private Thread runner;

    AsyncGoal(GoalRequest request) {
        this.request = request;
    }

    @Override
    public void run() {
        synchronized (this) {
            if (isDone()) {
                return; // cancelled before it started
            }
            runner = Thread.currentThread();
        }
        try {
            complete(request.run());
        } catch (Throwable t) {
            completeExceptionally(t);
        } finally {
            synchronized (this) {
                runner = null;
            }
            Thread.interrupted(); // a cancel's interrupt belongs to this run only
        }
    }

    @Override
    public boolean cancel(boolean mayInterruptIfRunning) {
        boolean cancelled = super.cancel(mayInterruptIfRunning);
        if (cancelled && mayInterruptIfRunning) {
            synchronized (this) {
                if (runner != null) {
                    runner.interrupt();
                }
            }
        }
        return cancelled;
    }
}

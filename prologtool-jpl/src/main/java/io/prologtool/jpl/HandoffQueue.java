package io.prologtool.jpl;

import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.Semaphore;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * The bounded FIFO queue between the callers of the {@link JplRuntime} and its worker threads.
 * Items are taken in the order they were offered; which worker takes one is not fixed.
 *
 * <p>Unlike a {@link java.util.concurrent.LinkedBlockingQueue}, whose every offer into an empty queue
 * wakes a blocked taker, an offer here wakes a blocked worker only when no worker is polling: a worker
 * that has just finished a call polls for a moment (see {@link #take}) and takes the next call itself.
 * Waking a second worker only for it to find the call gone cost about 30 us per call on two cores.
 *
 * <p>No call is left waiting while workers sleep: a worker leaves the polling count before it looks at
 * the queue for the last time, and an offer adds the call before it reads the polling count, so
 * either that last look finds the call or the offer sees no poller and releases a wake-up (a
 * semaphore: a wake-up given before the worker blocks is not lost). A worker that takes a call while
 * others wait wakes one more worker, so calls offered while a worker polled are not left to that one.
 *
 * @param <T> what is queued
 */
final class HandoffQueue<T> {

    private final int capacity;
    private final ConcurrentLinkedQueue<T> items = new ConcurrentLinkedQueue<>();
    private final AtomicInteger size = new AtomicInteger();
    private final AtomicInteger polling = new AtomicInteger();
    /**
     * Wake-ups for blocked workers. Some may be spare (a worker then finds nothing and blocks again); at
     * most {@link #MAX_WAKEUPS} are kept, more than there are workers, so that a long busy spell in which
     * no worker blocks cannot pile them up.
     */
    private final Semaphore wakeups = new Semaphore(0);
    private static final int MAX_WAKEUPS = 16;

    HandoffQueue(int capacity) {
        if (capacity < 1) {
            throw new IllegalArgumentException("capacity must be positive, was " + capacity);
        }
        this.capacity = capacity;
    }

    /** Adds {@code item} at the end; false when {@code capacity} items wait already. */
    boolean offer(T item) {
        if (size.incrementAndGet() > capacity) {
            size.decrementAndGet();
            return false;
        }
        items.add(item);
        if (polling.get() == 0) {
            wakeOne();
        }
        return true;
    }

    private void wakeOne() {
        if (wakeups.availablePermits() < MAX_WAKEUPS) {
            wakeups.release();
        }
    }

    /**
     * A worker took {@code item}; when more wait, it wakes another worker for them (offers made while
     * a worker polled woke nobody).
     */
    private T took(T item) {
        if (size.get() > 0) {
            wakeOne();
        }
        return item;
    }

    /** The first item, or null when none waits. */
    T poll() {
        T item = items.poll();
        if (item != null) {
            size.decrementAndGet();
        }
        return item;
    }

    /** The number of items waiting. */
    int size() {
        return size.get();
    }

    /**
     * The first item, waiting as long as it takes: polling for up to {@code pollNanos} (yielding the
     * core to any runnable thread between looks), then blocked.
     *
     * @throws InterruptedException when the thread is interrupted while blocked
     */
    T take(long pollNanos) throws InterruptedException {
        T item = poll();
        if (item != null) {
            return took(item);
        }
        if (pollNanos > 0) {
            polling.incrementAndGet();
            try {
                long until = System.nanoTime() + pollNanos;
                while (System.nanoTime() - until < 0) {
                    Thread.yield();
                    item = poll();
                    if (item != null) {
                        return took(item);
                    }
                }
            } finally {
                polling.decrementAndGet();
            }
        }
        while (true) {
            item = poll();
            if (item != null) {
                return took(item);
            }
            wakeups.acquire();
        }
    }
}

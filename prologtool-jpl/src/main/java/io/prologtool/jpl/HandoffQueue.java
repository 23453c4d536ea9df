package io.prologtool.jpl;

import java.util.concurrent.ConcurrentLinkedDeque;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.locks.LockSupport;

/**
 * The bounded FIFO queue between the callers of the {@link JplRuntime} and its worker threads.
 * Items are taken in the order they were offered; which worker takes one is not fixed.
 *
 * <p>Unlike a {@link java.util.concurrent.LinkedBlockingQueue}, whose every offer into an empty queue
 * wakes a blocked taker, an offer here wakes a blocked worker only when no worker is polling: a worker
 * that has just finished a call may poll for a moment (see {@link #take}) and take the next call itself.
 * Waking a second worker only for it to find the call gone cost about 30 us per call on two cores.
 *
 * <p>The worker woken is the one that parked last: it served the call before, so its thread, its
 * engine and its stacks are the warmest in the CPU caches (with the oldest first, a single caller's
 * calls went round all eight workers). A worker announces its next take before it hands its reply over
 * ({@link #announceTake}), so that a call its caller offers at once is left to it, or wakes it, and not
 * a worker that parked before it (two workers then took turns, each waking the other).
 *
 * <p>No call is left waiting while workers sleep: a worker leaves the polling count and puts itself
 * on the stack of parked workers before it looks at the queue for the last time, and an offer adds
 * the call before it reads the polling count and the stack, so either that last look finds the call
 * or the offer wakes a parked worker (a wake-up given before the worker parks is not lost:
 * {@link LockSupport#unpark} leaves a permit). A worker that takes a call while others wait wakes one
 * more worker, so calls offered while a worker polled are not left to that one.
 *
 * @param <T> what is queued
 */
final class HandoffQueue<T> {

    private final int capacity;
    private final ConcurrentLinkedQueue<T> items = new ConcurrentLinkedQueue<>();
    private final AtomicInteger size = new AtomicInteger();
    private final AtomicInteger polling = new AtomicInteger();
    /** Workers parked or about to park, the last to park first. */
    private final ConcurrentLinkedDeque<Thread> parked = new ConcurrentLinkedDeque<>();

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

    /** Wakes the worker that parked last, if one is parked. */
    private void wakeOne() {
        Thread t = parked.pollFirst();
        if (t != null) {
            LockSupport.unpark(t);
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
     * Announces that the calling thread will call {@link #take(long, boolean)} next with {@code pollNanos}
     * and {@code announced} true: it counts as polling (when {@code pollNanos} is positive) or as the
     * worker to wake first (otherwise) from now on. A worker announces before it hands its reply over: the
     * caller's next item may come before the worker reaches {@code take}, and it must then be left to
     * this worker (polling) or wake this worker, whose thread, engine and stacks are warm, not another.
     */
    void announceTake(long pollNanos) {
        if (pollNanos > 0) {
            polling.incrementAndGet();
        } else {
            parked.addFirst(Thread.currentThread());
        }
    }

    /**
     * The first item, waiting as long as it takes: polling for up to {@code pollNanos} (yielding the
     * core to any runnable thread between looks), then blocked.
     *
     * @throws InterruptedException when the thread is interrupted while blocked
     */
    T take(long pollNanos) throws InterruptedException {
        announceTake(pollNanos);
        return take(pollNanos, true);
    }

    /**
     * The same, after {@link #announceTake} with the same {@code pollNanos} when {@code announced}.
     *
     * @throws InterruptedException when the thread is interrupted while blocked
     */
    T take(long pollNanos, boolean announced) throws InterruptedException {
        if (!announced) {
            announceTake(pollNanos);
        }
        Thread me = Thread.currentThread();
        T item;
        if (pollNanos > 0) {
            try {
                long until = System.nanoTime() + pollNanos;
                do {
                    item = poll();
                    if (item != null) {
                        return took(item);
                    }
                    Thread.yield();
                } while (System.nanoTime() - until < 0);
            } finally {
                polling.decrementAndGet();
            }
            parked.addFirst(me);
        }
        // on the stack of parked workers from here on, until woken (an offer takes it off) or it finds an item
        while (true) {
            item = poll();
            if (item != null) {
                parked.removeFirstOccurrence(me);
                return took(item);
            }
            LockSupport.park(this);
            // woken by an offer (which took this thread off the stack), spuriously, or interrupted
            parked.removeFirstOccurrence(me);
            if (Thread.interrupted()) {
                throw new InterruptedException();
            }
            parked.addFirst(me);
        }
    }
}

package io.prologtool.jpl;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

import static org.assertj.core.api.Assertions.assertThat;

/** The queue between JPL callers and workers: nothing lost, nothing taken twice, nobody left asleep. */
class HandoffQueueTest {

    @Test
    void oneTakerGetsItemsInOfferOrder() throws InterruptedException {
        HandoffQueue<Integer> q = new HandoffQueue<>(100);
        for (int i = 0; i < 10; i++) {
            assertThat(q.offer(i)).isTrue();
        }
        for (int i = 0; i < 10; i++) {
            assertThat(q.take(0)).isEqualTo(i);
        }
        assertThat(q.poll()).isNull();
        assertThat(q.size()).isZero();
    }

    @Test
    void offersBeyondTheCapacityAreRefused() {
        HandoffQueue<Integer> q = new HandoffQueue<>(3);
        assertThat(q.offer(1)).isTrue();
        assertThat(q.offer(2)).isTrue();
        assertThat(q.offer(3)).isTrue();
        assertThat(q.offer(4)).isFalse();
        assertThat(q.size()).isEqualTo(3);
        assertThat(q.poll()).isEqualTo(1);
        assertThat(q.offer(4)).isTrue();
    }

    @Test
    void aParkedTakerIsWokenByAnOffer() throws Exception {
        HandoffQueue<String> q = new HandoffQueue<>(10);
        List<String> got = new ArrayList<>();
        Thread taker = new Thread(() -> {
            try {
                got.add(q.take(0));
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        });
        taker.start();
        Thread.sleep(100); // parked by now
        q.offer("x");
        taker.join(5_000);
        assertThat(taker.isAlive()).isFalse();
        assertThat(got).containsExactly("x");
    }

    /**
     * The worker that parked last served the call before it and is the warmest: an offer wakes it, not
     * the one that has slept longest.
     */
    @Test
    void theTakerThatParkedLastIsWokenFirst() throws Exception {
        HandoffQueue<String> q = new HandoffQueue<>(10);
        List<String> got = Collections.synchronizedList(new ArrayList<>());
        List<Thread> takers = new ArrayList<>();
        for (String name : List.of("first", "second", "third")) {
            Thread t = new Thread(() -> {
                try {
                    q.take(0);
                    got.add(name);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
            }, name);
            t.setDaemon(true);
            t.start();
            awaitParked(t);
            takers.add(t);
        }
        q.offer("x");
        takers.get(2).join(5_000);
        assertThat(got).containsExactly("third");
        q.offer("y");
        takers.get(1).join(5_000);
        assertThat(got).containsExactly("third", "second");
        takers.get(0).interrupt();
        takers.get(0).join(5_000);
        assertThat(takers.get(0).isAlive()).isFalse();
        assertThat(got).containsExactly("third", "second");
    }

    /**
     * A worker announces its next take before it hands its reply over; the caller's next item, offered
     * before that worker reaches take, is left to it, or wakes it, and never another worker that parked
     * earlier (whose thread and engine are cold). Parked, the announced worker would be woken second.
     */
    @ParameterizedTest
    @ValueSource(longs = {0, 150_000})
    void anItemOfferedBeforeAnAnnouncedTakeIsLeftToTheAnnouncer(long pollNanos) throws Exception {
        HandoffQueue<String> q = new HandoffQueue<>(10);
        List<String> parkedGot = Collections.synchronizedList(new ArrayList<>());
        Thread parked = new Thread(() -> {
            try {
                parkedGot.add(q.take(0));
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }, "parked earlier");
        parked.setDaemon(true);
        parked.start();
        awaitParked(parked);

        q.announceTake(pollNanos);  // this thread: a worker about to hand its reply over
        q.offer("next");            // the caller's next item comes first
        Thread.sleep(50);
        assertThat(parked.getState()).as("the worker that parked earlier sleeps on").isEqualTo(Thread.State.WAITING);
        assertThat(q.take(pollNanos, true)).isEqualTo("next");
        assertThat(parkedGot).isEmpty();

        q.offer("later");
        parked.join(5_000);
        assertThat(parkedGot).containsExactly("later");
    }

    private static void awaitParked(Thread t) throws InterruptedException {
        long until = System.nanoTime() + TimeUnit.SECONDS.toNanos(5);
        while (t.getState() != Thread.State.WAITING) {
            assertThat(System.nanoTime() < until).as("%s parks", t.getName()).isTrue();
            Thread.sleep(1);
        }
    }

    @Test
    void aParkedTakerCanBeInterrupted() throws Exception {
        HandoffQueue<String> q = new HandoffQueue<>(10);
        CountDownLatch interrupted = new CountDownLatch(1);
        Thread taker = new Thread(() -> {
            try {
                q.take(0);
            } catch (InterruptedException e) {
                interrupted.countDown();
            }
        });
        taker.start();
        Thread.sleep(100);
        taker.interrupt();
        assertThat(interrupted.await(5, TimeUnit.SECONDS)).isTrue();
    }

    /**
     * One caller, eight workers, one call at a time, as a single-threaded user drives the runtime: each
     * item must be taken while the others sleep or poll (a lost wake-up leaves it waiting for ever).
     */
    @ParameterizedTest
    @ValueSource(longs = {0, 20_000, 150_000})
    void callsOneAtATimeAreAlwaysTaken(long pollNanos) throws Exception {
        HandoffQueue<CountDownLatch> q = new HandoffQueue<>(10);
        List<Thread> workers = new ArrayList<>();
        for (int t = 0; t < 8; t++) {
            Thread th = new Thread(() -> {
                try {
                    while (true) {
                        q.take(pollNanos).countDown();
                    }
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
            });
            th.setDaemon(true);
            th.start();
            workers.add(th);
        }
        for (int i = 0; i < 20_000; i++) {
            CountDownLatch call = new CountDownLatch(1);
            assertThat(q.offer(call)).isTrue();
            assertThat(call.await(10, TimeUnit.SECONDS)).as("call %d taken", i).isTrue();
            if (i % 2_000 == 0) {
                Thread.sleep(5); // every worker blocks
            }
        }
        workers.forEach(Thread::interrupt);
    }

    /**
     * Many producers and takers, takers polling (or not) before they park, producers pausing now and
     * then so that takers park: every item is taken exactly once and every taker that is owed an item
     * gets it (a lost wake-up would hang the test at the latch).
     */
    @ParameterizedTest
    @ValueSource(longs = {0, 20_000, 150_000})
    void everyItemIsTakenExactlyOnce(long pollNanos) throws Exception {
        int producers = 4;
        int takers = 8;
        int perProducer = 5_000;
        int total = producers * perProducer;
        HandoffQueue<Integer> q = new HandoffQueue<>(total);
        Set<Integer> taken = ConcurrentHashMap.newKeySet();
        AtomicInteger duplicates = new AtomicInteger();
        CountDownLatch done = new CountDownLatch(total);
        List<Thread> threads = new ArrayList<>();
        for (int t = 0; t < takers; t++) {
            Thread th = new Thread(() -> {
                try {
                    while (true) {
                        Integer item = q.take(pollNanos);
                        if (!taken.add(item)) {
                            duplicates.incrementAndGet();
                        }
                        done.countDown();
                    }
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
            });
            th.setDaemon(true);
            th.start();
            threads.add(th);
        }
        for (int p = 0; p < producers; p++) {
            int base = p * perProducer;
            Thread th = new Thread(() -> {
                for (int i = 0; i < perProducer; i++) {
                    assertThat(q.offer(base + i)).isTrue();
                    if (i % 500 == 0) {
                        try {
                            Thread.sleep(2); // let the takers park
                        } catch (InterruptedException e) {
                            return;
                        }
                    }
                }
            });
            th.start();
            threads.add(th);
        }
        assertThat(done.await(60, TimeUnit.SECONDS)).as("all %d items taken", total).isTrue();
        assertThat(duplicates.get()).isZero();
        assertThat(taken).hasSize(total);
        assertThat(q.size()).isZero();
        threads.forEach(Thread::interrupt);
    }
}

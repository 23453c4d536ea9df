package io.prologtool.jpl;

import io.prologtool.GoalResult;
import io.prologtool.Outcome;
import io.prologtool.PrologSession;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;

/**
 * Run in a child JVM by {@link JplBackendTest}: an embedded Prolog with {@value #CALLS} workers, more
 * than JPL's pool of ten engines could serve, runs {@value #CALLS} goals at once. Prints the most calls
 * seen running together; the exit status says whether every goal succeeded and all of them overlapped.
 */
public final class JplManyWorkersChild {

    static final int CALLS = 16;
    static final int ALL_AT_ONCE = 0;
    static final int FEWER_AT_ONCE = 3;
    static final int FAILED = 4;

    private JplManyWorkersChild() {
    }

    /** The most calls seen running in Prolog at once (sampled every 5 ms) until all of {@code calls} are done. */
    static int peakRunning(JplBackend backend, List<Future<GoalResult>> calls) throws InterruptedException {
        int peak = 0;
        while (!calls.stream().allMatch(Future::isDone)) {
            peak = Math.max(peak, backend.runningCalls());
            Thread.sleep(5);
        }
        return peak;
    }

    public static void main(String[] args) throws Exception {
        ExecutorService pool = Executors.newFixedThreadPool(CALLS);
        List<PrologSession> sessions = new ArrayList<>();
        try (JplBackend backend = JplBackend.builder().maxConcurrentCalls(CALLS).build()) {
            List<Future<GoalResult>> fs = new ArrayList<>();
            for (int i = 0; i < CALLS; i++) {
                PrologSession s = backend.open();
                sessions.add(s);
                fs.add(pool.submit(() -> s.goal("sleep(1.5)").run()));
            }
            int peak = peakRunning(backend, fs);
            for (Future<GoalResult> f : fs) {
                if (f.get().outcome() != Outcome.SUCCESS) {
                    System.out.println("GOAL " + f.get());
                    System.exit(FAILED);
                }
            }
            System.out.println("PEAK " + peak);
            sessions.forEach(PrologSession::close);
            System.exit(peak == CALLS ? ALL_AT_ONCE : FEWER_AT_ONCE);
        } catch (RuntimeException e) {
            e.printStackTrace(System.out);
            System.exit(FAILED);
        }
    }
}

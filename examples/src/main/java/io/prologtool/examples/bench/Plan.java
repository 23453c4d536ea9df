package io.prologtool.examples.bench;

import java.util.List;

/**
 * How much each measurement runs: the full suite ({@code make bench}, a few minutes) or a short run
 * ({@code --quick}, under a minute, for the smoke test).
 */
record Plan(boolean quick, Iterations cycleJpl, Iterations cyclePool, Iterations cycleChildPerOpen,
            Iterations cycleBaseline, Iterations roundTrip, Iterations executeRounds, Iterations executeBaselineRounds,
            int pararuleQuestions, Iterations pararuleRuns, int jplSessions, int processSessions, boolean jplMemory,
            int jplCycles, int harnessBatches, int harnessRequests, int batchFloorRuns, Iterations cpuBatches,
            int cpuCalls, Growth growth) {

    /** Untimed warm-up iterations, then timed ones. */
    record Iterations(int warmup, int timed) {
        Iterations {
            if (warmup < 0 || timed < 1) {
                throw new IllegalArgumentException("warmup >= 0 and timed >= 1: " + warmup + ", " + timed);
            }
        }
    }

    /**
     * The sizes of the curves ({@link CostGrowth}), each ascending: clauses consulted, JPL sessions held
     * open, answers fetched through a query, bytes of output from a goal.
     */
    record Growth(List<Integer> clauses, List<Integer> sessions, List<Integer> answers, List<Integer> outputBytes) {
        Growth {
            for (List<Integer> sizes : List.of(clauses, sessions, answers, outputBytes)) {
                if (sizes.size() < 3 || !sizes.stream().sorted().distinct().toList().equals(sizes)) {
                    throw new IllegalArgumentException("a curve needs three or more ascending sizes: " + sizes);
                }
            }
        }
    }

    /** Pause between cycles on the warm pool: the pool is for requests that arrive over time. */
    static final long POOL_PAUSE_MILLIS = 30;

    static Plan fullRun() {
        return new Plan(false, new Iterations(300, 1_000), new Iterations(20, 200), new Iterations(10, 200),
                new Iterations(5, 100), new Iterations(5_000, 20_000), new Iterations(30, 10), new Iterations(1, 5),
                Integer.MAX_VALUE, new Iterations(1, 3), 1_000, 20, true, 100_000, 10, 10_000, 3, new Iterations(3, 5), 4_000,
                new Growth(List.of(1_000, 10_000, 100_000), List.of(1_000, 10_000, 50_000),
                        List.of(10_000, 100_000, 1_000_000), List.of(100_000, 1_000_000, 10_000_000)));
    }

    static Plan quickRun() {
        return new Plan(true, new Iterations(20, 50), new Iterations(3, 15), new Iterations(2, 10),
                new Iterations(1, 8), new Iterations(500, 500), new Iterations(2, 1), new Iterations(0, 1),
                24, new Iterations(1, 1), 200, 4, true, 2_000, 3, 1_000, 1, new Iterations(1, 3), 400,
                new Growth(List.of(100, 1_000, 5_000), List.of(200, 1_000, 3_000), List.of(1_000, 5_000, 20_000),
                        List.of(10_000, 100_000, 1_000_000)));
    }

    /** The same plan without the JPL memory rows (they start a second JVM). */
    Plan withoutJplMemory() {
        return new Plan(quick, cycleJpl, cyclePool, cycleChildPerOpen, cycleBaseline, roundTrip, executeRounds,
                executeBaselineRounds, pararuleQuestions, pararuleRuns, jplSessions, processSessions, false, jplCycles,
                harnessBatches, harnessRequests, batchFloorRuns, cpuBatches, cpuCalls, growth);
    }
}

package io.prologtool.examples.bench;

import java.io.PrintStream;
import java.util.Locale;

/** Runs an operation warm-up times untimed, then times each further run with {@link System#nanoTime()}. */
final class Timer {

    /** One iteration of a measurement; it checks its own answer and throws when it is wrong. */
    @FunctionalInterface
    interface Op {
        void run() throws Exception;
    }

    private Timer() {
    }

    /** Per-iteration times in nanoseconds; {@code pause} runs before each iteration, untimed. */
    static long[] time(Plan.Iterations it, Op op, Op pause) throws Exception {
        for (int i = 0; i < it.warmup(); i++) {
            pause.run();
            op.run();
        }
        long[] nanos = new long[it.timed()];
        for (int i = 0; i < nanos.length; i++) {
            pause.run();
            long t0 = System.nanoTime();
            op.run();
            nanos[i] = System.nanoTime() - t0;
        }
        return nanos;
    }

    /** Per-iteration times in nanoseconds, back to back. */
    static long[] time(Plan.Iterations it, Op op) throws Exception {
        return time(it, op, () -> { });
    }

    /** A progress line on {@code log}. */
    static void progress(PrintStream log, String what, Plan.Iterations it) {
        log.printf(Locale.ROOT, "[bench] %s: %,d warm-up + %,d timed%n", what, it.warmup(), it.timed());
    }
}

package io.prologtool.examples.bench;

import io.prologtool.Outcome;
import io.prologtool.PrologBackend;
import io.prologtool.PrologSession;
import io.prologtool.SessionOptions;
import io.prologtool.jpl.JplBackend;
import io.prologtool.process.Isolation;
import io.prologtool.process.ProcessBackend;

import java.io.IOException;
import java.io.PrintStream;
import java.lang.management.ManagementFactory;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.OptionalDouble;

/**
 * CPU per call: what a call costs the machine, not only the caller's wait. For the round trip (the goal
 * {@code true} on an open session), back to back and paced (a pause between calls, as an agent's calls
 * come), and for the session cycle, on each backend: the CPU time this JVM and its {@code swipl}
 * children used per call, next to the wall time per call of the same calls. CPU above wall time is
 * time some thread spent waiting actively (polling) or work done beside the call; the target is at
 * most 1.3 times the wall time with one caller.
 *
 * <p>CPU time is read from the operating system before and after a batch of calls: the JVM's own
 * ({@code OperatingSystemMXBean.getProcessCpuTime}, every thread: callers, workers, the reader of a
 * child's replies, the JIT and the garbage collector) plus, for the process backend, that of its
 * children ({@code utime + stime} in {@code /proc/PID/stat} of each live child, and {@code cutime +
 * cstime} of this JVM for those that ended). A paced batch counts the CPU of its pauses too: a thread
 * that polls while no call comes shows there. Each row's median and p90 are over the batches.
 */
final class CpuPerCall {

    private static final String TICKS_NOTE = "Linux counts a child's CPU in clock ticks (10 ms): each batch of a "
            + "full run is long enough for that to be under 2%";
    private static final long TICK_NANOS = 10_000_000;

    private CpuPerCall() {
    }

    /** How a batch runs: calls back to back, or with an untimed pause before each. */
    private record Pace(String id, String label, long pauseNanos) {
    }

    private static final Pace BACK_TO_BACK = new Pace("cpu_roundtrip", "CPU per round trip, back to back", 0);
    private static final Pace PACED = new Pace("cpu_roundtrip_paced", "CPU per round trip, calls 1 ms apart",
            1_000_000);

    static List<Row> measure(Plan plan, PrintStream log) throws Exception {
        List<Row> rows = new ArrayList<>();
        Plan.Iterations it = plan.cpuBatches();
        try (JplBackend backend = JplBackend.get()) {
            rows.addAll(measure(plan, backend, it, log));
        }
        try (ProcessBackend backend = ProcessBackend.builder().isolation(Isolation.none()).build()) {
            rows.addAll(measure(plan, backend, it, log));
        }
        try (ProcessBackend backend = ProcessBackend.builder().isolation(Isolation.none()).poolSize(2).build()) {
            rows.addAll(cycles(plan, backend, it, log));
        }
        return rows;
    }

    private static List<Row> measure(Plan plan, PrologBackend backend, Plan.Iterations batches, PrintStream log)
            throws Exception {
        List<Row> rows = new ArrayList<>();
        try (PrologSession s = backend.open()) {
            if (s.consult(SessionCycles.PROGRAM).hasErrors()) {
                throw new IllegalStateException("the bench program does not load on " + backend.name());
            }
            Timer.Op trueOnce = () -> {
                if (s.goal("true").run().outcome() != Outcome.SUCCESS) {
                    throw new IllegalStateException("true did not succeed on " + backend.name());
                }
            };
            for (Pace pace : List.of(BACK_TO_BACK, PACED)) {
                int calls = pace.pauseNanos() == 0 ? plan.cpuCalls() : plan.cpuCalls() / 4;
                log.printf(Locale.ROOT, "[bench] %s, %s: %d warm-up + %d timed batches of %,d%n", pace.label(),
                        backend.name(), batches.warmup(), batches.timed(), calls);
                Batches b = batches(batches, calls, trueOnce, pace.pauseNanos());
                rows.add(b.row(pace.id(), pace.label(), backend.name(), Unit.MICROS,
                        "session.goal(\"true\").run() on a session that holds the 20-clause program, "
                                + (pace.pauseNanos() == 0 ? "back to back" : "with a 1 ms sleep before each call, "
                                + "whose CPU counts") + "; one caller; " + what(backend) + "; one value per batch of "
                                + calls + " calls"));
            }
        }
        if (backend instanceof JplBackend) {
            int calls = Math.max(1, plan.cpuCalls() / 10);
            log.printf(Locale.ROOT, "[bench] CPU per session cycle, jpl: %d warm-up + %d timed batches of %,d%n",
                    batches.warmup(), batches.timed(), calls);
            rows.add(batches(batches, calls, () -> SessionCycles.cycle(backend), 0).row("cpu_cycle",
                    "CPU per session cycle", backend.name(), Unit.MICROS,
                    "JplBackend.get(): open, consult 20 clauses, " + SessionCycles.GOAL + ", close, back to back; "
                            + what(backend) + "; one value per batch of " + calls + " cycles"));
        }
        return rows;
    }

    /**
     * The process backend's session cycle on a warm pool, for a sandboxed session and for one that is
     * not. After each close the child checks that the session left nothing behind before it serves again
     * (the fingerprint of its modules, flags, streams and threads, then a garbage collection and a heap
     * trim): right after the close is answered, outside the cycle's wall time but inside its CPU time.
     */
    private static List<Row> cycles(Plan plan, ProcessBackend backend, Plan.Iterations batches, PrintStream log)
            throws Exception {
        int calls = Math.max(1, plan.cpuCalls() / 40);
        List<Row> rows = new ArrayList<>();
        for (boolean sandboxed : new boolean[] {true, false}) {
            SessionOptions options = SessionOptions.builder().sandboxed(sandboxed).build();
            String kind = sandboxed ? "sandboxed" : "unsandboxed";
            log.printf(Locale.ROOT, "[bench] CPU per %s session cycle, process: %d warm-up + %d timed batches of %,d%n",
                    kind, batches.warmup(), batches.timed(), calls);
            Batches b = batches(batches, calls, () -> SessionCycles.cycle(backend, options), 30_000_000);
            String details = "ProcessBackend.builder().poolSize(2), " + kind + " sessions: open, consult 20 clauses, "
                    + SessionCycles.GOAL + ", close, with a 30 ms sleep before each cycle so that the pool refills; "
                    + "the child's check that the session left nothing behind, before it serves again, counts; "
                    + what(backend)
                    + "; one value per batch of " + calls + " cycles";
            Row row = b.row(sandboxed ? "cpu_cycle" : "cpu_cycle_unsandboxed", "CPU per " + kind + " session cycle, warm "
                    + "pool", backend.name(), Unit.MICROS, details);
            rows.add(sandboxed ? row : row.withoutTarget());
        }
        return rows;
    }

    private static String what(PrologBackend backend) {
        return backend instanceof JplBackend ? "the JVM's CPU time"
                : "the CPU time of the JVM and its swipl children; " + TICKS_NOTE;
    }

    /** CPU and wall time per call of each timed batch. */
    private record Batches(double[] cpuNanos, double[] wallNanos) {

        Row row(String id, String what, String backend, Unit unit, String details) {
            Summary cpu = Summary.of(scaled(cpuNanos, unit));
            Summary wall = Summary.of(scaled(wallNanos, unit));
            return new Row(id, what, backend, cpu.median(), OptionalDouble.of(cpu.p90()), unit, details,
                    "wall time per call, the same calls", OptionalDouble.of(wall.median()), java.util.Optional.empty())
                    .withTarget(Target.cpuTimesWallAtMost(1.3));
        }

        private static double[] scaled(double[] nanos, Unit unit) {
            double scale = unit == Unit.MILLIS ? 1e6 : 1e3;
            double[] v = new double[nanos.length];
            for (int i = 0; i < v.length; i++) {
                v[i] = nanos[i] / scale;
            }
            return v;
        }
    }

    private static Batches batches(Plan.Iterations batches, int calls, Timer.Op op, long pauseNanos)
            throws Exception {
        for (int i = 0; i < batches.warmup(); i++) {
            batch(calls, op, pauseNanos);
        }
        double[] cpu = new double[batches.timed()];
        double[] wall = new double[batches.timed()];
        for (int i = 0; i < cpu.length; i++) {
            double[] one = batch(calls, op, pauseNanos);
            cpu[i] = one[0];
            wall[i] = one[1];
        }
        return new Batches(cpu, wall);
    }

    /** One batch: CPU nanoseconds per call (pauses included) and wall nanoseconds per call (pauses excluded). */
    private static double[] batch(int calls, Timer.Op op, long pauseNanos) throws Exception {
        long wall = 0;
        long cpu0 = cpuNanos();
        for (int i = 0; i < calls; i++) {
            if (pauseNanos > 0) {
                Thread.sleep(pauseNanos / 1_000_000, (int) (pauseNanos % 1_000_000));
            }
            long t0 = System.nanoTime();
            op.run();
            wall += System.nanoTime() - t0;
        }
        long cpu = cpuNanos() - cpu0;
        return new double[] {(double) cpu / calls, (double) wall / calls};
    }

    /** CPU time of this JVM, its live children and the children it waited for, in nanoseconds. */
    static long cpuNanos() {
        long jvm = ((com.sun.management.OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean())
                .getProcessCpuTime();
        long ticks = statTicks(Path.of("/proc/self/stat"), 15);
        for (ProcessHandle child : ProcessHandle.current().descendants().toList()) {
            ticks += statTicks(Path.of("/proc", Long.toString(child.pid()), "stat"), 13);
        }
        return jvm + ticks * TICK_NANOS;
    }

    /**
     * Fields {@code index} and {@code index + 1} (numbered from 0, the pid; {@code 13}: utime and stime,
     * {@code 15}: cutime and cstime) of a {@code /proc/PID/stat} file summed, in clock ticks; 0 when the
     * process ended meanwhile (its time is in its parent's cutime once reaped).
     */
    private static long statTicks(Path stat, int index) {
        String text;
        try {
            text = Files.readString(stat);
        } catch (IOException e) {
            return 0;
        }
        // "pid (command) state ppid ...": the command may hold spaces, so count from its closing parenthesis
        String[] f = text.substring(text.lastIndexOf(')') + 2).split(" ");
        return Long.parseLong(f[index - 2]) + Long.parseLong(f[index - 1]);
    }
}

package io.prologtool;

import java.time.Duration;
import java.util.Objects;

/**
 * What one call cost, carried by {@link GoalResult}, {@link ConsultResult}, {@link TestReport} and
 * {@link ExecutionResult}. Each figure is measured where it is true:
 *
 * <ul>
 *   <li>{@code wallTime}: measured by the Java side, from the moment the call entered the session to the
 *       moment its result was ready, as the caller saw it: waiting for the session's previous call, a
 *       restore of a Prolog that died, the round trip to a child process and reading the reply all
 *       count.</li>
 *   <li>{@code cpuTime}: measured by the Prolog harness: the CPU time (user time) of the Prolog thread
 *       that served the request, while it served it. Threads that the user code started are not
 *       counted, nor is the JVM's own work.</li>
 *   <li>{@code inferences}: measured by the Prolog harness: the inferences that thread counted while it
 *       served the request, the harness's own bookkeeping included (a few hundred for {@code true}).</li>
 * </ul>
 *
 * A call that got no reply from Prolog (its Prolog died, or a limit was enforced by stopping it) reports
 * zero CPU time and inferences: they are unknown, not free. A result built by hand has {@link #NONE}.
 *
 * @param wallTime   wall-clock time of the call as the caller saw it
 * @param cpuTime    CPU time of the Prolog thread that served the call
 * @param inferences inferences counted by that thread while it served the call
 */
public record Cost(Duration wallTime, Duration cpuTime, long inferences) {

    /** Nothing measured: zero time, zero inferences. */
    public static final Cost NONE = new Cost(Duration.ZERO, Duration.ZERO, 0);

    public Cost {
        Objects.requireNonNull(wallTime, "wallTime");
        Objects.requireNonNull(cpuTime, "cpuTime");
        if (wallTime.isNegative() || cpuTime.isNegative() || inferences < 0) {
            throw new IllegalArgumentException("a cost is never negative: " + wallTime + ", " + cpuTime + ", "
                    + inferences);
        }
    }

    /** This cost with {@code wallTime} in place of its own. */
    public Cost withWallTime(Duration wallTime) {
        return new Cost(wallTime, cpuTime, inferences);
    }

    /** The wall time in milliseconds, with microsecond precision (the JSON key {@code wall_time_ms}). */
    public double wallTimeMillis() {
        return millis(wallTime);
    }

    /** The CPU time in milliseconds, with microsecond precision (the JSON key {@code cpu_time_ms}). */
    public double cpuTimeMillis() {
        return millis(cpuTime);
    }

    private static double millis(Duration d) {
        return Math.round(d.toNanos() / 1_000.0) / 1_000.0;
    }

    @Override
    public String toString() {
        return "Cost[wall " + wallTimeMillis() + " ms, cpu " + cpuTimeMillis() + " ms, " + inferences + " inferences]";
    }
}

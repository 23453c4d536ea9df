package io.prologtool.examples.bench;

/**
 * A row's goal (issues 8 and 16): its median below a bound (in the row's unit), its ratio to the
 * baseline or floor at least some factor (a factor below 1 on a time reads "at most 1/factor times the
 * floor"), or its median at most a margin above the floor's.
 */
record Target(Kind kind, double bound) {

    enum Kind { MEDIAN_BELOW, RATIO_AT_LEAST, MARGIN_AT_MOST, CPU_TIMES_WALL_AT_MOST, GROWTH_AT_MOST }

    static Target below(double bound) {
        return new Target(Kind.MEDIAN_BELOW, bound);
    }

    static Target ratioAtLeast(double factor) {
        return new Target(Kind.RATIO_AT_LEAST, factor);
    }

    /** At most {@code times} the floor, for a row whose unit is a time: a ratio of at least 1/times. */
    static Target timesFloorAtMost(double times) {
        return new Target(Kind.RATIO_AT_LEAST, 1 / times);
    }

    /**
     * For a row of CPU time per call whose baseline is the wall time of the same calls: CPU at most
     * {@code times} the wall time (a ratio, wall / CPU, of at least 1/times).
     */
    static Target cpuTimesWallAtMost(double times) {
        return new Target(Kind.CPU_TIMES_WALL_AT_MOST, times);
    }

    /**
     * For a row of a curve whose baseline is the same measurement at the curve's smallest size: at most
     * {@code times} that (a ratio, smallest / ours, of at least 1/times).
     */
    static Target growthAtMost(double times) {
        return new Target(Kind.GROWTH_AT_MOST, times);
    }

    /** The median at most {@code margin} (in the row's unit) above the floor's median. */
    static Target marginAtMost(double margin) {
        return new Target(Kind.MARGIN_AT_MOST, margin);
    }

    /** {@code < 50 µs}, {@code >= 20x}, {@code <= 5x floor}, {@code >= 0.4x floor}, {@code <= floor + 30 µs}, {@code <= 1.3x wall} or {@code <= 1.2x smallest}. */
    String text(Unit unit) {
        return switch (kind) {
            case MEDIAN_BELOW -> "< " + Numbers.plain(bound) + " " + unit.symbol;
            case RATIO_AT_LEAST -> bound >= 1 ? ">= " + Numbers.plain(bound) + "x"
                    : unit.higherIsBetter() ? ">= " + Numbers.plain(bound) + "x floor"
                    : "<= " + Numbers.plain(1 / bound) + "x floor";
            case MARGIN_AT_MOST -> "<= floor + " + Numbers.plain(bound) + " " + unit.symbol;
            case CPU_TIMES_WALL_AT_MOST -> "<= " + Numbers.plain(bound) + "x wall";
            case GROWTH_AT_MOST -> "<= " + Numbers.plain(bound) + "x smallest";
        };
    }

    /** Whether {@code row} meets this target; a ratio or margin target needs a baseline. */
    boolean metBy(Row row) {
        return switch (kind) {
            case MEDIAN_BELOW -> row.median() < bound;
            case RATIO_AT_LEAST -> row.ratio().orElse(0) >= bound * (1 - 1e-9);
            case MARGIN_AT_MOST -> row.baselineMedian().isPresent()
                    && row.median() - row.baselineMedian().getAsDouble() <= bound;
            case CPU_TIMES_WALL_AT_MOST, GROWTH_AT_MOST -> row.ratio().orElse(0) >= 1 / bound * (1 - 1e-9);
        };
    }
}

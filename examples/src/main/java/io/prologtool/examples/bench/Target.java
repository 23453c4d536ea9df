package io.prologtool.examples.bench;

/**
 * A goal from issue 8 for one row: its median below a bound (in the row's unit), or its ratio to the
 * baseline at least some factor.
 */
record Target(Kind kind, double bound) {

    enum Kind { MEDIAN_BELOW, RATIO_AT_LEAST }

    static Target below(double bound) {
        return new Target(Kind.MEDIAN_BELOW, bound);
    }

    static Target ratioAtLeast(double factor) {
        return new Target(Kind.RATIO_AT_LEAST, factor);
    }

    /** {@code < 50 µs} or {@code >= 20x}. */
    String text(Unit unit) {
        return switch (kind) {
            case MEDIAN_BELOW -> "< " + Numbers.plain(bound) + " " + unit.symbol;
            case RATIO_AT_LEAST -> ">= " + Numbers.plain(bound) + "x";
        };
    }

    /** Whether {@code row} meets this target; a ratio target needs a baseline. */
    boolean metBy(Row row) {
        return switch (kind) {
            case MEDIAN_BELOW -> row.median() < bound;
            case RATIO_AT_LEAST -> row.ratio().orElse(0) >= bound;
        };
    }
}

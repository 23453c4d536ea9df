package io.prologtool.examples.bench;

import java.util.Arrays;

/** The unit of a row's numbers: what it measures (its dimension) and which way is better. */
enum Unit {
    MICROS("µs", Dimension.TIME, 1),
    MILLIS("ms", Dimension.TIME, 1_000),
    QUESTIONS_PER_SECOND("q/s", Dimension.RATE, 1),
    /** Decimal kilobytes (1,000 bytes). */
    KB("kB", Dimension.MEMORY, 1e-3),
    /** Decimal megabytes (1,000,000 bytes): the targets are in MB. */
    MB("MB", Dimension.MEMORY, 1);

    /** What a unit measures; the chart draws one panel, on one log axis, per dimension. */
    enum Dimension {
        TIME("Time per operation", "shorter is better"),
        RATE("Throughput", "longer is better"),
        MEMORY("Memory", "shorter is better");

        final String title;
        final String better;

        Dimension(String title, String better) {
            this.title = title;
            this.better = better;
        }
    }

    final String symbol;
    final Dimension dimension;
    /** One of this unit in the dimension's base unit (µs, q/s, MB). */
    private final double inBase;

    Unit(String symbol, Dimension dimension, double inBase) {
        this.symbol = symbol;
        this.dimension = dimension;
        this.inBase = inBase;
    }

    /** Throughput: more is better; time and memory: less is better. */
    boolean higherIsBetter() {
        return dimension == Dimension.RATE;
    }

    /** {@code value} of this unit in the dimension's base unit (µs, q/s or MB). */
    double toBase(double value) {
        return value * inBase;
    }

    /** The unit written as {@code symbol}. */
    static Unit ofSymbol(String symbol) {
        return Arrays.stream(values()).filter(u -> u.symbol.equals(symbol)).findFirst()
                .orElseThrow(() -> new IllegalArgumentException("unknown unit " + symbol));
    }
}

package io.prologtool.examples.bench;

import java.util.Arrays;

/** Median and 90th percentile of a sample (nearest rank for the percentile). */
record Summary(double median, double p90) {

    /** Of per-iteration times in nanoseconds, converted to {@code unit} (µs or ms). */
    static Summary ofNanos(long[] nanos, Unit unit) {
        double scale = switch (unit) {
            case MICROS -> 1e3;
            case MILLIS -> 1e6;
            default -> throw new IllegalArgumentException("not a time unit: " + unit);
        };
        return of(Arrays.stream(nanos).mapToDouble(n -> n / scale).toArray());
    }

    /** Of any values. */
    static Summary of(double[] values) {
        if (values.length == 0) {
            throw new IllegalArgumentException("no values");
        }
        double[] v = values.clone();
        Arrays.sort(v);
        int n = v.length;
        double median = (v[(n - 1) / 2] + v[n / 2]) / 2;
        double p90 = v[Math.max(0, (int) Math.ceil(0.9 * n) - 1)];
        return new Summary(median, p90);
    }
}

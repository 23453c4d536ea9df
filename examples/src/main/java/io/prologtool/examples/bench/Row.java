package io.prologtool.examples.bench;

import java.util.Objects;
import java.util.Optional;
import java.util.OptionalDouble;
import java.util.OptionalLong;

/**
 * One line of the results: a measurement on one backend, next to its baseline.
 *
 * @param id             stable key of the measurement ({@code cycle}, {@code roundtrip}, ...); with
 *                       {@code backend} it names the row
 * @param what           short label (table and chart)
 * @param backend        {@code jpl} or {@code process}
 * @param median         median of the per-iteration values, in {@code unit} (for a throughput, the
 *                       median of the runs)
 * @param p90            90th percentile, when the measurement has a spread
 * @param unit           unit of {@code median}, {@code p90} and {@code baselineMedian}
 * @param details        what exactly was measured and how (CSV and the notes under the table)
 * @param baseline       what the baseline is; empty when the row has none
 * @param baselineMedian the baseline's median, in {@code unit}
 * @param target         the goal for this row, if it has one
 * @param size           for a row of a curve ({@link CostGrowth}): the size of the work it measured (clauses,
 *                       sessions, answers, bytes), the curve's x; its {@code id} is the curve's name, then
 *                       {@code _}, then the size
 */
record Row(String id, String what, String backend, double median, OptionalDouble p90, Unit unit, String details,
           String baseline, OptionalDouble baselineMedian, Optional<Target> target, OptionalLong size) {

    Row {
        Objects.requireNonNull(id, "id");
        Objects.requireNonNull(what, "what");
        Objects.requireNonNull(backend, "backend");
        Objects.requireNonNull(p90, "p90");
        Objects.requireNonNull(unit, "unit");
        Objects.requireNonNull(details, "details");
        Objects.requireNonNull(baseline, "baseline");
        Objects.requireNonNull(baselineMedian, "baselineMedian");
        Objects.requireNonNull(target, "target");
        Objects.requireNonNull(size, "size");
        if (!(median > 0) || p90.isPresent() && !(p90.getAsDouble() > 0)
                || baselineMedian.isPresent() && !(baselineMedian.getAsDouble() > 0)) {
            throw new IllegalArgumentException(id + "/" + backend + ": a measured value is not positive");
        }
        if (baselineMedian.isPresent() == baseline.isEmpty()) {
            throw new IllegalArgumentException(id + "/" + backend + ": a baseline needs both a label and a value");
        }
        if (size.isPresent() && !(size.getAsLong() > 0 && id.endsWith("_" + size.getAsLong()))) {
            throw new IllegalArgumentException(id + "/" + backend + ": a curve's row is named curve_SIZE");
        }
    }

    /** A row that is not on a curve. */
    Row(String id, String what, String backend, double median, OptionalDouble p90, Unit unit, String details,
        String baseline, OptionalDouble baselineMedian, Optional<Target> target) {
        this(id, what, backend, median, p90, unit, details, baseline, baselineMedian, target, OptionalLong.empty());
    }

    /** A row with a spread and a baseline. */
    static Row of(String id, String what, String backend, Summary ours, Unit unit, String details,
                  String baseline, Summary base) {
        return new Row(id, what, backend, ours.median(), OptionalDouble.of(ours.p90()), unit, details, baseline,
                OptionalDouble.of(base.median()), Optional.empty());
    }

    /** The same row without a target. */
    Row withoutTarget() {
        return new Row(id, what, backend, median, p90, unit, details, baseline, baselineMedian, Optional.empty(), size);
    }

    /** The same row with a target. */
    Row withTarget(Target t) {
        return new Row(id, what, backend, median, p90, unit, details, baseline, baselineMedian, Optional.of(t), size);
    }

    /** The same row against {@code baseline}, whose median is {@code baselineMedian}. */
    Row withBaseline(String baseline, double baselineMedian) {
        return new Row(id, what, backend, median, p90, unit, details, baseline, OptionalDouble.of(baselineMedian),
                target, size);
    }

    /** The same row as the point of curve {@code curve} at {@code size}; its id becomes {@code curve_size}. */
    Row onCurve(String curve, long size) {
        return new Row(curve + "_" + size, what, backend, median, p90, unit, details, baseline, baselineMedian, target,
                OptionalLong.of(size));
    }

    /** The curve this row is a point of; empty for a row that is not on one. */
    Optional<String> curve() {
        return size.isPresent()
                ? Optional.of(id.substring(0, id.length() - Long.toString(size.getAsLong()).length() - 1))
                : Optional.empty();
    }

    /**
     * How many times better than the baseline: baseline median / ours for times and memory (so
     * {@code 22.1} reads "22.1x faster"), ours / baseline for a throughput. Below 1, ours is worse.
     */
    OptionalDouble ratio() {
        if (baselineMedian.isEmpty()) {
            return OptionalDouble.empty();
        }
        double b = baselineMedian.getAsDouble();
        return OptionalDouble.of(unit.higherIsBetter() ? median / b : b / median);
    }

    /** Whether the target is met; empty when the row has none. */
    Optional<Boolean> targetMet() {
        return target.map(t -> t.metBy(this));
    }
}

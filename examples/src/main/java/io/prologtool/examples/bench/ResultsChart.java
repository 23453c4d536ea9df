package io.prologtool.examples.bench;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.function.ToDoubleFunction;

/**
 * The rows as a hand-written SVG bar chart: one panel per dimension (time, throughput, memory), each on
 * a log axis of its own (the times span microseconds to hundreds of milliseconds); per row a blue bar
 * for prologtool and a grey bar for the baseline, each labelled with its value, and a dashed red line
 * where the issue sets a bound on the median. The rows of a curve ({@link Row#size()}) are drawn after
 * the bars, one plot per curve on log-log axes: a line per backend through its sizes, and the baseline's
 * line, dashed, where every point of the curve has one. Black on white, so it reads on GitHub in light
 * mode; the machine line sits under the title.
 */
final class ResultsChart {

    private static final int WIDTH = 1120;
    private static final int LABEL_X = 20;
    private static final int AXIS_X = 440;
    private static final int AXIS_WIDTH = 460;
    private static final int BAR_HEIGHT = 15;
    private static final int ROW_HEIGHT = 2 * BAR_HEIGHT + 3 + 16;
    private static final String FONT = "-apple-system, 'Segoe UI', Helvetica, Arial, sans-serif";
    private static final String TEXT = "#1f2328";
    private static final String MUTED = "#59636e";
    private static final String GRID = "#d1d9e0";
    private static final String OURS = "#0969da";
    private static final String BASE = "#8c959f";
    private static final String TARGET = "#cf222e";
    /** The colours of a curve plot's lines, one per backend in the order of {@link #lineRank}. */
    private static final List<String> LINES = List.of(OURS, "#8250df", "#1a7f37");
    private static final int PLOT_WIDTH = 520;
    private static final int PLOT_HEIGHT = 244;

    private ResultsChart() {
    }

    static void write(Path file, Machine machine, List<Row> rows) throws IOException {
        Files.writeString(file, render(machine, rows), StandardCharsets.UTF_8);
    }

    static String render(Machine machine, List<Row> rows) {
        StringBuilder body = new StringBuilder();
        int y = 20;
        text(body, LABEL_X, y += 12, 18, TEXT, "bold", "prologtool benchmarks: prologtool vs baseline (medians, log scale)");
        text(body, LABEL_X, y += 22, 12, MUTED, "normal", machine.line());
        y += 18;
        rect(body, "legend", LABEL_X, y - 10, 12, 12, OURS);
        text(body, LABEL_X + 18, y, 12, TEXT, "normal", "prologtool");
        rect(body, "legend", LABEL_X + 110, y - 10, 12, 12, BASE);
        text(body, LABEL_X + 128, y, 12, TEXT, "normal", "baseline");
        targetSample(body, LABEL_X + 220, y);
        text(body, LABEL_X + 240, y, 12, TEXT, "normal", "target");
        text(body, LABEL_X + 300, y, 12, MUTED, "normal",
                "ratio: how many times better than the baseline (below 1: worse); p90 and details in results.csv");
        y += 14;
        for (Unit.Dimension d : Unit.Dimension.values()) {
            List<Row> panel = rows.stream().filter(r -> r.unit().dimension == d && r.size().isEmpty()).toList();
            if (!panel.isEmpty()) {
                y = panel(body, y + 22, d, panel);
            }
        }
        List<Row> curves = rows.stream().filter(r -> r.size().isPresent()).toList();
        if (!curves.isEmpty()) {
            y = curves(body, y + 22, curves);
        }
        int height = y + 20;
        return "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
                + String.format(Locale.ROOT, "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%d\" height=\"%d\" "
                        + "viewBox=\"0 0 %d %d\" font-family=\"%s\">%n", WIDTH, height, WIDTH, height, escape(FONT))
                + String.format(Locale.ROOT, "<rect x=\"0\" y=\"0\" width=\"%d\" height=\"%d\" fill=\"#ffffff\"/>%n",
                        WIDTH, height)
                + body + "</svg>\n";
    }

    /** One dimension's panel from {@code top}; returns where it ends. */
    private static int panel(StringBuilder b, int top, Unit.Dimension d, List<Row> rows) {
        List<Double> values = new ArrayList<>();
        for (Row r : rows) {
            values.add(r.unit().toBase(r.median()));
            r.baselineMedian().ifPresent(v -> values.add(r.unit().toBase(v)));
            r.target().filter(t -> t.kind() == Target.Kind.MEDIAN_BELOW)
                    .ifPresent(t -> values.add(r.unit().toBase(t.bound()))); // keep the target line on the axis
        }
        double min = values.stream().mapToDouble(Double::doubleValue).min().orElseThrow();
        double max = values.stream().mapToDouble(Double::doubleValue).max().orElseThrow();
        // the axis spans whole decades, in the base unit: 10^lo .. 10^hi
        int lo = (int) Math.floor(Math.log10(min));
        if (Math.log10(min) - lo < 0.1) {
            lo--; // keep the shortest bar visible
        }
        int hi = Math.max(lo + 1, (int) Math.ceil(Math.log10(max)));

        text(b, LABEL_X, top, 14, TEXT, "bold", d.title + " (log scale, " + d.better + ")");
        int axisY = top + 18;
        int bottom = axisY + 8 + rows.size() * ROW_HEIGHT;
        for (int e = lo; e <= hi; e++) {
            double x = AXIS_X + (double) (e - lo) / (hi - lo) * AXIS_WIDTH;
            b.append(String.format(Locale.ROOT, "<line x1=\"%.1f\" y1=\"%d\" x2=\"%.1f\" y2=\"%d\" stroke=\"%s\" "
                    + "stroke-width=\"1\"/>%n", x, axisY + 4, x, bottom, GRID));
            textAnchored(b, x, axisY, 11, MUTED, "middle", tick(d, Math.pow(10, e)));
        }
        int y = axisY + 8;
        for (Row r : rows) {
            text(b, LABEL_X, y + 12, 12, TEXT, "normal", r.what());
            text(b, LABEL_X, y + 28, 11, MUTED, "normal", subtitle(r));
            // bars, then the target line over them, then the values over both (with a white halo)
            StringBuilder labels = new StringBuilder();
            bar(b, labels, "bar ours", y + 2, r.unit().toBase(r.median()), lo, hi, OURS,
                    Numbers.shown(r.median()) + " " + r.unit().symbol, r);
            if (r.baselineMedian().isPresent()) {
                double v = r.baselineMedian().getAsDouble();
                bar(b, labels, "bar baseline", y + 2 + BAR_HEIGHT + 3, r.unit().toBase(v), lo, hi, BASE,
                        Numbers.shown(v) + " " + r.unit().symbol + " baseline", r);
            }
            if (r.target().isPresent() && r.target().get().kind() == Target.Kind.MEDIAN_BELOW) {
                double x = AXIS_X + (Math.log10(r.unit().toBase(r.target().get().bound())) - lo) / (hi - lo) * AXIS_WIDTH;
                b.append(String.format(Locale.ROOT, "<line class=\"target\" x1=\"%.1f\" y1=\"%d\" x2=\"%.1f\" y2=\"%d\" "
                        + "stroke=\"%s\" stroke-width=\"2\" stroke-dasharray=\"3,2\"><title>%s</title></line>%n", x, y,
                        x, y + BAR_HEIGHT + 4, TARGET, escape("target " + r.target().get().text(r.unit()))));
            }
            b.append(labels);
            y += ROW_HEIGHT;
        }
        return bottom;
    }

    /** The plots of the curves from {@code top}, two to a line; returns where they end. */
    private static int curves(StringBuilder b, int top, List<Row> rows) {
        text(b, LABEL_X, top, 14, TEXT, "bold", "How cost grows with the work (log-log; medians; dashed: baseline)");
        Map<String, List<Row>> byCurve = new LinkedHashMap<>();
        for (Row r : rows) {
            byCurve.computeIfAbsent(r.curve().orElseThrow(), k -> new ArrayList<>()).add(r);
        }
        int i = 0;
        int y = top + 14;
        for (Map.Entry<String, List<Row>> e : byCurve.entrySet()) {
            int x = LABEL_X + (i % 2) * (PLOT_WIDTH + 20);
            if (i > 0 && i % 2 == 0) {
                y += PLOT_HEIGHT + 20;
            }
            plot(b, x, y, e.getKey(), e.getValue());
            i++;
        }
        return y + PLOT_HEIGHT;
    }

    /** Where a backend's line comes in a plot, and so its colour: jpl, process, then any other. */
    private static int lineRank(String backend) {
        return switch (backend) {
            case "jpl" -> 0;
            case "process" -> 1;
            default -> 2;
        };
    }

    /** One curve's plot at ({@code left}, {@code top}): a line per backend, and the baselines dashed. */
    private static void plot(StringBuilder b, int left, int top, String curve, List<Row> rows) {
        Unit unit = rows.get(0).unit();
        List<String> backends = rows.stream().map(Row::backend).distinct()
                .sorted(Comparator.comparingInt(ResultsChart::lineRank)).toList();
        List<Double> xs = new ArrayList<>();
        List<Double> ys = new ArrayList<>();
        for (Row r : rows) {
            xs.add((double) r.size().getAsLong());
            ys.add(unit.toBase(r.median()));
            r.baselineMedian().ifPresent(v -> ys.add(unit.toBase(v)));
        }
        int xlo = (int) Math.floor(Math.log10(xs.stream().mapToDouble(Double::doubleValue).min().orElseThrow()));
        int xhi = Math.max(xlo + 1, (int) Math.ceil(Math.log10(xs.stream().mapToDouble(Double::doubleValue).max()
                .orElseThrow())));
        int ylo = (int) Math.floor(Math.log10(ys.stream().mapToDouble(Double::doubleValue).min().orElseThrow()));
        int yhi = Math.max(ylo + 1, (int) Math.ceil(Math.log10(ys.stream().mapToDouble(Double::doubleValue).max()
                .orElseThrow())));
        int px = left + 60;
        int pw = PLOT_WIDTH - 80;
        int py = top + 30;
        int ph = PLOT_HEIGHT - 84;
        String title = CostGrowth.CURVE_TITLES.getOrDefault(curve, curve) + " (" + unit.symbol + ")";
        text(b, left, top + 14, 12, TEXT, "bold", title);
        for (int e = xlo; e <= xhi; e++) {
            double x = px + (double) (e - xlo) / (xhi - xlo) * pw;
            b.append(String.format(Locale.ROOT, "<line x1=\"%.1f\" y1=\"%d\" x2=\"%.1f\" y2=\"%d\" stroke=\"%s\" "
                    + "stroke-width=\"1\"/>%n", x, py, x, py + ph, GRID));
            textAnchored(b, x, py + ph + 14, 11, MUTED, "middle", size(Math.pow(10, e)));
        }
        for (int e = ylo; e <= yhi; e++) {
            double y = py + ph - (double) (e - ylo) / (yhi - ylo) * ph;
            b.append(String.format(Locale.ROOT, "<line x1=\"%d\" y1=\"%.1f\" x2=\"%d\" y2=\"%.1f\" stroke=\"%s\" "
                    + "stroke-width=\"1\"/>%n", px, y, px + pw, y, GRID));
            b.append(String.format(Locale.ROOT, "<text x=\"%d\" y=\"%.1f\" font-size=\"11\" text-anchor=\"end\" "
                    + "fill=\"%s\">%s</text>%n", px - 4, y + 4, MUTED, escape(tick(unit.dimension, Math.pow(10, e)))));
        }
        int legendX = px;
        boolean dashed = false;
        for (int k = 0; k < backends.size(); k++) {
            String backend = backends.get(k);
            String color = LINES.get(k % LINES.size());
            List<Row> line = rows.stream().filter(r -> r.backend().equals(backend)).toList();
            polyline(b, "curve ours", curve + "/" + backend, line, r -> unit.toBase(r.median()), color, false,
                    xlo, xhi, ylo, yhi, px, pw, py, ph);
            if (line.stream().allMatch(r -> r.baselineMedian().isPresent())) {
                dashed = true;
                polyline(b, "curve baseline", curve + "/" + backend, line,
                        r -> unit.toBase(r.baselineMedian().getAsDouble()), BASE, true, xlo, xhi, ylo, yhi, px, pw,
                        py, ph);
            }
            rect(b, "legend", legendX, py + ph + 24, 12, 4, color);
            text(b, legendX + 16, py + ph + 30, 11, TEXT, "normal", backend);
            legendX += 90;
        }
        if (dashed) {
            String baseline = rows.get(0).baseline();
            text(b, px, py + ph + 46, 11, MUTED, "normal", "dashed: " + shortened(baseline, 72));
        }
    }

    /** A size on a curve's axis: {@code 100}, {@code 10k}, {@code 1M}. */
    private static String size(double v) {
        return v >= 1e6 ? Numbers.plain(v / 1e6) + "M" : v >= 1e3 ? Numbers.plain(v / 1e3) + "k" : Numbers.plain(v);
    }

    private static void polyline(StringBuilder b, String cls, String name, List<Row> rows,
                                 ToDoubleFunction<Row> value, String color, boolean dashed,
                                 int xlo, int xhi, int ylo, int yhi, int px, int pw, int py, int ph) {
        StringBuilder points = new StringBuilder();
        StringBuilder dots = new StringBuilder();
        for (Row r : rows) {
            double x = px + (Math.log10(r.size().getAsLong()) - xlo) / (xhi - xlo) * pw;
            double y = py + ph - (Math.log10(value.applyAsDouble(r)) - ylo) / (yhi - ylo) * ph;
            points.append(String.format(Locale.ROOT, "%.1f,%.1f ", x, y));
            dots.append(String.format(Locale.ROOT, "<circle cx=\"%.1f\" cy=\"%.1f\" r=\"3\" fill=\"%s\"><title>%s"
                    + "</title></circle>%n", x, y, color, escape(r.id() + " / " + r.backend() + ": "
                    + Numbers.shown(dashed ? r.baselineMedian().getAsDouble() : r.median()) + " " + r.unit().symbol
                    + (dashed ? " baseline" : ""))));
        }
        b.append(String.format(Locale.ROOT, "<polyline class=\"%s\" data-curve=\"%s\" points=\"%s\" fill=\"none\" "
                + "stroke=\"%s\" stroke-width=\"2\"%s/>%n", cls, escape(name), points.toString().trim(), color,
                dashed ? " stroke-dasharray=\"5,3\"" : ""));
        b.append(dots);
    }

    private static String shortened(String s, int max) {
        return s.length() <= max ? s : s.substring(0, max - 1) + "…";
    }

    private static String subtitle(Row r) {
        StringBuilder s = new StringBuilder(r.backend());
        r.ratio().ifPresent(x -> s.append("  ·  ").append(Numbers.shown(x)).append("x vs baseline"));
        r.target().ifPresent(t -> s.append("  ·  target ").append(t.text(r.unit())).append(": ")
                .append(t.metBy(r) ? "met" : "missed"));
        return s.toString();
    }

    /** A bar into {@code b}, its value label into {@code labels}. */
    private static void bar(StringBuilder b, StringBuilder labels, String cls, int y, double value, int lo, int hi,
                            String color, String label, Row r) {
        double w = Math.max(2, (Math.log10(value) - lo) / (hi - lo) * AXIS_WIDTH);
        b.append(String.format(Locale.ROOT, "<rect class=\"%s\" x=\"%d\" y=\"%d\" width=\"%.1f\" height=\"%d\" "
                        + "fill=\"%s\"><title>%s</title></rect>%n", cls, AXIS_X, y, w, BAR_HEIGHT, color,
                escape(r.id() + " / " + r.backend() + ": " + label)));
        labels.append(String.format(Locale.ROOT, "<text x=\"%d\" y=\"%d\" font-size=\"11\" fill=\"%s\" "
                + "stroke=\"#ffffff\" stroke-width=\"3\" paint-order=\"stroke\">%s</text>%n", Math.round(AXIS_X + w + 6),
                y + BAR_HEIGHT - 3, TEXT, escape(label)));
    }

    /** A decade in the dimension's base unit (µs, q/s, MB), in the unit that reads best. */
    private static String tick(Unit.Dimension d, double v) {
        return switch (d) {
            case TIME -> v >= 1e6 ? Numbers.plain(v / 1e6) + " s" : v >= 1e3 ? Numbers.plain(v / 1e3) + " ms"
                    : Numbers.shown(v) + " µs";
            case RATE -> Numbers.shown(v) + " q/s";
            case MEMORY -> v >= 1e3 ? Numbers.plain(v / 1e3) + " GB" : v >= 1 ? Numbers.plain(v) + " MB"
                    : Numbers.shown(v * 1e3) + " kB";
        };
    }

    private static void text(StringBuilder b, int x, int y, int size, String fill, String weight, String s) {
        b.append(String.format(Locale.ROOT, "<text x=\"%d\" y=\"%d\" font-size=\"%d\" font-weight=\"%s\" fill=\"%s\">%s"
                + "</text>%n", x, y, size, weight, fill, escape(s)));
    }

    private static void textAnchored(StringBuilder b, double x, int y, int size, String fill, String anchor, String s) {
        b.append(String.format(Locale.ROOT, "<text x=\"%.1f\" y=\"%d\" font-size=\"%d\" text-anchor=\"%s\" fill=\"%s\">"
                + "%s</text>%n", x, y, size, anchor, fill, escape(s)));
    }

    /** The legend's sample of a target line. */
    private static void targetSample(StringBuilder b, int x, int y) {
        b.append(String.format(Locale.ROOT, "<line x1=\"%d\" y1=\"%d\" x2=\"%d\" y2=\"%d\" stroke=\"%s\" "
                + "stroke-width=\"2\" stroke-dasharray=\"3,2\"/>%n", x + 6, y - 11, x + 6, y + 2, TARGET));
    }

    private static void rect(StringBuilder b, String cls, int x, int y, int w, int h, String fill) {
        b.append(String.format(Locale.ROOT, "<rect class=\"%s\" x=\"%d\" y=\"%d\" width=\"%d\" height=\"%d\" "
                + "fill=\"%s\"/>%n", cls, x, y, w, h, fill));
    }

    /** Text for XML content and attribute values. */
    static String escape(String s) {
        return s.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;").replace("\"", "&quot;")
                .replace("'", "&apos;");
    }
}

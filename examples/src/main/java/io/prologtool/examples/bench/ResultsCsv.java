package io.prologtool.examples.bench;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Collectors;
import java.util.stream.Stream;

/**
 * The rows as CSV (RFC 4180, UTF-8), one line per row: numbers with four significant digits, empty
 * cells where a row has no p90, baseline or target. {@code ratio} is how many times better than the
 * baseline (baseline / ours for times and memory, ours / baseline for a throughput).
 */
final class ResultsCsv {

    static final List<String> HEADER = List.of("id", "backend", "what", "median", "p90", "unit", "baseline",
            "baseline_median", "ratio", "target", "target_met", "details");

    private ResultsCsv() {
    }

    static void write(Path file, List<Row> rows) throws IOException {
        Files.writeString(file, render(rows), StandardCharsets.UTF_8);
    }

    static String render(List<Row> rows) {
        StringBuilder b = new StringBuilder(line(HEADER.stream()));
        for (Row r : rows) {
            b.append(line(Stream.of(r.id(), r.backend(), r.what(), Numbers.csv(r.median()), number(r.p90()),
                    r.unit().symbol, r.baseline(), number(r.baselineMedian()), number(r.ratio()),
                    r.target().map(t -> t.text(r.unit())).orElse(""),
                    r.targetMet().map(met -> met ? "met" : "missed").orElse(""), r.details())));
        }
        return b.toString();
    }

    private static String number(java.util.OptionalDouble v) {
        return v.isPresent() ? Numbers.csv(v.getAsDouble()) : "";
    }

    private static String line(Stream<String> cells) {
        return cells.map(ResultsCsv::cell).collect(Collectors.joining(",", "", "\r\n"));
    }

    private static String cell(String s) {
        return s.contains(",") || s.contains("\"") || s.contains("\n") || s.contains("\r")
                ? "\"" + s.replace("\"", "\"\"") + "\"" : s;
    }
}

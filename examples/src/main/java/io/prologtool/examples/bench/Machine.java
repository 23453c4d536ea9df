package io.prologtool.examples.bench;

import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.ZonedDateTime;
import java.time.format.DateTimeFormatter;
import java.util.Locale;
import java.util.concurrent.TimeUnit;

/** The machine a run measured: printed with the table and drawn under the chart's title. */
record Machine(int cores, String cpu, String swipl, String java, String date, String load) {

    /** This machine, now. */
    static Machine probe(Path swipl) {
        return new Machine(Runtime.getRuntime().availableProcessors(), cpuModel(), swiplVersion(swipl),
                System.getProperty("java.vm.name", "Java") + " " + System.getProperty("java.runtime.version",
                        System.getProperty("java.version")),
                ZonedDateTime.now().withNano(0).format(DateTimeFormatter.ISO_OFFSET_DATE_TIME), loadAverage());
    }

    /**
     * {@code 2 cores (AMD EPYC), load 1.52 at start, SWI-Prolog 9.0.4, OpenJDK 64-Bit Server VM 17.0.15, 2025-...}:
     * the load says how much other work shared the cores when the run began.
     */
    String line() {
        return cores + " cores (" + cpu + "), load " + load + " at start, " + swipl + ", " + java + ", " + date;
    }

    /** The 1-minute load average, as {@code /proc/loadavg} gives it. */
    private static String loadAverage() {
        try {
            return Files.readString(Path.of("/proc/loadavg")).strip().split("\\s+")[0];
        } catch (IOException | RuntimeException e) {
            double l = ManagementFactory.getOperatingSystemMXBean().getSystemLoadAverage();
            return l < 0 ? "unknown" : String.format(Locale.ROOT, "%.2f", l);
        }
    }

    private static String cpuModel() {
        try {
            for (String l : Files.readAllLines(Path.of("/proc/cpuinfo"), StandardCharsets.UTF_8)) {
                if (l.startsWith("model name")) {
                    return l.substring(l.indexOf(':') + 1).strip();
                }
            }
        } catch (IOException | RuntimeException e) {
            // not Linux, or /proc not readable: say so below
        }
        return System.getProperty("os.arch") + " CPU";
    }

    private static String swiplVersion(Path swipl) {
        try {
            Process p = new ProcessBuilder(swipl.toString(), "--version").redirectErrorStream(true).start();
            String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8).strip();
            p.waitFor(10, TimeUnit.SECONDS);
            // "SWI-Prolog version 9.0.4 for x86_64-linux"
            return out.replaceFirst(" version ", " ").replaceFirst(" for .*", "");
        } catch (IOException e) {
            return "swipl (version unknown)";
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return "swipl (version unknown)";
        }
    }
}

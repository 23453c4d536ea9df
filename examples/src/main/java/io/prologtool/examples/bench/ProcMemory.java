package io.prologtool.examples.bench;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;

/** Memory of a process as Linux reports it under {@code /proc}, in KiB (what Linux writes as "kB"). */
final class ProcMemory {

    private ProcMemory() {
    }

    /** KiB in decimal megabytes. */
    static double mb(double kib) {
        return kib * 1024 / 1e6;
    }

    /** KiB in decimal kilobytes. */
    static double kb(double kib) {
        return kib * 1.024;
    }

    /** Resident set size ({@code VmRSS} in {@code /proc/PID/status}). */
    static long rssKib(long pid) {
        return field(Path.of("/proc", Long.toString(pid), "status"), "VmRSS:");
    }

    /** Proportional set size: shared pages divided among the processes that map them. */
    static long pssKib(long pid) {
        return field(Path.of("/proc", Long.toString(pid), "smaps_rollup"), "Pss:");
    }

    /** This process's resident set size. */
    static long selfRssKib() {
        return field(Path.of("/proc/self/status"), "VmRSS:");
    }

    private static long field(Path file, String name) {
        try {
            for (String l : Files.readAllLines(file, StandardCharsets.UTF_8)) {
                if (l.startsWith(name)) {
                    // "VmRSS:	   12345 kB"
                    return Long.parseLong(l.substring(name.length()).replace("kB", "").strip());
                }
            }
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read " + file + " (the memory rows need Linux's /proc)", e);
        }
        throw new IllegalStateException(file + " has no " + name + " line");
    }
}

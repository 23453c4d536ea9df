package io.prologtool.process;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.fail;

/** Runs a main class of the test classpath in a JVM of its own and returns what it printed. */
final class ChildJvm {

    record Result(int status, String output) {
    }

    private ChildJvm() {
    }

    static Result run(Class<?> main, String maxHeap, String... args) throws IOException, InterruptedException {
        Path java = Path.of(System.getProperty("java.home"), "bin", "java");
        List<String> cmd = new ArrayList<>(List.of(java.toString(), "-Xmx" + maxHeap, "-XX:+UseSerialGC",
                "-cp", System.getProperty("java.class.path"), main.getName()));
        cmd.addAll(List.of(args));
        Process p = new ProcessBuilder(cmd).redirectErrorStream(true).start();
        p.getOutputStream().close();
        String out;
        try (var in = p.getInputStream()) {
            out = new String(in.readAllBytes(), StandardCharsets.UTF_8);
        }
        if (!p.waitFor(3, TimeUnit.MINUTES)) {
            p.destroyForcibly();
            fail("the child JVM running " + main.getSimpleName() + " did not end in 3 minutes; it printed:\n" + out);
        }
        return new Result(p.exitValue(), out);
    }

    /** Every process whose command line contains {@code text}, as "pid: command line". */
    static List<String> processesMatching(String text) throws IOException {
        List<String> found = new ArrayList<>();
        try (var dirs = java.nio.file.Files.list(Path.of("/proc"))) {
            for (Path d : (Iterable<Path>) dirs::iterator) {
                String name = d.getFileName().toString();
                if (!name.chars().allMatch(Character::isDigit)) {
                    continue;
                }
                try {
                    byte[] raw = java.nio.file.Files.readAllBytes(d.resolve("cmdline"));
                    String cmdline = new String(raw, StandardCharsets.UTF_8).replace('\0', ' ').strip();
                    if (cmdline.contains(text)) {
                        found.add(name + ": " + cmdline);
                    }
                } catch (IOException ignored) {
                    // the process ended meanwhile
                }
            }
        }
        return found;
    }

    /** A line of /proc/PID/status ("Uid:", "VmPeak:", ...), without its label; empty when gone. */
    static String procStatus(long pid, String label) {
        try {
            for (String line : java.nio.file.Files.readAllLines(Path.of("/proc", Long.toString(pid), "status"))) {
                if (line.startsWith(label)) {
                    return line.substring(label.length()).strip();
                }
            }
        } catch (IOException ignored) {
            // gone
        }
        return "";
    }
}

package io.prologtool.examples.bench;

import com.fasterxml.jackson.databind.JsonNode;
import io.prologtool.RuleBaseStore;
import io.prologtool.json.TermJson;
import io.prologtool.process.ProcessBackend;
import io.prologtool.tools.PrologTools;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * The cost of one {@code execute_prolog} call on the 30 prolog-reasoner problems: through
 * {@link PrologTools} (pooled scratch sessions, one harness request per call), against what
 * prolog-reasoner does per call (write the program to a temporary file and start {@code swipl} on it,
 * with a query wrapper that prints each solution). Both run in the same JVM, one after the other, and
 * the bench checks that both produce output for every problem. Prints median and p90 of each.
 *
 * <p>Run: {@code make build && mvn -q -pl examples exec:java -Dexec.mainClass=io.prologtool.examples.bench.ExecutorBench -Dexec.args="5"}
 * (the argument: rounds over the 30 problems; an optional second argument is the problems file).
 */
public final class ExecutorBench {

    private record Problem(String id, String code, String query) {
    }

    private ExecutorBench() {
    }

    public static void main(String[] args) throws Exception {
        int rounds = args.length > 0 ? Integer.parseInt(args[0]) : 5;
        Path file = args.length > 1 ? Path.of(args[1]) : find("shared/data/prolog-reasoner/problems.json");
        List<Problem> problems = new ArrayList<>();
        for (JsonNode p : TermJson.mapper().readTree(Files.readString(file)).get("problems")) {
            problems.add(new Problem(p.get("id").asText(), p.get("prolog_code").asText(), p.get("query").asText()));
        }
        System.out.printf("execute_prolog on %d problems x %d rounds, %d cores%n", problems.size(), rounds,
                Runtime.getRuntime().availableProcessors());

        Path rules = Files.createTempDirectory("prologtool-bench-rules-");
        long[] pooled;
        try (ProcessBackend backend = ProcessBackend.builder().build();
             PrologTools tools = PrologTools.builder(backend).ruleBases(RuleBaseStore.directory(rules)).build()) {
            for (int i = 0; i < 60; i++) {
                for (Problem p : problems) {
                    executeProlog(tools, p); // warm up the JIT and open the scratch sessions
                }
            }
            pooled = measure(problems, rounds, p -> executeProlog(tools, p));
        }
        Files.deleteIfExists(rules);

        Path swipl = Path.of("swipl");
        Path dir = Files.createTempDirectory("prologtool-bench-");
        for (Problem p : problems.subList(0, 3)) {
            swiplPerCall(swipl, dir, p); // warm the page cache
        }
        long[] spawned = measure(problems, rounds, p -> swiplPerCall(swipl, dir, p));
        Files.deleteIfExists(dir);

        report("execute_prolog (PrologTools, pooled)", pooled);
        report("swipl started per call (temp file)", spawned);
        System.out.printf("  median ratio: %.1fx%n", median(spawned) / median(pooled));
    }

    private interface Call {
        void run(Problem p) throws Exception;
    }

    private static long[] measure(List<Problem> problems, int rounds, Call call) throws Exception {
        long[] micros = new long[problems.size() * rounds];
        int i = 0;
        for (int r = 0; r < rounds; r++) {
            for (Problem p : problems) {
                long t0 = System.nanoTime();
                call.run(p);
                micros[i++] = (System.nanoTime() - t0) / 1_000;
            }
        }
        Arrays.sort(micros);
        return micros;
    }

    private static void executeProlog(PrologTools tools, Problem p) throws IOException {
        String args = TermJson.mapper().createObjectNode().put("prolog_code", p.code()).put("query", p.query())
                .toString();
        JsonNode r = TermJson.mapper().readTree(tools.call("execute_prolog", args));
        if (!r.path("success").asBoolean() || r.path("output").asText().isEmpty()) {
            throw new IllegalStateException(p.id() + ": " + r);
        }
    }

    /**
     * What prolog-reasoner does per call: the program in a temporary file, {@code swipl} started on it
     * with a wrapper that prints every solution (up to 100) and {@code false} when there is none.
     */
    private static void swiplPerCall(Path swipl, Path dir, Problem p) throws Exception {
        Path file = Files.createTempFile(dir, "program-", ".pl");
        try {
            Files.writeString(file, ":- set_prolog_flag(verbose, silent).\n" + p.code() + "\n", StandardCharsets.UTF_8);
            String wrapper = "nb_setval(n, 0), ( (" + p.query() + "), nb_getval(n, N), N1 is N + 1, nb_setval(n, N1), "
                    + "write_canonical((" + p.query() + ")), nl, N1 >= 100 -> true ; true ), "
                    + "( nb_getval(n, 0) -> writeln(false) ; true )";
            Process proc = new ProcessBuilder(swipl.toString(), "-q", "-f", "none", "-g", wrapper, "-t", "halt",
                    file.toString()).redirectErrorStream(true).start();
            byte[] out = proc.getInputStream().readAllBytes();
            if (!proc.waitFor(30, TimeUnit.SECONDS) || out.length == 0) {
                throw new IllegalStateException(p.id() + ": no output from swipl");
            }
        } finally {
            Files.deleteIfExists(file);
        }
    }

    private static double median(long[] sorted) {
        return sorted[sorted.length / 2];
    }

    private static void report(String label, long[] sorted) {
        System.out.printf("  %-40s median %8.2f ms   p90 %8.2f ms%n", label, sorted[sorted.length / 2] / 1000.0,
                sorted[(int) (sorted.length * 0.9)] / 1000.0);
    }

    private static Path find(String relative) {
        for (Path d = Path.of("").toAbsolutePath(); d != null; d = d.getParent()) {
            Path candidate = d.resolve(relative);
            if (Files.isRegularFile(candidate)) {
                return candidate;
            }
            Path beside = d.resolve("..").resolve(relative).normalize();
            if (Files.isRegularFile(beside)) {
                return beside;
            }
        }
        throw new IllegalStateException(relative + " not found above " + Path.of("").toAbsolutePath()
                + "; pass the problems file as the second argument");
    }
}

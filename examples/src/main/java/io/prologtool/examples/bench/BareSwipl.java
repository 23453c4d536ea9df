package io.prologtool.examples.bench;

import io.prologtool.PrologUnavailableException;
import io.prologtool.process.ProcessBackend;
import io.prologtool.spi.Executables;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.OutputStreamWriter;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * The baselines: {@code swipl} driven the simple ways a tool server without prologtool would drive it.
 * Every one checks the answer it gets, so a broken baseline cannot look fast.
 */
final class BareSwipl {

    /** A read/call/reply loop: the least a Prolog process behind a pipe can do per request. */
    static final String LOOP = "prompt(_, ''), repeat, read(T), "
            + "(T == end_of_file -> halt ; call(T), writeln(done), flush_output, fail)";

    private BareSwipl() {
    }

    /** {@code swipl} on the PATH. */
    static Path find() {
        return Executables.findOnPath("swipl").orElseThrow(() -> new PrologUnavailableException(
                "the benchmarks need SWI-Prolog's swipl on the PATH; install it with `apt-get install "
                        + ProcessBackend.APT_PACKAGE + "`"));
    }

    /** {@code text} as a quoted Prolog atom. */
    static String atom(String text) {
        return "'" + text.replace("\\", "\\\\").replace("'", "\\'") + "'";
    }

    /**
     * One session the way a session-per-process tool server runs it: a fresh {@code swipl -q -f none},
     * a query on its stdin that consults {@code program} and runs {@code goal} (through {@code call/1}:
     * the toplevel refuses a query that names a predicate the file has not defined yet), then halt.
     * Returns what it printed: {@code yes} or {@code no}.
     */
    static String sessionPerProcess(Path swipl, Path program, String goal) throws IOException, InterruptedException {
        Process p = new ProcessBuilder(swipl.toString(), "-q", "-f", "none").redirectErrorStream(true).start();
        try (Writer w = new OutputStreamWriter(p.getOutputStream(), StandardCharsets.UTF_8)) {
            w.write("consult(" + atom(program.toString()) + "), (call(" + goal + ") -> writeln(yes) ; writeln(no)), halt.\n");
        }
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8).strip();
        if (!p.waitFor(30, TimeUnit.SECONDS)) {
            p.destroyForcibly();
            throw new IllegalStateException("swipl did not halt after the query; it printed: " + out);
        }
        return out;
    }

    /**
     * What prolog-reasoner does per {@code execute_prolog} call: the program in a temporary file,
     * {@code swipl} started on it with a wrapper that prints every solution (up to 100) and
     * {@code false} when there is none. Throws when swipl prints nothing or does not end.
     */
    static void perCall(Path swipl, Path dir, String id, String code, String query) throws IOException, InterruptedException {
        Path file = Files.createTempFile(dir, "program-", ".pl");
        try {
            Files.writeString(file, ":- set_prolog_flag(verbose, silent).\n" + code + "\n", StandardCharsets.UTF_8);
            String wrapper = "nb_setval(n, 0), ( (" + query + "), nb_getval(n, N), N1 is N + 1, nb_setval(n, N1), "
                    + "write_canonical((" + query + ")), nl, N1 >= 100 -> true ; true ), "
                    + "( nb_getval(n, 0) -> writeln(false) ; true )";
            Process p = new ProcessBuilder(swipl.toString(), "-q", "-f", "none", "-g", wrapper, "-t", "halt",
                    file.toString()).redirectErrorStream(true).start();
            p.getOutputStream().close();
            byte[] out = p.getInputStream().readAllBytes();
            if (!p.waitFor(30, TimeUnit.SECONDS)) {
                p.destroyForcibly();
                throw new IllegalStateException(id + ": swipl did not end");
            }
            if (out.length == 0) {
                throw new IllegalStateException(id + ": no output from swipl");
            }
        } finally {
            Files.deleteIfExists(file);
        }
    }

    /** A {@code swipl} child running {@link #LOOP}: one goal written, one {@code done} line read back. */
    static final class ReadLoop implements AutoCloseable {
        private final Process process;
        private final Writer in;
        private final BufferedReader out;

        ReadLoop(Path swipl) throws IOException {
            process = new ProcessBuilder(swipl.toString(), "-q", "-f", "none", "-g", LOOP)
                    .redirectError(ProcessBuilder.Redirect.INHERIT).start();
            in = new OutputStreamWriter(process.getOutputStream(), StandardCharsets.UTF_8);
            out = new BufferedReader(new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8));
        }

        /** Runs {@code goal} (which must succeed) in the child and waits for its reply. */
        void call(String goal) throws IOException {
            in.write(goal);
            in.write(".\n");
            in.flush();
            String reply = out.readLine();
            if (!"done".equals(reply)) {
                throw new IllegalStateException("the bare swipl loop replied " + reply + " to " + goal);
            }
        }

        @Override
        public void close() throws IOException {
            try {
                in.close(); // end of file: the loop halts
            } finally {
                try {
                    if (!process.waitFor(5, TimeUnit.SECONDS)) {
                        process.destroyForcibly();
                    }
                } catch (InterruptedException e) {
                    process.destroyForcibly();
                    Thread.currentThread().interrupt();
                }
            }
        }
    }

    /**
     * Starts {@code n} bare {@code swipl -q -f none} children, waits until each has answered a query at
     * its toplevel, lets them idle {@code idleMillis}, and returns their {@code {VmRSS, Pss}} in KiB.
     */
    static List<long[]> idleMemory(Path swipl, int n, long idleMillis) throws IOException, InterruptedException {
        List<Process> children = new ArrayList<>();
        try {
            for (int i = 0; i < n; i++) {
                children.add(new ProcessBuilder(swipl.toString(), "-q", "-f", "none")
                        .redirectError(ProcessBuilder.Redirect.DISCARD).start());
            }
            for (Process p : children) {
                Writer w = new OutputStreamWriter(p.getOutputStream(), StandardCharsets.UTF_8);
                w.write("writeln(ready).\n");
                w.flush();
                BufferedReader r = new BufferedReader(new InputStreamReader(p.getInputStream(), StandardCharsets.UTF_8));
                String l;
                while ((l = r.readLine()) != null && !l.equals("ready")) {
                    // the toplevel may print other lines first
                }
                if (l == null) {
                    throw new IllegalStateException("a bare swipl ended before it answered");
                }
            }
            Thread.sleep(idleMillis);
            List<long[]> memory = new ArrayList<>();
            for (Process p : children) {
                memory.add(new long[] {ProcMemory.rssKib(p.pid()), ProcMemory.pssKib(p.pid())});
            }
            return memory;
        } finally {
            for (Process p : children) {
                p.getOutputStream().close(); // end of file at the toplevel: halt
            }
            for (Process p : children) {
                if (!p.waitFor(5, TimeUnit.SECONDS)) {
                    p.destroyForcibly();
                }
            }
        }
    }
}

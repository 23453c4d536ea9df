package io.prologtool.examples.bench;

import io.prologtool.GoalResult;
import io.prologtool.Outcome;
import io.prologtool.PrologBackend;
import io.prologtool.PrologSession;
import io.prologtool.SessionOptions;
import io.prologtool.Term;
import io.prologtool.examples.CommandLine;
import io.prologtool.jpl.JplBackend;
import io.prologtool.process.ProcessBackend;

import java.io.IOException;
import java.io.PrintStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.stream.Stream;

/**
 * {@code make attack-cycles}: whether what a session can allocate comes back when it closes. For each class
 * of attack (deep and cyclic terms written, atoms built, memory sinks, atoms held by asserted facts, tables,
 * streams and engines left open, errors with a large culprit), it runs open, consult, attack, close
 * {@code --cycles} times (default 10,000) on each backend and samples, ten times along the way, what the
 * host holds: resident memory, open file descriptors and threads of this JVM (and, on the process backend,
 * the resident memory and number of its children), and the atoms of the Prolog that serves the next
 * session. A class is flat when the last sample holds no more than the first plus a tolerance (RSS 16 MB
 * or 10%, 2,000 atoms, 4 descriptors, 2 threads); the table says which are not. {@code make attack-cycles}
 * runs it with a fixed Java heap touched at start ({@code -Xms128m -Xmx128m -XX:+AlwaysPreTouch}), so that
 * the JVM's resident memory moves only with what Prolog holds, not with the Java heap's growth.
 *
 * <pre>{@code
 * make attack-cycles                                  # 10,000 cycles a class on both backends
 * make attack-cycles ATTACK_ARGS="--cycles 500 --backend jpl --class tables"
 * }</pre>
 * Writes the table to {@code docs/bench/attack-cycles.md} unless {@code --out FILE} says otherwise, and
 * exits with 1 when a class is not flat.
 */
public final class AttackCycles {

    /** One class of attack: what the session holds, the goal that attacks, and whether it is sandboxed. */
    record Attack(String name, boolean sandboxed, String program, String goal) {
    }

    /** The classes, each cheap enough to run 10,000 times; every goal ends by itself or at a bound. */
    static final List<Attack> ATTACKS = List.of(
            new Attack("deep-cyclic-write", true,
                    "deep(0, z) :- !.\ndeep(N, f(T)) :- N1 is N - 1, deep(N1, T).\n",
                    "deep(20000, T), X = g(X, T), catch(with_output_to(string(_), write(X)), _, true)"),
            new Attack("atom-builders", true, "",
                    "numlist(1, 500, L), get_time(S), format(atom(A), '~w~w', [S, L]), term_to_atom(f(L, S), B), "
                            + "catch(atom_concat(A, B, _), _, true), term_string(T, B), atom_to_term(B, _, _), T \\== x"),
            new Attack("output-sinks", true, "",
                    "catch(format(string(_), '~*c', [1000000, 0'x]), _, true), "
                            + "catch(with_output_to(string(_), forall(between(1, 20000, _), write(xxxxxxxx))), _, true)"),
            new Attack("asserted-atoms", true, ":- dynamic held/1.\n",
                    "get_time(S), forall(between(1, 200, I), (format(atom(A), 'held_~w_~w', [S, I]), assertz(held(A))))"),
            new Attack("tables", true,
                    ":- table path/2.\nedge(X, Y) :- between(1, 150, X), Y is X + 1.\n"
                            + "path(X, Y) :- edge(X, Y).\npath(X, Y) :- path(X, Z), edge(Z, Y).\n",
                    "aggregate_all(count, path(_, _), N), N > 0"),
            new Attack("streams-left-open", false, "",
                    "open_string(\"some text\", S), read_term(S, _, []), open_null_stream(N), write(N, x)"),
            new Attack("engines-left", false, "",
                    "engine_create(X, between(1, inf, X), E), engine_next(E, _), engine_next(E, _)"),
            new Attack("large-culprit", true, "",
                    "numlist(1, 100000, L), catch(atom_length(L, _), _, true)"));

    private record Sample(int cycle, long rssKib, long childrenRssKib, int children, long fds, long threads,
                          long atoms) {
    }

    private AttackCycles() {
    }

    public static void main(String[] args) throws Exception {
        List<String> words = CommandLine.words(args);
        int cycles = 10_000;
        String backends = "both";
        String only = null;
        Path out = Path.of("docs", "bench", "attack-cycles.md");
        for (int i = 0; i < words.size(); i++) {
            String w = words.get(i);
            String v = i + 1 < words.size() ? words.get(i + 1) : null;
            switch (w) {
                case "--cycles" -> cycles = Integer.parseInt(require(w, v));
                case "--backend" -> backends = require(w, v);
                case "--class" -> only = require(w, v);
                case "--out" -> out = Path.of(require(w, v));
                default -> {
                    System.err.println("attack-cycles: unknown option " + w);
                    System.err.println("usage: AttackCycles [--cycles N] [--backend jpl|process|both] [--class NAME] [--out FILE]");
                    System.exit(2);
                }
            }
            i++;
        }
        PrintStream log = System.err;
        List<String> table = new ArrayList<>();
        table.add("| backend | class | cycles | RSS MB (first → last) | children RSS MB | fds | threads | atoms | flat |");
        table.add("|---|---|---:|---|---|---|---|---|---|");
        boolean allFlat = true;
        for (String backendName : backends.equals("both") ? List.of("jpl", "process") : List.of(backends)) {
            try (PrologBackend backend = backendName.equals("jpl") ? JplBackend.get()
                    : ProcessBackend.builder().poolSize(2).build()) {
                for (Attack a : ATTACKS) {
                    if (only != null && !only.equals(a.name())) {
                        continue;
                    }
                    long t0 = System.nanoTime();
                    List<Sample> samples = run(backend, a, cycles, log);
                    Sample first = samples.get(0);
                    Sample last = samples.get(samples.size() - 1);
                    boolean flat = flat(first, last);
                    allFlat &= flat;
                    table.add(String.format(Locale.ROOT, "| %s | %s | %,d | %.0f → %.0f | %.0f → %.0f | %d → %d | %d → %d | %,d → %,d | %s |",
                            backendName, a.name(), cycles, ProcMemory.mb(first.rssKib()), ProcMemory.mb(last.rssKib()),
                            ProcMemory.mb(first.childrenRssKib()), ProcMemory.mb(last.childrenRssKib()),
                            first.fds(), last.fds(), first.threads(), last.threads(), first.atoms(), last.atoms(),
                            flat ? "yes" : "**no**"));
                    log.printf(Locale.ROOT, "[attack-cycles] %s %s: %,d cycles in %.0f s, %s%n", backendName, a.name(),
                            cycles, (System.nanoTime() - t0) / 1e9, flat ? "flat" : "NOT FLAT " + samples);
                }
            }
        }
        String md = String.join("\n", table) + "\n";
        System.out.print(md);
        Path file = out.isAbsolute() ? out : Path.of(System.getProperty("user.dir")).resolve(out);
        Files.createDirectories(file.getParent());
        String given = "--cycles " + cycles + (backends.equals("both") ? "" : " --backend " + backends)
                + (only == null ? "" : " --class " + only);
        Files.writeString(file, "Measured with `make attack-cycles ATTACK_ARGS=\"" + given + "\"`, "
                + "samples after the first tenth of the cycles and after the last.\n\n" + md, StandardCharsets.UTF_8);
        System.exit(allFlat ? 0 : 1);
    }

    private static String require(String option, String value) {
        if (value == null) {
            throw new IllegalArgumentException(option + " needs a value");
        }
        return value;
    }

    /** The last sample holds no more than the first, within the tolerances of the class comment. */
    static boolean flat(Sample first, Sample last) {
        long rss = first.rssKib() + first.childrenRssKib();
        long rssLast = last.rssKib() + last.childrenRssKib();
        return rssLast <= rss + Math.max(16_000, rss / 10)
                && last.atoms() <= first.atoms() + 2_000
                && last.fds() <= first.fds() + 4
                && last.threads() <= first.threads() + 2;
    }

    /** Runs the cycles, sampling after each tenth; the first sample is taken after the first tenth (warm). */
    private static List<Sample> run(PrologBackend backend, Attack a, int cycles, PrintStream log) {
        List<Sample> samples = new ArrayList<>();
        int step = Math.max(1, cycles / 10);
        SessionOptions options = SessionOptions.builder().sandboxed(a.sandboxed()).maxOutputChars(4096)
                .maxAtomChars(200_000).build();
        for (int i = 1; i <= cycles; i++) {
            try (PrologSession s = backend.open(options)) {
                if (!a.program().isEmpty()) {
                    s.consult(a.program());
                }
                // no answer to encode: what is measured is what the attack allocates, not its reply
                GoalResult r = s.goal("\\+ \\+ (" + a.goal() + ")").timeLimit(Duration.ofSeconds(10)).run();
                if (r.outcome() == Outcome.TIMEOUT) {
                    log.println("[attack-cycles] " + a.name() + " cycle " + i + " timed out: " + r);
                }
            }
            if (i % step == 0) {
                samples.add(sample(backend, i));
            }
        }
        return samples;
    }

    private static Sample sample(PrologBackend backend, int cycle) {
        long atoms;
        try (PrologSession probe = backend.open()) {
            GoalResult r = probe.goal("garbage_collect_atoms, statistics(atoms, A)").run();
            Term a = r.answers().isEmpty() ? null : r.answers().get(0).get("A");
            atoms = a instanceof Term.Int i ? i.value().longValue() : -1;
        }
        long childrenRss = 0;
        int children = 0;
        for (ProcessHandle p : (Iterable<ProcessHandle>) ProcessHandle.current().descendants()::iterator) {
            try {
                childrenRss += ProcMemory.rssKib(p.pid());
                children++;
            } catch (RuntimeException gone) {
                // ended between the listing and the read
            }
        }
        return new Sample(cycle, ProcMemory.selfRssKib(), childrenRss, children, count(Path.of("/proc/self/fd")),
                statusField("Threads:"), atoms);
    }

    private static long count(Path dir) {
        try (Stream<Path> s = Files.list(dir)) {
            return s.count();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static long statusField(String name) {
        try {
            for (String l : Files.readAllLines(Path.of("/proc/self/status"), StandardCharsets.UTF_8)) {
                if (l.startsWith(name)) {
                    return Long.parseLong(l.substring(name.length()).strip());
                }
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        throw new IllegalStateException("/proc/self/status has no " + name);
    }
}

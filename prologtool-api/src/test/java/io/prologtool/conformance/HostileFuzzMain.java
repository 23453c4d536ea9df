package io.prologtool.conformance;

import io.prologtool.Answer;
import io.prologtool.ConsultResult;
import io.prologtool.Diagnostic;
import io.prologtool.GoalRequest;
import io.prologtool.GoalResult;
import io.prologtool.Outcome;
import io.prologtool.PrologBackend;
import io.prologtool.PrologError;
import io.prologtool.PrologSession;
import io.prologtool.Severity;
import io.prologtool.SessionOptions;
import io.prologtool.Term;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.SecureRandom;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.Consumer;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

/**
 * The hostile fuzzer's runner (cases from {@link HostileFuzz}), in two roles.
 *
 * <p>{@code child <jpl|process> <seed> <from> <count> <seconds> <skip|run>} runs one batch in this JVM:
 * cases {@code from}, {@code from+1}, ... until {@code count} cases ran (-1: no count) or {@code seconds}
 * passed, skipping the classes known to be open unless told {@code run}. Before each case it prints
 * {@code CASE seed:index class} (so that a JVM the case kills leaves its name), after a case that broke an
 * invariant a {@code FAIL} block with a self-contained reproduction, and at the end
 * {@code SUMMARY cases=.. failures=.. skipped=.. next=..}. Every case runs in a fresh session next to a
 * sibling opened before the round of cases it belongs to, and must keep these invariants:
 * <ul>
 *     <li>the JVM lives (the batch's SUMMARY is printed);</li>
 *     <li>the call returns a result (no exception) within its time limit plus {@link #GRACE};</li>
 *     <li>the result is what its operation promises (the case's oracle), and no error is one of the
 *         library's own ({@link #LIBRARY_FAULTS}) or a crash of the Prolog serving the session;</li>
 *     <li>nothing the session read came from the JVM's standard input;</li>
 *     <li>the session answers its next goal with its program (a fact consulted before the case);</li>
 *     <li>the sibling sees nothing of it, and closing the session returns;</li>
 *     <li>after each round's sessions closed: resident memory, atoms, open file descriptors and threads
 *         of this JVM (and of its own child processes) are back within a tolerance of their baseline, and
 *         nothing keeps burning CPU.</li>
 * </ul>
 *
 * <p>{@code list <jpl|process> <seed> <from> <count>} prints the reproductions of cases without running them.
 *
 * <p>{@code run <jpl|process|both> <seed|random> <minutes> <from> <count> <skip|run>} is {@code make fuzz}:
 * it runs batches in child JVMs (alternating backends) until the minutes are over or {@code count} cases
 * ran (count -1: no count), starts a new child after one that crashed (after the case it was running),
 * prints every failure as a reproduction and ends with the count of cases and failures.
 */
public final class HostileFuzzMain {

    /** What a call may take beyond its time limit: the backends' grace (2 s) and room for a loaded machine. */
    static final Duration GRACE = Duration.ofSeconds(10);
    /** Cases between two checks of the resources (each round ends with its sessions closed). */
    static final int ROUND = 25;
    /** How much each resource may stay above its baseline after a round. */
    /**
     * Resident memory is loose (a worker keeps the stacks it grew, the C library keeps freed memory): it
     * catches what stays of many sessions; atom space, Prolog's own count, catches one session's held atoms.
     */
    static final long RSS_TOLERANCE_KB = 1_000_000;
    static final long ATOM_TOLERANCE = 50_000;
    static final long ATOM_SPACE_TOLERANCE = 32L << 20;
    static final long FD_TOLERANCE = 32;
    static final long THREAD_TOLERANCE = 20;
    /** CPU time (clock ticks of 10 ms) this JVM and its children may use in a 1 s window with nothing open. */
    static final long IDLE_CPU_TICKS = 60;
    /** Errors that are the library's fault, never a goal's. */
    static final Set<String> LIBRARY_FAULTS = Set.of("internal_error", "session_crashed", "protocol_error");
    /** The JVM options of a batch's child JVM: a fixed, pre-touched heap, so that its RSS says what Prolog holds. */
    static final List<String> CHILD_JVM = List.of("-Xms256m", "-Xmx256m", "-XX:+AlwaysPreTouch", "-XX:+UseSerialGC");

    /** With -Dfuzz.trace=true, the child prints its resident memory after every case. */
    private static final boolean TRACE = Boolean.getBoolean("fuzz.trace");
    private static final Pattern CASE = Pattern.compile("^CASE (-?\\d+):(\\d+) (\\S+)");
    private static final Pattern SUMMARY = Pattern.compile(
            "^SUMMARY cases=(\\d+) failures=(\\d+) skipped=(\\d+) next=(\\d+)");

    public static void main(String[] args) throws Exception {
        if (args.length == 7 && args[0].equals("child")) {
            child(args[1], Long.parseLong(args[2]), Integer.parseInt(args[3]), Integer.parseInt(args[4]),
                    Long.parseLong(args[5]), args[6].equals("run"));
        } else if (args.length == 7 && args[0].equals("run")) {
            System.exit(supervise(args[1], args[2], Double.parseDouble(args[3]), Integer.parseInt(args[4]),
                    Integer.parseInt(args[5]), args[6].equals("run")));
        } else if (args.length == 5 && args[0].equals("list")) {
            for (int i = Integer.parseInt(args[3]); i < Integer.parseInt(args[3]) + Integer.parseInt(args[4]); i++) {
                System.out.println(HostileFuzz.generate(Long.parseLong(args[2]), i).reproduction(args[1]));
            }
        } else {
            System.err.println("usage: HostileFuzzMain list <jpl|process> <seed> <from> <count>\n"
                    + "       HostileFuzzMain child <jpl|process> <seed> <from> <count> <seconds> <skip|run>\n"
                    + "       HostileFuzzMain run <jpl|process|both> <seed|random> <minutes> <from> <count|-1> <skip|run>");
            System.exit(2);
        }
    }

    // ---------------------------------------------------------------- the supervisor (make fuzz)

    private static int supervise(String backends, String seedArg, double minutes, int from, int count, boolean runKnown) {
        long seed = seedArg.equals("random") || seedArg.isEmpty() ? new SecureRandom().nextLong() : Long.parseLong(seedArg);
        List<String> names = backends.equals("both") ? List.of("jpl", "process") : List.of(backends);
        System.out.println("FUZZ seed=" + seed + " backends=" + names + " minutes=" + minutes
                + (count >= 0 ? " count=" + count : "") + " known-open classes " + (runKnown ? "run" : "skipped")
                + " (" + HostileFuzz.KNOWN_OPEN.size() + " listed)");
        long deadline = System.currentTimeMillis() + (long) (minutes * 60_000);
        int[] next = new int[names.size()];
        int[] cases = new int[names.size()];
        int[] failures = new int[names.size()];
        int[] crashes = new int[names.size()];
        long[] millis = new long[names.size()];
        java.util.Arrays.fill(next, from);
        boolean[] done = new boolean[names.size()];
        // Each backend in slices of at most five minutes (and of its share of a short run), so that both get
        // their share.
        while (System.currentTimeMillis() < deadline) {
            boolean any = false;
            for (int b = 0; b < names.size(); b++) {
                long left = deadline - System.currentTimeMillis();
                if (done[b] || left <= 0) {
                    continue;
                }
                any = true;
                int batch = count < 0 ? -1 : from + count - next[b];
                long slice = Math.min(300_000, (long) (minutes * 60_000) / names.size());
                long seconds = Math.max(1, Math.min(left, Math.max(slice, 1_000)) / 1000);
                long t0 = System.currentTimeMillis();
                ChildRun run = runChild(names.get(b), seed, next[b], batch, seconds, runKnown, System.out::println);
                millis[b] += System.currentTimeMillis() - t0;
                cases[b] += run.cases;
                failures[b] += run.failures;
                if (run.crashed()) {
                    crashes[b]++;
                    failures[b]++;
                    System.out.println(run.crashReport());
                }
                next[b] = run.next;
                if (count >= 0 && next[b] >= from + count) {
                    done[b] = true;
                }
            }
            if (!any) {
                break;
            }
        }
        int totalCases = 0;
        int totalFailures = 0;
        for (int b = 0; b < names.size(); b++) {
            totalCases += cases[b];
            totalFailures += failures[b];
            System.out.printf("FUZZ %s: %d cases in %.0f s (%.2f cases/s), %d failures (%d crashed JVMs), next index %d%n",
                    names.get(b), cases[b], millis[b] / 1000.0, cases[b] * 1000.0 / Math.max(1, millis[b]), failures[b],
                    crashes[b], next[b]);
        }
        System.out.println("FUZZ DONE seed=" + seed + " cases=" + totalCases + " failures=" + totalFailures);
        return totalFailures == 0 ? 0 : 1;
    }

    /** What a batch's child JVM did. */
    record ChildRun(String backend, long seed, int from, int cases, int failures, int skipped, int next,
                    boolean summarized, int exitCode, String lastCase, String output) {

        /** The child printed no SUMMARY: the JVM died (or hung) during {@link #lastCase}. */
        boolean crashed() {
            return !summarized;
        }

        /** The reproduction of the case that was running when the child died. */
        String crashReport() {
            StringBuilder b = new StringBuilder("FAIL ");
            if (lastCase == null) {
                b.append(seed).append(':').append(from).append(" jvm_lives ").append(backend)
                        .append(" (the child JVM died before its first case; exit ").append(exitCode).append(")\n");
            } else {
                HostileFuzz.Case c = HostileFuzz.generate(seed, Integer.parseInt(lastCase));
                b.append(seed).append(':').append(lastCase).append(" jvm_lives ").append(c.caseClass(backend))
                        .append("\n  why: the child JVM ended during this case without its summary (exit ")
                        .append(exitCode).append("); its last lines:\n");
                String[] lines = output.split("\n");
                for (int i = Math.max(0, lines.length - 8); i < lines.length; i++) {
                    b.append("    > ").append(lines[i]).append('\n');
                }
                b.append(c.reproduction(backend));
            }
            return b.append("END").toString();
        }
    }

    /**
     * Runs one batch in a child JVM with this JVM's class path, passing each line it prints to
     * {@code lines}. The child's standard input holds {@link HostileFuzz#STDIN_SENTINEL} lines and stays
     * open until it ends.
     */
    static ChildRun runChild(String backend, long seed, int from, int count, long seconds, boolean runKnown,
                             Consumer<String> lines) {
        Path java = Path.of(System.getProperty("java.home"), "bin", "java");
        List<String> cmd = new ArrayList<>();
        cmd.add(java.toString());
        cmd.addAll(CHILD_JVM);
        if (TRACE) {
            cmd.add("-Dfuzz.trace=true");
        }
        cmd.addAll(List.of("-cp", System.getProperty("java.class.path"), HostileFuzzMain.class.getName(), "child",
                backend, Long.toString(seed), Integer.toString(from), Integer.toString(count), Long.toString(seconds),
                runKnown ? "run" : "skip"));
        StringBuilder out = new StringBuilder();
        StringBuilder err = new StringBuilder();
        int cases = 0;
        int failures = 0;
        int skipped = 0;
        int next = from;
        boolean summarized = false;
        String lastCase = null;
        int exit = -1;
        // Cases during which something else than this runner wrote to the child JVM's standard output.
        List<String> strayCases = new ArrayList<>();
        try {
            Process p = new ProcessBuilder(cmd).start();
            OutputStream stdin = p.getOutputStream();
            try {
                stdin.write((HostileFuzz.STDIN_SENTINEL + ".\n").repeat(1000).getBytes(StandardCharsets.UTF_8));
                stdin.flush();
            } catch (IOException ignored) {
                // the child is gone already: its output says why
            }
            // Standard error (the JVM's own complaints, SWI-Prolog's messages that escaped capture) is kept apart.
            Thread errors = new Thread(() -> {
                try (BufferedReader e = new BufferedReader(new InputStreamReader(p.getErrorStream(), StandardCharsets.UTF_8))) {
                    String line;
                    while ((line = e.readLine()) != null) {
                        synchronized (err) {
                            err.append(cut(line)).append('\n');
                        }
                    }
                } catch (IOException ignored) {
                    // the child ended
                }
            });
            errors.setDaemon(true);
            errors.start();
            // A child that stops printing for longer than its batch may take is stopped (a hang is a crash too).
            long hardDeadline = System.currentTimeMillis() + seconds * 1000 + Duration.ofMinutes(5).toMillis();
            Thread watchdog = new Thread(() -> {
                try {
                    if (!p.waitFor(Math.max(1, hardDeadline - System.currentTimeMillis()), TimeUnit.MILLISECONDS)) {
                        p.destroyForcibly();
                    }
                } catch (InterruptedException e) {
                    p.destroyForcibly();
                }
            });
            watchdog.setDaemon(true);
            watchdog.start();
            try (BufferedReader in = new BufferedReader(new InputStreamReader(p.getInputStream(), StandardCharsets.UTF_8))) {
                String raw;
                while ((raw = in.readLine()) != null) {
                    String line = protocolPart(raw);
                    if (line.length() < raw.length()) {
                        String stray = raw.substring(0, raw.length() - line.length());
                        String c = lastCase == null ? "-1" : lastCase;
                        if (!strayCases.contains(c)) {
                            strayCases.add(c);
                            lines.accept(strayReport(backend, seed, c, stray));
                        }
                        if (line.isEmpty()) {
                            continue;
                        }
                    }
                    line = cut(line);
                    out.append(line).append('\n');
                    Matcher m = CASE.matcher(line);
                    if (m.find()) {
                        lastCase = m.group(2);
                        if (!TRACE) {
                            continue; // one line per case: not passed on
                        }
                    }
                    Matcher s = SUMMARY.matcher(line);
                    if (s.find()) {
                        cases = Integer.parseInt(s.group(1));
                        failures = Integer.parseInt(s.group(2));
                        skipped = Integer.parseInt(s.group(3));
                        next = Integer.parseInt(s.group(4));
                        summarized = true;
                    }
                    lines.accept(line);
                }
            }
            p.waitFor();
            errors.join(5_000);
            exit = p.exitValue();
            try {
                stdin.close();
            } catch (IOException ignored) {
                // already closed by the child's end
            }
        } catch (IOException e) {
            out.append("could not run the child JVM: ").append(e).append('\n');
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        if (!summarized) {
            int ran = 0;
            for (String l : out.toString().split("\n")) {
                if (CASE.matcher(l).find()) {
                    ran++;
                }
                if (l.startsWith("FAIL ")) {
                    failures++;
                }
            }
            cases = ran;
            next = lastCase == null ? from + 1 : Integer.parseInt(lastCase) + 1;
        }
        failures += strayCases.size();
        String errText;
        synchronized (err) {
            errText = err.toString();
        }
        if (!errText.isEmpty()) {
            out.append("standard error of the child JVM (last lines):\n");
            String[] el = errText.split("\n");
            for (int i = Math.max(0, el.length - 8); i < el.length; i++) {
                out.append("    ! ").append(el[i]).append('\n');
            }
        }
        return new ChildRun(backend, seed, from, cases, failures, skipped, next, summarized, exit, lastCase, out.toString());
    }

    // ---------------------------------------------------------------- the child: one batch

    private static void child(String backendName, long seed, int from, int count, long seconds, boolean runKnown) {
        long start = System.currentTimeMillis();
        long deadline = start + seconds * 1000;
        PrologBackend backend = backend(backendName);
        Batch b = new Batch(backend, backendName, seed, from, runKnown);
        b.warmUp();
        Resources baseline = b.measure();
        System.out.println("BASELINE " + baseline);
        int i = from;
        while ((count < 0 || i < from + count) && System.currentTimeMillis() < deadline) {
            int roundFrom = i;
            List<String> round = new ArrayList<>();
            PrologSession sibling = b.sibling();
            for (int k = 0; k < ROUND && (count < 0 || i < from + count) && System.currentTimeMillis() < deadline; i++) {
                HostileFuzz.Case c = HostileFuzz.generate(seed, i);
                String cls = c.caseClass(backendName);
                if (!runKnown && HostileFuzz.knownOpen(cls).isPresent()) {
                    b.skipped++;
                    continue;
                }
                k++;
                System.out.println("CASE " + seed + ":" + i + " " + cls);
                System.out.flush();
                round.add(i + " " + cls);
                b.run(c, sibling);
                if (b.abandoned) {
                    i++;
                    break;
                }
                if (TRACE) {
                    System.out.println("  after " + i + ": rss_kb=" + HostileCode.rssKb());
                }
            }
            b.closeQuietly(sibling);
            baseline = b.checkResources(baseline, roundFrom, i, round);
            if (b.abandoned) {
                // A call that never returned keeps its thread (and maybe a core): the batch ends here, and
                // the supervisor goes on in a fresh JVM with the next case.
                System.out.println("a call did not return: the batch ends after case " + (i - 1));
                break;
            }
        }
        System.out.printf("SUMMARY cases=%d failures=%d skipped=%d next=%d seconds=%.1f cases_per_second=%.2f rss_kb=%d%n",
                b.cases, b.failures, b.skipped, i, (System.currentTimeMillis() - start) / 1000.0,
                b.cases * 1000.0 / Math.max(1, System.currentTimeMillis() - start), HostileCode.rssKb());
        System.out.flush();
        int status = b.failures == 0 ? 0 : 1;
        // Closing the backend may wait for sessions a failed case left stuck: the summary is out, so stop.
        Thread closer = new Thread(backend::close);
        closer.setDaemon(true);
        closer.start();
        try {
            closer.join(20_000);
        } catch (InterruptedException ignored) {
            // halt anyway
        }
        Runtime.getRuntime().halt(status);
    }

    /** The backend named on the command line, made by reflection: the API's tests do not depend on either. */
    static PrologBackend backend(String name) {
        try {
            return switch (name) {
                case "jpl" -> (PrologBackend) Class.forName("io.prologtool.jpl.JplBackend").getMethod("get").invoke(null);
                case "process" -> {
                    Object builder = Class.forName("io.prologtool.process.ProcessBackend").getMethod("builder").invoke(null);
                    builder.getClass().getMethod("poolSize", int.class).invoke(builder, 2);
                    yield (PrologBackend) builder.getClass().getMethod("build").invoke(builder);
                }
                default -> throw new IllegalArgumentException("no backend " + name + " (jpl or process)");
            };
        } catch (ReflectiveOperationException e) {
            throw new IllegalStateException("cannot make the " + name + " backend (is its module on the class path?)", e);
        }
    }

    /** What this JVM and its own child processes hold. */
    record Resources(long rssKb, long atoms, long atomSpace, long fds, long threads) {
        @Override
        public String toString() {
            return "rss_kb=" + rssKb + " atoms=" + atoms + " atom_space=" + atomSpace + " fds=" + fds + " threads=" + threads;
        }
    }

    private static final class Batch {
        private final PrologBackend backend;
        private final String name;
        private final long seed;
        private final boolean runKnown;
        /** The first case of this batch (this JVM). */
        private final int batchFrom;
        private ExecutorService pool = newPool();
        int cases;
        int failures;
        int skipped;
        /** A call of this batch never returned. */
        boolean abandoned;

        Batch(PrologBackend backend, String name, long seed, int batchFrom, boolean runKnown) {
            this.batchFrom = batchFrom;
            this.runKnown = runKnown;
            this.backend = backend;
            this.name = name;
            this.seed = seed;
        }

        private static ExecutorService newPool() {
            return Executors.newCachedThreadPool(r -> {
                Thread t = new Thread(r, "fuzz-call");
                t.setDaemon(true);
                return t;
            });
        }

        /** Every kind of program once, so that the baseline holds what any case loads (libraries, tables). */
        void warmUp() {
            for (boolean sandboxed : new boolean[]{false, true}) {
                try (PrologSession s = backend.open(SessionOptions.builder().sandboxed(sandboxed).build())) {
                    s.consult(HostileFuzz.CLPFD + HostileFuzz.OWN_PROGRAM + HostileFuzz.TABLES + HostileFuzz.HELPERS);
                    s.goal("fz_deep(10, T), fz_tab(T, _), X #= 1 + 2, dif(Y, a), freeze(Z, true), format(atom(_), '~w', [T]),"
                            + " term_to_atom(T, A), term_to_atom(_, A), with_output_to(string(_), print(T))").run();
                }
            }
            try (PrologSession s = backend.open()) {
                s.goal("true").run();
            }
        }

        PrologSession sibling() {
            PrologSession s = backend.open();
            s.consult(HostileCode.SIBLING_PROGRAM);
            return s;
        }

        void run(HostileFuzz.Case c, PrologSession sibling) {
            cases++;
            List<String[]> broken = new ArrayList<>();
            PrologSession s;
            try {
                s = backend.open(c.options());
            } catch (RuntimeException e) {
                report(c, List.<String[]>of(new String[]{"session_opens", e.toString()}));
                return;
            }
            boolean abandoned = false;
            try {
                ConsultResult consulted = s.consult(c.program());
                List<Diagnostic> errors = consulted.messages().stream()
                        .filter(d -> d.severity() == Severity.ERROR).toList();
                if (!errors.isEmpty()) {
                    broken.add(new String[]{"program_loads", "the case's program gave " + errors});
                }
                GoalRequest req = s.goal(c.goal()).timeLimit(c.timeLimit()).maxDepth(c.maxDepth());
                if (c.maxInferences() > 0) {
                    req.maxInferences(c.maxInferences());
                }
                long t0 = System.nanoTime();
                Future<GoalResult> f = pool.submit(req::run);
                GoalResult r = null;
                try {
                    r = f.get(c.timeLimit().plus(GRACE).toMillis(), TimeUnit.MILLISECONDS);
                } catch (TimeoutException e) {
                    broken.add(new String[]{"returns_in_time", "no result " + c.timeLimit().plus(GRACE).toMillis()
                            + " ms after the call (time limit " + c.timeLimit().toMillis() + " ms); the session is abandoned"});
                    abandoned = true;
                } catch (ExecutionException e) {
                    broken.add(new String[]{"typed_result", "run() threw " + e.getCause()});
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    broken.add(new String[]{"returns_in_time", "interrupted"});
                }
                long ms = (System.nanoTime() - t0) / 1_000_000;
                if (r != null) {
                    check(r, c, ms, broken, s);
                }
                if (!abandoned) {
                    answersOwnProgram(s, broken);
                }
            } catch (RuntimeException e) {
                broken.add(new String[]{"typed_result", "the session threw " + e});
            } finally {
                if (abandoned) {
                    this.abandoned = true;
                    pool = newPool(); // the stuck call keeps its thread; the batch goes on with new ones
                    Thread closer = new Thread(s::close, "fuzz-close-abandoned");
                    closer.setDaemon(true);
                    closer.start();
                } else {
                    closeWithin(s, broken);
                }
            }
            siblingUntouched(sibling, broken);
            if (!broken.isEmpty()) {
                report(c, broken);
            }
        }

        private void check(GoalResult r, HostileFuzz.Case c, long ms, List<String[]> broken, PrologSession s) {
            if (ms > c.timeLimit().plus(GRACE).toMillis()) {
                broken.add(new String[]{"returns_in_time", "the call took " + ms + " ms (time limit "
                        + c.timeLimit().toMillis() + " ms)"});
            }
            if (!c.oracle().test().test(r)) {
                broken.add(new String[]{"oracle", "expected " + c.oracle().name() + ", got " + describe(r)});
            }
            r.error().map(PrologError::kind).filter(LIBRARY_FAULTS::contains).ifPresent(k ->
                    broken.add(new String[]{"typed_error", "the library's own error: " + describe(r)}));
            if (s.crashCount() > 0) {
                broken.add(new String[]{"prolog_lives", "the Prolog serving the session crashed ("
                        + s.crashCount() + " crashes): " + describe(r)});
            }
            String seen = r.output() + r.answers() + r.error().map(PrologError::toString).orElse("");
            if (seen.contains(HostileFuzz.STDIN_SENTINEL)) {
                broken.add(new String[]{"own_stdin", "the session read the JVM's standard input: " + describe(r)});
            }
        }

        private void answersOwnProgram(PrologSession s, List<String[]> broken) {
            try {
                GoalResult r = s.goal("mine(X)").timeLimit(Duration.ofSeconds(20)).run();
                if (!(r.outcome() == Outcome.SUCCESS && r.answers().size() == 2
                        && r.answers().get(1).get("X").equals(Term.integer(2)))) {
                    broken.add(new String[]{"session_answers", "mine(X) gave " + describe(r)});
                }
            } catch (RuntimeException e) {
                broken.add(new String[]{"session_answers", "mine(X) threw " + e});
            }
        }

        private void siblingUntouched(PrologSession sibling, List<String[]> broken) {
            try {
                GoalResult r = sibling.goal(HostileFuzz.SIBLING_UNTOUCHED).timeLimit(Duration.ofSeconds(20)).run();
                if (r.outcome() != Outcome.SUCCESS) {
                    broken.add(new String[]{"sibling_untouched", "the sibling saw a change: " + describe(r)});
                }
            } catch (RuntimeException e) {
                broken.add(new String[]{"sibling_untouched", "the sibling threw " + e});
            }
        }

        private void closeWithin(PrologSession s, List<String[]> broken) {
            Future<?> f = pool.submit(s::close);
            try {
                f.get(30, TimeUnit.SECONDS);
            } catch (TimeoutException e) {
                broken.add(new String[]{"close_returns", "close() did not return in 30 s"});
                abandoned = true;
                pool = newPool();
            } catch (ExecutionException e) {
                broken.add(new String[]{"close_returns", "close() threw " + e.getCause()});
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }

        void closeQuietly(PrologSession s) {
            Future<?> f = pool.submit(s::close);
            try {
                f.get(30, TimeUnit.SECONDS);
            } catch (Exception e) {
                System.out.println("the sibling's close: " + e);
            }
        }

        private void report(HostileFuzz.Case c, List<String[]> broken) {
            failures++;
            StringBuilder b = new StringBuilder();
            for (String[] x : broken) {
                b.append("FAIL ").append(c.seed()).append(':').append(c.index()).append(' ').append(x[0]).append(' ')
                        .append(c.caseClass(name)).append('\n');
            }
            for (String[] x : broken) {
                b.append("  why (").append(x[0]).append("): ").append(cut(x[1])).append('\n');
            }
            b.append(c.reproduction(name));
            if (c.index() > batchFrom) {
                // Some failures need what ran before them in the same Prolog (a worker's or a child's state).
                b.append("  again with the cases before it in its JVM: make fuzz FUZZ_BACKEND=").append(name)
                        .append(" FUZZ_SEED=").append(seed).append(" FUZZ_FROM=").append(batchFrom)
                        .append(" FUZZ_COUNT=").append(c.index() - batchFrom + 1).append(" FUZZ_KNOWN=run\n");
            }
            b.append("END");
            System.out.println(b);
            System.out.flush();
        }

        /** After a round: every resource back near its baseline; a resource that is not becomes the new baseline. */
        Resources checkResources(Resources baseline, int from, int to, List<String> round) {
            sleep(1_000); // pooled children restart, threads end
            long cpu0 = cpuTicks();
            sleep(1_000);
            long cpu = cpuTicks() - cpu0;
            Resources now = measure();
            // A process backend's pool may hold up to twice its size for two seconds after the last open
            // (children whose check refused them are replaced, the extra ones trimmed): descriptors and
            // threads over the tolerance are looked at again once that has passed. A leak stays.
            for (int again = 0; again < 2 && (now.fds - baseline.fds > FD_TOLERANCE
                    || now.threads - baseline.threads > THREAD_TOLERANCE); again++) {
                sleep(2_500);
                now = measure();
            }
            List<String> why = new ArrayList<>();
            if (cpu > IDLE_CPU_TICKS) {
                why.add("cpu_after_close: " + cpu * 10 + " ms of CPU in a 1 s window with no session open");
            }
            if (now.rssKb - baseline.rssKb > RSS_TOLERANCE_KB) {
                why.add("rss_back: resident memory " + baseline.rssKb + " -> " + now.rssKb + " kB (tolerance +"
                        + RSS_TOLERANCE_KB + ")");
            }
            if (now.atoms - baseline.atoms > ATOM_TOLERANCE) {
                why.add("atoms_back: atoms " + baseline.atoms + " -> " + now.atoms + " (tolerance +" + ATOM_TOLERANCE + ")");
            }
            if (now.atomSpace - baseline.atomSpace > ATOM_SPACE_TOLERANCE) {
                why.add("atom_space_back: atom text " + baseline.atomSpace + " -> " + now.atomSpace + " bytes (tolerance +"
                        + ATOM_SPACE_TOLERANCE + ")");
            }
            if (now.fds - baseline.fds > FD_TOLERANCE) {
                why.add("fds_back: open file descriptors " + baseline.fds + " -> " + now.fds + " (tolerance +"
                        + FD_TOLERANCE + ")");
            }
            if (now.threads - baseline.threads > THREAD_TOLERANCE) {
                why.add("threads_back: threads " + baseline.threads + " -> " + now.threads + " (tolerance +"
                        + THREAD_TOLERANCE + ")");
            }
            System.out.println("ROUND " + seed + ":" + from + "-" + (to - 1) + " " + now + " idle_cpu_ms=" + cpu * 10);
            // A round's check is the class <backend>/round/<invariant>; a known-open one is printed, not counted.
            List<String> open = new ArrayList<>();
            for (String w : why) {
                String cls = name + "/round/" + w.substring(0, w.indexOf(':'));
                HostileFuzz.knownOpen(cls).filter(k -> !runKnown).ifPresent(k -> {
                    open.add(w);
                    System.out.println("KNOWN-OPEN " + cls + ": " + w + " (" + k.reason() + ")");
                });
            }
            why.removeAll(open);
            if (why.isEmpty()) {
                return open.isEmpty() ? baseline : now;
            }
            failures++;
            StringBuilder b = new StringBuilder();
            for (String w : why) {
                b.append("FAIL ").append(seed).append(':').append(from).append('-').append(to - 1).append(' ')
                        .append(w, 0, w.indexOf(':')).append(' ').append(name).append("/round/")
                        .append(w, 0, w.indexOf(':')).append('\n');
            }
            for (String w : why) {
                b.append("  why: ").append(w).append(" after the sessions of cases ").append(from).append("..")
                        .append(to - 1).append(" closed\n");
            }
            b.append("  the round's cases:\n");
            for (String c : round) {
                b.append("    ").append(c).append('\n');
            }
            b.append("  again: make fuzz FUZZ_BACKEND=").append(name).append(" FUZZ_SEED=").append(seed)
                    .append(" FUZZ_FROM=").append(from).append(" FUZZ_COUNT=").append(to - from).append('\n').append("END");
            System.out.println(b);
            System.out.flush();
            return now;
        }

        Resources measure() {
            long atoms = -1;
            long atomSpace = -1;
            try (PrologSession s = backend.open()) {
                GoalResult r = s.goal("garbage_collect, garbage_collect_atoms, statistics(atoms, N), statistics(atom_space, S)")
                        .timeLimit(Duration.ofSeconds(20)).run();
                if (r.succeeded()) {
                    Answer a = r.answers().get(0);
                    atoms = ((Term.Int) a.get("N")).longValueExact();
                    atomSpace = ((Term.Int) a.get("S")).longValueExact();
                } else {
                    System.out.println("counting atoms: " + describe(r));
                }
            } catch (RuntimeException e) {
                System.out.println("counting atoms: " + e);
            }
            long rss = 0;
            long fds = 0;
            long threads = 0;
            for (long pid : ownProcesses()) {
                rss += statusField(pid, "VmRSS:");
                threads += statusField(pid, "Threads:");
                String[] fd = Path.of("/proc/" + pid + "/fd").toFile().list();
                fds += fd == null ? 0 : fd.length;
            }
            return new Resources(rss, atoms, atomSpace, fds, threads);
        }
    }

    /** This JVM and its descendants (the process backend's swipl children). */
    private static List<Long> ownProcesses() {
        List<Long> pids = new ArrayList<>();
        pids.add(ProcessHandle.current().pid());
        try (Stream<ProcessHandle> d = ProcessHandle.current().descendants()) {
            d.forEach(h -> pids.add(h.pid()));
        }
        return pids;
    }

    private static long statusField(long pid, String field) {
        try {
            for (String line : Files.readAllLines(Path.of("/proc/" + pid + "/status"))) {
                if (line.startsWith(field)) {
                    return Long.parseLong(line.replaceAll("[^0-9]", ""));
                }
            }
        } catch (IOException | NumberFormatException ignored) {
            // a child that ended in between holds nothing
        }
        return 0;
    }

    /** User and system CPU of this JVM and its descendants, in clock ticks. */
    private static long cpuTicks() {
        long ticks = 0;
        for (long pid : ownProcesses()) {
            try {
                String stat = Files.readString(Path.of("/proc/" + pid + "/stat"));
                String[] f = stat.substring(stat.lastIndexOf(')') + 2).split(" ");
                ticks += Long.parseLong(f[11]) + Long.parseLong(f[12]);
            } catch (IOException | RuntimeException ignored) {
                // ended in between
            }
        }
        return ticks;
    }

    private static void sleep(long ms) {
        try {
            Thread.sleep(ms);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    /** What the runner itself prints begins a line with one of these. */
    private static final List<String> PROTOCOL = List.of("CASE ", "FAIL ", "  ", "END", "ROUND ", "BASELINE ", "SUMMARY ",
            "KNOWN-OPEN ", "counting atoms: ", "the sibling's close: ", "a call did not return: ");

    /**
     * The part of a line of the child's standard output that the runner printed: the whole line, or the
     * part from the first of the runner's line starts on (text before it came from elsewhere), or nothing.
     */
    static String protocolPart(String line) {
        for (String p : PROTOCOL) {
            if (line.startsWith(p)) {
                return line;
            }
        }
        int first = -1;
        for (String p : List.of("CASE ", "FAIL ", "ROUND ", "SUMMARY ", "BASELINE ", "END")) {
            int i = line.indexOf(p);
            if (i >= 0 && (first < 0 || i < first)) {
                first = i;
            }
        }
        return first < 0 ? "" : line.substring(first);
    }

    /** A failure of the case during which session code wrote to the JVM's own standard output. */
    private static String strayReport(String backend, long seed, String index, String stray) {
        StringBuilder b = new StringBuilder("FAIL ").append(seed).append(':').append(index).append(" jvm_stdout ");
        if (index.equals("-1")) {
            b.append(backend).append("/startup\n");
        } else {
            HostileFuzz.Case c = HostileFuzz.generate(seed, Integer.parseInt(index));
            b.append(c.caseClass(backend)).append('\n');
        }
        b.append("  why (jvm_stdout): text reached the JVM's own standard output (on the in-process backend, an MCP "
                + "server's protocol stream) during this case or the checks after it: ").append(cut(stray)).append('\n');
        if (!index.equals("-1")) {
            b.append(HostileFuzz.generate(seed, Integer.parseInt(index)).reproduction(backend));
        }
        return b.append("END").toString();
    }

    static String describe(GoalResult r) {
        return cut(r.outcome() + " " + r.answers() + " " + r.error().map(e -> e.kind() + ": " + e.message()).orElse("")
                + (r.output().isEmpty() ? "" : " output " + r.output().length() + " chars"));
    }

    /**
     * {@code s} on one line (line breaks shown as {@code \n}: a report's later lines must begin with the
     * runner's own prefixes, or the stray-output check takes them for session output), at most 600
     * characters.
     */
    private static String cut(String s) {
        String one = s.replace("\r", "\\r").replace("\n", "\\n");
        return one.length() <= 600 ? one : one.substring(0, 600) + "... (" + one.length() + " chars)";
    }
}

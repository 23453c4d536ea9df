package io.prologtool.examples.bench;

import io.prologtool.SessionOptions;
import io.prologtool.examples.formalizer.Formalization;
import io.prologtool.examples.formalizer.TemplateFormalizer;
import io.prologtool.examples.pararule.PararuleQuestion;
import io.prologtool.jpl.JplBackend;
import io.prologtool.spi.Harness;
import io.prologtool.spi.TempFolders;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.TimeUnit;

/**
 * The floors of issue 16: what the same work costs with nothing of prologtool in the way, measured in
 * the same run as the rows they bound, so that a row reads as a ratio (or a margin) over its floor
 * rather than as microseconds that move with the machine's weather.
 * <ul>
 *   <li>{@link #bareJplQuery}: JPL's own {@code Query("true").hasSolution()} on the embedded Prolog,
 *       the floor of the JPL round trip;</li>
 *   <li>{@link #harnessWork}: the harness's own Prolog work on a trivial goal request, measured inside
 *       Prolog ({@code handle_request/2} in a loop in a {@code swipl} that loaded the harness, no
 *       transport): what each round trip spends in the harness; with {@link HarnessProbe#WITHOUT_THREE},
 *       the same request with goal expansion, output capture and the reply text cut out of the harness,
 *       which no valid request can do without: a lower bound of the harness work that the harness's
 *       other parts set;</li>
 *   <li>{@link #sessionCycle}: the session cycle's work in plain {@code swipl}, one process, no
 *       transport: the 20-clause program loaded from a string into a fresh module, the goal run, the
 *       source unloaded and the module destroyed;</li>
 *   <li>{@link #pararuleBatch}: the PARARULE-Plus pipeline's programs answered by plain {@code swipl}
 *       in one process, a fresh module per question (load the program from a string, run the goal,
 *       destroy the module): the batch floor of the pipeline's questions per second; and
 *       {@link #pararuleHarness}, the same questions through the harness alone in a {@code swipl}
 *       (the requests of a session per question, no transport): what the harness's own work leaves of
 *       that floor.</li>
 * </ul>
 * The bare {@code swipl} read/call loop over a pipe, the floor of the process round trip, is
 * {@link BareSwipl.ReadLoop}. Every floor checks its answers too.
 */
final class Floors {

    /**
     * The goal request the harness floor runs: the trivial goal as a session sends it with the default
     * bounds, which it leaves to the harness (HarnessSession sends a bound only when it differs from the
     * harness's default or the session's own option); the limits are in force all the same.
     */
    private static final String GOAL_REQUEST = "{\"id\":2,\"op\":\"goal\",\"session\":\"floor\",\"goal\":\"true\"}";

    private Floors() {
    }

    /** Microseconds per bare JPL query ({@link JplBackend#timeBareQueries}), after a warm-up. */
    static Summary bareJplQuery(Plan plan, JplBackend backend) {
        backend.timeBareQueries(Math.max(1, plan.roundTrip().warmup()));
        return Summary.ofNanos(backend.timeBareQueries(plan.roundTrip().timed()), Unit.MICROS);
    }

    /**
     * Microseconds of Prolog CPU time per trivial goal request in the harness, one value per batch of
     * {@code perBatch} requests: a {@code swipl} loads the harness, opens a session, consults the
     * 20-clause program and then calls {@code handle_request/2} on the goal request for {@code true},
     * checking every reply; with {@code probe} {@link HarnessProbe#WITHOUT_THREE}, after cutting three
     * parts out of the harness (the lower bound).
     */
    static Summary harnessWork(Path swipl, int batches, int perBatch, HarnessProbe probe)
            throws IOException, InterruptedException {
        Path dir = Files.createTempDirectory("prologtool-bench-harness-");
        try {
            Path harness = Harness.extractTo(dir);
            Path script = dir.resolve("floor.pl");
            Files.writeString(script, """
                    :- use_module(%s).
                    floor(Batches, N) :-
                        handle_request('{"id":1,"op":"open","session":"floor","options":{"sandboxed":false,"allow_threads":false,"program_space":268435456,"max_atom_chars":1048576,"stack_limit":268435456,"static_check":true}}', Open),
                        ok(Open),
                        handle_request(%s, Consult),
                        ok(Consult),
                        %s,
                        Goal = %s,
                        forall(between(1, 1000, _), ( handle_request(Goal, R), success(R) )),
                        forall(between(1, Batches, _),
                               ( garbage_collect,
                                 statistics(cputime, C0),
                                 forall(between(1, N, _), ( handle_request(Goal, R), success(R) )),
                                 statistics(cputime, C1),
                                 Micros is (C1 - C0) / N * 1e6,
                                 format("batch ~6f~n", [Micros]) )).
                    ok(Reply) :- sub_atom(Reply, _, _, _, '"ok":true'), !.
                    ok(Reply) :- throw(error(harness_reply(Reply), _)).
                    success(Reply) :- sub_atom(Reply, _, _, _, '"outcome":"success"'), !.
                    success(Reply) :- throw(error(harness_reply(Reply), _)).
                    %% The lower bound: the three parts replaced by what costs next to nothing. The
                    %% reply is the outcome alone, which success/1 still checks. A part the harness no
                    %% longer has by that name is an error, never a bound that cut nothing.
                    cut_out :-
                        forall(member(PI, [guarded_goal/3, with_captured_output/4, reply_text/2]),
                               (   current_predicate(prologtool_harness:PI)
                               ->  true
                               ;   throw(error(existence_error(procedure, prologtool_harness:PI), _))
                               )),
                        abolish(prologtool_harness:guarded_goal/3),
                        assertz(prologtool_harness:guarded_goal(_, Goal, Goal)),
                        abolish(prologtool_harness:with_captured_output/4),
                        assertz(prologtool_harness:(with_captured_output(Goal, _, "", false) :- once(Goal))),
                        abolish(prologtool_harness:reply_text/2),
                        assertz(prologtool_harness:(reply_text(Pairs, Text) :-
                                    (   memberchk(outcome=success, Pairs)
                                    ->  Text = '{"outcome":"success"}'
                                    ;   Text = '{"outcome":"other"}'
                                    ))),
                        compile_predicates([ prologtool_harness:guarded_goal/3,
                                             prologtool_harness:with_captured_output/4,
                                             prologtool_harness:reply_text/2 ]).
                    """.formatted(BareSwipl.atom(harness.toString()),
                    BareSwipl.atom("{\"id\":3,\"op\":\"consult\",\"session\":\"floor\",\"text\":"
                            + io.prologtool.json.TermJson.mapper().writeValueAsString(SessionCycles.PROGRAM) + "}"),
                    probe == HarnessProbe.WITHOUT_THREE ? "cut_out" : "true",
                    BareSwipl.atom(GOAL_REQUEST)), StandardCharsets.UTF_8);
            return batches(runScript(swipl, script, "floor(" + batches + ", " + perBatch + ")"), batches,
                    "the harness floor");
        } finally {
            TempFolders.deleteTree(dir);
        }
    }

    /** What {@link #harnessWork} measures. */
    enum HarnessProbe {
        /** The harness as it is: the floor of the round trips. */
        WHOLE,
        /**
         * Goal expansion, output capture and the reply text cut out of the harness (replaced by no-ops in
         * the probe's {@code swipl}): not a valid request, a lower bound of what the harness's other parts
         * (reading the request, the session's bookkeeping, limits, parsing, the isolation check, the
         * search and the answer) cost a goal request.
         */
        WITHOUT_THREE
    }

    /**
     * Microseconds of wall time per session cycle in plain {@code swipl}, one value per batch of
     * {@code perBatch}: in one process, each cycle makes a fresh module, loads {@link SessionCycles#PROGRAM}
     * into it from a string ({@code load_files/2} with {@code stream/1}, as the harness loads a
     * session's text), runs {@link SessionCycles#GOAL} and checks that it succeeds, then unloads the
     * source and destroys the module. What a session cycle costs SWI-Prolog itself, with no session,
     * limit, capture, check or transport around it.
     */
    static Summary sessionCycle(Path swipl, int batches, int perBatch) throws IOException, InterruptedException {
        Path dir = Files.createTempDirectory("prologtool-bench-cycle-");
        try {
            Path script = dir.resolve("cycle.pl");
            Files.writeString(script, """
                    floor(Batches, N) :-
                        forall(between(1, 200, I), cycle(I)),
                        forall(between(1, Batches, B),
                               ( garbage_collect,
                                 get_time(T0),
                                 forall(between(1, N, I), ( K is B * N + I + 1000, cycle(K) )),
                                 get_time(T1),
                                 Micros is (T1 - T0) / N * 1e6,
                                 format("batch ~6f~n", [Micros]) )).
                    cycle(I) :-
                        format(atom(M), 'floor_c~d', [I]),
                        set_module(M:class(temporary)),         %% destroyable
                        setup_call_cleanup(
                            open_string(%s, S),
                            load_files(M:M, [stream(S), silent(true)]),
                            close(S)),
                        term_string(Goal, %s, [module(M)]),
                        (   M:Goal
                        ->  true
                        ;   throw(error(floor_goal_failed(Goal), _))
                        ),
                        unload_file(M),
                        '$destroy_module'(M).
                    """.formatted(BareSwipl.atom(SessionCycles.PROGRAM), BareSwipl.atom(SessionCycles.GOAL)),
                    StandardCharsets.UTF_8);
            return batches(runScript(swipl, script, "floor(" + batches + ", " + perBatch + ")"), batches,
                    "the session cycle floor");
        } finally {
            TempFolders.deleteTree(dir);
        }
    }

    /**
     * Questions per second when plain {@code swipl} answers the pipeline's programs (those of
     * {@link TemplateFormalizer#paper()} for {@code questions}) in one process, a fresh module per
     * question; one value per run. Every answer is checked against the gold label.
     */
    static double[] pararuleBatch(Path swipl, List<PararuleQuestion> questions, int runs)
            throws IOException, InterruptedException {
        Path dir = Files.createTempDirectory("prologtool-bench-batch-");
        try {
            Path data = writeQuestions(dir, questions);
            Path script = dir.resolve("batch.pl");
            Files.writeString(script, """
                    :- consult(DATA_FILE).
                    batch(Runs) :-
                        findall(q(P, G, L), question(P, G, L), Qs),
                        length(Qs, N),
                        forall(between(1, Runs, _),
                               ( get_time(T0),
                                 foldl(answer, Qs, 0-0, _-Wrong),
                                 get_time(T1),
                                 Rate is N / (T1 - T0),
                                 format("run ~6f ~d~n", [Rate, Wrong]) )).
                    answer(q(Program, GoalText, Label), K0-W0, K-W) :-
                        K is K0 + 1,
                        flag(floor_question, Id, Id + 1),
                        format(atom(M), 'floor_q~d', [Id]),
                        set_module(M:class(temporary)),         % destroyable
                        setup_call_cleanup(
                            open_string(Program, S),
                            load_files(M:M, [stream(S), silent(true)]),
                            close(S)),
                        term_string(Goal, GoalText, [module(M)]),
                        ( catch(M:Goal, _, fail) -> Answer = true ; Answer = false ),
                        abolish_all_tables,
                        unload_file(M),
                        '$destroy_module'(M),
                        ( Answer == Label -> W = W0 ; W is W0 + 1 ).
                    """.replace("DATA_FILE", BareSwipl.atom(data.toString())), StandardCharsets.UTF_8);
            return rates(runScript(swipl, script, "batch(" + runs + ")"), questions.size(), runs, "the batch floor");
        } finally {
            TempFolders.deleteTree(dir);
        }
    }

    /**
     * Writes {@code questions.pl} in {@code dir}: a fact {@code question(Program, Goal, Label)} per question,
     * the program and goal of {@link TemplateFormalizer#paper()} and the gold label.
     */
    private static Path writeQuestions(Path dir, List<PararuleQuestion> questions) throws IOException {
        Path data = dir.resolve("questions.pl");
        StringBuilder b = new StringBuilder();
        for (PararuleQuestion q : questions) {
            Formalization.Parsed f = TemplateFormalizer.paper().translate(q.problem());
            b.append("question(").append(BareSwipl.atom(f.program())).append(", ")
                    .append(BareSwipl.atom(f.goal())).append(", ").append(q.label()).append(").\n");
        }
        Files.writeString(data, b.toString(), StandardCharsets.UTF_8);
        return data;
    }

    /**
     * The head of a script that drives the harness in a {@code swipl}: it loads the harness extracted at
     * {@code harness} and defines {@code json_text(+Dict, -Text)} (a request as one line of JSON),
     * {@code ok(+Request)} (handle it; its reply must say ok) and {@code ok_reply(+Reply)}.
     */
    static String harnessScriptHead(Path harness) {
        return """
                :- use_module(HARNESS).
                :- use_module(library(http/json)).
                json_text(Dict, Text) :-
                    with_output_to(string(Text), json_write_dict(current_output, Dict, [width(0)])).
                ok(Request) :- handle_request(Request, Reply), ok_reply(Reply).
                ok_reply(Reply) :- sub_atom(Reply, _, _, _, '"ok":true'), !.
                ok_reply(Reply) :- throw(error(harness_reply(Reply), _)).
                """.replace("HARNESS", BareSwipl.atom(harness.toString()));
    }

    /** The options of the open request a session of {@code o} sends, as a Prolog dict's text. */
    static String openOptions(SessionOptions o) {
        return String.format(Locale.ROOT, "_{sandboxed:%b, allow_threads:%b, program_space:%d, max_atom_chars:%d, "
                        + "table_space:%d, max_open_streams:%d, stack_limit:%d, static_check:%b}",
                o.sandboxed(), o.allowThreads(), o.clauseSpaceBytes(), o.maxAtomChars(), o.tableSpaceBytes(),
                o.maxOpenStreams(), o.stackLimitBytes(), o.staticCheck());
    }

    /** The bounds of the consult requests a session of {@code o} sends, as pairs of a Prolog dict's text. */
    static String consultBounds(SessionOptions o) {
        return String.format(Locale.ROOT, "time_limit:%d, max_output:%d", o.consultTimeLimit().toSeconds(),
                o.maxOutputChars());
    }

    /** The questions per second of each {@code run RATE WRONG} line; an answer against the gold label is an error. */
    private static double[] rates(List<String> lines, int questions, int runs, String what) {
        List<Double> rates = new ArrayList<>();
        for (String l : lines) {
            if (l.startsWith("run ")) {
                String[] parts = l.split(" ");
                if (!parts[2].equals("0")) {
                    throw new IllegalStateException(what + " answered " + parts[2] + " of " + questions
                            + " questions against the gold label");
                }
                rates.add(Double.parseDouble(parts[1]));
            }
        }
        if (rates.size() != runs) {
            throw new IllegalStateException(what + " printed " + lines);
        }
        return rates.stream().mapToDouble(Double::doubleValue).toArray();
    }

    /**
     * Questions per second when the harness alone answers the pipeline's questions: a {@code swipl} that
     * loaded the harness calls {@code handle_request/2} with the requests a session of
     * {@code SessionOptions.defaults()} makes for each question (open, consult the program, the goal with
     * the pipeline's bounds, close), one value per run. No JVM, transport or JSON on the Java side: what
     * the harness's own Prolog work leaves of the batch floor ({@link #pararuleBatch}) that the backends
     * are measured against. The requests are written before each run's clock starts; every reply is
     * checked, and every answer against the gold label.
     */
    static double[] pararuleHarness(Path swipl, List<PararuleQuestion> questions, int runs)
            throws IOException, InterruptedException {
        Path dir = Files.createTempDirectory("prologtool-bench-batch-harness-");
        try {
            Path harness = Harness.extractTo(dir);
            Path data = writeQuestions(dir, questions);
            SessionOptions o = SessionOptions.defaults();
            Path script = dir.resolve("batch.pl");
            Files.writeString(script, harnessScriptHead(harness) + """
                    :- consult(DATA_FILE).
                    batch(Runs) :-
                        findall(q(P, G, L), question(P, G, L), Qs),
                        length(Qs, N),
                        forall(between(1, Runs, Run),
                               ( foldl(requests(Run), Qs, Rs, 1, _),
                                 get_time(T0),
                                 foldl(answer, Rs, 0, Wrong),
                                 get_time(T1),
                                 Rate is N / (T1 - T0),
                                 format("run ~6f ~d~n", [Rate, Wrong]) )).
                    requests(Run, q(Program, Goal, Label), r(Open, Consult, Ask, Close, Label), I, I1) :-
                        I1 is I + 1,
                        format(string(S), "batch~d_~d", [Run, I]),
                        json_text(_{op:"open", session:S, options:OPEN}, Open),
                        json_text(_{op:"consult", session:S, text:Program, CONSULT}, Consult),
                        json_text(_{op:"goal", session:S, goal:Goal, max_answers:1, time_limit:10,
                                    max_inferences:100000}, Ask),
                        json_text(_{op:"close", session:S}, Close).
                    answer(r(Open, Consult, Ask, Close, Label), W0, W) :-
                        ok(Open), ok(Consult),
                        handle_request(Ask, Reply), ok_reply(Reply),
                        ok(Close),
                        (   sub_atom(Reply, _, _, _, '"outcome":"success"') -> Answer = true
                        ;   sub_atom(Reply, _, _, _, '"outcome":"failure"') -> Answer = false
                        ;   throw(error(harness_reply(Reply), _))
                        ),
                        ( Answer == Label -> W = W0 ; W is W0 + 1 ).
                    """.replace("DATA_FILE", BareSwipl.atom(data.toString()))
                    .replace("OPEN", openOptions(o)).replace("CONSULT", consultBounds(o)), StandardCharsets.UTF_8);
            return rates(runScript(swipl, script, "batch(" + runs + ")"), questions.size(), runs,
                    "the harness's batch");
        } finally {
            TempFolders.deleteTree(dir);
        }
    }

    /**
     * Milliseconds of wall time per {@code execute_prolog} problem in plain {@code swipl}, one value per
     * call: in one process, each call makes a fresh module, loads the problem's code into it from a
     * string (as the harness loads a session's text), reads the query as a term with its variable names,
     * runs it for up to 100 answers with its output captured, writes each answer as a toplevel line
     * ({@code X = tea}, or {@code true}; {@code false} when there is none), and then unloads the code,
     * abolishes the tables and destroys the module. What an {@code execute_prolog} call costs SWI-Prolog
     * itself, with no bound, isolation check, diagnostics, JSON or transport around it. {@code rounds}
     * go over every problem, after {@code warmup} untimed ones.
     *
     * @param problems each problem's code and query
     */
    static Summary executeCalls(Path swipl, List<String[]> problems, int warmup, int rounds)
            throws IOException, InterruptedException {
        Path dir = Files.createTempDirectory("prologtool-bench-execute-");
        try {
            Path data = dir.resolve("problems.pl");
            StringBuilder b = new StringBuilder();
            for (String[] p : problems) {
                b.append("problem(").append(BareSwipl.atom(p[0])).append(", ").append(BareSwipl.atom(p[1]))
                        .append(").\n");
            }
            Files.writeString(data, b.toString(), StandardCharsets.UTF_8);
            Path script = dir.resolve("execute.pl");
            Files.writeString(script, """
                    :- consult(DATA_FILE).
                    floor(Warmup, Rounds) :-
                        findall(Code-Query, problem(Code, Query), Ps),
                        forall(between(1, Warmup, _), forall(member(C-Q, Ps), execute(C, Q, _))),
                        forall(between(1, Rounds, _),
                               forall(member(C-Q, Ps),
                                      ( get_time(T0),
                                        execute(C, Q, Out),
                                        get_time(T1),
                                        Out \\== "",
                                        Millis is (T1 - T0) * 1000,
                                        format("call ~6f~n", [Millis]) ))).
                    execute(Code, Query, Out) :-
                        flag(floor_execute, Id, Id + 1),
                        format(atom(M), 'floor_x~d', [Id]),
                        set_module(M:class(temporary)),         % destroyable
                        with_output_to(string(Out),
                            ( setup_call_cleanup(
                                  open_string(Code, S),
                                  load_files(M:M, [stream(S), silent(true)]),
                                  close(S)),
                              term_string(Goal, Query, [module(M), variable_names(Names)]),
                              findall(Names, limit(100, catch(M:Goal, _, fail)), Answers),
                              (   Answers == []
                              ->  writeln(false)
                              ;   forall(member(A, Answers), answer_line(A))
                              ) )),
                        abolish_all_tables,
                        unload_file(M),
                        '$destroy_module'(M).
                    answer_line([]) :- !, writeln(true).
                    answer_line(Names) :-
                        forall(member(Name = Value, Names), format("~w = ~q~n", [Name, Value])).
                    """.replace("DATA_FILE", BareSwipl.atom(data.toString())), StandardCharsets.UTF_8);
            List<String> lines = runScript(swipl, script, "floor(" + warmup + ", " + rounds + ")");
            double[] millis = values(lines, "call ");
            if (millis.length != rounds * problems.size()) {
                throw new IllegalStateException("the execute floor printed " + lines);
            }
            return Summary.of(millis);
        } finally {
            TempFolders.deleteTree(dir);
        }
    }

    /** The values of the {@code batch <micros>} lines a floor script printed, {@code expected} of them. */
    private static Summary batches(List<String> lines, int expected, String floor) {
        double[] micros = values(lines, "batch ");
        if (micros.length != expected) {
            throw new IllegalStateException(floor + " printed " + lines);
        }
        return Summary.of(micros);
    }

    /** The numbers of the lines that start with {@code prefix} ({@code "batch "}), in order. */
    static double[] values(List<String> lines, String prefix) {
        return lines.stream().filter(l -> l.startsWith(prefix))
                .mapToDouble(l -> Double.parseDouble(l.substring(prefix.length()))).toArray();
    }

    /** Runs {@code goal} in a {@code swipl} that loaded {@code script}; its output lines. */
    static List<String> runScript(Path swipl, Path script, String goal) throws IOException, InterruptedException {
        Process p = new ProcessBuilder(swipl.toString(), "-q", "-f", "none", "-l", script.toString(), "-g", goal,
                "-t", "halt").redirectErrorStream(true).start();
        p.getOutputStream().close();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        if (!p.waitFor(10, TimeUnit.MINUTES)) {
            p.destroyForcibly();
            throw new IllegalStateException("the floor's swipl did not end: " + out);
        }
        if (p.exitValue() != 0) {
            throw new IllegalStateException("the floor's swipl failed (" + p.exitValue() + "): " + out);
        }
        return out.lines().toList();
    }
}

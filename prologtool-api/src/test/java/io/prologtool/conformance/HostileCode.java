package io.prologtool.conformance;

import io.prologtool.ConsultResult;
import io.prologtool.GoalRequest;
import io.prologtool.GoalResult;
import io.prologtool.Outcome;
import io.prologtool.PrologBackend;
import io.prologtool.PrologError;
import io.prologtool.PrologSession;
import io.prologtool.SessionOptions;
import io.prologtool.Term;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.TimeUnit;
import java.util.function.Predicate;
import java.util.function.Supplier;

/**
 * Hostile and careless session code, run in a JVM of its own by {@link HostileCodeConformanceTest}:
 * {@code java -cp <test classpath> io.prologtool.conformance.HostileCode <backend supplier class> <attack class>}.
 *
 * <p>Each variant of an attack class runs in a fresh session next to a sibling session opened before it.
 * After the attack the attacked session must still answer with its program, and the sibling must answer
 * and see none of the attacker's state. Every variant prints one line, {@code ok <name>} or
 * {@code FAIL <name>: why}; the last line is {@code SURVIVED} with the JVM's resident memory. The exit
 * status is 0 when every variant passed, 1 otherwise; a JVM that a variant killed exits with neither.
 */
public final class HostileCode {

    /** What the attacked session holds before the attack; it must answer afterwards. */
    static final String OWN_PROGRAM = "mine(1).\nmine(2).\n";
    /** What the sibling holds; it must answer throughout. */
    static final String SIBLING_PROGRAM = "sibling_fact(42).\n";
    /**
     * The sibling sees none of the state an attacker may have changed: unknown predicates raise, no occurs
     * check, strings for double quotes, escapes in quoted atoms, rational-free division, no attacker
     * globals, flags, records or operators.
     */
    static final String SIBLING_UNTOUCHED = String.join(", ",
            "sibling_fact(42)",
            "catch(no_such_predicate_xyz, error(existence_error(procedure, _), _), true)",
            "\\+ \\+ X = f(X)",
            "S = \"ab\", string(S)",
            "atom_length('a\\nb', 3)",
            "Q is 1/3, float(Q)",
            "catch(nb_getval(attack_key, _), error(existence_error(_, _), _), true)",
            "flag(attack_key, F, F), F == 0",
            "\\+ recorded(attack_key, _)",
            "\\+ current_op(_, _, '===>')",
            "\\+ current_predicate(attacker_mark/0)");

    /** The time limit of an attack that is about its time limit. */
    /** spin(S): busy for S seconds, making inferences (a cleanup handler that will not stop when asked). */
    private static final String SPIN = "spin(S) :- get_time(T0), repeat, get_time(T), T - T0 > S, !.\n";
    private static final Duration LIMIT = Duration.ofSeconds(1);
    /** The time limit of an attack that is not: long enough that a loaded machine never turns it into a timeout. */
    private static final Duration ROOMY = Duration.ofSeconds(15);
    /** The time limit of building and checking a term 3,000,000 deep on a loaded machine. */
    private static final Duration DEEP_ROOM = Duration.ofSeconds(90);

    private final PrologBackend backend;
    private final List<String> failures = new ArrayList<>();
    private Duration limit = LIMIT;

    private HostileCode(PrologBackend backend) {
        this.backend = backend;
    }

    public static void main(String[] args) throws Exception {
        @SuppressWarnings("unchecked")
        Supplier<PrologBackend> supplier = (Supplier<PrologBackend>) Class.forName(args[0])
                .getDeclaredConstructor().newInstance();
        int status;
        try (PrologBackend backend = supplier.get()) {
            HostileCode h = new HostileCode(backend);
            switch (args[1]) {
                case "deep-terms" -> {
                    h.limit = ROOMY;
                    h.deepTerms();
                }
                case "threads" -> h.threads();
                case "halt" -> h.halt();
                case "time-limits" -> h.timeLimits();
                case "stuck-goals" -> h.stuckGoals();
                case "global-state" -> h.globalState();
                case "memory" -> h.memory();
                case "replies" -> {
                    h.limit = ROOMY;
                    h.replies();
                }
                case "atom-flood" -> {
                    h.limit = ROOMY;
                    h.atomFlood();
                }
                case "deep-writers" -> {
                    h.limit = DEEP_ROOM;
                    h.deepWriters();
                }
                case "budgets" -> {
                    h.limit = ROOMY;
                    h.budgets();
                }
                case "budget-cycles" -> h.budgetCycles(Integer.getInteger("prologtool.cycles", 200));
                case "dags" -> h.dags();
                default -> throw new IllegalArgumentException("no attack class " + args[1]);
            }
            status = h.failures.isEmpty() ? 0 : 1;
        }
        System.out.println("SURVIVED rss_kb=" + rssKb());
        System.out.flush();
        System.exit(status);
    }

    // ---------------------------------------------------------------- the attack classes

    /** Terms nested past what SWI-Prolog's C code can recurse on: text, clauses, answers, writes. */
    private void deepTerms() {
        String deepGoal = "X = " + "f(".repeat(30_000) + "a" + ")".repeat(30_000);
        String deepFact = "deep(" + "f(".repeat(50_000) + "a" + ")".repeat(50_000) + ").\n";
        String build = "numlist(1, 45000, L), foldl([_, A, f(A)]>>true, L, z, T)";
        String buildG = "numlist(1, 45000, L), foldl([_, A, g(A, x)]>>true, L, z, T)";
        for (boolean sandboxed : new boolean[]{false, true}) {
            String tag = sandboxed ? " (sandboxed)" : "";
            goalVariant("goal text 30,000 deep" + tag, sandboxed, "", deepGoal, kind("resource_error"));
            consultVariant("consulted fact 50,000 deep" + tag, sandboxed, deepFact, "resource_error");
            goalVariant("answer 45,000 deep" + tag, sandboxed, "", build, kind("resource_error"));
            goalVariant("written 45,000 deep" + tag, sandboxed, "", build + ", write(T)", kind("resource_error"));
            goalVariant("formatted 45,000 deep" + tag, sandboxed, "", build + ", format(\"~w\", [T])",
                    kind("resource_error"));
            goalVariant("error culprit 45,000 deep" + tag, sandboxed, "", buildG + ", atom_length(T, _)",
                    kind("type_error"));
            // The sandbox refuses a goal built at run time before anything runs.
            goalVariant("printed through call/1 45,000 deep" + tag, sandboxed, "",
                    build + ", G =.. [print, T], call(G)",
                    sandboxed ? kindIn("resource_error", "sandbox_violation") : kind("resource_error"));
        }
        goalVariant("asserted 45,000 deep", false, "", buildG + ", assertz(big(T))", kind("resource_error"));
        goalVariant("asserted in a rule 45,000 deep", false, "keep(T) :- assertz(big(T)).\n",
                buildG + ", keep(T)", kind("resource_error"));
        goalVariant("term_to_atom 45,000 deep", false, "", build + ", term_to_atom(T, _)", kind("resource_error"));
        goalVariant("with_output_to nested 100,000 deep", false,
                "r(0) :- !.\nr(N) :- N1 is N - 1, with_output_to(string(_), r(N1)).\n", "r(100000)",
                kind("resource_error"));
    }

    /** deep(N, T): T nested N deep, built in a loop (g(T, x): the writer recurses on a first argument). */
    private static final String DEEP = "deep(0, z) :- !.\ndeep(N, g(T, x)) :- N1 is N - 1, deep(N1, T).\n";
    /** A depth limit that building a term 3,000,000 deep (or a list that long) stays within. */
    private static final long DEEP_ENOUGH = 100_000_000L;

    /**
     * Every way into SWI-Prolog's C writer and reader that recurses on term depth: a term 3,000,000 deep
     * with a cyclic sibling (measured, not exempted, by the depth check), residual constraints, messages,
     * assertion/1, message lines, and reading nested brackets from a stream. Each is a resource error on
     * both backends; on the in-process backend each would otherwise overflow a JVM thread's C stack.
     */
    private void deepWriters() {
        String cyclic = "deep(3000000, _T), _X = c(_X, _T)";
        for (boolean sandboxed : new boolean[]{false, true}) {
            String tag = sandboxed ? " (sandboxed)" : "";
            Predicate<GoalResult> refused = sandboxed ? kindIn("resource_error", "sandbox_violation") : kind("resource_error");
            goalVariant("write/1 of a 3,000,000 deep term with a cyclic sibling" + tag, sandboxed, DEEP,
                    cyclic + ", write(_X)", kind("resource_error"), "", null, DEEP_ENOUGH);
            goalVariant("format/2 of a 3,000,000 deep term with a cyclic sibling" + tag, sandboxed, DEEP,
                    cyclic + ", format(\"~w~n\", [_X])", kind("resource_error"), "", null, DEEP_ENOUGH);
            goalVariant("print_message/2 of a 3,000,000 deep term with a cyclic sibling" + tag, sandboxed, DEEP,
                    cyclic + ", print_message(error, format(\"~w\", [_X]))", kind("resource_error"), "", null, DEEP_ENOUGH);
            // trie_insert/3 refuses an attributed variable with an error that holds it; its attribute
            // (3,000,000 deep) must not reach the writer that prints the error (it crashed the JVM).
            for (int i = 1; i <= (sandboxed ? 1 : 3); i++) {
                goalVariant("an error holding an attributed variable whose attribute is 3,000,000 deep, call " + i + tag,
                        sandboxed, DEEP, "deep(3000000, _D), freeze(_V, _D = _), trie_new(_Tr), trie_insert(_Tr, g(_V), 1)",
                        sandboxed ? kindIn("type_error", "sandbox_violation") : kind("type_error"), "", null, DEEP_ENOUGH);
            }
            goalVariant("an answer 3,000,000 deep with a cyclic sibling" + tag, sandboxed, DEEP,
                    "deep(3000000, T), X = c(X, T)", kind("resource_error"), "", null, DEEP_ENOUGH);
            goalVariant("a dif/2 residual 300,000 deep" + tag, sandboxed, DEEP, "deep(300000, _T), dif(Y, _T)",
                    kind("resource_error"));
            goalVariant("a freeze/2 residual 300,000 deep" + tag, sandboxed, DEEP,
                    "deep(300000, _T), freeze(Y, _T = Y)", kind("resource_error"));
            goalVariant("message_to_string/2 of a 300,000 deep term" + tag, sandboxed, DEEP,
                    "deep(300000, _T), message_to_string(format(\"~w\", [_T]), S), sub_string(S, _, _, _, \"not printed\")",
                    sandboxed ? r -> r.outcome() == Outcome.SUCCESS || kind("sandbox_violation").test(r)
                              : r -> r.outcome() == Outcome.SUCCESS);
            goalVariant("assertion/1 of a 300,000 deep goal" + tag, sandboxed, DEEP,
                    "deep(300000, _T), assertion(_T == x)", refused);
            goalVariant("print_message_lines/3 of a 300,000 deep term" + tag, sandboxed, DEEP,
                    "deep(300000, _T), print_message_lines(user_error, '', ['~w'-[_T]])", refused);
            // A conjunction is compiled into a clause when it is called: its writes and reads are guarded too.
            goalVariant("write/1 in a conjunction that a predicate of the session calls, 3,000,000 deep" + tag,
                    sandboxed, DEEP + "twice(G) :- call(G), call(G).\n",
                    "deep(3000000, _T), \\+ \\+ twice((_X = c(_X, _T), write(_X)))", kind("resource_error"), "", null,
                    DEEP_ENOUGH);
            goalVariant("write/1 in the conjunction of call_with_time_limit/2 and findall/3, 3,000,000 deep" + tag,
                    sandboxed, DEEP, cyclic + ", call_with_time_limit(30, findall(x, (true, write(_X)), _))",
                    kind("resource_error"), "", null, DEEP_ENOUGH);
            goalVariant("read/2 of 3,000,000 nested brackets in a conjunction built at run time" + tag, sandboxed, "",
                    "length(_L, 3000000), maplist(=(0'[), _L), string_codes(_S0, _L), string_concat(_S0, \"a.\", _S), "
                            + "_G = (open_string(_S, In), read(In, _)), call(_G)", refused, "", null, DEEP_ENOUGH);
            goalVariant("read/2 of 3,000,000 nested brackets from a string stream" + tag, sandboxed, "",
                    "length(_L, 3000000), maplist(=(0'[), _L), string_codes(_S0, _L), string_concat(_S0, \"a.\", _S), "
                            + "open_string(_S, In), read(In, _)", refused, "", null, DEEP_ENOUGH);
            goalVariant("read_term/3 of 3,000,000 nested brackets from a string stream" + tag, sandboxed, "",
                    "length(_L, 3000000), maplist(=(0'(), _L), string_codes(_S0, _L), string_concat(_S0, \"a.\", _S), "
                            + "open_string(_S, In), read_term(In, _, [])", refused, "", null, DEEP_ENOUGH);
        }
        goalVariant("read/2 from a string stream still reads", false, "",
                "open_string(\"f(X, 'a b'). g.\", In), read_term(In, T, [variable_names(V)]), read(In, U), read(In, E), "
                        + "T = f(Y, 'a b'), V = ['X' = Y], U == g, E == end_of_file",
                r -> r.outcome() == Outcome.SUCCESS);
    }

    /**
     * What a session allocates is bounded by its own budgets and given back when it closes: text in
     * memory sinks (stopped as it grows), atoms read or built from text, tables, engines (refused),
     * standard input (always an empty stream of the session's own), nested depth and inference limits.
     */
    private void budgets() {
        for (boolean sandboxed : new boolean[]{false, true}) {
            String tag = sandboxed ? " (sandboxed)" : "";
            boundedTimeVariant("format(string(S), \"~*c\", [1000000000, 0'x]) under a 1 s limit" + tag, sandboxed,
                    "format(string(_), \"~*c\", [1000000000, 0'x])");
            boundedTimeVariant("with_output_to(string(S), endless writes) under a 1 s limit" + tag, sandboxed,
                    "with_output_to(string(_), (repeat, write(xxxxxxxxxxxxxxxx), fail))");
            String hugeQuoted = "format(string(Txt), \"'~*c'\", [2000000, 0'a])";
            goalVariant("term_string/2 reading a 2,000,000-character atom" + tag, sandboxed, "",
                    hugeQuoted + ", term_string(_, Txt)", kind("resource_error"));
            goalVariant("term_to_atom/2 reading a 2,000,000-character atom" + tag, sandboxed, "",
                    hugeQuoted + ", term_to_atom(_, Txt)", kind("resource_error"));
            goalVariant("atom_to_term/3 reading a 2,000,000-character atom" + tag, sandboxed, "",
                    hugeQuoted + ", atom_to_term(Txt, _, _)", kind("resource_error"));
            goalVariant("normalize_space(atom(A), _) of 2,000,000 characters" + tag, sandboxed, "",
                    "format(string(S), \"~*c\", [2000000, 0'a]), normalize_space(atom(_), S)", kind("resource_error"));
            goalVariant("tables past the session's table space" + tag, sandboxed,
                    ":- table p/1.\np(X) :- between(1, 5000000, X).\n", "aggregate_all(count, p(_), _)",
                    kind("resource_error"), "", SessionOptions.builder().sandboxed(sandboxed)
                            .tableSpaceBytes(16L << 20).build());
            boundedTimeVariant("format_to_chars(\"~*c\", [1000000000, 0'x], Cs) under a 1 s limit" + tag, sandboxed,
                    "format_to_chars(\"~*c\", [1000000000, 0'x], _)");
            boundedTimeVariant("with_output_to_chars(endless writes, Cs) under a 1 s limit" + tag, sandboxed,
                    "with_output_to_chars((repeat, write(xxxxxxxxxxxxxxxx), fail), _)");
            goalVariant("with_output_to_chars/4 writes into codes" + tag, sandboxed, "",
                    "with_output_to_chars(forall(between(1, 3, _), write(ab)), _, Cs, [0'.]), atom_codes('ababab.', Cs)",
                    r -> r.outcome() == Outcome.SUCCESS);
            // Atoms are held by reference: their text is charged to the clause space as well.
            goalVariant("facts holding long atoms past a 1 MiB clause space" + tag, sandboxed, ":- dynamic big/1.\n",
                    "forall(between(1, 100, I), (format(atom(A), \"~*c~w\", [500000, 0'x, I]), assertz(big(A))))",
                    kind("resource_error"), "", SessionOptions.builder().sandboxed(sandboxed)
                            .clauseSpaceBytes(1L << 20).build());
            goalVariant("retracted facts' long atoms no longer count" + tag, sandboxed, ":- dynamic big/1.\n",
                    "forall(between(1, 20, I), (format(atom(A), \"~*c~w\", [300000, 0'x, I]), assertz(big(A)), "
                            + "retract(big(_))))",
                    r -> r.outcome() == Outcome.SUCCESS, "", SessionOptions.builder().sandboxed(sandboxed)
                            .clauseSpaceBytes(1L << 20).build());
            goalVariant("engine_create/3 refused" + tag, sandboxed, "",
                    "engine_create(X, member(X, [1, 2]), E), engine_next(E, _)",
                    sandboxed ? kind("sandbox_violation") : kind("permission_error"));
            goalVariant("nested call_with_depth_limit/3 cannot lift maxDepth" + tag, sandboxed,
                    "d(0) :- !.\nd(N) :- N1 is N - 1, d(N1), true.\n",
                    "call_with_depth_limit(d(5000), 1000000, R), integer(R)",
                    r -> r.outcome() == Outcome.DEPTH_EXCEEDED, "", null, 1000);
            goalVariantWith("nested call_with_inference_limit/3 cannot lift maxInferences" + tag, sandboxed, "",
                    "call_with_inference_limit((between(1, 10000000, _), fail ; true), 100000000000, R)",
                    r -> r.outcome() == Outcome.INFERENCE_LIMIT,
                    g -> g.maxInferences(100_000));
        }
        // Tables last as long as their request on the in-process backend: no worker thread keeps a closed
        // session's tables (each request of these sessions may run on another worker).
        String tables = "tables of closed sessions are not kept by any worker";
        try {
            // the first sessions grow each worker's malloc arenas to what one request's tables take (about
            // 15 MB for 300,000 answers); later ones reuse that memory unless closed sessions' tables stay
            long warm = 0;
            for (int i = 0; i < 10; i++) {
                if (i == 3) {
                    warm = rssKb();
                }
                try (PrologSession s = backend.open()) {
                    s.consult(":- table t/1.\nt(X) :- between(1, 300000, X).\n");
                    for (int j = 0; j < 4; j++) {
                        GoalResult r = s.goal("aggregate_all(count, t(_), N)").timeLimit(ROOMY).run();
                        check(tables, r.outcome() == Outcome.SUCCESS, "tabling 300,000 answers gave " + describe(r));
                    }
                }
            }
            long after = rssKb();
            // the tables that the workers serving a fresh session hold (of any session): none of the closed ones
            long kept = 0;
            try (PrologSession probe = backend.open()) {
                for (int i = 0; i < 40; i++) {
                    GoalResult r = probe.goal("'$tbl_variant_table'(VT), aggregate_all(count, trie_gen(VT, _, _), N)").run();
                    check(tables, r.outcome() == Outcome.SUCCESS, "counting tables gave " + describe(r));
                    kept = Math.max(kept, ((Term.Int) r.answers().get(0).get("N")).longValueExact());
                }
            }
            System.out.println("rss after three sessions that tabled 300,000 answers in four requests each " + warm
                    + " kB, after seven more " + after + " kB; most tables on a worker afterwards: " + kept);
            check(tables, kept == 0, kept + " tables of closed sessions are still held by a worker");
            pass(tables);
        } catch (RuntimeException e) {
            fail(tables, e.toString());
        }
        // Streams: at most maxOpenStreams open at once; closing the session closes what it left open.
        goalVariant("opening streams past maxOpenStreams", false, "",
                "forall(between(1, 100, _), open_string(\"abc\", _))", kind("resource_error"), "",
                SessionOptions.builder().maxOpenStreams(16).build());
        // see/1, tell/1 and append/1 of a file name open streams, counted as open/3's
        goalVariant("tell/1 of files past maxOpenStreams", false, "",
                "forall(between(1, 100, _), (tmp_file(x, F), tell(F)))", kind("resource_error"), "",
                SessionOptions.builder().maxOpenStreams(16).build());
        goalVariant("append/1 of files past maxOpenStreams", false, "",
                "forall(between(1, 100, _), (tmp_file(x, F), append(F)))", kind("resource_error"), "",
                SessionOptions.builder().maxOpenStreams(16).build());
        goalVariant("see/1 of files past maxOpenStreams", false, "",
                "forall(between(1, 100, _), (tmp_file_stream(text, F, S), close(S), see(F)))", kind("resource_error"),
                "", SessionOptions.builder().maxOpenStreams(16).build());
        goalVariant("see/1 of the same file twice opens one stream", false, "",
                "forall(between(1, 100, _), (tmp_file_stream(text, F, S), close(S), see(F), see(F), seen))",
                r -> r.outcome() == Outcome.SUCCESS, "", SessionOptions.builder().maxOpenStreams(16).build());
        // SWI-Prolog rolls back every clause asserted inside snapshot/1 or a failed transaction, the
        // harness's record of a stream opened there included: the record outlives the rollback.
        goalVariant("opening streams inside snapshot/1 past maxOpenStreams", false, "",
                "forall(between(1, 100, _), snapshot(open_string(\"abc\", _)))", kind("resource_error"), "",
                SessionOptions.builder().maxOpenStreams(16).build());
        goalVariant("opening streams inside failed transactions past maxOpenStreams", false, "",
                "forall(between(1, 100, _), \\+ transaction((open_string(\"abc\", _), fail)))", kind("resource_error"),
                "", SessionOptions.builder().maxOpenStreams(16).build());
        descriptorsStayFlat("files opened inside snapshot/1 are closed with their session",
                SessionOptions.builder().sandboxed(false).build(),
                "forall(between(1, 5, _), snapshot((tmp_file(x, F), open(F, write, _))))",
                "left 5 files open each inside snapshot/1");
        descriptorsStayFlat("streams tell/1 and see/1 left open are closed with their session",
                SessionOptions.defaults(), "forall(between(1, 5, _), (tmp_file(x, F), tell(F), see(F)))",
                "left 10 files open each with tell/1 and see/1");
        String streams = "streams a session left open are closed with it";
        try {
            int before = openFds();
            for (int i = 0; i < 20; i++) {
                try (PrologSession s = backend.open()) {
                    s.goal("tmp_file(x, F), forall(between(1, 10, _), open(F, write, _))").run();
                }
            }
            int after = openFds();
            System.out.println("file descriptors before " + before + ", after 20 sessions that left 10 files open each "
                    + after);
            check(streams, after - before < 20, "file descriptors grew from " + before + " to " + after);
            pass(streams);
        } catch (RuntimeException e) {
            fail(streams, e.toString());
        }
        // tmp_file_stream/3 has two forms, (+Encoding, -File, -Stream) and (-File, -Stream, +Options): the
        // streams of both are counted, and closed with the session.
        goalVariant("tmp_file_stream/3 with options past maxOpenStreams", false, "",
                "forall(between(1, 100, _), tmp_file_stream(_, _, [extension(txt)]))", kind("resource_error"), "",
                SessionOptions.builder().maxOpenStreams(16).build());
        descriptorsStayFlat("streams of tmp_file_stream/3 with options left open are closed with their session",
                SessionOptions.builder().sandboxed(false).build(),
                "forall(between(1, 10, _), tmp_file_stream(_, _, []))", "left 10 temporary files open each");
        temporaryFilesGoWithTheirSession();
        // Standard input is an empty stream of the harness's: closing it is a no-op, and no session ever reads
        // the JVM's (the test writes a term to it) or the child's protocol stream.
        for (String g : List.of("seen", "close(user_input)", "current_input(S), close(S)", "see(user), seen")) {
            goalVariant(g + ", then read/1 reads end_of_file", false, "", g + ", read(X), X == end_of_file",
                    r -> r.outcome() == Outcome.SUCCESS);
            String name = g + ", then read/1 in the next goal and in another session reads end_of_file";
            try (PrologSession s = backend.open(); PrologSession other = backend.open()) {
                s.goal(g).run();
                GoalResult next = s.goal("read(X), X == end_of_file").run();
                check(name, next.outcome() == Outcome.SUCCESS, "the next goal: " + describe(next));
                GoalResult o = other.goal("read(X), X == end_of_file").run();
                check(name, o.outcome() == Outcome.SUCCESS, "another session: " + describe(o));
                pass(name);
            } catch (RuntimeException e) {
                fail(name, e.toString());
            }
        }
        // A closed stream that was the current input or user_input hands the process's standard input back in
        // SWI-Prolog, on the thread that closed it: in the goal, and on the worker or child for later requests.
        goalVariant("set_input/1 to a stream, closed, then read/1 reads end_of_file", false, "",
                "open_string(\"t.\", S), set_input(S), close(S), read(X), X == end_of_file",
                r -> r.outcome() == Outcome.SUCCESS);
        String leftInput = "a session's stream left as current input and user_input, closed with the session, "
                + "then read/1 in the next goals and sessions reads end_of_file";
        try {
            for (int round = 0; round < 4; round++) {
                try (PrologSession s = backend.open()) {
                    GoalResult set = s.goal("open_string(\"t. u. v.\", S), set_input(S), "
                            + "set_stream(S, alias(user_input)), read(_)").run();
                    check(leftInput, set.outcome() == Outcome.SUCCESS, "setting the input: " + describe(set));
                    GoalResult next = s.goal("read(X), X == end_of_file").run();
                    check(leftInput, next.outcome() == Outcome.SUCCESS, "the next goal: " + describe(next));
                }
                for (int i = 0; i < 4; i++) {
                    try (PrologSession other = backend.open()) {
                        GoalResult o = other.goal("read(X), X == end_of_file").run();
                        check(leftInput, o.outcome() == Outcome.SUCCESS, "another session: " + describe(o));
                    }
                }
            }
            pass(leftInput);
        } catch (RuntimeException e) {
            fail(leftInput, e.toString());
        }
    }

    /** dag(K, T): f(T1, T1) nested K deep, K + 1 cells on the stacks and 2^K nodes as a tree. */
    private static final String DAG = "dag(0, z) :- !.\ndag(K, f(T, T)) :- K1 is K - 1, dag(K1, T).\n";

    /**
     * Terms that share subterms (DAGs): 40 cells on the stacks, 2^40 nodes to every C routine that walks
     * them as trees (the writer, assert's compiler, a tabled call's tries, variant_sha1/2), which runs
     * without looking at signals. Each is a resource error at once, on every path, and no CPU is left
     * burning after the sessions close; DAGs that fit the stacks unfolded still work.
     */
    private void dags() {
        String dag = "dag(40, T), ";
        String tables = DAG + ":- table tab/2.\ntab(X, X).\n:- table mk/1.\nmk(T) :- dag(40, T).\n";
        for (boolean sandboxed : new boolean[]{false, true}) {
            String tag = sandboxed ? " (sandboxed)" : "";
            Predicate<GoalResult> refused = sandboxed ? kindIn("resource_error", "sandbox_violation") : kind("resource_error");
            goalVariant("write_canonical/1 of a DAG of 2^40 nodes" + tag, sandboxed, DAG, dag + "write_canonical(T)",
                    kind("resource_error"));
            // The sandbox refuses a goal built at run time before anything runs.
            goalVariant("print/1 of a DAG in a conjunction built at run time" + tag, sandboxed, DAG,
                    dag + "G = (true, print(T)), call(G)", refused);
            goalVariant("print/1 of a DAG in a conjunction given to a predicate of the session's" + tag, sandboxed,
                    DAG + "twice(G) :- G, G.\n", dag + "twice((true, print(T)))", kind("resource_error"));
            goalVariant("format(atom(A), ~q) of a DAG" + tag, sandboxed, DAG, dag + "format(atom(_), \"~q\", [T])",
                    kind("resource_error"));
            goalVariant("term_to_atom/2 of a DAG" + tag, sandboxed, DAG, dag + "term_to_atom(T, _)",
                    kind("resource_error"));
            goalVariant("assertz/1 of a DAG" + tag, sandboxed, DAG, dag + "assertz(big(T))", kind("resource_error"));
            // 20 Mi cells unfolded: a clause of some 320 MB, more than the default clause space, refused
            // before it is compiled (in an isolated child the compiler ran out of its address space).
            goalVariant("assertz/1 of a 1,000-deep term shared 10,000 times, then retract/1" + tag, sandboxed, DEEP,
                    "deep(1000, _D), length(_T, 10000), maplist(=(_D), _T), assertz(big(_T)), retract(big(_))",
                    kind("resource_error"));
            goalVariant("a DAG as the answer" + tag, sandboxed, DAG, "dag(40, T)",
                    kindIn("resource_error", "reply_too_large"));
            goalVariant("a tabled call with a DAG argument" + tag, sandboxed, tables, dag + "tab(T, _)",
                    kind("resource_error"));
            goalVariant("a tabled answer that is a DAG" + tag, sandboxed, tables, "mk(_)", kind("resource_error"));
            goalVariant("print_message/2 of a DAG" + tag, sandboxed, DAG, dag + "print_message(error, fz(T))",
                    kind("resource_error"));
            goalVariant("message_to_string/2 of an error with a DAG culprit" + tag, sandboxed, DAG,
                    dag + "message_to_string(error(type_error(integer, T), _), _)",
                    r -> r.outcome() == Outcome.SUCCESS || kindIn("resource_error").test(r));
            goalVariant("variant_sha1/2 of a DAG" + tag, sandboxed, DAG, dag + "variant_sha1(T, _)", refused);
            // SWI-Prolog 9.0.4's term_hash/4 crashes the process on a string above U+00FF (the fuzzer found it
            // with a lone surrogate): the guard hashes such strings through term_hash/2.
            goalVariant("term_hash/4 of strings above U+00FF, a lone surrogate and a cycle" + tag, sandboxed, "",
                    "string_codes(S, [0x73, 0x4E2D]), string_codes(L, [0xDFFF]), X = g(X, L), "
                            + "term_hash(f(S, a), 1000, 1000000, H1), term_hash(f(S, a), 1000, 1000000, H2), "
                            + "term_hash(X, 5, 1000, H3), integer(H1), H1 == H2, integer(H3)",
                    sandboxed ? r -> r.outcome() == Outcome.SUCCESS || kind("sandbox_violation").test(r)
                              : r -> r.outcome() == Outcome.SUCCESS);
            goalVariant("nb_setval/2 of a DAG (copied as a DAG)" + tag, sandboxed, DAG,
                    "dag(40, _T), nb_setval(k, _T), nb_getval(k, _V), _V = f(_, _)", r -> r.outcome() == Outcome.SUCCESS);
            goalVariant("a DAG that fits the stacks unfolded is written" + tag, sandboxed, DAG,
                    "dag(12, T), with_output_to(string(S), write_canonical(T)), string_length(S, 20476)",
                    r -> r.outcome() == Outcome.SUCCESS);
            goalVariant("a small shared term is written and asserted" + tag, sandboxed, ":- dynamic s/1.\n",
                    "X = g(1), T = f(X, X), format(atom(A), \"~w\", [T]), A == 'f(g(1),g(1))', assertz(s(T)), s(f(Y, Y))",
                    r -> r.outcome() == Outcome.SUCCESS);
        }
        goalVariant("trie_insert/3 of a DAG", false, DAG, dag + "trie_new(Tr), trie_insert(Tr, T, 1)",
                kind("resource_error"));
        goalVariant("term_hash/4 of a DAG", false, DAG, dag + "term_hash(T, 100, 1000, _)", kind("resource_error"));
        // Nothing goes on in C after the calls returned and their sessions closed (in-process: a worker that
        // kept walking a DAG would burn a core).
        String idle = "no CPU burnt after the DAG attacks' sessions closed";
        long cpu0 = cpuMs();
        sleepMillis(1_000);
        long cpu = cpuMs() - cpu0;
        System.out.println("CPU of the JVM in a 1 s idle window after the DAG attacks: " + cpu + " ms");
        if (cpu < 500) {
            pass(idle);
        } else {
            fail(idle, cpu + " ms of CPU in a 1 s idle window");
        }
    }

    /** CPU time of this process (user and system, every thread), in milliseconds; -1 if unknown. */
    private static long cpuMs() {
        try {
            String stat = Files.readString(Path.of("/proc/self/stat"));
            String[] f = stat.substring(stat.lastIndexOf(')') + 2).split(" ");
            return (Long.parseLong(f[11]) + Long.parseLong(f[12])) * 10;      // utime, stime in 10 ms ticks
        } catch (IOException | RuntimeException e) {
            return -1;
        }
    }

    /** A goal that would run far past its limit in C ends about when its time limit says. */
    private void boundedTimeVariant(String name, boolean sandboxed, String goal) {
        try (PrologSession sibling = sibling()) {
            PrologSession s = backend.open(SessionOptions.builder().sandboxed(sandboxed).build());
            try {
                s.consult(OWN_PROGRAM);
                long t0 = System.nanoTime();
                GoalResult r = s.goal(goal).timeLimit(LIMIT).run();
                long ms = (System.nanoTime() - t0) / 1_000_000;
                check(name, r.outcome() == Outcome.TIMEOUT || kindIn("resource_error").test(r),
                        "unexpected result " + describe(r));
                check(name, ms < 5_000, "the goal took " + ms + " ms under a 1 s limit");
                answersOwnProgram(name, s);
                siblingUntouched(name, sibling);
            } finally {
                s.close();
            }
            pass(name);
        } catch (RuntimeException e) {
            fail(name, e.toString());
        }
    }

    /**
     * Open, attack, close, many times over: resident memory, atoms, file descriptors and threads of the
     * JVM (and, on the in-process backend, its Prolog) stay flat. Prints the figures every tenth of the way.
     */
    private void budgetCycles(int cycles) {
        List<String[]> attacks = List.of(
                new String[]{":- table p/1.\np(X) :- between(1, 20000, X).\n", "aggregate_all(count, p(_), _)"},
                new String[]{"", "open_string(\"abc\", _), open_string(\"def\", _)"},
                new String[]{"", "forall(between(1, 200, I), (format(atom(A), 'cycle_atom_~d_~d', [I, I]), assertz(fact(A))))"},
                new String[]{"", "catch(format(atom(_), \"~*c\", [100000000, 0'x]), _, true)"},
                new String[]{"", "catch(engine_create(x, true, _), _, true), seen, read(_)"});
        String name = "RSS, atoms, fds and threads flat over " + cycles + " open-attack-close cycles";
        try (PrologSession probe = backend.open()) {
            long[] base = null;
            long[] last = null;
            for (int i = 0; i <= cycles; i++) {
                if (i % Math.max(1, cycles / 10) == 0 || i == cycles) {
                    System.gc();
                    last = figures(probe);
                    System.out.println("cycle " + i + ": rss_kb=" + last[0] + " atoms=" + last[1] + " fds=" + last[2]
                            + " threads=" + last[3] + " prolog_threads=" + last[4]);
                    if (i == Math.max(1, cycles / 10)) {
                        base = last;    // after warming up
                    }
                }
                if (i == cycles) {
                    break;
                }
                String[] a = attacks.get(i % attacks.size());
                try (PrologSession s = backend.open()) {
                    if (!a[0].isEmpty()) {
                        s.consult(a[0]);
                    }
                    s.goal(a[1]).timeLimit(ROOMY).run();
                }
            }
            if (base != null && last != null) {
                check(name, last[1] - base[1] < 20_000, "atoms grew from " + base[1] + " to " + last[1]);
                check(name, last[2] - base[2] < 20, "file descriptors grew from " + base[2] + " to " + last[2]);
                check(name, last[3] - base[3] < 5, "JVM threads grew from " + base[3] + " to " + last[3]);
                check(name, last[0] - base[0] < 150_000, "resident memory grew from " + base[0] + " to " + last[0] + " kB");
            }
            pass(name);
        } catch (RuntimeException e) {
            fail(name, e.toString());
        }
    }

    private static int openFds() {
        try (var list = Files.list(Path.of("/proc/self/fd"))) {
            return (int) list.count();
        } catch (IOException e) {
            return -1;
        }
    }

    /** rss_kb, Prolog atoms (as the probe session's Prolog counts them), fds, JVM threads, Prolog threads. */
    private static long[] figures(PrologSession probe) {
        GoalResult r = probe.goal("statistics(atoms, A), statistics(threads, T)").run();
        long atoms = r.answers().isEmpty() ? -1 : Long.parseLong(r.answers().get(0).get("A").toString());
        long threads = r.answers().isEmpty() ? -1 : Long.parseLong(r.answers().get(0).get("T").toString());
        long fds;
        try (var list = Files.list(Path.of("/proc/self/fd"))) {
            fds = list.count();
        } catch (IOException e) {
            fds = -1;
        }
        return new long[]{rssKb(), atoms, fds, Thread.activeCount(), threads};
    }

    /** Threads that session code starts must never outlive the session. */
    private void threads() {
        for (boolean sandboxed : new boolean[]{false, true}) {
            String tag = sandboxed ? " (sandboxed)" : "";
            goalVariant("thread_create refused" + tag, sandboxed, "",
                    "thread_create((repeat, fail), _, [])", kindIn("sandbox_violation", "permission_error"));
            goalVariant("thread_create built at run time refused" + tag, sandboxed, "",
                    "G =.. [thread_create, (repeat, fail), _, []], call(G)",
                    kindIn("sandbox_violation", "permission_error", "instantiation_error"));
        }
        goalVariant("detached thread refused", false, "",
                "thread_create(true, _, [detached(true)])", kind("sandbox_violation"));
        goalVariant("a directive's thread refused", false, "", "true", anything(),
                ":- thread_create((repeat, fail), _, []).\n");
        goalVariant("thread_signal of the serving thread refused", false, "",
                "thread_self(T), thread_signal(T, (repeat, fail))", kind("sandbox_violation"));
        // Allowed threads are the session's: closing it stops and joins them.
        for (String body : List.of("(repeat, fail)", "sleep(1000)", "(repeat, catch(sleep(1), _, true), fail)")) {
            String name = "allowed thread " + body + " stopped at close";
            try (PrologSession sibling = sibling()) {
                PrologSession s = backend.open(SessionOptions.builder().allowThreads(true).build());
                s.consult(OWN_PROGRAM);
                GoalResult r = s.goal("thread_create(" + body + ", Id, []), Id \\== none").run();
                check(name, r.outcome() == Outcome.SUCCESS, "thread_create gave " + describe(r));
                answersOwnProgram(name, s);
                s.close();
                siblingUntouched(name, sibling);
                pass(name);
            } catch (RuntimeException e) {
                fail(name, e.toString());
            }
        }
        // A thread or a cursor that spins in a cleanup handler (signals blocked) for longer than the close
        // waits for it: the session ends, and its code stays in place until the thread is done with it
        // (taken apart under it, the thread would run on in freed memory: a crash of the process).
        for (boolean cursor : new boolean[]{false, true}) {
            String name = (cursor ? "a cursor" : "an allowed thread") + " spinning in a cleanup handler past the close";
            try (PrologSession sibling = sibling()) {
                PrologSession s = backend.open(SessionOptions.builder().allowThreads(true).build());
                s.consult(OWN_PROGRAM + SPIN);
                if (cursor) {
                    int found = s.query("setup_call_cleanup(true, member(X, [1, 2]), spin(2.5))").next(1).size();
                    check(name, found == 1, "the cursor found " + found + " answers");
                } else {
                    GoalResult r = s.goal("thread_create(setup_call_cleanup(true, true, spin(2.5)), _, [])").run();
                    check(name, r.outcome() == Outcome.SUCCESS, "thread_create gave " + describe(r));
                }
                s.close();
                sleepMillis(3_000); // the thread ends, in the code it was left with
                siblingUntouched(name, sibling);
                try (PrologSession after = backend.open()) {
                    after.consult(OWN_PROGRAM);
                    answersOwnProgram(name, after);
                }
                pass(name);
            } catch (RuntimeException e) {
                fail(name, e.toString());
            }
        }
    }

    /** Twenty sessions run {@code goal}, which leaves files open, and close: the JVM's descriptors stay flat. */
    private void descriptorsStayFlat(String name, SessionOptions options, String goal,
            String what) {
        try {
            int before = openFds();
            for (int i = 0; i < 20; i++) {
                try (PrologSession s = backend.open(options)) {
                    s.goal(goal).run();
                }
            }
            int after = openFds();
            System.out.println("file descriptors before " + before + ", after 20 sessions that " + what + " " + after);
            check(name, after - before < 20, "file descriptors grew from " + before + " to " + after);
            pass(name);
        } catch (RuntimeException e) {
            fail(name, e.toString());
        }
    }

    /**
     * The temporary files a session made (tmp_file/2 then open/3, tmp_file_stream/3 in both forms) are
     * there while it is open and gone once it closed. Unsandboxed, so that the process backend's child
     * shares the file system with the test (an isolated child has a private /tmp).
     */
    private void temporaryFilesGoWithTheirSession() {
        String name = "the temporary files a session made are deleted when it closes";
        try {
            List<Path> made = new ArrayList<>();
            try (PrologSession s = backend.open(SessionOptions.builder().sandboxed(false).build())) {
                GoalResult r = s.goal("tmp_file(t, A), open(A, write, S), close(S), "
                        + "tmp_file_stream(text, B, S2), close(S2), tmp_file_stream(C, _, [extension(txt)])").run();
                check(name, r.outcome() == Outcome.SUCCESS, "making the files: " + describe(r));
                for (String v : List.of("A", "B", "C")) {
                    made.add(Path.of(((Term.Atom) r.answers().get(0).get(v)).name()));
                }
                check(name, made.stream().allMatch(Files::exists), "not there while the session is open: " + made);
            }
            // the process backend's child tears a session down right after it answered the close
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(5);
            List<Path> left = made.stream().filter(Files::exists).toList();
            while (!left.isEmpty() && System.nanoTime() < deadline) {
                sleepMillis(20);
                left = made.stream().filter(Files::exists).toList();
            }
            check(name, left.isEmpty(), "left 5 s after the session closed: " + left);
            pass(name);
        } catch (RuntimeException e) {
            fail(name, e.toString());
        }
    }

    private static void sleepMillis(long ms) {
        try {
            Thread.sleep(ms);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted", e);
        }
    }

    /** halt in every disguise is refused; the process (and the JVM around it) lives. */
    private void halt() {
        for (boolean sandboxed : new boolean[]{false, true}) {
            String tag = sandboxed ? " (sandboxed)" : "";
            for (String g : List.of("halt", "halt(3)", "call(halt)", "G = halt, call(G)", "abort",
                    "atom_concat(ha, lt, H), call(H)")) {
                goalVariant(g + tag, sandboxed, "", g, isError());
            }
            goalVariant(":- halt." + tag, sandboxed, "", "true", anything(), ":- halt.\n");
            goalVariant(":- initialization(halt)." + tag, sandboxed, "", "true", anything(),
                    ":- initialization(halt).\n");
        }
        goalVariant("lists:halt", false, "", "lists:halt", isError());
        goalVariant("system:halt", false, "", "system:halt", isError());
        goalVariant("halt after resetting the harness's counters", false, "",
                "flag(prologtool_requests, _, 0), nb_setval('$pt_halt_attempted', false), halt", isError());
        goalVariant("halt inside catch/3", false, "", "catch(halt, _, true)", anything());
        goalVariant("halt from an allowed thread", false, "",
                "thread_create(halt, Id, []), thread_join(Id, _)", anything(),
                "", SessionOptions.builder().allowThreads(true).build());
    }

    /** Goals that try to outlive their time limit end anyway, and the session answers again. */
    private void timeLimits() {
        String loop = "(repeat, fail)";
        List<String[]> goals = List.of(
                new String[]{"catch-all with a looping recovery", "catch(" + loop + ", _, " + loop + ")"},
                new String[]{"nested catch-alls", "l"},
                new String[]{"module-qualified catch/3", "lists:catch(" + loop + ", _, " + loop + ")"},
                new String[]{"the harness's deadline reset", "nb_setval('$pt_deadline', 1.0e20), " + loop},
                new String[]{"sig_atomic/1", "sig_atomic(" + loop + ")"},
                new String[]{"a looping cleanup handler", "setup_call_cleanup(true, true, " + loop + ")"},
                new String[]{"a looping setup", "setup_call_cleanup(" + loop + ", true, true)"},
                new String[]{"sleep in a cleanup handler", "setup_call_cleanup(true, true, sleep(1000))"},
                new String[]{"waiting for a message in a cleanup handler",
                        "setup_call_cleanup(true, true, thread_get_message(_))"},
                new String[]{"waiting for a message with a long timeout in a cleanup handler",
                        "thread_self(Me), setup_call_cleanup(true, true, thread_get_message(Me, _, [timeout(1000)]))"},
                new String[]{"waiting for a message in a cleanup handler under a shorter own limit",
                        "call_with_time_limit(0.2, setup_call_cleanup(true, true, thread_get_message(_)))"},
                new String[]{"thread_exit/1", "thread_exit(bye)"},
                // on JPL, the thread that runs a goal is a JVM thread: it must never end
                new String[]{"system:thread_exit/1", "system:thread_exit(bye)"},
                new String[]{"thread_exit/1 signalled to itself", "thread_self(T), thread_signal(T, thread_exit(bye))"},
                new String[]{"thread_signal/2 on itself", "thread_self(T), thread_signal(T, " + loop + ")"});
        for (String[] g : goals) {
            goalVariant(g[0], false, "l :- catch(l, _, l).\n", g[1], r -> r.outcome() != Outcome.SUCCESS);
        }
        consultVariantAnyDiagnostic("a directive looping in a cleanup handler",
                ":- setup_call_cleanup(true, true, (repeat, fail)).\n");
        shellPastItsLimit();
    }

    /**
     * A careless session's shell command that outlives the goal's 1 s limit: the call is a timeout at the
     * limit, the command and its shell are gone (no descendant of this JVM runs it), and the session's next
     * goal answers at once (SWI-Prolog's own shell/2 waits in C, where no signal reaches a JPL worker: the
     * call took 3 s, the session stayed busy for the whole minute and the command outlived the backend).
     */
    private void shellPastItsLimit() {
        String name = "shell('sleep 61') under a 1 s limit (careless)";
        try (PrologSession sibling = sibling()) {
            PrologSession s = backend.open(SessionOptions.builder().sandboxed(false).build());
            try {
                s.consult(OWN_PROGRAM);
                long start = System.nanoTime();
                GoalResult r = s.goal("shell('sleep 61')").timeLimit(Duration.ofSeconds(1)).run();
                long ms = (System.nanoTime() - start) / 1_000_000;
                check(name, r.outcome() == Outcome.TIMEOUT, "shell gave " + describe(r));
                check(name, ms < 2_500, "the timeout came after " + ms + " ms");
                long deadline = System.nanoTime() + Duration.ofSeconds(2).toNanos();
                while (sleeping61() > 0 && System.nanoTime() < deadline) {
                    sleepMillis(20);
                }
                check(name, sleeping61() == 0, sleeping61() + " processes still run the command");
                start = System.nanoTime();
                answersOwnProgram(name, s);
                ms = (System.nanoTime() - start) / 1_000_000;
                check(name, ms < 2_000, "the next goal took " + ms + " ms");
                siblingUntouched(name, sibling);
            } finally {
                s.close();
            }
            pass(name);
        } catch (RuntimeException e) {
            fail(name, e.toString());
        }
    }

    /** Descendants of this JVM (on the process backend: of its children too) that run {@code sleep 61}. */
    private static long sleeping61() {
        return ProcessHandle.current().descendants()
                .filter(p -> p.info().commandLine().orElse("").contains("sleep 61"))
                .count();
    }

    /** Eight goals that ignore their limits at once: the backend still serves a fresh session in 10 s. */
    private void stuckGoals() throws Exception {
        String name = "fresh session within 10 s after eight stuck goals";
        ExecutorService pool = Executors.newFixedThreadPool(8);
        List<PrologSession> stuck = new ArrayList<>();
        try (PrologSession sibling = sibling()) {
            List<Future<GoalResult>> results = new ArrayList<>();
            for (int i = 0; i < 8; i++) {
                PrologSession s = backend.open();
                stuck.add(s);
                results.add(pool.submit(() -> s.goal("setup_call_cleanup(true, true, (repeat, fail))")
                        .timeLimit(Duration.ofSeconds(1)).run()));
            }
            for (Future<GoalResult> f : results) {
                GoalResult r = f.get();
                check(name, r.outcome() == Outcome.TIMEOUT || r.outcome() == Outcome.ERROR,
                        "a stuck goal gave " + describe(r));
            }
            long start = System.nanoTime();
            try (PrologSession fresh = backend.open()) {
                fresh.consult(OWN_PROGRAM);
                answersOwnProgram(name, fresh);
            }
            long ms = (System.nanoTime() - start) / 1_000_000;
            check(name, ms < 10_000, "a fresh session took " + ms + " ms");
            siblingUntouched(name, sibling);
            System.out.println("fresh session after eight stuck goals: " + ms + " ms");
            pass(name);
        } catch (RuntimeException e) {
            fail(name, e.toString());
        } finally {
            stuck.forEach(PrologSession::close);
            pool.shutdownNow();
        }
        stubbornCloses();
        noBurnAfterClose();
    }

    /**
     * Ten sandboxed sessions, more than a JPL backend has workers, spin in cleanup handlers (where no signal
     * reaches) under a 1 s limit. Once every call has come back and the sessions are closed, the JVM is idle:
     * no abandoned request goes on burning a core (it did for seconds when only the request's inference
     * backstop, 100 million inferences a second of the limit, bounded such a goal).
     */
    private void noBurnAfterClose() throws Exception {
        String name = "no CPU burnt after ten sessions spinning in cleanup handlers returned and closed";
        ExecutorService pool = Executors.newFixedThreadPool(10);
        List<PrologSession> spinning = new ArrayList<>();
        try {
            List<Future<GoalResult>> results = new ArrayList<>();
            for (int i = 0; i < 10; i++) {
                PrologSession s = backend.open(SessionOptions.builder().sandboxed(true).build());
                spinning.add(s);
                results.add(pool.submit(() -> s.goal("setup_call_cleanup(true, true, (repeat, fail))")
                        .timeLimit(Duration.ofSeconds(1)).run()));
            }
            for (Future<GoalResult> f : results) {
                GoalResult r = f.get();
                check(name, r.outcome() != Outcome.SUCCESS, "a spinning cleanup handler gave " + describe(r));
            }
            spinning.forEach(PrologSession::close);
            long cpu0 = processCpuNanos();
            long wall0 = System.nanoTime();
            sleepMillis(1_500);
            double cpu = (processCpuNanos() - cpu0) / 1e9;
            double wall = (System.nanoTime() - wall0) / 1e9;
            System.out.printf("CPU after the spinning sessions closed: %.2f s in %.2f s%n", cpu, wall);
            check(name, cpu < 0.5, String.format("the JVM burnt %.2f s of CPU in an idle window of %.2f s", cpu, wall));
            pass(name);
        } catch (RuntimeException e) {
            fail(name, e.toString());
        } finally {
            spinning.forEach(PrologSession::close);
            pool.shutdownNow();
        }
    }

    private static long processCpuNanos() {
        return ProcessHandle.current().info().totalCpuDuration().orElseThrow().toNanos();
    }

    /**
     * Nine sessions, each with a cursor and a thread that spin in cleanup handlers past what a close waits
     * for, close at once. Every close comes back, and once the spinning is over eight goals run at the
     * same time: no close kept an engine (or a child) for itself.
     */
    private void stubbornCloses() throws InterruptedException {
        String name = "nine sessions closed at once while their cursors and threads ignore the stop";
        ExecutorService pool = Executors.newFixedThreadPool(9);
        try {
            List<PrologSession> stubborn = new ArrayList<>();
            for (int i = 0; i < 9; i++) {
                PrologSession s = backend.open(SessionOptions.builder().allowThreads(true).build());
                stubborn.add(s);
                s.consult(SPIN);
                GoalResult r = s.goal("thread_create(setup_call_cleanup(true, true, spin(3)), _, [])").run();
                check(name, r.outcome() == Outcome.SUCCESS, "thread_create gave " + describe(r));
                int found = s.query("setup_call_cleanup(true, member(X, [1, 2]), spin(1.5))").next(1).size();
                check(name, found == 1, "the cursor found " + found + " answers");
            }
            List<Future<?>> closes = new ArrayList<>();
            long start = System.nanoTime();
            for (PrologSession s : stubborn) {
                closes.add(pool.submit(s::close));
            }
            for (Future<?> f : closes) {
                f.get(ROOMY.toMillis(), TimeUnit.MILLISECONDS);
            }
            System.out.println("nine stubborn sessions closed in " + (System.nanoTime() - start) / 1_000_000 + " ms");
            sleepMillis(4_000); // the spinning ends
            List<PrologSession> eight = new ArrayList<>();
            for (int i = 0; i < 8; i++) {
                eight.add(backend.open());
            }
            List<Future<GoalResult>> sleeps = new ArrayList<>();
            long t0 = System.nanoTime();
            for (PrologSession s : eight) {
                sleeps.add(pool.submit(() -> s.goal("sleep(1)").run()));
            }
            for (Future<GoalResult> f : sleeps) {
                GoalResult r = f.get(ROOMY.toMillis(), TimeUnit.MILLISECONDS);
                check(name, r.outcome() == Outcome.SUCCESS, "sleep(1) gave " + describe(r));
            }
            long ms = (System.nanoTime() - t0) / 1_000_000;
            eight.forEach(PrologSession::close);
            check(name, ms < 1_900, "eight sleep(1) goals took " + ms + " ms: not all at once");
            pass(name);
        } catch (RuntimeException | ExecutionException | TimeoutException e) {
            fail(name, e.toString());
        } finally {
            pool.shutdownNow();
        }
    }

    /** What a session changes of anything global is refused or stays its own. */
    private void globalState() {
        List<String[]> goals = List.of(
                new String[]{"unknown set to fail", "set_prolog_flag(unknown, fail)"},
                new String[]{"occurs_check built at run time", "G =.. [set_prolog_flag, occurs_check, error], call(G)"},
                new String[]{"prefer_rationals", "set_prolog_flag(prefer_rationals, true)"},
                new String[]{"character_escapes", "set_prolog_flag(character_escapes, false)"},
                new String[]{"double_quotes", "set_prolog_flag(double_quotes, codes)"},
                new String[]{"a global variable", "nb_setval(attack_key, 1), b_setval(attack_key, 2)"},
                new String[]{"flag/3", "flag(attack_key, _, 5)"},
                new String[]{"the recorded database", "recorda(attack_key, x)"},
                new String[]{"an operator", "op(700, xfx, ===>)"},
                new String[]{"a predicate", "assertz(attacker_mark)"});
        for (String[] g : goals) {
            goalVariant(g[0], false, "", g[1], anything());
            goalVariant(g[0] + " in a directive", false, "", "true", anything(), ":- " + g[1] + ".\n");
        }
        // A session's own globals survive from one call to the next.
        String name = "a session keeps its own global variable, flag and records";
        try (PrologSession s = backend.open()) {
            s.consult(":- nb_setval(counter, 7).\n:- flag(hits, _, 3).\n:- recordz(notes, hello).\n");
            GoalResult r = s.goal("nb_getval(counter, C), flag(hits, H, H), recorded(notes, N)").run();
            check(name, r.outcome() == Outcome.SUCCESS && r.answers().size() == 1
                    && r.answers().get(0).get("C").equals(Term.integer(7))
                    && r.answers().get(0).get("H").equals(Term.integer(3))
                    && r.answers().get(0).get("N").equals(Term.atom("hello")), describe(r));
            pass(name);
        } catch (RuntimeException e) {
            fail(name, e.toString());
        }
    }

    /**
     * Replies never cost a session (issue 36): an error whose culprit is a 9 MB string is that error, cut
     * to a bounded size; an answer larger than a reply may be (16 MiB) is {@code reply_too_large} (output is
     * the same check; ProcessRepliesConformanceTest shows it with a small maxReplyBytes: capturing 16 MiB of
     * output takes longer than a test should).
     * Either way the Prolog serving the session never stops, and the facts it asserted are still there.
     */
    private void replies() {
        String nineMb = "numlist(1, 20, Ns), foldl([_, A, B]>>string_concat(A, A, B), Ns, \"aaaaaaaaa\", S)";
        for (boolean sandboxed : new boolean[]{false, true}) {
            String tag = sandboxed ? " (sandboxed)" : "";
            SessionOptions big = SessionOptions.builder().sandboxed(sandboxed).maxAtomChars(64 << 20)
                    .maxOutputChars(32 << 20).build();
            keptVariant("error culprit of 9 MB" + tag, big, nineMb + ", throw(error(type_error(integer, S), _))",
                    kind("type_error").and(r -> r.error().get().prologTerm().orElse("").length() < 20_000
                            && r.error().get().message().length() < 20_000));
            keptVariant("answer of 18 MB" + tag, big, nineMb + ", string_concat(S, S, Big)", kind("reply_too_large"));
            keptVariant("a 9 MB answer still comes back" + tag, big, nineMb + ", string_length(S, L)",
                    r -> r.outcome() == Outcome.SUCCESS && r.answers().get(0).get("L").equals(Term.integer(9 << 20)));
            String name = "a directive's error culprit of 9 MB" + tag;
            try (PrologSession sibling = sibling(); PrologSession s = backend.open(big)) {
                s.consult(OWN_PROGRAM);
                ConsultResult c = s.consult(":- " + nineMb + ", throw(error(type_error(integer, S), _)).\n");
                check(name, c.messages().stream().anyMatch(d -> d.kind().equals("type_error"))
                        && c.messages().stream().allMatch(d -> d.message().length() < 20_000),
                        "diagnostics of " + c.messages().stream().mapToInt(d -> d.message().length()).sum()
                                + " characters, kinds " + c.messages().stream().map(d -> d.kind()).toList());
                answersOwnProgram(name, s);
                check(name, s.crashCount() == 0, "the Prolog serving the session stopped");
                siblingUntouched(name, sibling);
                pass(name);
            } catch (RuntimeException e) {
                fail(name, e.toString());
            }
        }
    }

    /** A goal variant after which the session still holds a fact it asserted: its Prolog never stopped. */
    private void keptVariant(String name, SessionOptions options, String goal, Predicate<GoalResult> expect) {
        try (PrologSession sibling = sibling(); PrologSession s = backend.open(options)) {
            s.consult(OWN_PROGRAM + ":- dynamic kept/1.\n");
            check(name, s.goal("assertz(kept(1))").run().outcome() == Outcome.SUCCESS, "assertz failed");
            GoalResult r = s.goal(goal).timeLimit(limit).run();
            check(name, expect.test(r), "unexpected result " + describe(r));
            GoalResult kept = s.goal("kept(X)").run();
            check(name, kept.outcome() == Outcome.SUCCESS && s.crashCount() == 0,
                    "the asserted fact is gone (" + describe(kept) + ", " + s.crashCount() + " crashes)");
            answersOwnProgram(name, s);
            siblingUntouched(name, sibling);
            pass(name);
        } catch (RuntimeException e) {
            fail(name, e.toString());
        }
    }

    /** Clause space, atoms and stacks are bounded per session; memory comes back on close. */
    private void memory() {
        SessionOptions small = SessionOptions.builder().clauseSpaceBytes(16L << 20).build();
        goalVariant("an assert loop hits the clause-space budget", false, "",
                "forall(between(1, inf, I), assertz(f(I, \"some text in each clause\")))",
                kind("resource_error"), "", small);
        goalVariant("a huge atom from codes", false, "",
                "format(codes(L), '~*c', [2000000, 0'a]), atom_codes(_, L)", kind("resource_error"));
        goalVariant("a huge atom from format/3", false, "",
                "format(atom(_), '~*c', [3000000, 0'a])", kind("resource_error"));
        goalVariant("a huge atom by doubling", false, "",
                "A0 = a, foldl([_, A, B]>>atom_concat(A, A, B), [1,2,3,4,5,6,7,8,9,10,11,12,13,14,15,16,17,18,19,20,21,22],"
                        + " A0, _)", kind("resource_error"));
        goalVariant("a huge atom from with_output_to/2", false, "",
                "with_output_to(atom(_), format('~*c', [2000000, 0'a]))", kind("resource_error"));
        SessionOptions tinyStack = SessionOptions.builder().stackLimitBytes(16L << 20).build();
        consultVariant("a consult runs under the session's own stack limit", false,
                ":- numlist(1, 5000000, L), msort(L, _).\n", "Stack limit (16.0Mb) exceeded", tinyStack);
        answersSurviveCollection();
        long before = rssKb();
        for (int i = 0; i < 3; i++) {
            try (PrologSession s = backend.open()) {
                s.goal("forall(between(1, 300000, I), assertz(f(I, \"some text in each clause\")))").run();
            }
        }
        long after = rssKb();
        String name = "memory comes back on close";
        System.out.println("rss before " + before + " kB, after three sessions of 300,000 clauses " + after + " kB");
        if (after - before < 200_000) {
            pass(name);
        } else {
            fail(name, "resident memory grew by " + (after - before) + " kB");
        }
    }

    /**
     * Atoms by the million, or atoms of 512 K characters by the thousand, held by a findall/3 bag: the
     * atom table and the bag live on the process's heap, outside the stacks and the clause space. A
     * swipl child under its address-space limit died of it ("Could not allocate memory"); it must be
     * a resource error (the harness's memory bound, harness_limits.pl), the session keeping its
     * state and its process (no crash, nothing restored from a journal), and the sibling answering.
     */
    private void atomFlood() {
        String big = "numlist(1, 19, Ns), foldl([_, A, B]>>atom_concat(A, A, B), Ns, x, Big), ";
        for (boolean sandboxed : new boolean[]{true, false}) {
            String tag = sandboxed ? " (sandboxed)" : " (careless)";
            floodVariant("atoms of 512 K characters in a findall/3 bag" + tag, sandboxed,
                    big + "findall(A, (between(1, inf, N), atom_concat(Big, N, A)), _)", kind("resource_error"));
            String flood = "findall(A, (between(1, inf, N), atom_concat(Big, N, A)), _)";
            floodVariant("the flood caught and started again" + tag, sandboxed,
                    big + "catch(" + flood + ", _, true), catch(" + flood + ", _, true), " + flood,
                    kind("resource_error"));
        }
        // small atoms come slowly: the stack limit, the memory bound or the time limit ends it, never the process
        floodVariant("millions of small atoms in a findall/3 bag (sandboxed)", true,
                "findall(A, (between(1, inf, N), atom_concat(x, N, A)), _)",
                kind("resource_error").or(r -> r.outcome() == Outcome.TIMEOUT));
    }

    /** {@link #goalVariant} that also asserts the attacked session kept its process and its asserted state. */
    private void floodVariant(String name, boolean sandboxed, String goal, Predicate<GoalResult> expect) {
        SessionOptions opts = SessionOptions.builder().sandboxed(sandboxed).build();
        try (PrologSession sibling = sibling(); PrologSession s = backend.open(opts)) {
            s.consult(OWN_PROGRAM + ":- dynamic kept/1.\n");
            check(name, s.goal("assertz(kept(1))").run().succeeded(), "could not assert before the attack");
            GoalResult r = s.goal(goal).timeLimit(limit).run();
            check(name, expect.test(r), "unexpected result " + describe(r));
            check(name, s.crashCount() == 0, "the session's process crashed " + s.crashCount() + " time(s)");
            GoalResult kept = s.goal("kept(1)").run();
            check(name, kept.outcome() == Outcome.SUCCESS, "the session lost its asserted fact: " + describe(kept));
            answersOwnProgram(name, s);
            siblingUntouched(name, sibling);
            pass(name);
        } catch (RuntimeException e) {
            fail(name, e.toString());
        }
    }

    /**
     * The answers of a search are kept where neither backtracking into it, nor a garbage collection, nor
     * the exception of a time limit takes them back (the harness keeps them in a chain of its own, not in
     * a message queue): 1,000 answers, each found after a collection of the stacks (a minute allowed: a
     * collection takes up to 10 ms on a loaded 2-core machine), come back whole and in
     * order, and so do the 50 found before a time limit struck. Kept wrongly, the answers would be
     * garbage or the process would crash.
     */
    private void answersSurviveCollection() {
        String name = "answers survive garbage collection and a time limit";
        try (PrologSession sibling = sibling(); PrologSession s = backend.open()) {
            s.consult(OWN_PROGRAM);
            GoalResult all = s.goal("between(1, 1000, X), garbage_collect, length(L, 20), maplist(=(X), L)")
                    .maxAnswers(1000).timeLimit(Duration.ofSeconds(60)).run();
            check(name, all.outcome() == Outcome.SUCCESS && all.answers().size() == 1000 && !all.truncated(),
                    "1,000 answers: " + all.outcome() + ", " + all.answers().size() + " answers");
            for (int i = 0; i < 1000; i++) {
                Term x = Term.integer(i + 1);
                check(name, all.answers().get(i).get("X").equals(x)
                                && all.answers().get(i).get("L").equals(Term.list(Collections.nCopies(20, x))),
                        "answer " + (i + 1) + " is " + all.answers().get(i));
            }
            GoalResult cut = s.goal("(between(1, 50, X), garbage_collect ; repeat, garbage_collect, fail)")
                    .maxAnswers(1000).timeLimit(Duration.ofSeconds(3)).run();
            check(name, cut.outcome() == Outcome.TIMEOUT && cut.answers().size() == 50,
                    "before the time limit: " + cut.outcome() + ", " + cut.answers().size() + " answers");
            for (int i = 0; i < 50; i++) {
                check(name, cut.answers().get(i).get("X").equals(Term.integer(i + 1)),
                        "answer " + (i + 1) + " before the time limit is " + cut.answers().get(i));
            }
            answersOwnProgram(name, s);
            siblingUntouched(name, sibling);
            pass(name);
        } catch (RuntimeException e) {
            fail(name, e.toString());
        }
    }

    // ---------------------------------------------------------------- variants

    private void goalVariant(String name, boolean sandboxed, String program, String goal, Predicate<GoalResult> expect) {
        goalVariant(name, sandboxed, program, goal, expect, "", null);
    }

    private void goalVariant(String name, boolean sandboxed, String program, String goal, Predicate<GoalResult> expect,
                             String attackText) {
        goalVariant(name, sandboxed, program, goal, expect, attackText, null);
    }

    private void goalVariant(String name, boolean sandboxed, String program, String goal, Predicate<GoalResult> expect,
                             String attackText, SessionOptions options) {
        goalVariant(name, sandboxed, program, goal, expect, attackText, options, g -> g);
    }

    private void goalVariant(String name, boolean sandboxed, String program, String goal, Predicate<GoalResult> expect,
                             String attackText, SessionOptions options, long maxDepth) {
        goalVariant(name, sandboxed, program, goal, expect, attackText, options, g -> g.maxDepth(maxDepth));
    }

    private void goalVariantWith(String name, boolean sandboxed, String program, String goal,
                                 Predicate<GoalResult> expect, java.util.function.UnaryOperator<GoalRequest> request) {
        goalVariant(name, sandboxed, program, goal, expect, "", null, request);
    }

    private void goalVariant(String name, boolean sandboxed, String program, String goal, Predicate<GoalResult> expect,
                             String attackText, SessionOptions options,
                             java.util.function.UnaryOperator<GoalRequest> request) {
        SessionOptions opts = options != null ? options : SessionOptions.builder().sandboxed(sandboxed).build();
        try (PrologSession sibling = sibling()) {
            PrologSession s = backend.open(opts);
            try {
                s.consult(OWN_PROGRAM + program);
                if (!attackText.isEmpty()) {
                    s.consult(attackText);
                }
                GoalResult r = request.apply(s.goal(goal).timeLimit(limit)).run();
                check(name, expect.test(r), "unexpected result " + describe(r));
                answersOwnProgram(name, s);
                siblingUntouched(name, sibling);
            } finally {
                s.close();
            }
            siblingUntouched(name, sibling);
            pass(name);
        } catch (RuntimeException e) {
            fail(name, e.toString());
        }
    }

    /** A consult whose diagnostics include one of {@code diagnosticKind} (or with it in its message). */
    private void consultVariant(String name, boolean sandboxed, String text, String diagnosticKind) {
        consultVariant(name, sandboxed, text, diagnosticKind, SessionOptions.builder().sandboxed(sandboxed).build());
    }

    private void consultVariant(String name, boolean sandboxed, String text, String diagnosticKind,
                                SessionOptions options) {
        try (PrologSession sibling = sibling()) {
            PrologSession s = backend.open(options);
            try {
                s.consult(OWN_PROGRAM);
                ConsultResult c = s.consult(text);
                check(name, c.messages().stream().anyMatch(d -> d.kind().equals(diagnosticKind)
                                || d.message().contains(diagnosticKind)), "diagnostics " + c.messages());
                answersOwnProgram(name, s);
                siblingUntouched(name, sibling);
            } finally {
                s.close();
            }
            pass(name);
        } catch (RuntimeException e) {
            fail(name, e.toString());
        }
    }

    private void consultVariantAnyDiagnostic(String name, String text) {
        try (PrologSession sibling = sibling()) {
            PrologSession s = backend.open(SessionOptions.builder().consultTimeLimit(LIMIT).build());
            try {
                s.consult(OWN_PROGRAM);
                ConsultResult c = s.consult(text);
                check(name, !c.messages().isEmpty(), "no diagnostic");
                answersOwnProgram(name, s);
                siblingUntouched(name, sibling);
            } finally {
                s.close();
            }
            pass(name);
        } catch (RuntimeException e) {
            fail(name, e.toString());
        }
    }

    private PrologSession sibling() {
        PrologSession sibling = backend.open();
        sibling.consult(SIBLING_PROGRAM);
        return sibling;
    }

    private void answersOwnProgram(String name, PrologSession s) {
        GoalResult r = s.goal("mine(X)").timeLimit(Duration.ofSeconds(20)).run();
        check(name, r.outcome() == Outcome.SUCCESS && r.answers().size() == 2
                && r.answers().get(1).get("X").equals(Term.integer(2)),
                "the attacked session answered mine(X) with " + describe(r));
    }

    private void siblingUntouched(String name, PrologSession sibling) {
        GoalResult r = sibling.goal(SIBLING_UNTOUCHED).run();
        check(name, r.outcome() == Outcome.SUCCESS, "the sibling session saw a change: " + describe(r));
    }

    // ---------------------------------------------------------------- expectations

    private static Predicate<GoalResult> kind(String kind) {
        return r -> r.error().map(PrologError::kind).filter(kind::equals).isPresent();
    }

    private static Predicate<GoalResult> kindIn(String... kinds) {
        Set<String> set = Set.of(kinds);
        return r -> r.error().map(PrologError::kind).filter(set::contains).isPresent();
    }

    private static Predicate<GoalResult> isError() {
        return r -> r.outcome() == Outcome.ERROR;
    }

    private static Predicate<GoalResult> anything() {
        return r -> true;
    }

    private static String describe(GoalResult r) {
        String d = r.outcome() + " " + r.answers() + " " + r.error().map(e -> e.kind() + ": " + e.message()).orElse("");
        return d.length() > 2_000 ? d.substring(0, 2_000) + "... (" + d.length() + " characters)" : d;
    }

    private static final class VariantFailed extends RuntimeException {
        VariantFailed(String message) {
            super(message);
        }
    }

    private static void check(String name, boolean ok, String why) {
        if (!ok) {
            throw new VariantFailed(why);
        }
    }

    private void pass(String name) {
        System.out.println("ok " + name);
        System.out.flush();
    }

    private void fail(String name, String why) {
        failures.add(name);
        System.out.println("FAIL " + name + ": " + why);
        System.out.flush();
    }

    static long rssKb() {
        try {
            for (String line : Files.readAllLines(Path.of("/proc/self/status"))) {
                if (line.startsWith("VmRSS:")) {
                    return Long.parseLong(line.replaceAll("[^0-9]", ""));
                }
            }
        } catch (IOException | NumberFormatException ignored) {
            // reported as 0
        }
        return 0;
    }
}

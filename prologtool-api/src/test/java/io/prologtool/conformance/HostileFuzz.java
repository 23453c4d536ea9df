package io.prologtool.conformance;

import io.prologtool.GoalResult;
import io.prologtool.Outcome;
import io.prologtool.PrologError;
import io.prologtool.SessionOptions;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.Random;
import java.util.Set;
import java.util.function.Function;
import java.util.function.Predicate;
import java.util.regex.Pattern;

/**
 * The generator of the hostile fuzzer (see {@link HostileFuzzMain}): a case is a goal composed from a
 * grammar of built-ins (an operation, wrapped in zero to two nested control constructs or limits) applied
 * to a hostile term shape that the goal itself builds in Prolog (deep, deep with a cyclic part, wide, huge
 * atoms and strings, attributed, lone surrogates, or a text for the readers). Java never holds a huge text:
 * a case's goal and program are a few hundred characters.
 *
 * <p>Every case is a function of {@code (seed, index)} alone, so that a failure printed as
 * {@code seed:index} is reproduced by generating that case again, on any machine. A case's class,
 * {@code backend/mode/operation/shape}, names what it does; {@link #KNOWN_OPEN} lists the classes that are
 * known to fail (with the reason), which the bounded run in the test suite does not generate.
 */
final class HostileFuzz {

    private HostileFuzz() {
    }

    /**
     * Classes known to fail, as globs over {@code backend/mode/operation/shape} ({@code *} matches any
     * text): the bounded run and {@code make fuzz} skip them unless asked to run them
     * ({@code FUZZ_KNOWN=run}). Remove an entry once its class is fixed, so that the fuzzer proves it.
     */
    static final List<KnownOpen> KNOWN_OPEN = List.of();

    /** A class known to fail: the glob that names it and why it is open (an issue, a class of the issue). */
    record KnownOpen(String glob, String reason) {
        boolean matches(String caseClass) {
            return globPattern(glob).matcher(caseClass).matches();
        }
    }

    static Pattern globPattern(String glob) {
        StringBuilder re = new StringBuilder();
        String[] parts = glob.split("\\*", -1);
        for (int i = 0; i < parts.length; i++) {
            if (i > 0) {
                re.append(".*");
            }
            re.append(Pattern.quote(parts[i]));
        }
        return Pattern.compile(re.toString());
    }

    /** The known-open entry that covers a case class, if any. */
    static Optional<KnownOpen> knownOpen(String caseClass) {
        return KNOWN_OPEN.stream().filter(k -> k.matches(caseClass)).findFirst();
    }

    // ---------------------------------------------------------------- the case

    /** What the attacked session holds before the attack: it must answer with it afterwards. */
    static final String OWN_PROGRAM = HostileCode.OWN_PROGRAM;

    /** The shape builders, consulted with every case (deep chains by tail recursion, a DAG, a recursion). */
    static final String HELPERS = """
            fz_call(G) :- call(G).
            fz_deep(0, z) :- !.
            fz_deep(N, f(T)) :- N1 is N - 1, fz_deep(N1, T).
            fz_left(N, T) :- fz_left(N, a, T).
            fz_left(0, T, T) :- !.
            fz_left(N, A, T) :- N1 is N - 1, fz_left(N1, A+b, T).
            fz_nest(N, T) :- fz_nest(N, [], T).
            fz_nest(0, T, T) :- !.
            fz_nest(N, A, T) :- N1 is N - 1, fz_nest(N1, [A], T).
            fz_dag(0, z) :- !.
            fz_dag(K, f(T, T)) :- K1 is K - 1, fz_dag(K1, T).
            fz_double(0, A, A) :- !.
            fz_double(K, A, B) :- K1 is K - 1, atom_concat(A, A, A1), fz_double(K1, A1, B).
            fz_rec(0) :- !.
            fz_rec(N) :- N1 is N - 1, fz_rec(N1), true.
            """;
    /** Consulted before the helpers when an operation uses tabling. */
    static final String TABLES = """
            :- table fz_tab/2.
            fz_tab(X, X).
            :- table fz_count/2.
            fz_count(N, X) :- between(1, N, X).
            """;
    /** Consulted before the helpers when an operation uses library(clpfd). */
    static final String CLPFD = ":- use_module(library(clpfd)).\n";

    /** What the sibling must still see and not see after every case (beside HostileCode's checks). */
    static final String SIBLING_UNTOUCHED = String.join(", ", HostileCode.SIBLING_UNTOUCHED,
            "\\+ current_predicate(fz_fact/_)", "\\+ current_predicate(fz_rule/_)",
            "\\+ current_predicate(fz_tab/_)", "\\+ current_predicate(fz_deep/_)",
            "catch(nb_getval(fz_key, _), error(existence_error(_, _), _), true)", "\\+ recorded(fz, _)");

    /**
     * The line that the fuzzer's JVM finds on its standard input; session code must never read it (it reads
     * an empty standard input of its own).
     */
    static final String STDIN_SENTINEL = "fz_stdin_leak";

    /** The session's atom-length bound used by cases that test it cheaply (the default is 1 Mi). */
    static final int SMALL_ATOM_BOUND = 1 << 16;

    /**
     * One case: everything needed to run it again (the backend is the batch's).
     *
     * @param seed          the run's seed
     * @param index         the case's index in the run
     * @param sandboxed     sandboxed (untrusted code) or careless (unsandboxed, trusted but careless)
     * @param program       the text consulted into the attacked session before the goal
     * @param goal          the goal text
     * @param timeLimit     the goal's time limit
     * @param maxDepth      the goal's depth limit
     * @param maxInferences the goal's inference limit, 0 for none
     * @param maxAtomChars  the session's atom-length bound
     * @param stackLimitBytes the session's stack limit, 0 for the default
     * @param op            the operation's name
     * @param shape         the shape's name
     * @param oracle        what the result itself must satisfy (beyond the invariants every case checks)
     */
    record Case(long seed, int index, boolean sandboxed, String program, String goal, Duration timeLimit,
                long maxDepth, long maxInferences, int maxAtomChars, long stackLimitBytes, String op, String shape,
                Oracle oracle) {

        String mode() {
            return sandboxed ? "sandboxed" : "careless";
        }

        /**
         * {@code backend/mode/operation/shape}; the operation part names its wrappers first, innermost first
         * ({@code catch>engine>write}: write/1 in an engine, in catch/3). A round's resource check is the
         * class {@code backend/round/invariant}.
         */
        String caseClass(String backend) {
            return backend + "/" + mode() + "/" + op + "/" + shape;
        }

        SessionOptions options() {
            SessionOptions.Builder b = SessionOptions.builder().sandboxed(sandboxed).maxAtomChars(maxAtomChars);
            if (stackLimitBytes > 0) {
                b.stackLimitBytes(stackLimitBytes);
            }
            return b.build();
        }

        /** A self-contained reproduction: backend, mode, options, limits, the program and the goal. */
        String reproduction(String backend) {
            StringBuilder b = new StringBuilder();
            b.append("  case ").append(seed).append(':').append(index).append("  class ").append(caseClass(backend))
                    .append('\n');
            b.append("  backend ").append(backend).append(", ").append(mode())
                    .append(", SessionOptions.builder().sandboxed(").append(sandboxed).append(").maxAtomChars(")
                    .append(maxAtomChars).append(")")
                    .append(stackLimitBytes > 0 ? ".stackLimitBytes(" + stackLimitBytes + ")" : "").append("\n");
            b.append("  goal limits: timeLimit(").append(timeLimit.toMillis()).append(" ms), maxDepth(").append(maxDepth)
                    .append(")").append(maxInferences > 0 ? ", maxInferences(" + maxInferences + ")" : "")
                    .append(oracle.name().isEmpty() ? "" : "; expected: " + oracle.name()).append('\n');
            b.append("  program:\n");
            for (String line : program.split("\n")) {
                b.append("    | ").append(line).append('\n');
            }
            b.append("  goal: ").append(goal).append('\n');
            b.append("  again: make fuzz FUZZ_BACKEND=").append(backend).append(" FUZZ_SEED=").append(seed)
                    .append(" FUZZ_FROM=").append(index).append(" FUZZ_COUNT=1 FUZZ_KNOWN=run\n");
            return b.toString();
        }
    }

    /** What a result must satisfy; {@link #ANY} for nothing beyond the common invariants. */
    record Oracle(String name, Predicate<GoalResult> test) {
        static final Oracle ANY = new Oracle("", r -> true);
    }

    // ---------------------------------------------------------------- the grammar

    private enum Input { TERM, TEXT, NONE }

    /** An operation: a goal template over {@code @T} (a term), {@code @S} (a text) or neither. */
    private record Op(String name, Input input, String template, Set<String> needs, Oracle oracle,
                      Function<Random, Long> k) {
    }

    /** A shape: a goal that binds {@code _T} (a term) or {@code _S} (a text, a string). */
    private record Shape(String name, Input binds, Function<Random, String[]> build) {
    }

    private static final long[] DEEP = {1_000, 10_000, 100_000, 1_000_000, 3_000_000};
    private static final long[] WIDE = {1_000, 10_000, 100_000, 1_000_000};
    private static final long[] ARITY = {10, 1_000, 10_000};
    private static final long[] ATTRIBUTED = {10, 1_000, 10_000, 100_000};

    /** The small stack limits a fifth of the cases run under (the default is 256 MiB). */
    private static final long[] STACK_LIMITS = {32L << 20, 64L << 20, 100L << 20, 160L << 20};

    /** The depth limit of a case whose shape is built by a recursion deeper than the default limit. */
    static final long DEEP_BUILD_DEPTH = 100_000_000;

    private static long pick(Random r, long[] sizes) {
        return sizes[r.nextInt(sizes.length)];
    }

    private static final List<String> OK_OR_RESOURCE = List.of("resource_error", "reply_too_large");

    /** The answer comes back, or a typed error that says it is too large. */
    private static final Oracle ANSWERED = new Oracle("success, or resource_error/reply_too_large", r ->
            r.outcome() != Outcome.ERROR || r.error().map(PrologError::kind).filter(OK_OR_RESOURCE::contains).isPresent());
    /** A memory sink past its bound: a resource error, never another kind (or it fits and succeeds). */
    private static final Oracle BOUNDED = new Oracle("success, timeout or resource_error", r ->
            r.outcome() != Outcome.ERROR || r.error().map(PrologError::kind).filter("resource_error"::equals).isPresent());
    private static final Oracle NOT_SUCCESS = new Oracle("no success (the session's depth limit holds)",
            r -> r.outcome() != Outcome.SUCCESS);
    private static final Oracle INFERENCES_HOLD = new Oracle(
            "inference_limit or an error (the session's inference bound holds inside)",
            r -> r.outcome() == Outcome.INFERENCE_LIMIT || r.outcome() == Outcome.ERROR);

    private static Op op(String name, Input input, String template) {
        return new Op(name, input, template, Set.of(), Oracle.ANY, null);
    }

    private static Op op(String name, Input input, String template, Set<String> needs) {
        return new Op(name, input, template, needs, Oracle.ANY, null);
    }

    private static Op opK(String name, Input input, String template, long... ks) {
        return new Op(name, input, template, Set.of(), Oracle.ANY, r -> pick(r, ks));
    }

    static final List<Op> OPS = List.of(
            // writers and printers
            op("write", Input.TERM, "write(@T)"),
            op("print", Input.TERM, "print(@T)"),
            op("writeq", Input.TERM, "writeq(@T)"),
            op("write_canonical", Input.TERM, "write_canonical(@T)"),
            op("write_term", Input.TERM, "write_term(@T, [quoted(true), portray(true), max_depth(0)])"),
            op("write_term_cycles", Input.TERM, "write_term(@T, [cycles(true), quoted(true)])"),
            op("format_w", Input.TERM, "format(\"~w\", [@T])"),
            op("format_q", Input.TERM, "format(\"~q\", [@T])"),
            op("format_p", Input.TERM, "format(\"~p\", [@T])"),
            op("format_a", Input.TERM, "format(\"~a\", [@T])"),
            op("format_s", Input.TERM, "format(\"~s\", [@T])"),
            op("format_e", Input.TERM, "format(\"~e\", [@T])"),
            op("format_i", Input.TERM, "format(\"~i~w\", [@T, @T])"),
            op("format_r", Input.TERM, "format(\"~8r\", [@T])"),
            op("format_column", Input.TERM, "format(\"~t~w~30|\", [@T])"),
            op("format_1", Input.TERM, "format(@T)"),
            op("format_atom", Input.TERM, "format(atom(_A), \"~w\", [@T])"),
            op("format_string", Input.TERM, "format(string(_A), \"~q\", [@T])"),
            op("format_codes", Input.TERM, "format(codes(_A), \"~p\", [@T])"),
            new Op("format_repeat_c", Input.NONE, "format(string(_A), \"~*c\", [@K, 0'x])", Set.of(), BOUNDED,
                    r -> pick(r, new long[]{1_000_000, 10_000_000, 100_000_000})),
            new Op("format_repeat_c_out", Input.NONE, "format(\"~*c\", [@K, 0'x])", Set.of(), BOUNDED,
                    r -> pick(r, new long[]{1_000_000, 100_000_000})),
            op("print_message_format", Input.TERM, "print_message(error, format(\"~w\", [@T]))"),
            op("print_message_unknown", Input.TERM, "print_message(informational, fz(@T))"),
            op("message_to_string", Input.TERM, "message_to_string(error(type_error(integer, @T), _), _Msg)"),
            op("portray_clause", Input.TERM, "portray_clause(fz(@T))"),
            op("with_output_to", Input.TERM, "with_output_to(string(_O), print(@T))"),
            op("with_output_to_codes", Input.TERM, "with_output_to(codes(_O), writeq(@T))"),
            op("term_to_atom", Input.TERM, "term_to_atom(@T, _A)"),
            op("term_string", Input.TERM, "term_string(@T, _Str)"),
            op("sformat", Input.TERM, "sformat(_Str, \"~w\", [@T])"),
            op("format_to_chars", Input.TERM, "format_to_chars(\"~q\", [@T], _Cs)"),
            op("with_output_to_chars", Input.TERM, "with_output_to_chars(print(@T), _Cs)"),
            new Op("format_to_chars_repeat_c", Input.NONE, "format_to_chars(\"~*c\", [@K, 0'x], _Cs)", Set.of(),
                    BOUNDED, r -> pick(r, new long[]{1_000_000, 100_000_000})),
            new Op("answer", Input.TERM, "T = @T", Set.of(), ANSWERED, null),
            // readers
            op("read_term_string", Input.TEXT, "term_string(_X, @S)"),
            op("read_term_to_atom", Input.TEXT, "term_to_atom(_X, @S)"),
            op("read_atom_to_term", Input.TEXT, "atom_to_term(@S, _X, _B)"),
            op("read_term_from_atom", Input.TEXT, "read_term_from_atom(@S, _X, [])"),
            op("read_open_string", Input.TEXT, "open_string(@S, _St), read(_St, _X), close(_St)"),
            op("read_set_input", Input.TEXT, "open_string(@S, _St), set_input(_St), read(_X)"),
            op("read_positions", Input.TEXT, "open_string(@S, _St), read_term(_St, _X, [subterm_positions(_P)])"),
            op("read_string_to_atom", Input.TEXT, "string_to_atom(@S, _A)"),
            op("read_back", Input.TERM, "term_to_atom(@T, _A), term_to_atom(_X, _A)"),
            // atom and string builders
            op("atom_concat", Input.TERM, "atom_concat(@T, @T, _A)"),
            op("atomic_list_concat", Input.TERM, "atomic_list_concat([@T, x, @T], _A)"),
            op("atom_codes", Input.TERM, "atom_codes(@T, _Cs), atom_codes(_A, _Cs)"),
            op("string_concat", Input.TERM, "string_concat(@T, @T, _A)"),
            op("sub_atom", Input.TERM, "sub_atom(@T, _, 3, 0, _Sub)"),
            op("upcase_atom", Input.TERM, "upcase_atom(@T, _A)"),
            op("normalize_space", Input.TERM, "normalize_space(atom(_A), @T)"),
            op("format_atom_twice", Input.TERM, "format(atom(_A), '~w~w', [@T, @T])"),
            op("atom_string", Input.TERM, "atom_string(_A, @T)"),
            op("atom_length", Input.TERM, "atom_length(@T, _Len)"),
            op("split_string", Input.TERM, "split_string(@T, \"x\", \"\", _Parts)"),
            op("atom_number", Input.TERM, "catch(atom_number(@T, _Num), _, true)"),
            // the database
            op("assertz", Input.TERM, "assertz(fz_fact(@T))"),
            op("assert_retract", Input.TERM, "assertz(fz_fact(@T)), retract(fz_fact(_))"),
            op("assert_rule", Input.TERM, "assertz((fz_rule(_X) :- _X = @T))"),
            opK("assert_many", Input.TERM, "forall(between(1, @K, _I), assertz(fz_fact(_I, @T)))", 100, 10_000, 100_000),
            op("recordz", Input.TERM, "recordz(fz, @T)"),
            op("nb_setval", Input.TERM, "nb_setval(fz_key, @T), nb_getval(fz_key, _V)"),
            // all solutions
            op("findall", Input.TERM, "findall(@T, between(1, 3, _), _L)"),
            op("bagof", Input.TERM, "bagof(_X, member(_X, [@T, @T]), _L)"),
            op("setof", Input.TERM, "setof(_X, member(_X, [@T, a]), _L)"),
            op("aggregate_count", Input.TERM, "aggregate_all(count, member(_, [@T]), _C)"),
            op("aggregate_bag", Input.TERM, "aggregate_all(bag(_X), member(_X, [@T, @T]), _B)"),
            op("aggregate_max", Input.TERM, "aggregate_all(max(_X), member(_X, [@T, @T]), _M)"),
            // C routines over terms
            op("copy_term", Input.TERM, "copy_term(@T, _C)"),
            op("compare", Input.TERM, "copy_term(@T, _C), compare(_O, @T, _C)"),
            op("unify", Input.TERM, "copy_term(@T, _C), @T = _C"),
            op("term_hash", Input.TERM, "term_hash(@T, _H)"),
            op("variant", Input.TERM, "copy_term(@T, _C), @T =@= _C"),
            op("msort", Input.TERM, "msort([@T, a, @T], _L)"),
            op("numbervars", Input.TERM, "copy_term(@T, _C), numbervars(_C, 0, _E)"),
            op("term_variables", Input.TERM, "term_variables(@T, _Vs)"),
            op("ground", Input.TERM, "( ground(@T) -> true ; true )"),
            op("subsumes", Input.TERM, "subsumes_term(@T, @T)"),
            op("term_size", Input.TERM, "term_size(@T, _Sz)"),
            op("variant_sha1", Input.TERM, "variant_sha1(@T, _H)"),
            op("term_hash_depth", Input.TERM, "term_hash(@T, 1000, 1000000, _H)"),
            op("trie_insert", Input.TERM, "trie_new(_Tr), trie_insert(_Tr, @T, 1)"),
            // tabling
            op("tabled_variant", Input.TERM, "fz_tab(@T, _X)", Set.of("tables")),
            new Op("tabled_answers", Input.NONE, "aggregate_all(count, fz_count(@K, _), _C)", Set.of("tables"),
                    Oracle.ANY, r -> pick(r, new long[]{1_000, 100_000, 1_000_000})),
            // attributed variables and constraints
            op("dif", Input.TERM, "dif(V, @T)"),
            op("freeze", Input.TERM, "freeze(V, write(@T))"),
            op("when", Input.TERM, "when(ground(V), write(@T))"),
            op("clpfd", Input.TERM, "catch(V #= @T, _, true)", Set.of("clpfd")),
            // exceptions and their messages
            op("throw", Input.TERM, "throw(fz(@T))"),
            op("catch_throw", Input.TERM, "catch(throw(fz(@T)), E, true)"),
            op("catch_print_message", Input.TERM, "catch(throw(fz(@T)), _E, print_message(error, _E))"),
            op("catch_message_to_string", Input.TERM, "catch(atom_length(@T, _), _E, message_to_string(_E, _Msg))"),
            op("type_error_culprit", Input.TERM, "atom_length(@T, _)"),
            op("print_message_error", Input.TERM, "print_message(error, error(type_error(integer, @T), _))"),
            op("assertion", Input.TERM, "assertion(@T == no)"),
            // streams and standard input
            opK("string_streams_left_open", Input.NONE, "forall(between(1, @K, _), open_string(\"x\", _))", 10, 10_000),
            opK("null_streams_left_open", Input.NONE, "forall(between(1, @K, _), open_null_stream(_))", 10, 10_000),
            opK("file_streams_left_open", Input.NONE, "forall(between(1, @K, _), open('/dev/null', read, _))", 10, 3_000),
            opK("files_told_left_open", Input.NONE, "forall(between(1, @K, _), (tmp_file(fz, _F), tell(_F)))", 10, 100),
            opK("files_seen_left_open", Input.NONE,
                    "forall(between(1, @K, _), (tmp_file_stream(text, _F, _S), close(_S), see(_F)))", 10, 100),
            op("read_stdin", Input.NONE, "read(X)"),
            op("read_after_seen", Input.NONE, "seen, read(X)"),
            op("read_user_input", Input.NONE, "read(user_input, X)"),
            op("see_user_input", Input.NONE, "see(user_input), read(X), seen"),
            op("set_input_user_input", Input.NONE, "set_input(user_input), read_term(X, [])"),
            // engines
            op("engine_next", Input.TERM, "engine_create(_X, member(_X, [@T]), _E), engine_next(_E, _Y)"),
            op("engine_loop", Input.NONE, "engine_create(_, (repeat, fail), _E), engine_next(_E, _)"),
            opK("engines_left", Input.NONE, "forall(between(1, @K, _), engine_create(_, true, _))", 10, 1_000),
            op("engine_answer", Input.TERM, "engine_create(_X, _X = @T, _E), engine_next(_E, Y)"),
            // nested limits
            new Op("nested_depth_limit", Input.NONE, "call_with_depth_limit(fz_rec(@K), 1000000000, R), integer(R)",
                    Set.of("depth1000"), NOT_SUCCESS, r -> pick(r, new long[]{10_000, 100_000})),
            new Op("nested_inference_limit", Input.NONE,
                    "call_with_inference_limit((between(1, inf, _), fail), 1000000000000, _R)",
                    Set.of("inferences"), INFERENCES_HOLD, null),
            op("nested_time_limit", Input.NONE, "call_with_time_limit(1000, (repeat, fail))"));

    /** Control constructs and limits wrapped around an operation, zero to two deep. */
    static final List<String[]> WRAPPERS = List.of(
            new String[]{"catch", "catch((@G), _, true)"},
            new String[]{"findall", "findall(x, (@G), _)"},
            new String[]{"double_negation", "\\+ \\+ (@G)"},
            new String[]{"depth_limit", "call_with_depth_limit((@G), 1000000000, _)"},
            new String[]{"inference_limit", "call_with_inference_limit((@G), 100000000000, _)"},
            new String[]{"time_limit", "call_with_time_limit(100, (@G))"},
            new String[]{"with_output_to", "with_output_to(string(_), (@G))"},
            new String[]{"snapshot", "snapshot((@G))"},
            new String[]{"forall", "forall(between(1, 2, _), (@G))"},
            new String[]{"cleanup", "setup_call_cleanup(true, (@G), true)"},
            new String[]{"engine", "engine_create(x, (@G), _E@I), engine_next(_E@I, _)"},
            // A conjunction compiled at run time, built by the goal and by a predicate of the session's own.
            new String[]{"call_conjunction", "_C@I = (true, (@G)), call(_C@I)"},
            new String[]{"own_call", "fz_call((true, (@G)))"});

    static final List<Shape> SHAPES = List.of(
            new Shape("deep", Input.TERM, r -> deep(r, "fz_deep(@N, _T)")),
            new Shape("deep_operators", Input.TERM, r -> deep(r, "fz_left(@N, _T)")),
            new Shape("deep_lists", Input.TERM, r -> deep(r, "fz_nest(@N, _T)")),
            new Shape("deep_cyclic_sibling", Input.TERM, r -> deep(r, "fz_deep(@N, _D), _X = f(_X), _T = g(_D, _X)")),
            new Shape("deep_in_cycle", Input.TERM, r -> deep(r, "fz_deep(@N, _D), _T = h(_D, _T)")),
            new Shape("deep_list_cyclic", Input.TERM, r -> deep(r, "fz_nest(@N, _D), _T = [_D|_T]")),
            new Shape("dag", Input.TERM, r -> new String[]{"fz_dag(" + pick(r, new long[]{20, 40, 64}) + ", _T)"}),
            new Shape("wide_list", Input.TERM, r -> new String[]{"numlist(1, " + pick(r, WIDE) + ", _T)"}),
            new Shape("wide_vars", Input.TERM, r -> new String[]{"length(_T, " + pick(r, WIDE) + ")"}),
            new Shape("wide_functor", Input.TERM, r -> new String[]{r.nextBoolean()
                    ? "functor(_T, f, " + pick(r, ARITY) + ")"
                    : "length(_L, " + pick(r, ARITY) + "), maplist(=(x), _L), _T =.. [f|_L]"}),
            new Shape("wide_shared_deep", Input.TERM, r -> new String[]{
                    "fz_deep(1000, _D), length(_T, " + pick(r, new long[]{100, 10_000, 100_000}) + "), maplist(=(_D), _T)"}),
            new Shape("huge_atom", Input.TERM, HostileFuzz::hugeAtom),
            new Shape("huge_string", Input.TERM, HostileFuzz::hugeString),
            new Shape("attributed", Input.TERM, HostileFuzz::attributed),
            new Shape("surrogate", Input.TERM, r -> new String[]{switch (r.nextInt(4)) {
                // char_code/2 refuses a surrogate on 9.0.4; atom_codes/2 and string_codes/2 take it.
                case 0 -> "atom_codes(_C, [0xD800]), atom_concat(a, _C, _T)";
                case 1 -> "atom_codes(_T, [0'a, 0xDC00])";
                case 2 -> "string_codes(_C, [0xDFFF]), string_concat(\"s\", _C, _T)";
                default -> "atom_codes(_C, [0xD800]), _T = f(_C, [_C])";
            }}),
            new Shape("small", Input.TERM, r -> new String[]{"_T = f(x, \"s\", 1.5, [a, B], 'q u')"}),
            new Shape("text_brackets", Input.TEXT, r -> text(r, "format(string(_S), '~*c~*c .', [@N, 0'[, @N, 0']])")),
            new Shape("text_parens", Input.TEXT, r -> text(r, "format(string(_S), '~*c~w~*c .', [@N, 0'(, a, @N, 0')])")),
            new Shape("text_braces", Input.TEXT, r -> text(r, "format(string(_S), '~*c~*c .', [@N, 0'{, @N, 0'}])")),
            new Shape("text_prefix_ops", Input.TEXT, r -> text(r,
                    "with_output_to(string(_S), (forall(between(1, @N, _), write('- ')), write('1 .')))")),
            new Shape("text_calls", Input.TEXT, r -> text(r,
                    "with_output_to(string(_S), (forall(between(1, @N, _), write('f(')), write(a), "
                            + "forall(between(1, @N, _), write(')')), write(' .')))")),
            new Shape("text_right_ops", Input.TEXT, r -> text(r,
                    "with_output_to(string(_S), (forall(between(1, @N, _), write('a^')), write('a .')))")),
            new Shape("text_huge_quoted", Input.TEXT, r -> new String[]{
                    "format(string(_S), '\\'~*c\\' .', [" + quotedLength(r) + ", 0'x])", "small_atom_bound"}));

    private static long quotedLength(Random r) {
        return pick(r, new long[]{1_000, SMALL_ATOM_BOUND + 1, 1 << 20, 4_000_000});
    }

    private static String[] deep(Random r, String template) {
        long n = pick(r, DEEP);
        return new String[]{template.replace("@N", Long.toString(n)), n >= 500_000 ? "deep" : ""};
    }

    private static String[] text(Random r, String template) {
        long n = pick(r, DEEP);
        return new String[]{template.replace("@N", Long.toString(n)), ""};
    }

    /** Atom lengths around the session's bound (the small one or the default), built by one of the builders. */
    private static String[] hugeAtom(Random r) {
        boolean small = r.nextBoolean();
        long bound = small ? SMALL_ATOM_BOUND : SessionOptions.DEFAULT_MAX_ATOM_CHARS;
        long n = switch (r.nextInt(4)) {
            case 0 -> 1_000;
            case 1 -> bound;
            case 2 -> bound + 1;
            default -> 4 * bound;
        };
        String build = switch (r.nextInt(10)) {
            case 0 -> "format(atom(_T), '~*c', [@N, 0'x])";
            case 1 -> "length(_Cs, @N), maplist(=(0'x), _Cs), atom_codes(_T, _Cs)";
            case 2 -> "format(string(_S0), '~*c', [@N, 0'x]), atom_string(_T, _S0)";
            case 3 -> "format(string(_S0), '~*c', [@N, 0'x]), term_to_atom(_S0, _T)";
            case 4 -> "format(string(_S0), '~*c', [@N, 0'x]), term_string(_T, _S0)";
            case 5 -> "format(string(_S0), '~*c', [@N, 0'x]), atom_to_term(_S0, _T, _)";
            case 6 -> "format(string(_S0), '~*c', [@N, 0'x]), normalize_space(atom(_T), _S0)";
            case 7 -> "format(string(_S0), '~*c', [@N, 0'x]), with_output_to(atom(_T), write(_S0))";
            case 8 -> "fz_double(" + (64 - Long.numberOfLeadingZeros(n - 1)) + ", x, _T)";
            default -> "length(_L, @N), maplist(=(x), _L), atomic_list_concat(_L, _T)";
        };
        return new String[]{build.replace("@N", Long.toString(n)), small ? "small_atom_bound" : ""};
    }

    private static String[] hugeString(Random r) {
        long n = pick(r, new long[]{1_000, 1 << 20, 4_000_000});
        String build = switch (r.nextInt(4)) {
            case 0 -> "format(string(_T), '~*c', [@N, 0'y])";
            case 1 -> "length(_Cs, @N), maplist(=(0'y), _Cs), string_codes(_T, _Cs)";
            case 2 -> "with_output_to(string(_T), forall(between(1, @N, _), put_char(y)))";
            default -> "sformat(_T, '~*c', [@N, 0'y])";
        };
        return new String[]{build.replace("@N", Long.toString(n)), ""};
    }

    private static String[] attributed(Random r) {
        long n = pick(r, ATTRIBUTED);
        long d = pick(r, DEEP);
        String build = switch (r.nextInt(7)) {
            case 0 -> "length(_T, @N), maplist([V0]>>freeze(V0, true), _T)";
            case 1 -> "length(_T, @N), maplist([V0]>>dif(V0, a), _T)";
            case 2 -> "fz_deep(@D, _D), dif(_V, _D), _T = g(_V)";
            case 3 -> "fz_deep(@D, _D), freeze(_V, _D = _), _T = g(_V)";
            case 4 -> "fz_deep(@D, _D), when(ground(_V), _D = z), _T = g(_V)";
            case 5 -> "_X = f(_X), fz_deep(@D, _D), dif(_V, g(_X, _D)), _T = g(_V)";
            default -> "length(_T, @N), maplist([V0]>>when(nonvar(V0), true), _T)";
        };
        boolean usesDeep = build.contains("@D");
        return new String[]{build.replace("@N", Long.toString(n)).replace("@D", Long.toString(d)),
                usesDeep && d >= 500_000 ? "deep" : ""};
    }

    // ---------------------------------------------------------------- generation

    /** The case at {@code index} of the run with {@code seed}: the same on every call and every machine. */
    static Case generate(long seed, int index) {
        Random r = new Random(seed * 0x9E3779B97F4A7C15L + index * 0xC2B2AE3D27D4EB4FL + 17);
        boolean sandboxed = r.nextBoolean();
        Op op = OPS.get(r.nextInt(OPS.size()));
        Shape shape;
        if (op.input == Input.NONE) {
            shape = null;
        } else {
            List<Shape> fit = new ArrayList<>();
            for (Shape s : SHAPES) {
                if (s.binds == op.input) {
                    fit.add(s);
                }
            }
            shape = fit.get(r.nextInt(fit.size()));
        }
        String[] built = shape == null ? new String[]{"true", ""} : shape.build.apply(r);
        if (built.length == 1) {
            built = new String[]{built[0], ""};
        }
        String body = op.template.replace("@T", "_T").replace("@S", "_S");
        if (op.k != null) {
            body = body.replace("@K", Long.toString(op.k.apply(r)));
        }
        // Zero to two wrappers (half of the cases have none); an answer operation stays unwrapped.
        int wraps = op.name.equals("answer") || op.oracle != Oracle.ANY ? 0 : Math.max(0, r.nextInt(4) - 1);
        StringBuilder wrapNames = new StringBuilder();
        for (int i = 0; i < wraps; i++) {
            String[] w = WRAPPERS.get(r.nextInt(WRAPPERS.size()));
            body = w[1].replace("@I", Integer.toString(i)).replace("@G", body);
            wrapNames.append(w[0]).append('>');
        }
        String goal = shape == null ? body : built[0] + ", " + body;
        StringBuilder program = new StringBuilder();
        if (op.needs.contains("clpfd")) {
            program.append(CLPFD);
        }
        program.append(OWN_PROGRAM);
        if (op.needs.contains("tables")) {
            program.append(TABLES);
        }
        program.append(HELPERS);
        long maxDepth = built[1].equals("deep") ? DEEP_BUILD_DEPTH : 1_000_000;
        if (op.needs.contains("depth1000")) {
            maxDepth = 1_000;
        }
        long maxInferences = op.needs.contains("inferences") ? 1_000_000 : 0;
        int atomBound = built[1].equals("small_atom_bound") ? SMALL_ATOM_BOUND : SessionOptions.DEFAULT_MAX_ATOM_CHARS;
        Duration limit = Duration.ofMillis(r.nextInt(4) == 0 ? 2_000 : 1_000);
        // A fifth of the cases run under a small stack limit, so that what a shape builds fills the stacks
        // and the harness's own checks run near the limit. Drawn apart from the rest: a seed's other draws
        // stay what they were before this one was added.
        Random stacks = new Random(seed * 0xD6E8FEB86659FD93L + index * 0x94D049BB133111EBL + 23);
        long stackLimit = stacks.nextInt(5) == 0 ? STACK_LIMITS[stacks.nextInt(STACK_LIMITS.length)] : 0;
        String opName = wrapNames + op.name;
        return new Case(seed, index, sandboxed, program.toString(), goal, limit, maxDepth, maxInferences, atomBound,
                stackLimit, opName, shape == null ? "none" : shape.name, op.oracle);
    }
}

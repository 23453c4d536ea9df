:- encoding(utf8).
/*  Part of the prologtool harness (included by harness.pl, module
    prologtool_harness): execute, the stateless run behind
    prolog-reasoner's execute_prolog, and parse, a syntax check that runs
    nothing.

    execute: one request does the whole call. A temporary module is
    opened as a session of its own (so isolation, the halt guard and the
    diagnostics apply), the rule bases and then the code are consulted
    into it as one text (as prolog-reasoner prepends rule bases: a
    predicate may have clauses in a rule base and in the code), the query
    is read as a term (never pasted into source text) and run under the
    bounds, optionally traced, and the module is destroyed, operators and
    flags included: nothing survives the call.

    Request:
      {"op":"execute", "session":Id, "code":Text, "query":Text,
       "rule_bases":[{"name":Name, "text":Text}, ...],  (loaded in order)
       "max_results":Int, "time_limit":Seconds (for the whole call),
       "max_depth":Int (default none: only time and stack bound the
       recursion), "max_output":Chars, "stack_limit":Bytes,
       "trace":Bool, "trace_max_depth":Int, "trace_max_nodes":Int}
    Reply pairs (after ok:true):
      messages      the diagnostics of loading; line is the line in the
                    diagnostic's own text, and rule_base names the rule
                    base it is in (absent: the code)
      outcome       success | failure | timeout | depth_exceeded |
                    inference_limit | error
      phase         where the outcome arose: load (the time ran out while
                    loading), query (reading the query), run
      variables, answers, residuals (one list of texts per answer),
      lines         one toplevel-style line per answer, e.g. "X = a" or
                    "X in 1..3" or "true"
      count, truncated, output, output_truncated
      error         {kind, message, prolog_term, candidates?, category,
                    explanation} when outcome is error
      category, explanation
                    for timeout, depth_exceeded and inference_limit
      traces        with trace: one {outcome, tree, node_count, truncated}
                    per returned answer, in order; [] when the query has
                    no solution; absent when it ended in an error or a
                    bound before any answer
      trace_problem {category: "trace_mechanism_error", message,
                    explanation} when the traced run did not reproduce
                    the untraced one
    Error diagnostics carry category and explanation too (see
    diagnostic_extra/2). Categories come from the error term: see
    error_category/3.

    parse: {"op":"parse", "session":Id, "text":Text} replies
    messages (syntax errors and singletons, with lines) and terms (how
    many terms were read). Only op/3 declarations and the operators of
    already loaded libraries named by use_module/1,2 take effect while
    reading, in a temporary module; no directive runs.
*/

                 /*******************************
                 *            EXECUTE           *
                 *******************************/

request(execute, Req, Pairs) :-
    existing_session(Req, M),
    must_have(code, Req, Code),
    must_have(query, Req, Query),
    must_be(string, Code),
    must_be(string, Query),
    option_value(Req, rule_bases, [], RuleBases),
    option_value(Req, max_results, 100, MaxResults),
    option_value(Req, time_limit, 10, TimeLimit),
    option_value(Req, max_depth, infinite, MaxDepth),
    option_value(Req, max_output, 65536, MaxOut),
    option_value(Req, trace, false, Trace),
    option_value(Req, trace_max_depth, 10, TraceDepth),
    option_value(Req, trace_max_nodes, 200, TraceNodes),
    must_be(list, RuleBases),
    must_be(between(1, 10000), MaxResults),
    (   MaxDepth == infinite
    ->  true
    ;   must_be(positive_integer, MaxDepth)
    ),
    must_be(nonneg, MaxOut),
    must_be(boolean, Trace),
    must_be(positive_integer, TraceDepth),
    must_be(positive_integer, TraceNodes),
    must_be_time_limit(TimeLimit),
    get_time(Start),
    Deadline is Start + TimeLimit,
    exec_module(M, T),
    session(M, Options),
    apply_stack_limit(Req),
    Run = run(Deadline, MaxResults, MaxDepth, MaxOut,
              Trace, TraceDepth, TraceNodes),
    setup_call_cleanup(
        open_exec_module(T, Options),
        execute_in(T, RuleBases, Code, Query, Run, Pairs),
        close_exec_module(T)).

%   The temporary module of a session's executions: one name per session,
%   destroyed after each call.
exec_module(M, T) :-
    atom_concat(M, '_x', T).

open_exec_module(T, Options) :-
    close_exec_module(T),               % a leftover of a call that died
    set_module(T:class(temporary)),     % destroyable, see close_exec_module/1
    open_session(T, _{options: Options}),
    nb_setval('$pt_executing', true).

close_exec_module(T) :-
    nb_setval('$pt_executing', false),
    (   session(T, _)
    ->  catch(close_session(T), _, forget_exec_session(T))
    ;   true
    ),
    retractall(system:'$load_context_module'(_, T, _)),
    (   current_module(T)
    ->  catch('$destroy_module'(T), _, true)
    ;   true
    ).

%   A close that failed half-way: the module is destroyed all the same.
forget_exec_session(T) :-
    retractall(session_message(T, _, _)),
    retractall(session(T, _)).

execute_in(T, RuleBases, Code, Query, Run, Pairs) :-
    Run = run(Deadline, MaxResults, MaxDepth, MaxOut, _, _, _),
    exec_source(RuleBases, Code, Text, Parts),
    load_exec_text(T, Text, Deadline, MaxOut, Diags0, LoadOutput),
    maplist(source_diagnostic(Parts), Diags0, Diags),
    (   remaining(Deadline, Time)
    ->  (   catch(parse_goal(T, Query, Goal, Bindings), E, true)
        ->  true
        ;   E = error(syntax_error(cannot_read), _)
        ),
        (   var(E)
        ->  Phase = run,
            Limits = limits(MaxResults, Time, MaxDepth, infinite, MaxOut),
            nb_setval('$pt_halt_attempted', false),
            solve_goal(T, Goal, Bindings, Limits, true, Solved),
            exec_trace(T, Query, Solved, Run, Parts, TracePairs)
        ;   Phase = query,
            Bindings = [],
            Solved = solved(error, E, [], false, "", false),
            TracePairs = []
        )
    ;   Phase = load,
        Bindings = [],
        Solved = solved(timeout, none, [], false, "", false),
        TracePairs = []
    ),
    Solved = solved(Outcome, Error, Answers, Truncated, GoalOutput, GoalCut),
    string_concat(LoadOutput, GoalOutput, Output0),
    cap_output(Output0, MaxOut, GoalCut, Output, OutputCut),
    pairs_keys(Bindings, Names),
    maplist([answer(J, _, _), J]>>true, Answers, Jsons),
    maplist([answer(_, R, _), R]>>true, Answers, Residuals),
    maplist([answer(_, _, L), L]>>true, Answers, Lines),
    length(Answers, Count),
    outcome_pairs(T, Outcome, Error, Run, OutcomePairs),
    append([ [ messages=Diags, outcome=Outcome, phase=Phase ],
             OutcomePairs,
             [ variables=Names, answers=Jsons, residuals=Residuals,
               lines=Lines, count=Count, truncated= @(Truncated),
               output=Output, output_truncated= @(OutputCut) ],
             TracePairs ],
           Pairs).

%   exec_source(+RuleBases, +Code, -Text, -Parts)
%
%   The rule bases, then the code, as one source text, as prolog-reasoner
%   prepends them: a predicate may have clauses in both. Parts are
%   part(Name, FirstLine) for the rule bases (code for the code), so
%   that each diagnostic's line can be given in its own text.
exec_source(RuleBases, Code, Text, Parts) :-
    exec_parts(RuleBases, 1, Texts, Line, RuleBaseParts),
    append(Texts, [Code], All),
    append(RuleBaseParts, [part(code, Line)], Parts),
    atomics_to_string(All, Text).

exec_parts([], Line, [], Line, []).
exec_parts([RuleBase|RBs], Line0, [T|Ts], Line, [part(Name, Line0)|Ps]) :-
    must_have(name, RuleBase, Name),
    must_have(text, RuleBase, Text),
    must_be(string, Text),
    (   ( Text == "" ; sub_string(Text, _, 1, 0, "\n") )
    ->  T = Text
    ;   string_concat(Text, "\n", T)
    ),
    newlines(T, N),
    Line1 is Line0 + N,
    exec_parts(RBs, Line1, Ts, Line, Ps).

newlines(Text, N) :-
    aggregate_all(count, sub_string(Text, _, 1, _, "\n"), N).

%   A diagnostic's line in its own text, and the rule base it is in.
source_diagnostic(Parts, json(Pairs0), json(Pairs)) :-
    (   selectchk(line=Line0, Pairs0, Rest),
        last_part(Parts, Line0, part(Name, First))
    ->  Line is Line0 - First + 1,
        (   Name == code
        ->  Pairs = [line=Line|Rest]
        ;   Pairs = [rule_base=Name, line=Line|Rest]
        )
    ;   Pairs = Pairs0
    ).

last_part(Parts, Line, Part) :-
    reverse(Parts, Reversed),
    member(Part, Reversed),
    Part = part(_, First),
    First =< Line,
    !.

%   load_exec_text(+Module, +Text, +Deadline, +MaxOut, -Diags, -Output)
%
%   Consult Text into the execution's module within the time that is
%   left; none left is a timeout diagnostic.
load_exec_text(T, Text, Deadline, MaxOut, Diags, Output) :-
    (   remaining(Deadline, Time)
    ->  % a stateless run is not statically checked (issue 17 checks sessions)
        consult_text(T, Text, _{time_limit: Time, max_output: MaxOut, check: false}, LoadPairs),
        memberchk(messages=Diags, LoadPairs),
        memberchk(output=Output, LoadPairs)
    ;   retractall(collected(_)),
        load_exception(time_limit_exceeded),
        findall(D, retract(collected(D)), Diags),
        Output = ""
    ).

remaining(Deadline, Time) :-
    get_time(Now),
    Time is Deadline - Now,
    Time > 0.001.

%   Printed output of the loads and the goal, within the call's cap.
cap_output(Output0, MaxOut, Cut0, Output, Cut) :-
    string_length(Output0, Len),
    (   Len > MaxOut
    ->  sub_string(Output0, 0, MaxOut, _, Output),
        Cut = true
    ;   Output = Output0,
        Cut = Cut0
    ).

outcome_pairs(T, error, Error, _, [error=json(ErrorPairs)]) :-
    !,
    error_json(Error, T, Pairs0),
    error_category(Error, T, Category, Explanation),
    append(Pairs0, [category=Category, explanation=Explanation], ErrorPairs).
outcome_pairs(_, Outcome, _, Run, [category=Category, explanation=Explanation]) :-
    bound_category(Outcome, Run, Category, Explanation),
    !.
outcome_pairs(_, _, _, _, []).

bound_category(timeout, _, timeout, Explanation) :-
    error_category(time_limit_exceeded, user, _, Explanation).
bound_category(depth_exceeded, run(_, _, MaxDepth, _, _, _, _), unknown, Explanation) :-
    format(string(Explanation),
           "The search went deeper than ~D nested calls, which almost always \c
            means infinite recursion: make sure every recursive predicate \c
            reaches a base case and recurses on a smaller argument.",
           [MaxDepth]).
bound_category(inference_limit, _, unknown,
               "The search used up its inference budget: narrow the search \c
                space (constrain before you generate) or allow more inferences.").

%   :- initialization(main, main) means "run main, then halt" in a script.
%   Loaded by execute it would only be registered and never run, a silent
%   empty success: run it after loading as the script would, and let the
%   halt be refused (a permission_error diagnostic), as :- halt. is.
system:term_expansion((:- initialization(Goal, main)),
                      (:- initialization((Goal, halt)))) :-
    nb_current('$pt_executing', true),
    loading_session_source.

                 /*******************************
                 *             TRACE            *
                 *******************************/

%   exec_trace(+Module, +Query, +Solved, +Run, +Parts, -Pairs)
%
%   With trace asked for, the query runs a second time under the
%   meta-interpreter of harness_trace.pl, for as many solutions as the
%   untraced run returned: traces is one proof tree per returned answer,
%   in order ([] when there was none). A run that ended in an error or a
%   bound before any answer has no traces. The traced run must tell the
%   same story as the untraced one; when it does not (a program whose
%   result changes when it runs again, say by assert/retract), the trees
%   cannot be trusted and trace_problem says so.

exec_trace(_, _, _, run(_, _, _, _, false, _, _), _, []) :-
    !.
exec_trace(_, _, solved(Outcome, _, [], _, _, _), _, _, Pairs) :-
    !,
    (   memberchk(Outcome, [success, failure])
    ->  Pairs = [traces=[]]
    ;   Pairs = []                      % an error or a bound before any answer
    ).
exec_trace(T, Query, solved(_, _, Answers, _, _, _), Run, Parts, Pairs) :-
    Run = run(Deadline, _, _, MaxOut, true, MaxDepth, MaxNodes),
    length(Answers, Count),
    (   remaining(Deadline, Time),
        session_catch(parse_goal(T, Query, Goal, Bindings), _, fail)
    ->  nb_setval('$pt_halt_attempted', false),
        catch(trace_solutions(T, Goal, Bindings,
                              limits(MaxDepth, MaxNodes, Time, MaxOut),
                              Count, Trees, Status),
              E, true),
        (   var(E)
        ->  maplist(source_trace(Parts), Trees, SourceTrees),
            Pairs0 = [traces=SourceTrees],
            trace_problem(Status, Count, Problem)
        ;   error_message(E, Msg),
            Pairs0 = [],
            format(string(Problem), "The trace machinery failed: ~w", [Msg])
        )
    ;   Pairs0 = [],
        Problem = "No time was left to trace the query after running it"
    ),
    (   Problem == none
    ->  Pairs = Pairs0
    ;   error_category(trace_mechanism_error(Problem), T, Category, Explanation),
        append(Pairs0, [trace_problem=json([category=Category, message=Problem,
                                           explanation=Explanation])],
               Pairs)
    ).

%   A proof tree's lines in their own texts, as source_diagnostic/3 does
%   for diagnostics: a node whose clause is in a rule base names it.
source_trace(Parts, json(Pairs0), json(Pairs)) :-
    (   selectchk(tree=Tree0, Pairs0, tree=Tree, Pairs),
        Tree0 = json(_)
    ->  source_node(Parts, Tree0, Tree)
    ;   Pairs = Pairs0
    ).

source_node(Parts, json(Pairs0), json(Pairs)) :-
    (   selectchk(children=Children0, Pairs0, children=Children, Pairs1)
    ->  maplist(source_node(Parts), Children0, Children)
    ;   Pairs1 = Pairs0
    ),
    (   selectchk(line=Line0, Pairs1, Rest),
        Line0 > 0,
        last_part(Parts, Line0, part(Name, First))
    ->  Line is Line0 - First + 1,
        (   Name == code
        ->  selectchk(line=_, Pairs1, line=Line, Pairs)
        ;   Rest = [goal=G, rule=R|Rest1]
        ->  Pairs = [goal=G, rule=R, line=Line, rule_base=Name|Rest1]
        ;   Pairs = [line=Line, rule_base=Name|Rest]
        )
    ;   Pairs = Pairs1
    ).

%   trace_problem(+Status, +Count, -Problem)
trace_problem(complete, _, none).
trace_problem(fewer(Got), Count, Problem) :-
    format(string(Problem),
           "The traced run found ~D solutions where the untraced run returned ~D",
           [Got, Count]).
trace_problem(timeout, _,
              "The traced run did not finish in the time that was left after the untraced run").
trace_problem(error(E), _, Problem) :-
    error_message(E, Msg),
    format(string(Problem),
           "The traced run raised an error the untraced run did not: ~w", [Msg]).

                 /*******************************
                 *          CATEGORIES          *
                 *******************************/

%   diagnostic_extra(+MessageTerm, -Pairs)
%
%   While execute loads text, an error's diagnostic carries its category
%   and explanation (see add_diagnostic/6); otherwise nothing is added.
diagnostic_extra(Term, [category=Category, explanation=Explanation]) :-
    nb_current('$pt_executing', true),
    (   nb_current('$pt_loading', M0), M0 \== [] -> M = M0 ; M = none ),
    diagnostic_error(Term, E),
    !,
    error_category(E, M, Category, Explanation).
diagnostic_extra(_, []).

diagnostic_error(Term, _) :-
    var(Term),
    !,
    fail.
diagnostic_error(initialization_error(_, E, _), E) :- !.
diagnostic_error(E, E) :-
    (   E = error(_, _)
    ;   E == time_limit_exceeded
    ),
    !.

%!  error_category(+Error, +Module, -Category, -Explanation) is det.
%
%   The category of an error term (prolog-reasoner's names) and one
%   sentence that says what to do about it. Module is where the error
%   arose (for "did you mean").

error_category(E, M, Category, Explanation) :-
    (   session_catch(category_(E, M, Category0, Explanation0), _, fail)
    ->  Category = Category0,
        Explanation = Explanation0
    ;   Category = unknown,
        format(string(Explanation),
               "Prolog raised ~q, which nothing caught: see the error message for \c
                where, and fix or catch it there.", [E])
    ).

category_(E, _, _, _) :-
    var(E),
    !,
    fail.
category_(error(Formal, _), M, Category, Explanation) :-
    nonvar(Formal),
    !,
    formal_category(Formal, M, Category, Explanation).
category_(time_limit_exceeded, _, timeout,
          "The run did not finish within its time limit: look for infinite \c
           recursion (a missing base case, or a left-recursive rule such as \c
           path(X, Y) :- path(X, Z), edge(Z, Y)) or a search space too large, \c
           and narrow it (constrain before labeling) or allow more time.") :- !.
category_(trace_mechanism_error(_), _, trace_mechanism_error,
          "The proof tree cannot be trusted because the traced run differs \c
           from the untraced one, usually because the program changes its \c
           own state (assert/retract, global variables) or its result \c
           depends on it: run it with trace off, or make it free of side \c
           effects.") :- !.
category_(Ball, _, unknown, Explanation) :-
    format(string(Explanation),
           "The program threw ~q and nothing caught it: catch it with \c
            catch/3 or change the code that throws it.", [Ball]).

formal_category(syntax_error(What), _, syntax_error, Explanation) :-
    !,
    syntax_explanation(What, Explanation).
formal_category(existence_error(procedure, PI), M, undefined_predicate, Explanation) :-
    !,
    (   PI = _:Name/Arity -> true ; PI = Name/Arity ),
    undefined_explanation(M, Name, Arity, Explanation).
formal_category(instantiation_error, _, unbound_variable,
                "A goal needed a value but got an unbound variable (in is/2, an \c
                 arithmetic comparison or a built-in's input): bind it before \c
                 that goal, put the goals that generate values first, or, for \c
                 CLP(FD) variables, call label/1 before using them as \c
                 numbers.") :- !.
formal_category(type_error(evaluable, Culprit), _, type_error, Explanation) :-
    !,
    format(string(Explanation),
           "~q is not an arithmetic function: is/2 and arithmetic comparisons \c
            evaluate only numbers and functions such as +, * or abs, so bind \c
            the variable to a number, or compare terms with = or == instead.",
           [Culprit]).
formal_category(type_error(Type, Culprit), _, type_error, Explanation) :-
    !,
    format(string(Explanation),
           "A ~w was expected where ~q was given: pass a ~w there, and check \c
            the order of the arguments of the call.", [Type, Culprit, Type]).
formal_category(domain_error(Domain, Culprit), _, domain_error, Explanation) :-
    !,
    format(string(Explanation),
           "~q has the right type but lies outside the domain ~q that the \c
            predicate accepts: pass a value within it.", [Culprit, Domain]).
formal_category(evaluation_error(What), _, evaluation_error, Explanation) :-
    !,
    evaluation_explanation(What, Explanation).
formal_category(permission_error(_, halt, _), _, permission_error,
                "halt/0,1 is not permitted here, and not needed: remove the \c
                 :- halt. directive (or initialization(main, main)); the query's \c
                 solutions are collected without it.") :- !.
formal_category(permission_error(_, sandboxed, Culprit), _, permission_error, Explanation) :-
    !,
    sandbox_explanation(Culprit, Explanation).
formal_category(sandbox_violation(Culprit), _, permission_error, Explanation) :-
    !,
    sandbox_explanation(Culprit, Explanation).
formal_category(permission_error(Action, Type, Culprit), _, permission_error, Explanation) :-
    !,
    format(string(Explanation),
           "You may not ~w the ~w ~q: if your predicate clashes with a built-in \c
            or library predicate, rename it; to change a predicate at run time, \c
            declare it with :- dynamic.", [Action, Type, Culprit]).
formal_category(resource_error(Stack), _, unknown,
                "The run used up its stack (the stack limit), so its recursion \c
                 nested too deep or it built too big a term: with no depth limit, \c
                 a recursion that never reaches its base case ends here or at \c
                 the time limit. Make sure every recursive predicate reaches a \c
                 base case; for a long but finite recursion, make it tail \c
                 recursive (an accumulator argument) so it runs in constant \c
                 stack.") :-
    memberchk(Stack, [stack, stack_overflow, global_stack, local_stack, trail_stack]),
    !.
formal_category(resource_error(Resource), _, unknown, Explanation) :-
    !,
    format(string(Explanation),
           "The run ran out of ~w, which usually means infinite recursion: make \c
            sure every recursive predicate reaches a base case and recurses on \c
            a smaller argument.", [Resource]).
formal_category(existence_error(Type, Culprit), _, unknown, Explanation) :-
    !,
    format(string(Explanation),
           "The ~w ~q does not exist: check its name, or create it before it \c
            is used.", [Type, Culprit]).
formal_category(representation_error(What), _, unknown, Explanation) :-
    !,
    format(string(Explanation),
           "A value cannot be represented (~w): keep numbers, character codes \c
            and arities within their ranges.", [What]).
formal_category(uninstantiation_error(Culprit), _, unknown, Explanation) :-
    !,
    format(string(Explanation),
           "An argument must be an unbound variable but was ~q: pass a fresh \c
            variable there.", [Culprit]).
formal_category(prologtool_exception(Ball), M, Category, Explanation) :-
    !,
    category_(Ball, M, Category, Explanation).
formal_category(Formal, _, unknown, Explanation) :-
    format(string(Explanation),
           "Prolog raised the error ~q: see the error message for where, and \c
            fix the call that raises it.", [Formal]).

syntax_explanation(goal_must_be_one_term,
                   "The query holds more than one term: join its goals with ',' \c
                    (a '.' ends the query).") :- !.
syntax_explanation(empty_goal,
                   "The query is empty: give a goal such as mortal(X).") :- !.
syntax_explanation(What, Explanation) :-
    format(string(Explanation),
           "The text is not valid Prolog (~w): look at the line given for a \c
            missing full stop at the end of the previous clause, unbalanced \c
            brackets or quotes, or an operator without its operands.", [What]).

undefined_explanation(M, Name, Arity, Explanation) :-
    (   atom(M), session(M, _),
        similar_predicates(M, Name, Arity, [Best|_])
    ->  format(string(Explanation),
               "~q/~w is not defined: did you mean ~w? Otherwise define it, \c
                load the library that provides it, or declare it with \c
                :- dynamic ~q/~w. if it may have no clauses.",
               [Name, Arity, Best, Name, Arity])
    ;   format(string(Explanation),
               "~q/~w is not defined: define it (check the spelling and the \c
                number of arguments), load the library that provides it, or \c
                declare it with :- dynamic ~q/~w. if it may have no clauses.",
               [Name, Arity, Name, Arity])
    ).

evaluation_explanation(zero_divisor,
                       "A division by zero: guard the division (for example \c
                        Y =\\= 0 before X is Z / Y) or check the data that leads \c
                        to it.") :- !.
evaluation_explanation(undefined,
                       "An arithmetic function got an argument outside its \c
                        domain (such as 0/0, log(0) or sqrt(-1)): check the \c
                        operands before evaluating.") :- !.
evaluation_explanation(What, Explanation) :-
    format(string(Explanation),
           "Arithmetic failed (~w): check the size and sign of the operands.",
           [What]).

sandbox_explanation(Culprit, Explanation) :-
    format(string(Explanation),
           "~q reaches outside this run (another module, a global flag, \c
            files or the system): keep to the code's own predicates and the \c
            standard built-ins.", [Culprit]).

                 /*******************************
                 *             PARSE            *
                 *******************************/

request(parse, Req, [messages=Diags, terms=Count]) :-
    existing_session(Req, M),
    must_have(text, Req, Text),
    must_be(string, Text),
    exec_module(M, T),
    setup_call_cleanup(
        ( close_exec_module(T),
          set_module(T:base(prologtool_libraries)),   % their operators
          set_module(T:class(temporary)) ),
        parse_text(T, Text, Diags, Count),
        close_exec_module(T)).

%   parse_text(+Module, +Text, -Diagnostics, -TermCount): read every
%   term of Text as read_patch/4 does, with the operators that its own
%   declarations introduce.
parse_text(M, Text, Diags, Count) :-
    check_text_depth(Text),                     % harness_guard.pl
    retractall(collected(_)),
    setup_call_cleanup(
        open_string(Text, S),
        parse_terms(S, M, 0, Count),
        close(S)),
    findall(D, retract(collected(D)), Diags).

parse_terms(S, M, N0, N) :-
    stream_property(S, position(Start)),
    catch(read_term(S, T, [ module(M), syntax_errors(error),
                            singletons(Singles), term_position(Pos) ]),
          E, true),
    (   var(E)
    ->  (   T == end_of_file
        ->  N = N0
        ;   stream_position_data(line_count, Pos, Line),
            singleton_diagnostics(Singles, T, Line),
            parse_declaration(M, T),
            N1 is N0 + 1,
            parse_terms(S, M, N1, N)
        )
    ;   E = error(syntax_error(What), Where)
    ->  syntax_error_diagnostic(What, Where),
        skip_after_error(S, Start),
        parse_terms(S, M, N0, N)
    ;   throw(E)
    ).

%   The declarations that change how the rest of the text reads.
parse_declaration(M, (:- Directive)) :-
    nonvar(Directive),
    !,
    session_catch(parse_directive(M, Directive), _, true).
parse_declaration(_, _).

parse_directive(M, op(P, T, Names)) :-
    !,
    op(P, T, M:Names).
parse_directive(M, use_module(Spec)) :-
    !,
    library_operators(M, Spec).
parse_directive(M, use_module(Spec, _)) :-
    !,
    library_operators(M, Spec).
parse_directive(M, ensure_loaded(Spec)) :-
    !,
    library_operators(M, Spec).
parse_directive(M, (A, B)) :-
    !,
    parse_directive(M, A),
    parse_directive(M, B).
parse_directive(_, _).

%   A library that is loaded already (the harness preloads the common
%   ones): its exported operators, nothing else.
library_operators(M, library(Lib)) :-
    absolute_file_name(library(Lib), File,
                       [file_type(prolog), access(read), file_errors(fail)]),
    module_property(LibModule, file(File)),
    module_property(LibModule, exported_operators(Ops)),
    !,
    forall(member(op(P, T, N), Ops), op(P, T, M:N)).
library_operators(_, _).

:- encoding(utf8).
/*  Part of the prologtool harness (included by harness.pl, module
    prologtool_harness): run_tests: plunit units of a session.

    A session's units live in plunit under session-unique names: the
    unit the user calls `family` is registered as `<M>__family` (so its
    plunit module is `plunit_<M>__family`, whose default import module is
    the session module: tests see the session's predicates). Users only
    ever see their own names. The renaming is a term expansion of
    begin_tests/end_tests directives in session sources, so units loaded
    by a plain consult are session units too.

    plunit 9.0.4 keeps units registered after their module is emptied,
    and running such a unit can crash swipl: a session's units are
    removed when the session closes (forget_session_units/1), and a unit
    that a later source defines again replaces the earlier definition.
*/

:- use_module(library(plunit), []).

:- dynamic
    test_source/3.              % Module, SourceId, Text of a run_tests text

                 /*******************************
                 *           REQUEST            *
                 *******************************/

%!  request(run_tests, +Req, -ReplyPairs)
%
%   Consult the optional plunit text of Req into the session, then (unless
%   `run` is false) run every unit of the session, all within one
%   `time_limit`, and each test within `test_time_limit` when it is given
%   (a test past it fails with "time limit exceeded", and the run goes on
%   with the next test). Reply: passed, failed, skipped, total, results,
%   messages (the diagnostics of loading the text), output (what plunit
%   printed) and, when the tests could not run to the end, error.

request(run_tests, Req, Pairs) :-
    existing_session(Req, M),
    option_value(Req, text, "", Text),
    must_be(string, Text),
    option_value(Req, run, true, Run),
    must_be(boolean, Run),
    option_value(Req, time_limit, 30, TimeLimit),
    option_value(Req, test_time_limit, none, TestLimit),
    option_value(Req, max_output, 65536, MaxOut),
    must_be_time_limit(TimeLimit),
    (   TestLimit == none
    ->  true
    ;   must_be_time_limit(TestLimit)
    ),
    must_be(nonneg, MaxOut),
    get_time(T0),
    load_test_text(M, Text, Req, Diags, LoadOutput, LoadCut),
    (   Run == true
    ->  get_time(T1),
        Remaining is TimeLimit - (T1 - T0),
        setup_call_cleanup(
            nb_setval('$pt_test_limit', TestLimit),
            run_session_tests(M, TimeLimit, Remaining, MaxOut,
                              Results, RunOutput, Cut0, ErrorPairs),
            ( test_alarm_stop,
              nb_setval('$pt_test_limit', none) ))
    ;   Results = [], RunOutput = "", Cut0 = false, ErrorPairs = []
    ),
    test_tally(Results, Passed, Failed, Skipped),
    length(Results, Total),
    string_concat(LoadOutput, RunOutput, Output0),
    (   string_length(Output0, Len), Len > MaxOut
    ->  sub_string(Output0, 0, MaxOut, _, Output),
        Cut = true
    ;   Output = Output0,
        (   ( LoadCut == true ; Cut0 == true )
        ->  Cut = true
        ;   Cut = false
        )
    ),
    append([ passed=Passed, failed=Failed, skipped=Skipped, total=Total,
             results=Results, messages=Diags,
             output=Output, output_truncated= @(Cut)
           ], ErrorPairs, Pairs).

test_tally(Results, Passed, Failed, Skipped) :-
    aggregate_all(count, member(json([_,_,status=passed|_]), Results), Passed),
    aggregate_all(count, member(json([_,_,status=failed|_]), Results), Failed),
    aggregate_all(count, member(json([_,_,status=skipped|_]), Results), Skipped).

                 /*******************************
                 *            LOADING           *
                 *******************************/

%!  load_test_text(+M, +Text, +Req, -Diagnostics, -Output, -Cut) is det.
%
%   Consult Text into M as consult does. Loading a text that an earlier
%   run_tests already loaded first unloads that earlier copy, so running
%   the same tests again replaces them rather than adding to them. A blank
%   text loads nothing.

load_test_text(_, Text, _, [], "", false) :-
    normalize_space(string(""), Text),
    !.
load_test_text(M, Text, Req, Diags, Output, Cut) :-
    % The new copy loads under the old copy's source id: SWI-Prolog may
    % still name the old id where it speaks of the predicates the text
    % defines (a redefinition's "previously defined at"), and an id that
    % has gone to another text would make that message name the wrong one.
    forall(retract(test_source(M, OldId, Text)),
           ( unload_source(OldId),
             retractall(loaded_source(M, OldId, _)),
             assertz(reused_source(M, OldId)) )),
    texts_loaded(M, Before),
    % test units are not statically checked: the check is for the program
    put_dict(check, Req, false, LoadReq),
    call_cleanup(consult_text(M, Text, LoadReq, LoadPairs),
                 forall(retract(reused_source(M, Unused)),   % not loaded
                        assertz(free_source(Unused)))),
    % the text's source, if it got one: the session's latest (looked up by
    % number, not by comparing every source of the session with those
    % before, which grew with the square of the session's texts: 19 ms a
    % run after 1,500 replaced predicates)
    texts_loaded(M, After),
    (   After > Before,
        loaded_source(M, Id, After)
    ->  assertz(test_source(M, Id, Text))
    ;   true
    ),
    memberchk(messages=Diags0, LoadPairs),
    memberchk(output=Output0, LoadPairs),
    memberchk(output_truncated= @(Cut), LoadPairs),
    user_unit_text(M, Output0, Output),
    maplist(user_unit_diagnostic(M), Diags0, Diags).

%!  texts_loaded(+M, -N) is det.
%
%   N is how many texts session M has loaded (next_source_id/2).

texts_loaded(M, N) :-
    (   source_count(M, N0) -> N = N0 ; N = 0 ).

%   Diagnostics speak of the units by the users' names.
user_unit_diagnostic(M, json(Pairs0), json(Pairs)) :-
    (   selectchk(message=Msg0, Pairs0, message=Msg, Pairs)
    ->  user_unit_text(M, Msg0, Msg)
    ;   Pairs = Pairs0
    ).

%!  user_unit_text(+M, +Text0, -Text) is det.
%
%   Text0 as users should read it: units by their own names, no session
%   module qualifiers, "consult N, line L" for the harness's source ids.

user_unit_text(M, Text0, Text) :-
    unit_prefix(M, Prefix),
    atomic_list_concat(Parts, Prefix, Text0),
    atomic_list_concat(Parts, '', Text1),
    clean_message(M, Text1, Text).

%!  begin_session_unit(+M, +Unit, +Options) is det.
%
%   `:- begin_tests(Unit, Options)` in session M. A unit of the same name
%   that another source defined (an earlier text of this session, or of
%   a closed session with the same id) is forgotten first, and its plunit
%   module is bound to the current source: the new definition replaces
%   the old one, where plunit would refuse to redefine the module.

begin_session_unit(M, Unit, Options) :-
    must_be(atom, Unit),
    session_unit_name(M, Unit, PlUnit),
    plunit:unit_module(PlUnit, UM),
    source_location(File, Line),
    (   plunit:current_unit(PlUnit, _, Other, _),
        Other \== M,
        session(Other, _)
    ->  % only when session ids and unit names both hold "__"
        throw(error(permission_error(create, plunit_unit, Unit),
                    context(_, 'a unit of another session has the same internal name; rename the unit')))
    ;   true
    ),
    (   current_module(UM),
        \+ module_property(UM, file(File))
    ->  forget_unit(PlUnit),
        rebind_module(UM, M, File, Line)
    ;   true
    ),
    plunit:begin_tests(PlUnit, Options).

%   '$declare_module'/6 with Redefine=true binds the module to File; it
%   also makes it the source module, which must stay the session's until
%   plunit's begin_tests has read it.
rebind_module(UM, M, File, Line) :-
    '$set_source_module'(Old, Old),
    setup_call_cleanup(
        true,
        '$declare_module'(UM, test, M, File, Line, true),
        '$set_source_module'(_, Old)).

%!  end_session_unit(+M, +Unit) is det.

end_session_unit(M, Unit) :-
    must_be(atom, Unit),
    session_unit_name(M, Unit, PlUnit),
    catch(plunit:end_tests(PlUnit),
          error(context_error(plunit_close(Closing, Open)), Context),
          ( user_unit_name(M, Closing, UClosing),
            user_unit_name(M, Open, UOpen),
            throw(error(context_error(plunit_close(UClosing, UOpen)), Context))
          )).

unit_prefix(M, Prefix) :-
    atom_concat(M, '__', Prefix).

session_unit_name(M, Unit, PlUnit) :-
    unit_prefix(M, Prefix),
    atom_concat(Prefix, Unit, PlUnit).

user_unit_name(M, PlUnit, Unit) :-
    unit_prefix(M, Prefix),
    atom(PlUnit),
    atom_concat(Prefix, Unit, PlUnit),
    !.
user_unit_name(_, Unit, Unit).

                 /*******************************
                 *         SESSION UNITS        *
                 *******************************/

%!  session_unit(+M, -PlUnit) is nondet.
%
%   PlUnit is a plunit unit of session M, in the order of definition: one
%   begun while loading into M.

session_unit(M, PlUnit) :-
    plunit:current_unit(PlUnit, _, Context, _),
    Context == M.

%!  forget_session_units(+M) is det.
%
%   Called when session M closes: no unit of M stays registered, so none
%   can run once the session's module is emptied.

forget_session_units(M) :-
    findall(U, session_unit(M, U), Units),
    maplist(forget_unit, Units),
    retractall(test_source(M, _, _)).

%!  forget_unit(+PlUnit) is det.
%
%   Unregister PlUnit and remove its tests.

forget_unit(PlUnit) :-
    plunit:unit_module(PlUnit, UM),
    retractall(plunit:current_unit(PlUnit, _, _, _)),
    retractall(plunit:loading_unit(PlUnit, _, _, _)),
    forall(( current_predicate(UM:Name/Arity),
             functor(Head, Name, Arity),
             \+ predicate_property(UM:Head, imported_from(_))
           ),
           abolish_quietly(UM, Name/Arity)).

                 /*******************************
                 *            RUNNING           *
                 *******************************/

%!  run_session_tests(+M, +TimeLimit, +Remaining, +MaxOut, -Results,
%!                    -Output, -Cut, -ErrorPairs) is det.
%
%   Run every unit of session M (and no other) within Remaining seconds
%   and collect a result per test.

run_session_tests(M, _, _, _, [], "", false, []) :-
    \+ session_unit(M, _),
    !.
run_session_tests(_, TimeLimit, Remaining, _, [], "", false,
                  [error=json(ErrorPairs)]) :-
    Remaining =< 0,
    !,
    tests_timeout_error(TimeLimit, ErrorPairs).
run_session_tests(M, TimeLimit, Remaining, MaxOut, Results, Output, Cut,
                  ErrorPairs) :-
    findall(U, session_unit(M, U), Units),
    sandbox_unsafe_tests(M, Units, Unsafe),
    run_specs(Units, Unsafe, Specs),
    setup_call_cleanup(
        true,
        ( with_captured_output(
              catch(tests_within(Remaining, run_plunit_units(Specs), TimedOut0),
                    E, true),
              MaxOut, Output0, Cut),
          (   TimedOut0 == true
          ->  TimedOut = true
          ;   E == time_limit_exceeded % a late alarm hit tests_within/3
          ->  TimedOut = true
          ;   TimedOut = false
          ),
          collect_results(M, Units, Unsafe, TimedOut, E, Results)
        ),
        plunit:cleanup),
    user_unit_text(M, Output0, Output),
    (   TimedOut == true
    ->  tests_timeout_error(TimeLimit, EPairs),
        ErrorPairs = [error=json(EPairs)]
    ;   var(E)
    ->  ErrorPairs = []
    ;   error_json(E, M, EPairs),
        ErrorPairs = [error=json(EPairs)]
    ).

run_plunit_units([]) :-
    !.
run_plunit_units(Specs) :-
    (   plunit:run_tests(Specs)
    ->  true
    ;   true                    % plunit fails when a test failed
    ).

%!  run_specs(+Units, +Unsafe, -Specs) is det.
%
%   plunit run_tests/1 specifications: every unit, leaving out the tests
%   that may not run (Unit:Tests lists the others).

run_specs(Units, [], Units) :-
    !.
run_specs(Units, Unsafe, Specs) :-
    foldl(run_spec(Unsafe), Units, Specs, []).

run_spec(Unsafe, PlUnit, Specs, Tail) :-
    (   memberchk(unsafe(PlUnit, _, _, _), Unsafe)
    ->  plunit:unit_module(PlUnit, UM),
        findall(Name, ( unit_test(UM, Name, _, _, _),
                        \+ memberchk(unsafe(PlUnit, Name, _, _), Unsafe) ),
                Names0),
        sort(Names0, Names),
        (   Names == []
        ->  Specs = Tail
        ;   Specs = [PlUnit:Names|Tail]
        )
    ;   Specs = [PlUnit|Tail]
    ).

%!  sandbox_unsafe_tests(+M, +Units, -Unsafe) is det.
%
%   In a sandboxed session, a test runs only if its body and the goals of
%   its options and its unit's options pass the session's goal checks:
%   plunit calls them directly, never through the goal request that
%   checks a goal. Unsafe is a list of unsafe(PlUnit, Name, Line, Why).

sandbox_unsafe_tests(M, _, []) :-
    \+ sandboxed_session(M),
    !.
sandbox_unsafe_tests(_, Units, Unsafe) :-
    findall(unsafe(PlUnit, Name, Line, Why),
            ( member(PlUnit, Units),
              plunit:unit_module(PlUnit, UM),
              unit_options(PlUnit, UnitOptions),
              unit_test(UM, Name, Line, Options, Body),
              test_goal(UnitOptions, Options, Body, Goal),
              catch(( check_isolation(UM, Goal),
                      check_side_effects(false, UM, Goal) ),
                    E, true),
              nonvar(E),
              error_message(E, Why)
            ),
            Unsafe).

unit_options(PlUnit, Options) :-
    (   plunit:current_unit(PlUnit, _, _, Options0)
    ->  Options = Options0
    ;   Options = []
    ).

%   The test's own body and every goal its options and its unit's
%   options run. Body calls the test's clause of 'unit body'/2, which
%   holds the bodies of all tests of the unit: take the test's own, so
%   that one test the sandbox refuses does not take the others with it.
test_goal(UnitOptions, Options, Body, Goal) :-
    own_body(Body, Own),
    findall(G, ( ( member(O, UnitOptions) ; member(O, Options) ),
                 option_goal(O, G) ),
            Goals),
    foldl([G, G0, (G0, G)]>>true, Goals, Own, Goal).

own_body(Body, Own) :-
    strip_module(Body, UM, Head),
    (   Head = 'unit body'(Id, _),
        atom(Id),
        catch(clause(UM:Head, ClauseBody), _, fail),
        ClauseBody = (!, Own0)
    ->  Own = Own0
    ;   Own = Body
    ).

option_goal(setup(G), G).
option_goal(cleanup(G), G).
option_goal(condition(G), G).
option_goal(forall(G), G).
option_goal(true(G), G).
option_goal(all(G), G).
option_goal(set(G), G).

tests_timeout_error(TimeLimit, [kind=timeout, message=Msg,
                          prolog_term="time_limit_exceeded"]) :-
    format(string(Msg),
           "The tests did not finish within the time limit (~w s)",
           [TimeLimit]).

%!  tests_within(+Seconds, :Goal, -TimedOut) is det.
%
%   Run Goal; after Seconds, throw time_limit_exceeded into it, and again
%   every 50 ms until it ends. plunit catches the exceptions of a test
%   (and reports the test failed), so the single exception that
%   call_with_time_limit/2 raises would end only the running test, not
%   the run. TimedOut is true when the time was up. The alarm handler
%   finds its state in the (thread-local) global variable
%   '$pt_tests_timer': timer(Status, Alarm), Status one of running,
%   timed_out, done; Alarm the alarm that fires next.

:- meta_predicate tests_within(+, 0, -).

tests_within(Seconds, Goal, TimedOut) :-
    nb_setval('$pt_tests_timer', timer(running, -)),
    setup_call_cleanup(
        ( alarm(Seconds, prologtool_harness:tests_overtime, Id,
                [remove(false)]),
          nb_setval('$pt_tests_timer', timer(running, Id))
        ),
        catch(Goal, time_limit_exceeded, true),
        tests_done(Id, TimedOut)).

%   The alarm handler: a handler cannot reinstall its own alarm, so each
%   firing schedules a new one-shot alarm.
tests_overtime :-
    (   nb_current('$pt_tests_timer', timer(Status, _)),
        Status \== done
    ->  alarm(0.05, prologtool_harness:tests_overtime, Next, [remove(true)]),
        nb_setval('$pt_tests_timer', timer(timed_out, Next)),
        throw(time_limit_exceeded)
    ;   true
    ).

%   A limit per test: plunit (9.0.4) has none of its own, but it tells
%   when each test starts and ends, with the silent messages
%   plunit(begin(Unit:Test, File:Line, STO)) and plunit(end(...)). The
%   test's alarm is set at the first and removed at the second; when it
%   fires it throws time_limit_exceeded into the test, whose body plunit
%   runs under catch/3: the test fails with that error and the run goes
%   on. '$pt_test_limit' (this thread's) holds the limit while a
%   run_tests request with test_time_limit runs, none otherwise;
%   '$pt_test_alarm' the running test's alarm.
:- multifile user:message_hook/3.
user:message_hook(plunit(Event), silent, _) :-
    nb_current('$pt_test_limit', Limit),
    number(Limit),
    (   Event = begin(Test, _, _)
    ->  test_alarm_start(Test, Limit)
    ;   Event = end(_, _, _)
    ->  test_alarm_stop
    ),
    fail.

test_alarm_start(Test, Limit) :-
    test_alarm_stop,
    alarm(Limit, prologtool_harness:test_overtime(Test), Id, [remove(true)]),
    nb_setval('$pt_test_alarm', alarm(Test, Id)).

test_alarm_stop :-
    (   nb_current('$pt_test_alarm', alarm(_, Id))
    ->  nb_setval('$pt_test_alarm', none),
        catch(remove_alarm(Id), _, true)
    ;   true
    ).

%   The alarm's handler: only while its test still runs.
test_overtime(Test) :-
    (   nb_current('$pt_test_alarm', alarm(Running, _)),
        Running == Test
    ->  nb_setval('$pt_test_alarm', none),
        throw(time_limit_exceeded)
    ;   true
    ).

tests_done(Id, TimedOut) :-
    sig_atomic(( nb_getval('$pt_tests_timer', timer(Status, Next)),
                 nb_setval('$pt_tests_timer', timer(done, -)),
                 catch(remove_alarm(Id), _, true),
                 (   Next \== (-), Next \== Id
                 ->  catch(remove_alarm(Next), _, true)
                 ;   true
                 )
               )),
    (   Status == timed_out
    ->  TimedOut = true
    ;   TimedOut = false
    ).

                 /*******************************
                 *            RESULTS           *
                 *******************************/

%!  collect_results(+M, +Units, +Unsafe, +TimedOut, +Error, -Results) is det.
%
%   One json result per test, unit by unit, in line order. A test the
%   sandbox refused failed without running. When the run was complete, a
%   test that has no result did not run: its condition failed (skipped)
%   or its setup failed (failed).

collect_results(M, Units, Unsafe, TimedOut, E, Results) :-
    (   TimedOut == false, var(E)
    ->  Complete = true
    ;   Complete = false
    ),
    foldl(unit_results(M, Unsafe, Complete), Units, Results, []).

unit_results(M, Unsafe, Complete, PlUnit, Results, Tail) :-
    user_unit_name(M, PlUnit, Unit),
    plunit:unit_module(PlUnit, UM),
    (   plunit:current_unit(PlUnit, _, _, UnitOptions)
    ->  true
    ;   UnitOptions = []
    ),
    (   memberchk(blocked(Reason), UnitOptions)
    ->  test_reason_text(Reason, Msg),
        findall(Line-json([unit=Unit, name=NameT, status=skipped,
                           message=Msg, line=Line]),
                ( unit_test(UM, Name, Line, _, _),
                  test_name_text(Name, NameT) ),
                Keyed)
    ;   findall(Line-R,
                recorded_result(M, PlUnit, Unit, UM, Line, R),
                Recorded),
        findall(Line-json([unit=Unit, name=NameT, status=failed,
                           message=Msg, line=Line]),
                ( member(unsafe(PlUnit, Name, Line, Why), Unsafe),
                  test_name_text(Name, NameT),
                  format(string(Msg0), "test ~w: ~w", [NameT, Why]),
                  user_test_text(M, UM, Msg0, Msg) ),
                Refused),
        (   Complete == true
        ->  findall(Line-R,
                    unrun_result(PlUnit, Unit, UM, UnitOptions, Unsafe,
                                 Line, R),
                    Unrun)
        ;   Unrun = []
        ),
        append([Recorded, Refused, Unrun], Keyed)
    ),
    sort(1, @=<, Keyed, Sorted),
    pairs_values(Sorted, UnitResults),
    append(UnitResults, Tail, Results).

%!  unit_test(+UM, ?Name, ?Line, ?Options, ?Body) is nondet.
%
%   A test of the unit whose plunit module is UM.

unit_test(UM, Name, Line, Options, Body) :-
    current_predicate(UM:'unit test'/4),
    session_catch(UM:'unit test'(Name, Line, Options, Body), _, fail).

recorded_result(_, PlUnit, Unit, _, Line,
                json([unit=Unit, name=NameT, status=passed, message="", line=Line])) :-
    plunit:passed(PlUnit, Name, Line, _, _),
    test_name_text(Name, NameT).
recorded_result(M, PlUnit, Unit, UM, Line,
                json([unit=Unit, name=NameT, status=failed, message=Msg, line=Line])) :-
    plunit:failed(PlUnit, Name, Line, Reason),
    test_name_text(Name, NameT),
    failure_message(M, UM, PlUnit, Name, Line, Reason, Msg).
recorded_result(_, PlUnit, Unit, _, Line,
                json([unit=Unit, name=NameT, status=skipped, message=Msg, line=Line])) :-
    plunit:blocked(PlUnit, Name, Line, Reason),
    test_name_text(Name, NameT),
    test_reason_text(Reason, Msg).
recorded_result(_, PlUnit, Unit, _, Line,
                json([unit=Unit, name=NameT, status=Status, message=Msg, line=Line])) :-
    plunit:fixme(PlUnit, Name, Line, Reason, How),
    test_name_text(Name, NameT),
    test_reason_text(Reason, RText),
    (   How == failed
    ->  Status = skipped,
        format(string(Msg), "fixme: ~w", [RText])
    ;   Status = passed,
        format(string(Msg), "fixme: ~w (the test passes now)", [RText])
    ).

unrun_result(PlUnit, Unit, UM, UnitOptions, Unsafe, Line,
             json([unit=Unit, name=NameT, status=Status, message=Msg, line=Line])) :-
    unit_test(UM, Name, Line, Options, _),
    \+ has_result(PlUnit, Name, Line),
    \+ memberchk(unsafe(PlUnit, Name, _, _), Unsafe),
    test_name_text(Name, NameT),
    (   (   memberchk(condition(_), Options)
        ;   memberchk(condition(_), UnitOptions)
        )
    ->  Status = skipped,
        Msg = "condition not satisfied"
    ;   Status = failed,
        format(string(Msg), "test ~w: setup failed", [NameT])
    ).

has_result(PlUnit, Name, Line) :-
    (   plunit:passed(PlUnit, N, Line, _, _)
    ;   plunit:failed(PlUnit, N, Line, _)
    ;   plunit:blocked(PlUnit, N, Line, _)
    ;   plunit:fixme(PlUnit, N, Line, _, _)
    ),
    (   N == Name
    ;   N = @(Name, _)
    ),
    !.

test_name_text(@(Name, Bindings), Text) :-
    !,
    test_name_text(Name, NameText),
    format(string(Text), "~w (forall bindings = ~q)", [NameText, Bindings]).
test_name_text(Name, Text) :-
    atom(Name),
    !,
    atom_string(Name, Text).
test_name_text(Name, Text) :-
    format(string(Text), "~q", [Name]).

test_reason_text(Reason, Text) :-
    (   atom(Reason) ; string(Reason) ),
    !,
    atom_string(Reason, Text).
test_reason_text(Reason, Text) :-
    format(string(Text), "~q", [Reason]).

%!  failure_message(+M, +UM, +PlUnit, +Name, +Line, +Reason, -Msg) is det.
%
%   "test Name: why", worded as plunit words it.

failure_message(M, UM, PlUnit, Name, Line, Reason, Msg) :-
    test_name_text(Name, NameT),
    (   session_catch(failure_text(Reason, PlUnit, Name, Line, Why), _, fail)
    ->  true
    ;   format(string(Why), "~p", [Reason])
    ),
    format(string(Msg0), "test ~w: ~w", [NameT, Why]),
    user_test_text(M, UM, Msg0, Msg).

%   A message about a test as users should read it (see user_unit_text/3),
%   also without the qualifier of the unit's plunit module.
user_test_text(M, UM, Text0, Text) :-
    clean_message(UM, Text0, Text1),
    user_unit_text(M, Text1, Text).

failure_text(failed, _, _, _, "failed") :- !.
failure_text(time_limit_exceeded, _, _, _, "time limit exceeded") :- !.
failure_text(no_exception, _, _, _, "expected an exception, but none was raised") :- !.
failure_text(succeeded(_), _, _, _, "must fail but succeeded") :- !.
failure_text(assertion, PlUnit, Name, Line, Why) :-
    !,
    (   plunit:failed_assertion(PlUnit, Name, Line, _, _, AReason, Goal)
    ->  strip_module(Goal, _, Plain),
        (   AReason == fail
        ->  test_term_text(Plain, G),
            format(string(Why), "assertion failed: ~w", [G])
        ;   error_message(AReason, EMsg),
            test_term_text(Plain, G),
            format(string(Why), "assertion raised ~w: ~w", [EMsg, G])
        )
    ;   Why = "assertion failed"
    ).
failure_text(wrong_answer(Cmp), _, _, _, Why) :-
    compound(Cmp),
    compound_name_arguments(Cmp, Op, [Got, Expected]),
    !,
    test_term_pair(Expected, Got, Ex, G),
    format(string(Why), "wrong answer (compared using ~w): expected ~w, got ~w",
           [Op, Ex, G]).
failure_text(wrong_answer(Expected, Bindings), _, _, _, Why) :-
    !,
    (   Expected = all(Cmp)
    ->  Type = all, arg(2, Cmp, Ex0), Got0 = Bindings
    ;   Expected = set(Cmp),
        Type = set, arg(2, Cmp, Ex1), sort(Ex1, Ex0), sort(Bindings, Got0)
    ),
    test_term_pair(Ex0, Got0, Ex, Got),
    format(string(Why), "wrong \"~w\" answer: expected ~w, found ~w",
           [Type, Ex, Got]).
failure_text(wrong_error(Expected, Error), _, _, _, Why) :-
    !,
    test_term_pair(Expected, Error, Ex, E),
    format(string(Why), "wrong error: expected ~w, got ~w", [Ex, E]).
failure_text(cmp_error(_, Error), _, _, _, Why) :-
    !,
    error_message(Error, EMsg),
    format(string(Why), "comparison error: ~w", [EMsg]).
failure_text(error(existence_error(procedure, PI), _), _, _, _, Why) :-
    !,                          % its context is plunit's call, not the user's
    error_message(error(existence_error(procedure, PI), _), EMsg),
    format(string(Why), "received error: ~w", [EMsg]).
failure_text(Error, _, _, _, Why) :-
    Error = error(_, _),
    !,
    error_message(Error, EMsg),
    format(string(Why), "received error: ~w", [EMsg]).
failure_text(Other, _, _, _, Why) :-
    test_term_text(Other, Why).

%   test_term_pair(+A0, +B0, -AText, -BText): two terms as quoted text, their
%   variables named alike (_A, _B, ...).
test_term_pair(A0, B0, A, B) :-
    copy_term(A0-B0, A1-B1, _),
    numbervars(A1-B1, 0, _),
    test_term_text(A1, A),
    test_term_text(B1, B).

test_term_text(T, Text) :-
    (   acyclic_term(T) -> T1 = T ; factor_one(T, T1) ),
    catch(format(string(Text), "~W",
                 [T1, [quoted(true), numbervars(true), portray(true),
                       max_depth(50)]]),
          _, Text = "<unprintable>").


                 /*******************************
                 *          LOAD HOOKS          *
                 *******************************/

%   Term expansion for session sources: begin_tests/end_tests name the
%   session's own unit; run_tests directives are dropped (they would run
%   every unit of the process; run_tests requests run the session's).
%   This is term_expansion/4 so that it comes before the harness's own
%   term_expansion/2 (the first expansion in a module wins), which is why
%   it applies the isolation check itself. Defined last: it runs for
%   every term loaded from here on.

system:term_expansion((:- Directive), _Pos0, Expanded, _Pos) :-
    nonvar(Directive),
    loading_session_source,
    nb_getval('$pt_loading', M),
    unit_directive(Directive, M, Expanded0),
    (   catch(check_isolation(M, Directive), E, true),
        nonvar(E)
    ->  print_message(error, E),
        Expanded = []
    ;   Expanded = Expanded0
    ).

unit_directive(begin_tests(Unit), M,
               (:- prologtool_harness:begin_session_unit(M, Unit, []))).
unit_directive(begin_tests(Unit, Options), M,
               (:- prologtool_harness:begin_session_unit(M, Unit, Options))).
unit_directive(end_tests(Unit), M,
               (:- prologtool_harness:end_session_unit(M, Unit))).
unit_directive(run_tests, _, []).
unit_directive(run_tests(_), _, []).

%   A sandboxed load checks every directive: the unit directives above are
%   safe for the session being loaded (what the tests run is checked
%   before they run, see sandbox_unsafe_tests/3).
:- multifile sandbox:safe_directive/1.

sandbox:safe_directive(Directive) :-
    strip_module(Directive, _, Plain),
    (   Plain = begin_session_unit(M, _, _)
    ;   Plain = end_session_unit(M, _)
    ),
    nb_current('$pt_loading', Loading),
    M == Loading.

/*  Part of the prologtool harness (included by harness.pl, module
    prologtool_harness): keeping the harness's own limits out of reach of
    user code (for example a catch-all catch/3 that would swallow a time
    limit), and giving back everything a session held when it closes.

    An in-process backend cannot kill a process to end a goal that
    ignores its time limit, so user code must not be able to ignore it:

      - Inside a session module, catch/3 and catch_with_backtrace/3 are
        the guarded ones of harness_guard.pl: they hand every ball to the
        user's recovery goal except the harness's control exceptions,
        which go on to the harness.
      - The harness's time limits run through limit_time/2, which records
        the deadline. An expired harness limit is a control exception; a
        user's own call_with_time_limit/2 that expires earlier is an
        ordinary ball that the user's catch/3 may handle.
      - A time limit is a signal, and Prolog blocks signals inside
        cleanup handlers and sig_atomic/1. limit_time/2 therefore also
        runs the goal under an inference limit proportional to the time
        limit, which the virtual machine checks wherever the goal is:
        a goal that loops where no signal reaches it still stops, as a
        timeout. Sleeping is bounded by the guarded sleep/1.
*/

:- meta_predicate
    session_catch(0, ?, 0),
    limit_time(+, 0).

%!  session_catch(:Goal, ?Catcher, :Recovery)
%
%   catch/3 as user code in a session sees it.

session_catch(Goal, Catcher, Recovery) :-
    catch(Goal, Ball, session_recover(Ball, Catcher, Recovery)).

session_recover(Ball, _, _) :-
    harness_control(Ball),
    !,
    throw(Ball).
session_recover(Ball, Catcher, Recovery) :-
    Ball = Catcher,
    !,
    call(Recovery).
session_recover(Ball, _, _) :-
    throw(Ball).

%!  harness_control(+Ball) is semidet.
%
%   Ball belongs to the harness: abort, unwind, or a time limit that is
%   the harness's own (its deadline has passed, or no user limit can be
%   told apart from it because the harness did not record one).

harness_control(Ball) :-
    var(Ball),
    !,
    fail.
harness_control(time_limit_exceeded) :-
    !,
    (   nb_current('$pt_deadline', Deadline),
        number(Deadline)
    ->  get_time(Now),
        Now >= Deadline
    ;   true
    ).
harness_control(inference_limit_exceeded) :-
    !,
    (   nb_current('$pt_inference_cap', Cap),
        integer(Cap)
    ->  statistics(inferences, Now),
        Now >= Cap
    ;   true
    ).
harness_control('$aborted').
harness_control(unwind(_)).

%!  limit_time(+Seconds, :Goal) is semidet.
%
%   call_with_time_limit/2 for the harness's own limits: while Goal runs,
%   '$pt_deadline' (thread-local) holds the moment the limit expires.
%
%   It also restores the thread's source module: a load that the limit
%   interrupts leaves it set to the session module in SWI-Prolog 9.0.4,
%   and once that module is destroyed the next load on the thread finds
%   a dangling module (seen as '$set_source_module'/1 instantiation
%   errors, and as crashes of an embedding JVM).

limit_time(Seconds, Goal) :-
    get_time(Now),
    Deadline is Now + Seconds,
    inference_backstop(Seconds, Cap),
    statistics(inferences, I0),
    CapAt is I0 + Cap,
    (   nb_current('$pt_deadline', Outer) -> true ; Outer = none ),
    (   nb_current('$pt_inference_cap', OuterCap) -> true ; OuterCap = none ),
    '$set_source_module'(SourceModule, SourceModule),
    setup_call_cleanup(
        ( nb_setval('$pt_deadline', Deadline),
          nb_setval('$pt_inference_cap', CapAt) ),
        call_with_inference_limit(call_with_time_limit(Seconds, Goal), Cap, R),
        ( nb_setval('$pt_deadline', Outer),
          nb_setval('$pt_inference_cap', OuterCap),
          '$set_source_module'(SourceModule)
        )),
    (   R == inference_limit_exceeded
    ->  throw(time_limit_exceeded)
    ;   true
    ).

%   inference_backstop(+Seconds, -Inferences): the inference limit that
%   stands in for a time limit of Seconds where no signal reaches the
%   goal: 100 million inferences per second of the limit. Real programs
%   run 10 to 60 million a second on one core (a bare repeat-fail loop
%   50 million, a bare last-call loop 250 million), so a goal reaches the
%   backstop before its time limit only by spinning in a tight loop, and
%   one that spins where no signal reaches it stops within about twice
%   its time limit.
inference_backstop(Seconds, Cap) :-
    Cap is ceiling(Seconds * 100_000_000) + 10_000_000.

%!  forget_session_module(+Module) is det.
%
%   Called last when session Module closes, after its units, sources and
%   predicates are gone: destroy the module itself (with its flags and
%   operators, which live in it) and the plunit modules of its units, so
%   that opening and closing sessions leaves the number of modules flat.
%   SWI-Prolog destroys only modules of class temporary; a unit whose
%   module was destroyed must never stay registered (FACTS: running it
%   crashes), hence the check on plunit:current_unit/4.

forget_session_module(M) :-
    (   unit_module_prefix(M, Prefix),
        findall(UM, ( current_module(UM),
                      atom_concat(Prefix, _, UM),
                      \+ plunit:current_unit(_, UM, _, _)
                    ),
                UMs)
    ->  maplist(destroy_module_quietly, UMs)
    ;   true
    ),
    destroy_module_quietly(M).

unit_module_prefix(M, Prefix) :-
    plunit:unit_module('', UnitPrefix),     % plunit_
    atomic_list_concat([UnitPrefix, M, '__'], Prefix).

%   Session modules are temporary from the start (open_session/2); a unit
%   module is made temporary here. (Redeclaring a module that imports
%   predicates leaks about 170 bytes per import, so sessions do not go
%   this way.)
destroy_module_quietly(M) :-
    '$set_source_module'(Source, Source),
    (   Source == M
    ->  '$set_source_module'(user)      % never leave the thread in it
    ;   true
    ),
    catch(( abolish_module_tables(M),
            retractall(system:'$load_context_module'(_, M, _)),
            (   module_property(M, class(temporary))
            ->  true
            ;   '$declare_module'(M, temporary, system, -, 0, false)
            ),
            '$destroy_module'(M)
          ), E, print_message(warning, E)).

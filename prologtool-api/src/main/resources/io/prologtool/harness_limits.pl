/*  Part of the prologtool harness (included by harness.pl, module
    prologtool_harness): keeping the harness's own limits out of reach of
    user code (for example a catch-all catch/3 that would swallow a time
    limit), and giving back everything a session held when it closes.

    An in-process backend cannot kill a process to end a goal that
    ignores its time limit, so user code must not be able to ignore it:

      - Inside a session module, catch/3 and catch_with_backtrace/3 are
        the session's own (guard_session_module/1): they hand every ball
        to the user's recovery goal except the harness's control
        exceptions, which go on to the harness. This holds for clause
        bodies, directives, goal texts and goals built at run time alike,
        because it is the predicate that is replaced, not the text.
      - The harness's time limits run through limit_time/2, which records
        the deadline. An expired harness limit is a control exception; a
        user's own call_with_time_limit/2 that expires earlier is an
        ordinary ball that the user's catch/3 may handle.

    What no rewrite can stop: a goal that loops inside a cleanup handler
    (setup_call_cleanup/3) runs with signals blocked. The process backend
    kills such a goal at its limit plus grace; the JPL backend reports a
    timeout at the same moment and keeps asking the goal to stop.
*/

%!  guard_session_module(+Module) is det.
%
%   Give session Module the guarded catch/3 and catch_with_backtrace/3.
%   They are imported from the module prologtool_guard rather than
%   defined in the session, so that they never show up as the session's
%   own predicates (source, inspect, "did you mean"). An import, not an
%   import module (add_import_module/3): clause bodies compiled in the
%   session bind catch/3 to system's unless the session itself has it.

guard_session_module(M) :-
    M:import(prologtool_guard:catch/3),
    M:import(prologtool_guard:catch_with_backtrace/3).

%   export/1 leaves ISO built-ins such as catch/3 off a module's export
%   list, so importing it warns "not exported". The import is deliberate.
:- multifile user:message_hook/3.
user:message_hook(import_private(_, prologtool_guard:_), warning, _).

:- set_module(prologtool_guard:base(system)).
:- prologtool_guard:redefine_system_predicate(catch(_, _, _)).
:- prologtool_guard:redefine_system_predicate(catch_with_backtrace(_, _, _)).
:- meta_predicate
    prologtool_guard:catch(0, ?, 0),
    prologtool_guard:catch_with_backtrace(0, ?, 0).

prologtool_guard:catch(Goal, Catcher, Recovery) :-
    prologtool_harness:session_catch(Goal, Catcher, Recovery).
prologtool_guard:catch_with_backtrace(Goal, Catcher, Recovery) :-
    prologtool_harness:session_catch(Goal, Catcher, Recovery).
:- prologtool_guard:export(catch_with_backtrace/3).

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
    (   nb_current('$pt_deadline', Outer) -> true ; Outer = none ),
    '$set_source_module'(SourceModule, SourceModule),
    setup_call_cleanup(
        nb_setval('$pt_deadline', Deadline),
        call_with_time_limit(Seconds, Goal),
        ( nb_setval('$pt_deadline', Outer),
          '$set_source_module'(SourceModule)
        )).

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

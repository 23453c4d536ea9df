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
harness_control('$pt_cursor_closed').   % harness_cursor.pl
harness_control(unwind(_)).

%!  limit_time(+Seconds, :Goal) is semidet.
%
%   call_with_time_limit/2 for the harness's own limits: while Goal runs,
%   '$pt_deadline' (thread-local) holds the moment the limit expires.
%   The limit is kept by the watchdog thread (below) rather than by an
%   alarm of library(time): installing and removing an alarm wakes the
%   alarm scheduler's thread twice per call, which cost more than the
%   rest of a trivial request together (issue 16's profile).
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
          nb_setval('$pt_inference_cap', CapAt),
          watch_deadline(Deadline, Token) ),
        call_with_inference_limit(once(Goal), Cap, R),
        ( unwatch_deadline(Token),
          nb_setval('$pt_deadline', Outer),
          nb_setval('$pt_inference_cap', OuterCap),
          '$set_source_module'(SourceModule)
        )),
    (   R == inference_limit_exceeded
    ->  throw(time_limit_exceeded)
    ;   true
    ).

                 /*******************************
                 *           WATCHDOG           *
                 *******************************/

/*  One thread, prologtool_watchdog, keeps every time limit of this
    Prolog: limit_time/2 records watch(Thread, Token, Deadline), and the
    watchdog, which sleeps until the earliest deadline (or a second at
    most), signals each thread whose deadline has passed to throw
    time_limit_exceeded, if the limit with that token is still running
    there (through an alarm due at once: see watch_expired/1). Recording
    a deadline wakes the watchdog only when it is
    earlier than the moment the watchdog wakes anyway (a limit under a
    second, about): a request costs an assert and a retract, not two
    thread switches. Like an alarm it is a signal, so the inference
    backstop stays for code where no signal reaches.
*/

:- dynamic
    watch/3,                    % Thread, Token, Deadline
    watchdog_wakes/1,           % when the watchdog wakes next, at the latest
    watchdog_started/0.

watch_deadline(Deadline, Token) :-
    flag('$pt_watch_token', Token, Token + 1),
    thread_self(Me),
    (   nb_current('$pt_watching', Active) -> true ; Active = [] ),
    nb_setval('$pt_watching', [Token|Active]),
    ensure_watchdog,
    with_mutex(prologtool_watchdog,
               ( assertz(watch(Me, Token, Deadline)),
                 (   watchdog_wakes(Wake), Wake =< Deadline
                 ->  Early = false
                 ;   Early = true
                 ) )),
    (   Early == true
    ->  catch(thread_send_message(prologtool_watchdog, wake), _, true)
    ;   true
    ).

unwatch_deadline(Token) :-
    thread_self(Me),
    retractall(watch(Me, Token, _)),
    (   nb_current('$pt_watching', Active),
        selectchk(Token, Active, Rest)
    ->  nb_setval('$pt_watching', Rest)
    ;   true
    ).

%   Run in the signalled thread: if the limit is still running, an alarm
%   of library(time) due now throws time_limit_exceeded. Thrown from
%   thread_signal/2's goal instead, the exception would run the goal's
%   cleanup handlers where the inference backstop is not checked
%   (SWI-Prolog 9.0.4): a cleanup handler that loops after the limit
%   struck would never end.
watch_expired(Token) :-
    (   watching(Token)
    ->  alarm(0, prologtool_harness:watch_strike(Token), _, [remove(true)])
    ;   true
    ).

watch_strike(Token) :-
    (   watching(Token)
    ->  throw(time_limit_exceeded)
    ;   true
    ).

watching(Token) :-
    nb_current('$pt_watching', Active),
    memberchk(Token, Active).

%   watchdog_started/0 is asserted once and never taken back
%   (watchdog_wakes/1 is, for a moment, each time the watchdog wakes).
ensure_watchdog :-
    (   watchdog_started
    ->  true
    ;   with_mutex(prologtool_watchdog_start, start_watchdog)
    ).

start_watchdog :-
    (   watchdog_started
    ->  true
    ;   get_time(Now),
        with_mutex(prologtool_watchdog, assertz(watchdog_wakes(Now))),
        thread_create(watchdog_loop, _, [alias(prologtool_watchdog), detached(true)]),
        assertz(watchdog_started)
    ).

watchdog_loop :-
    repeat,
    get_time(Now),
    forall(( watch(Thread, Token, Deadline), Deadline =< Now ),
           ( retractall(watch(Thread, Token, _)),
             catch(thread_signal(Thread, prologtool_harness:watch_expired(Token)), _, true) )),
    with_mutex(prologtool_watchdog,
               ( (   aggregate_all(min(D), watch(_, _, D), Earliest)
                 ->  Wake is min(Now + 1.0, Earliest)
                 ;   Wake is Now + 1.0
                 ),
                 retractall(watchdog_wakes(_)),
                 assertz(watchdog_wakes(Wake)) )),
    get_time(Then),
    Wait is max(0.0, Wake - Then),
    catch(thread_get_message(prologtool_watchdog, _, [timeout(Wait)]), _, true),
    fail.

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

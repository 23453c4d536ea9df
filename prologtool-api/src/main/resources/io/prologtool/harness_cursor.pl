:- encoding(utf8).
/*  Part of the prologtool harness (included by harness.pl, module
    prologtool_harness): answers on demand (issue 17). A cursor is a
    search kept open between requests, so that answer 1,001 costs no
    recomputation of the first 1,000.

    Each cursor is a thread of the harness's own, which runs the goal in
    the session's module and stops after each batch of answers, inside
    the search, waiting for the next request. (An engine would be lighter,
    but SWI-Prolog 9.0.4 delivers no signal to an engine running on a
    thread, so neither the time limit nor the watchdog could stop it.)
    The time limit applies to each fetch: the cursor's thread records its
    deadline with the watchdog (harness_limits.pl) when a fetch starts and
    takes it back when the batch is sent. The depth limit, the inference
    limit (over the whole search) and the sandbox check apply as for a
    goal request; with allow_side_effects false the whole search runs in
    a snapshot/1, so its database changes are discarded when the cursor
    ends. What the goal prints is captured per fetch.

    Requests:
      {"op":"query_open", "session", "cursor":Id, "goal", "max_depth",
       "max_inferences", "allow_side_effects", "stack_limit"}
          -> cursor, variables (the goal is checked; nothing runs yet)
      {"op":"query_next", "session", "cursor", "max_answers",
       "time_limit", "max_output"}
          -> the keys of a goal reply, with truncated true when more
             answers exist (one was found past max_answers; the cursor
             stays open) and false when the search ended (the cursor is
             closed)
      {"op":"query_close", "session", "cursor"} -> closed
    An unknown or closed cursor is existence_error(cursor, Id). Closing
    a session stops its cursors.
*/

:- dynamic
    cursor/5.                   % Module, Id, Thread, InQueue, OutQueue

request(query_open, Req, [cursor=Id, variables=Names]) :-
    existing_session(Req, M),
    must_have(goal, Req, Text),
    must_have(cursor, Req, Id),
    must_be(string, Id),
    option_value(Req, max_depth, 1000000, MaxDepth),
    option_value(Req, max_inferences, infinite, MaxInf),
    option_value(Req, allow_side_effects, true, SideEffects),
    must_be(positive_integer, MaxDepth),
    (   MaxInf == infinite -> true ; must_be(positive_integer, MaxInf) ),
    (   cursor(M, Id, _, _, _)
    ->  throw(error(permission_error(open, cursor, Id), _))
    ;   true
    ),
    parse_goal(M, Text, Goal0, Bindings),
    check_side_effects(SideEffects, M, Goal0),
    session(M, Opts),
    (   get_dict(stack_limit, Req, StackLimit), integer(StackLimit)
    ->  true
    ;   StackLimit = none
    ),
    message_queue_create(In),
    message_queue_create(Out),
    Run = cursor_run(M, Opts, Goal0, Bindings, MaxDepth, MaxInf, SideEffects, StackLimit, In, Out),
    thread_create(Run, Thread, [detached(true), c_stack(16_000_000)]),
    assertz(cursor(M, Id, Thread, In, Out)),
    pairs_keys(Bindings, Names).

request(query_next, Req, Pairs) :-
    existing_session(Req, M),
    must_have(cursor, Req, Id),
    option_value(Req, max_answers, 10, MaxAnswers),
    option_value(Req, time_limit, 30, TimeLimit),
    option_value(Req, max_output, 65536, MaxOut),
    must_be(positive_integer, MaxAnswers),
    must_be_time_limit(TimeLimit),
    must_be(nonneg, MaxOut),
    (   cursor(M, Id, _, In, Out)
    ->  true
    ;   throw(error(existence_error(cursor, Id), _))
    ),
    thread_send_message(In, next(MaxAnswers, TimeLimit, MaxOut)),
    % The cursor's thread keeps its own time limit; this bound is for a
    % thread that cannot answer at all (a loop where no signal reaches).
    Wait is TimeLimit + 5,
    catch(( thread_get_message(Out, batch(Pairs2), [timeout(Wait)])
          ->  Pairs1 = Pairs2
          ;   Pairs1 = timeout
          ),
          '$pt_cancelled', Pairs1 = cancelled),
    (   Pairs1 == cancelled
    ->  % a cancelled fetch ends its query: the search was stopped midway
        cursor_stop(M, Id),
        Pairs0 = [ outcome=cancelled, variables=[], answers=[], count=0,
                   truncated= @(false), depth_exceeded= @(false), output="",
                   output_truncated= @(false) ]
    ;   Pairs1 \== timeout
    ->  Pairs0 = Pairs1
    ;   cursor_stop(M, Id),
        Pairs0 = [ outcome=timeout, variables=[], answers=[], count=0,
                   truncated= @(false), depth_exceeded= @(false), output="",
                   output_truncated= @(false) ]
    ),
    (   memberchk(truncated= @(true), Pairs0)
    ->  true
    ;   cursor_forget(M, Id)
    ),
    Pairs = Pairs0.

request(query_close, Req, [closed= @(Closed)]) :-
    session_module(Req, M),
    must_have(cursor, Req, Id),
    (   cursor(M, Id, _, _, _)
    ->  cursor_stop(M, Id),
        Closed = true
    ;   Closed = false
    ).

%   Stop a cursor's thread: a close message if it waits between fetches,
%   a signal if it runs; its queues go once it has ended (or at once if
%   it does not end within a second: a thread that waits on a destroyed
%   queue gets an error and ends).
cursor_stop(M, Id) :-
    (   retract(cursor(M, Id, Thread, In, Out))
    ->  catch(thread_send_message(In, close), _, true),
        catch(thread_signal(Thread, prologtool_harness:cursor_interrupt), _, true),
        cursor_wait_ended(Thread),
        catch(message_queue_destroy(In), _, true),
        catch(message_queue_destroy(Out), _, true)
    ;   true
    ).

%   The signal of cursor_stop/2: it stops a fetch that runs. Anywhere else
%   the close message does it (a thread waiting for its first fetch or
%   between fetches reads it), and a throw there would escape every catch:
%   a thread that has not yet started its goal, or is ending, died with
%   "Unknown message: '$pt_cursor_closed'" printed on the standard error
%   (a JVM's, on an in-process backend).
cursor_interrupt :-
    (   nb_current('$pt_fetch', fetch(_, _, _, _))
    ->  throw('$pt_cursor_closed')
    ;   true
    ).

%   The search ended by itself: the thread is ending, its queues go.
cursor_forget(M, Id) :-
    (   retract(cursor(M, Id, Thread, In, Out))
    ->  cursor_wait_ended(Thread),
        catch(message_queue_destroy(In), _, true),
        catch(message_queue_destroy(Out), _, true)
    ;   true
    ).

cursor_wait_ended(Thread) :-
    ignore(thread_ended_within(Thread, 1)).         % harness_guard.pl

%   Called by close_session/1: Stuck are the threads of cursors that did
%   not end within their second (the module must outlive them).
stop_session_cursors(M, Stuck) :-
    findall(Thread, cursor(M, _, Thread, _, _), Threads),
    forall(cursor(M, Id, _, _, _), cursor_stop(M, Id)),
    include(thread_running, Threads, Stuck).    % harness.pl

                 /*******************************
                 *       THE CURSOR'S THREAD    *
                 *******************************/

cursor_run(M, Opts, Goal, Bindings, MaxDepth, MaxInf, SideEffects, StackLimit, In, Out) :-
    apply_session_limits(Opts),
    (   integer(StackLimit) -> set_stack_limit(StackLimit) ; true ),      % harness.pl
    capture_this_thread,
    message_queue_create(Answers),
    nb_setval('$pt_cursor', cursor(In, Out, Answers)),
    (   thread_get_message(In, Message),
        Message = next(N, TimeLimit, MaxOut)
    ->  fetch_start(N, TimeLimit, MaxOut),
        State = state(false, complete),     % depth hit, inference limit
        Search = cursor_search(M, Goal, Bindings, MaxDepth, MaxInf, State),
        (   SideEffects == false
        ->  nb_setval('$pt_keep_changes', false),
            Run = snapshot(Search)
        ;   Run = Search
        ),
        catch(Run, E, true),
        (   E == '$pt_cursor_closed'
        ->  true
        ;   nb_current('$pt_fetch', fetch(N0, K0, _, _))
        ->  cursor_outcome(E, State, Outcome, Error),
            (   K0 >= N0, Outcome \== success
            ->  look_ahead_stopped(M, Bindings, In, Outcome, Error)
            ;   fetch_end(M, Bindings, Outcome, Error, false)
            )
        ;   true                        % closed between fetches
        )
    ;   true
    ),
    message_queue_destroy(Answers),
    release_this_thread.

%   The search for the answer past a full batch stopped on a bound or an
%   error: the batch goes as it is (more answers may exist), and the stop
%   is the reply of the next fetch, which gets no answers.
look_ahead_stopped(M, Bindings, In, Outcome, Error) :-
    fetch_end(M, Bindings, success, none, true),
    thread_get_message(In, Message),
    (   Message = next(N, TimeLimit, MaxOut)
    ->  fetch_start(N, TimeLimit, MaxOut),
        fetch_end(M, Bindings, Outcome, Error, false)
    ;   true                            % close
    ).

%   Output goes to the capture stream of harness.pl for the thread's life;
%   each fetch collects what was written during it.
capture_this_thread :-
    nb_setval('$pt_out_max', 0),                % dropped between fetches
    nb_setval('$pt_out', out(0, false)),
    nb_setval('$pt_out_kept', []),
    stream_property(OldOut, alias(user_output)),
    stream_property(OldErr, alias(user_error)),
    open_prolog_stream(prologtool_harness, write, Cap, []),
    set_stream(Cap, alias(user_output)),
    set_stream(Cap, alias(user_error)),
    set_output(Cap),
    nb_setval('$pt_cursor_capture', capture(Cap, OldOut, OldErr)).

%   The standard aliases go back before the capture stream is closed
%   (closing a stream that holds one leaks, see with_captured_output/4).
release_this_thread :-
    nb_getval('$pt_cursor_capture', capture(Cap, OldOut, OldErr)),
    set_stream(OldOut, alias(user_output)),
    set_stream(OldErr, alias(user_error)),
    set_output(OldOut),
    catch(close(Cap), _, true).

fetch_start(N, TimeLimit, MaxOut) :-
    capture_open(MaxOut, Capture),              % harness.pl
    nb_setval('$pt_fetch_capture', Capture),
    get_time(Now),
    Deadline is Now + TimeLimit,
    nb_setval('$pt_deadline', Deadline),
    watch_deadline(Deadline, Saved),            % harness_limits.pl
    nb_setval('$pt_fetch', fetch(N, 0, Saved, Deadline)),
    statistics(cputime, C0),
    statistics(inferences, I0),
    nb_setval('$pt_fetch_cost', cost(I0, C0)).

cursor_search(M, Goal0, Bindings, MaxDepth, MaxInf, State) :-
    guarded_goal(M, Goal0, Goal),               % harness_guard.pl
    pairs_values(Bindings, Vars),
    Template =.. [v|Vars],
    Find = ( depth_limited(M:Goal, MaxDepth, R),
             (   ( R == depth_limit_exceeded
                 ; integer(R), R > MaxDepth
                 )
             ->  nb_setarg(1, State, true),
                 fail
             ;   true
             ),
             check_depth(Template),             % harness_guard.pl
             encode_answer(M, Bindings, Template, false, Answer),
             cursor_deliver(M, Bindings, Answer)
           ),
    (   MaxInf == infinite
    ->  ( call(Find) -> true ; true )
    ;   call_with_inference_limit(( call(Find) -> true ; true ), MaxInf, IR),
        (   IR == inference_limit_exceeded
        ->  nb_setarg(2, State, inference_limit)
        ;   true
        )
    ).

%   One more answer of the search. While the batch is not full it joins
%   the batch, and the call fails to ask the search for the next. One
%   answer past a full batch (a look-ahead, as a goal request asks for
%   one more than max_answers) shows that more answers exist: the batch
%   is sent with truncated true, and the thread waits inside the search,
%   holding that answer; the next fetch starts with it and resumes the
%   search (fails into it), a close ends it. A search that ends before a
%   look-ahead sends its last batch with truncated false (cursor_run/10).
cursor_deliver(M, Bindings, Answer) :-
    nb_getval('$pt_fetch', fetch(N, K0, Saved, Deadline)),
    (   K0 >= N
    ->  fetch_end(M, Bindings, success, none, true),
        nb_getval('$pt_cursor', cursor(In, _, _)),
        thread_get_message(In, Message),
        (   Message = next(N1, TimeLimit, MaxOut)
        ->  fetch_start(N1, TimeLimit, MaxOut),
            cursor_deliver(M, Bindings, Answer)
        ;   true                            % close
        )
    ;   nb_getval('$pt_cursor', cursor(_, _, Answers)),
        thread_send_message(Answers, Answer),
        K is K0 + 1,
        nb_setval('$pt_fetch', fetch(N, K, Saved, Deadline)),
        fail
    ).

%   Send the batch: the answers of this fetch and what it printed.
fetch_end(M, Bindings, Outcome0, Error, More) :-
    nb_getval('$pt_fetch', fetch(_, Count, Saved, _)),
    nb_delete('$pt_fetch'),
    unwatch_deadline(Saved),
    nb_getval('$pt_cursor_capture', capture(Cap, _, _)),
    catch(flush_output(Cap), _, true),
    nb_getval('$pt_fetch_capture', Capture),    % back to dropping, as between fetches
    capture_close(Capture, Output, OutputCut),
    nb_getval('$pt_cursor', cursor(_, Out, Answers)),
    queued_answers(Answers, List),
    (   Outcome0 == success, Count =:= 0
    ->  Outcome = failure
    ;   Outcome = Outcome0
    ),
    goal_pairs(M, Bindings, solved(Outcome, Error, List, More, Output, OutputCut), Pairs0),
    fetch_cost(Pairs0, Pairs),
    thread_send_message(Out, batch(Pairs)).

%   fetch_cost(+Pairs0, -Pairs): the batch ends in what the fetch cost on
%   this thread (see with_cost/5 in harness.pl): its inferences and CPU
%   microseconds since fetch_start/3.
fetch_cost(Pairs0, Pairs) :-
    statistics(inferences, I1),
    statistics(cputime, C1),
    nb_getval('$pt_fetch_cost', cost(I0, C0)),
    Inferences is I1 - I0,
    CpuUs is max(0, round((C1 - C0) * 1000000)),
    append(Pairs0, [cost=json([inferences=Inferences, cpu_us=CpuUs])], Pairs).

%   Peek, then take: thread_get_message/3 with timeout(0) costs about
%   13 µs a call in SWI-Prolog 9.0.4, a peek and a get under 1 µs.
queued_answers(Queue, [A|As]) :-
    thread_peek_message(Queue, _),
    !,
    thread_get_message(Queue, A),
    queued_answers(Queue, As).
queued_answers(_, []).

cursor_outcome(E, State, Outcome, Error) :-
    (   var(E)
    ->  Error = none,
        (   arg(2, State, inference_limit)
        ->  Outcome = inference_limit
        ;   arg(1, State, true)
        ->  Outcome = depth_exceeded
        ;   Outcome = success           % fetch_end/5 makes it failure without answers
        )
    ;   E == time_limit_exceeded
    ->  Outcome = timeout, Error = none
    ;   E == inference_limit_exceeded
    ->  Outcome = inference_limit, Error = none
    ;   Outcome = error, Error = E
    ).

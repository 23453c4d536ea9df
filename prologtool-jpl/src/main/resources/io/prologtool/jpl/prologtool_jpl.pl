/*  prologtool JPL entry: how the in-process backend reaches the harness.

    Java calls one fixed predicate, request/4, with the request JSON as an
    atom and gets the reply JSON back as an atom; no other term crosses
    JPL (FACTS, "JPL"). The rest of this file is what only an embedded
    Prolog needs:

      - Requests do not run on the JPL engines themselves. Each JPL worker
        hands its request to an executor: a Prolog thread created here,
        with a C stack far larger than what the harness's depth limits let
        SWI-Prolog's recursive C code use, and waits for the reply at most
        the request's budget. An executor that has not answered by then
        (a goal looping where no signal reaches it) is abandoned: the
        worker answers the call itself, takes a new executor for its next
        request, and the old one ends when its request does (it is asked
        again and again to stop). So no goal keeps an engine, and a goal
        that ends its thread (thread_exit/1 somehow) costs its executor,
        never the engine. Requests that run no user code and end within
        a bound of their own (a session's open and close) run on the JPL
        engine itself (request_here/2): handing a request to a blocked
        thread and the reply back costs two wake-ups, 40-50 us each on
        two cores, more than such a request's own work.
      - JPL carries characters of the Basic Multilingual Plane only: a
        character above U+FFFF is dropped or raises representation_error
        on the way in and on the way out. Such characters travel as JSON
        surrogate-pair escapes (\uD83D\uDE00) both ways: Java escapes them
        in the request, decode_astral/2 joins them before the harness
        parses the request, encode_astral/2 escapes them in the reply.
      - Text comes back as an atom (JPL leaks every string it returns).
      - Each running request is registered with the ticket Java gave it,
        so that interrupt/1 can throw into the executor running it.
      - Each engine and executor is a Prolog thread with its own standard
        streams: setup_engine/0 gives it an empty user_input (goals read
        end of file) and sends its stray output to stderr, never to the
        JVM's stdout.
      - The JVM's process must never halt from Prolog: the harness's halt
        guard is armed from the start.
*/

:- module(prologtool_jpl,
          [ request/4,                  % +Ticket, +Budget, +RequestText, -ReplyText
            request_here/2,             % +RequestText, -ReplyText
            interrupt/1,                % +Ticket
            interrupt_abandoned/1,      % -Count
            setup_engine/0,
            module_count/1,             % -Count
            session_module_count/1      % -Count
          ]).

:- use_module(library(lists)).
:- use_module(library(http/json)).
:- catch(use_module(library(pcre), [re_match/2]), _, true).

:- dynamic
    running/2,                          % Ticket, Executor
    abandoned/1.                        % Executor left behind by its worker
:- thread_local
    worker_executor/2.                  % Executor, Queue (in a JPL worker)

%   Several executors serve requests at once, and halt is never allowed.
:- initialization(( assertz(prologtool_harness:threaded),
                    assertz(prologtool_harness:halt_armed) )).

%   The C stack of an executor. Reserved, not committed: only what a
%   request touches becomes memory. The harness keeps terms, text and
%   re-entry from C within limits that need a few megabytes at most.
executor_c_stack(268435456).

%!  request(+Ticket:integer, +Budget:number, +RequestText:atom, -ReplyText:atom) is det.
%
%   Run one harness request (prologtool_harness:handle_request/2, which
%   never fails or throws) on behalf of the Java call with Ticket, on
%   this worker's executor, waiting at most Budget seconds.
%
%   The reply crosses as an atom, not a string: JPL 7.6.1 leaks the text
%   of every string it hands to Java (measured: about the string's length
%   in bytes per call), while a reply atom is reclaimed by atom garbage
%   collection.

request(Ticket, Budget, RequestText, ReplyText) :-
    decode_astral(RequestText, Request),
    executor(Exec, Queue),
    thread_self(Me),
    thread_send_message(Queue, run(Ticket, Request, Me)),
    get_time(Now),
    Until is Now + Budget,
    (   await_reply(Me, Ticket, Until, Outcome)
    ->  true
    ;   assertz(abandoned(Exec)),
        retractall(worker_executor(_, _)),
        thread_send_message(Queue, stop),   % in case it is idle by now
        Outcome = abandoned
    ),
    reply_text(Outcome, Request, Text),
    atom_string(ReplyText, Text).

%!  request_here(+RequestText:atom, -ReplyText:atom) is det.
%
%   Run one harness request on this engine itself. Only for requests
%   that run no user code and end within a bound of their own whatever
%   the session did: Java sends open and close this way (a close stops
%   the session's cursors and threads, waiting at most a second for
%   each, and defers itself while a goal of the session still runs). So
%   no goal can keep the engine, and nothing here needs the executor's
%   C stack, its interrupts or its abandonment.

request_here(RequestText, ReplyText) :-
    decode_astral(RequestText, Request),
    catch(prologtool_harness:handle_request(Request, Reply), E,
          ( message_to_codes_safe(E, Msg),
            failure_reply(Request, protocol_error, Msg, Reply) )),
    encode_astral(Reply, Text),
    atom_string(ReplyText, Text).

%   The reply for Ticket; stale messages (of a request this worker gave up
%   on, whose executor answered after all) are dropped.
await_reply(Me, Ticket, Until, Outcome) :-
    get_time(Now),
    Left is Until - Now,
    Left > 0,
    thread_get_message(Me, msg(T, Body), [timeout(Left)]),
    (   T == Ticket
    ->  Outcome = Body
    ;   await_reply(Me, Ticket, Until, Outcome)
    ).

reply_text(reply(Text), _, Text).
reply_text(abandoned, Request, Text) :-
    failure_reply(Request, timeout,
                  "The request did not stop at its time limit; the thread running it \c
                   was left to end on its own and the session goes on", Text).
reply_text(died(Status), Request, Text) :-
    format(string(Msg), "The Prolog thread running the request ended (~q); \c
                         the session goes on", [Status]),
    failure_reply(Request, session_crashed, Msg, Text).

failure_reply(Request, Kind, Message, Text) :-
    (   catch(atom_json_dict(Request, Dict, []), _, fail),
        get_dict(id, Dict, Id)
    ->  true
    ;   Id = null
    ),
    atom_json_dict(Text0, _{id:Id, ok:false, abandoned:true,
                            error:_{kind:Kind, message:Message, prolog_term:null}},
                   [as(string), width(0)]),
    encode_astral(Text0, Text).

%   This worker's executor, started on first use or after the last one
%   was abandoned or ended.
executor(Exec, Queue) :-
    worker_executor(Exec, Queue),
    \+ abandoned(Exec),
    catch(thread_property(Exec, status(running)), _, fail),
    !.
executor(Exec, Queue) :-
    retractall(worker_executor(_, _)),
    thread_self(Worker),
    message_queue_create(Queue),
    executor_c_stack(CStack),
    thread_create(executor_loop(Queue), Exec,
                  [ c_stack(CStack),
                    detached(true),
                    at_exit(executor_exit(Worker, Queue))
                  ]),
    assertz(worker_executor(Exec, Queue)).

executor_loop(Queue) :-
    setup_engine,
    executor_serve(Queue).

executor_serve(Queue) :-
    thread_get_message(Queue, Message),
    (   Message = run(Ticket, Request, ReplyTo)
    ->  serve_one(Ticket, Request, ReplyTo),
        thread_self(Me),
        (   abandoned(Me)
        ->  true                        % its worker has a new one: end
        ;   executor_serve(Queue)
        )
    ;   true                            % stop
    ).

serve_one(Ticket, Request, ReplyTo) :-
    thread_self(Me),
    nb_setval('$pt_ticket', Ticket),
    catch(setup_call_cleanup(
              assertz(running(Ticket, Me)),
              prologtool_harness:handle_request(Request, Reply),
              retractall(running(Ticket, _))),
          E,
          ( message_to_codes_safe(E, Msg),
            failure_reply(Request, protocol_error, Msg, Reply) )),
    nb_setval('$pt_ticket', none),
    (   abandoned(Me)
    ->  true
    ;   encode_astral(Reply, Text),
        thread_send_message(ReplyTo, msg(Ticket, reply(Text)))
    ).

message_to_codes_safe(E, Msg) :-
    catch(format(string(Msg), "The request raised ~q outside the harness",
                 [E]), _, Msg = "The request raised an exception outside the harness").

%   When an executor ends: a worker still waiting for it learns why, and
%   whatever its request held is given back.
executor_exit(Worker, Queue) :-
    thread_self(Me),
    (   retract(abandoned(Me))
    ->  true
    ;   nb_current('$pt_ticket', Ticket),
        Ticket \== none
    ->  (   thread_property(Me, status(Status)) -> true ; Status = unknown ),
        catch(thread_send_message(Worker, msg(Ticket, died(Status))), _, true)
    ;   true
    ),
    retractall(running(_, Me)),
    catch(prologtool_harness:release_sessions, _, true),
    catch(message_queue_destroy(Queue), _, true).

%!  interrupt(+Ticket:integer) is det.
%
%   Ask the executor running Ticket to stop: throw time_limit_exceeded
%   into it, as its own expired time limit would. A request that has
%   ended in the meantime is left alone (the signal checks again when it
%   runs).

interrupt(Ticket) :-
    forall(running(Ticket, Thread),
           catch(thread_signal(Thread, prologtool_jpl:stop(Ticket)), _, true)).

stop(Ticket) :-
    (   running(Ticket, _)
    ->  throw(time_limit_exceeded)
    ;   true
    ).

%!  interrupt_abandoned(-Count) is det.
%
%   Ask every abandoned executor to stop, as interrupt/1 does; Count is
%   how many are still running.

interrupt_abandoned(Count) :-
    findall(E, abandoned(E), Es),
    forall(member(E, Es),
           (   running(Ticket, E)
           ->  catch(thread_signal(E, prologtool_jpl:stop(Ticket)), _, true)
           ;   true
           )),
    length(Es, Count).

%!  setup_engine is det.
%
%   Run once in every engine and executor, before its first request.

setup_engine :-
    set_prolog_flag(debug_on_error, false),
    open_string("", In),
    set_stream(In, alias(user_input)),
    set_input(In),
    stream_property(Err, alias(user_error)),
    set_stream(Err, alias(user_output)),
    set_output(Err).

%!  module_count(-Count) is det.
%
%   The number of modules in the embedded Prolog, temporary ones (which
%   current_module/1 does not enumerate, and which sessions are) included.

module_count(Count) :-
    statistics(modules, Count).

%!  session_module_count(-Count) is det.
%
%   The number of modules that sessions hold: their own and the plunit
%   modules of their units (plunit_m_<id>__<unit>). Session modules are
%   temporary, and current_module/1 does not list temporary modules (nor
%   some of SWI-Prolog's own): they are counted as the modules it does
%   not list, less those it did not list when the harness was loaded.
%   Libraries that load on first use are not counted.

session_module_count(Count) :-
    unlisted_modules(Unlisted),
    unlisted_at_start(Start),
    aggregate_all(count,
                  ( current_module(M),
                    sub_atom(M, 0, _, _, plunit_m_)
                  ),
                  Units),
    Count is Unlisted - Start + Units.

unlisted_modules(N) :-
    statistics(modules, All),
    aggregate_all(count, current_module(_), Listed),
    N is All - Listed.

:- dynamic unlisted_at_start/1.

record_unlisted_modules :-
    unlisted_modules(N),
    retractall(unlisted_at_start(_)),
    assertz(unlisted_at_start(N)).

:- initialization(record_unlisted_modules).

                 /*******************************
                 *   CHARACTERS ABOVE U+FFFF    *
                 *******************************/

%!  decode_astral(+Text, -Decoded) is det.
%
%   Replace each JSON escape of a surrogate pair (\uD83D\uDE00) in Text by
%   the character itself. Other escapes stay for the JSON parser: they
%   are consumed two characters at a time, so an escaped backslash before
%   "u" is never read as an escape.

decode_astral(Text, Text) :-
    \+ sub_atom_icasechk(Text, _, '\\ud'),
    !.
decode_astral(Text, Decoded) :-
    atom_codes(Text, Codes),
    phrase(join_pairs(Joined), Codes),
    string_codes(Decoded, Joined).

join_pairs([C|Cs]) -->
    "\\u", hex4(Hi), { Hi >= 0xD800, Hi =< 0xDBFF },
    "\\u", hex4(Lo), { Lo >= 0xDC00, Lo =< 0xDFFF },
    !,
    { C is 0x10000 + ((Hi - 0xD800) << 10) + (Lo - 0xDC00) },
    join_pairs(Cs).
join_pairs([0'\\, C|Cs]) -->
    "\\", [C],
    !,
    join_pairs(Cs).
join_pairs([C|Cs]) -->
    [C],
    !,
    join_pairs(Cs).
join_pairs([]) -->
    [].

hex4(V) -->
    hex(A), hex(B), hex(C), hex(D),
    { V is (A << 12) + (B << 8) + (C << 4) + D }.

hex(V) -->
    [C],
    { code_type(C, xdigit(V)) }.

%!  encode_astral(+Reply, -Text) is det.
%
%   Escape every character of Reply that JPL cannot carry: above U+FFFF
%   (as a surrogate pair) or a lone surrogate. The reply is JSON, where
%   such characters can only occur inside strings, so escaping them there
%   keeps it valid.

encode_astral(Reply, Text) :-
    ascii_only(Reply),
    !,
    Text = Reply.
encode_astral(Reply, Text) :-
    string_codes(Reply, Codes),
    (   member(C, Codes),
        unsafe_code(C)
    ->  phrase(escape_codes(Codes), Escaped),
        string_codes(Text, Escaped)
    ;   Text = Reply
    ).

%   ascii_only(+Text) is semidet: a scan in C (PCRE) for the usual reply,
%   which holds no character above U+007F; looking at each code in Prolog
%   costs about 35 us per reply. Without library(pcre) every reply takes
%   the slow path.
ascii_only(Text) :-
    catch(\+ re_match("[^\\x00-\\x7f]", Text), _, fail).

unsafe_code(C) :-
    (   C > 0xFFFF
    ->  true
    ;   C >= 0xD800,
        C =< 0xDFFF
    ).

escape_codes([]) -->
    [].
escape_codes([C|Cs]) -->
    (   { C > 0xFFFF }
    ->  { V is C - 0x10000,
          Hi is 0xD800 + (V >> 10),
          Lo is 0xDC00 + (V /\ 0x3FF) },
        unicode_escape(Hi),
        unicode_escape(Lo)
    ;   { C >= 0xD800, C =< 0xDFFF }
    ->  unicode_escape(C)
    ;   [C]
    ),
    escape_codes(Cs).

unicode_escape(C) -->
    { format(codes(Codes), "\\u~|~`0t~16r~4+", [C]) },
    Codes.

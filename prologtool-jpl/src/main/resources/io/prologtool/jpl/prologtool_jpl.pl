:- encoding(utf8).
/*  prologtool JPL entry: how the in-process backend reaches the harness.

    Java calls one fixed predicate, request/3, with the request JSON as an
    atom and gets the reply JSON back as an atom; no other term crosses
    JPL (FACTS, "JPL"). The rest of this file is what only an embedded
    Prolog needs:

      - Every request runs on the engine of the Java worker thread that
        calls request/3: an engine of its own, attached to that thread
        for the thread's life (never one of JPL's pool, which would move
        between threads), with the thread's C stack of 256 MiB, far more
        than what the harness's depth limits let SWI-Prolog's recursive C
        code use. A request that outlives its budget (a goal looping where
        no signal reaches it) is left to its worker: Java answers the call
        itself, starts another worker in its place, and keeps asking the
        old one to stop (interrupt/1); that worker ends when its request
        does. So a goal that ignores every limit costs a thread, never a
        worker's place, and no request crosses to another thread inside
        Prolog (a hand-off to a blocked thread and back costs two
        wake-ups, 40-50 us each on two cores). No goal can end a worker's
        thread: thread_exit/1 is refused by the guard, and calls
        qualified with system by the isolation check.
      - JPL carries characters of the Basic Multilingual Plane only: a
        character above U+FFFF is dropped or raises representation_error
        on the way in and on the way out. Such characters travel as JSON
        surrogate-pair escapes (\uD83D\uDE00) both ways: Java escapes them
        in the request, decode_astral/2 joins them before the harness
        parses the request, encode_astral/2 escapes them in the reply.
      - Text comes back as an atom (JPL leaks every string it returns).
      - Each running request is registered with the ticket Java gave it,
        so that interrupt/1 can throw into the thread running it.
      - Each engine is a Prolog thread with its own standard
        streams: setup_engine/0 gives it an empty user_input (goals read
        end of file) and sends its stray output to stderr, never to the
        JVM's stdout.
      - The JVM's process must never halt from Prolog: the harness's halt
        guard is armed from the start.
*/

:- module(prologtool_jpl,
          [ request/3,                  % +Ticket, +RequestText, -ReplyText
            interrupt/1,                % +Ticket
            cancel/1,                   % +Ticket
            setup_engine/0,
            module_count/1,             % -Count
            session_module_count/1      % -Count
          ]).

:- use_module(library(lists)).
:- use_module(library(http/json)).
:- use_module(library(aggregate)).
:- catch(use_module(library(pcre), [re_match/2]), _, true).

:- dynamic
    running/2,                          % Ticket, Thread
    cancelled_early/1.                  % Ticket

%   Several engines serve requests at once, and halt is never allowed.
%   Said once however often it runs: a saved state keeps the facts and
%   runs the initialization again when it starts.
:- initialization(( retractall(prologtool_harness:threaded),
                    assertz(prologtool_harness:threaded),
                    retractall(prologtool_harness:halt_armed),
                    assertz(prologtool_harness:halt_armed) )).

%!  request(+Ticket:integer, +RequestText:atom, -ReplyText:atom) is det.
%
%   Run one harness request (prologtool_harness:handle_request/2, which
%   never fails or throws) on this engine, on behalf of the Java call
%   with Ticket, registered so that interrupt/1 can reach it.
%
%   The reply crosses as an atom, not a string: JPL 7.6.1 leaks the text
%   of every string it hands to Java (measured: about the string's length
%   in bytes per call), while a reply atom is reclaimed by atom garbage
%   collection.

request(Ticket, RequestText, ReplyText) :-
    decode_astral(RequestText, Request),
    thread_self(Me),
    catch(setup_call_cleanup(
              start_request(Ticket, Me),
              prologtool_harness:handle_request(Request, Reply),
              retractall(running(Ticket, _))),
          E,
          (   E == '$pt_cancelled'
          ->  failure_reply(Request, cancelled, "The request was cancelled", Reply)
          ;   message_to_codes_safe(E, Msg),
              failure_reply(Request, protocol_error, Msg, Reply)
          )),
    encode_astral(Reply, Text),
    atom_string(ReplyText, Text).

%   start_request(+Ticket, +Me): register the request, and take over a
%   cancel that came before it was registered (cancel/1), for the harness
%   to act on when the request reaches its dispatch. The thread's pending
%   cancel is set before the request is registered, under the mutex that
%   cancel/1 takes: a cancel that comes once it is registered is a signal
%   whose cancel_strike/1 may set the pending cancel at once, and setting
%   it after that would lose it.
start_request(Ticket, Me) :-
    with_mutex(prologtool_jpl_cancel,
               ( (   retract(cancelled_early(Ticket))
                 ->  nb_setval('$pt_cancel_pending', prologtool_jpl:running(Ticket, _))
                 ;   nb_setval('$pt_cancel_pending', [])
                 ),
                 assertz(running(Ticket, Me)),
                 (   cancelled_early(_)
                 ->  prune_early(Ticket)
                 ;   true
                 ) )).

%   Cancels that came too late (their request had ended) are dropped once
%   requests far past them run: tickets grow, and calls start in order.
prune_early(Ticket) :-
    Old is Ticket - 10000,
    forall(( cancelled_early(T), T < Old ), retract(cancelled_early(T))).

failure_reply(Request, Kind, Message, Text) :-
    (   catch(atom_json_dict(Request, Dict, []), _, fail),
        get_dict(id, Dict, Id)
    ->  true
    ;   Id = null
    ),
    atom_json_dict(Text, _{id:Id, ok:false,
                           error:_{kind:Kind, message:Message, prolog_term:null}},
                   [as(string), width(0)]).

message_to_codes_safe(E, Msg) :-
    catch(format(string(Msg), "The request raised ~q outside the harness",
                 [E]), _, Msg = "The request raised an exception outside the harness").

%!  interrupt(+Ticket:integer) is det.
%
%   Ask the thread running Ticket to stop: where it runs session code
%   past the harness's deadline (the same check as the watchdog's,
%   watch_expired/0 of harness_limits.pl), throw time_limit_exceeded into
%   it, as its own expired time limit would. A request that has ended in
%   the meantime is left alone (the signal checks again when it runs),
%   and so is one whose session code has ended: the harness is writing
%   its reply, and an exception there would lose the answers it found
%   (the reply of a goal whose answers take long to write came back as
%   "raised time_limit_exceeded outside the harness").

interrupt(Ticket) :-
    forall(running(Ticket, Thread),
           catch(thread_signal(Thread, prologtool_jpl:stop(Ticket)), _, true)).

%!  cancel(+Ticket:integer) is det.
%
%   Cancel the request Ticket: throw prologtool_harness's '$pt_cancelled'
%   into the thread running it (cancel_strike/1 of harness_limits.pl),
%   which the harness reports as outcome cancelled. A request that has
%   ended in the meantime, or ends before the signal is handled, is left
%   alone, and so is whatever its thread runs next. A cancel that comes
%   before the request is registered is kept for it (start_request/2).

cancel(Ticket) :-
    with_mutex(prologtool_jpl_cancel,
               (   running(Ticket, Thread)
               ->  catch(thread_signal(Thread,
                                       prologtool_harness:cancel_strike(prologtool_jpl:running(Ticket, _))),
                         _, true)
               ;   assertz(cancelled_early(Ticket))   % start_request/2 takes it
               )).

stop(Ticket) :-
    (   running(Ticket, _)
    ->  prologtool_harness:watch_expired
    ;   true
    ).

%!  setup_engine is det.
%
%   Run once in every engine, before its first request.

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

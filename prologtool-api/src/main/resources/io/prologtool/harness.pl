:- encoding(utf8).
/*  prologtool harness: the one Prolog program behind every backend.

    A backend hands it one JSON request and gets one JSON reply back:
      - process backend: serve/0 reads a request per line on standard
        input and writes a reply per line on the original standard output,
        which no user code can reach (user_output is rebound to stderr);
      - in-process backend: handle_request/2 takes the request text as an
        atom and returns the reply text.

    Each session is a module m_<id>. User code, its flags and operators
    live there, never in user.  Every request names its session.

    The wire format of terms (see io.prologtool.json.TermJson):
      {"type":"atom","value":"bob"}      {"type":"integer","value":42}
      {"type":"float","value":1.5}       (or "inf", "-inf", "nan")
      {"type":"string","value":"text"}   {"type":"variable","name":"_G1"}
      {"type":"list","elements":[...]}   (+ "tail" for partial lists)
      {"type":"compound","functor":"f","args":[...]}
    A cyclic term is sent as its finite factorisation @(Skeleton, Bindings).
*/

:- module(prologtool_harness,
          [ serve/0,                    % process backend main loop
            handle_request/2            % +RequestText, -ReplyText
          ]).

:- use_module(library(http/json)).
:- use_module(library(lists)).
:- use_module(library(apply)).
:- use_module(library(option)).
:- use_module(library(error)).
:- use_module(library(time)).
:- use_module(library(prolog_stream)).
:- use_module(library(process)).
:- use_module(library(sandbox)).
:- use_module(library(plunit), []).

%!  preloaded_library(?Library) is nondet.
%
%   The libraries every session sees as swipl's toplevel does after
%   use_module/1: their exported predicates and operators (clpfd's #=,
%   in, ins, #<==>, ...) without a declaration, sandboxed or not. They
%   are imported into the module prologtool_libraries, the base of
%   prologtool_guard (harness_guard.pl) and so of every session, below
%   the session's own predicates: a program may define a predicate of
%   the same name, or import the library itself, without a warning.
%   The README lists them; keep the two in step.

preloaded_library(clpfd).
preloaded_library(lists).
preloaded_library(apply).
preloaded_library(aggregate).
preloaded_library(pairs).
preloaded_library(assoc).
preloaded_library(ordsets).
preloaded_library(solution_sequences).
preloaded_library(yall).
preloaded_library(dicts).
preloaded_library(option).
preloaded_library(error).

:- set_module(prologtool_libraries:base(system)).
:- forall(preloaded_library(Lib),
          @(use_module(library(Lib)), prologtool_libraries)).

:- dynamic
    session/2,                  % Module, Options
    session_message/3,          % Module, Seq, Diagnostic (json term)
    loaded_source/3,            % Module, SourceId, N: its Nth text, unloaded on close
    source_count/2,             % Module, N: how many texts it has loaded
    free_source/1,              % SourceId to reuse
    reused_source/2,            % Module, SourceId its next text takes
    halt_armed/0,               % halt/0,1 is refused from now on
    halt_allowed/0,             % ... except by the harness itself
    threaded/0,                 % requests run on several threads at once
    session_busy/2,             % Module, Thread running a request of it
    pending_close/1,            % Module to close once its request ends
    closed_module/2.            % Module of a closed session, Threads still running in it
:- thread_local
    collected/1.                % diagnostics of the running consult

:- meta_predicate
    with_captured_output(0, +, -, -).

%   Each part of the harness adds its own request/3 clauses.
:- discontiguous request/3.

                 /*******************************
                 *            SET-UP            *
                 *******************************/

%   halt/0,1 in user code must never end the process (or the JVM that
%   embeds it): once a backend has armed the guard (serve/0, or the JPL
%   entry), every halt is cancelled unless the harness itself set
%   halt_allowed, whatever thread calls it and through whatever module.
%   Nothing session code can write decides it: both are facts of this
%   module, which the isolation check keeps sessions out of. Cancelling
%   makes the halting goal fail; '$pt_halt_attempted' tells the goal
%   runner that it happened, so it reports an error instead. Before the
%   guard is armed (compiling a saved state) halt works as usual.
:- at_halt(halt_guard).

halt_guard :-
    (   ( halt_allowed ; \+ halt_armed )
    ->  true
    ;   nb_setval('$pt_halt_attempted', true),
        cancel_halt('halt/0,1 is not permitted inside a prologtool session')
    ).

%   A goal that reads standard input reads end-of-file: user_input is an
%   empty stream of the harness's, on every thread that serves requests
%   (standard_input/0 in harness_guard.pl keeps it so).
:- thread_local empty_input_stream/1.

empty_input :-
    (   empty_input_stream(In),
        is_stream(In)
    ->  true
    ;   open_string("", In),
        retractall(empty_input_stream(_)),
        assertz(empty_input_stream(In))
    ),
    set_stream(In, alias(user_input)),
    set_input(In).

:- initialization(empty_input).

                 /*******************************
                 *       PROCESS TRANSPORT      *
                 *******************************/

%!  serve is det.
%
%   Main loop of a swipl child: one JSON request per line on stdin, one
%   JSON reply per line on the original stdout. Halts when stdin ends.
%   Run as the toplevel goal (`swipl -t prologtool_harness:serve`), which
%   SWI-Prolog starts again after an abort (answer_aborted/1).
%   Blank lines are skipped (the harness itself may have arrived on stdin
%   just before, as `[user]` text ending in `end_of_file.`).

serve :-
    catch(serve_, E, serve_ended(E)).

%   An abort goes on (SWI-Prolog raises it again after any recovery) to
%   the toplevel, which starts serve/0 again (answer_aborted/1); anything
%   else that ends serving before its loop runs ends the child, rather
%   than have the toplevel start it again and again.
serve_ended('$aborted') :-
    !.
serve_ended(E) :-
    print_message(error, E),
    assertz(halt_allowed),
    halt(1).

serve_ :-
    % A saved state built with `swipl -c` starts with autoloading off;
    % sessions rely on it (member/2, sum_list/2, ...).
    set_prolog_flag(autoload, true),
    (   halt_armed -> true ; assertz(halt_armed) ),
    % The process's own descriptors: user_input is already the empty stream.
    stream_property(ProtoIn, file_no(0)),
    stream_property(ProtoOut, file_no(1)),
    stream_property(Err, file_no(2)),
    maplist([S]>>set_stream(S, encoding(utf8)), [ProtoIn, ProtoOut, Err]),
    set_stream(ProtoOut, buffer(full)),
    % From here on nothing but replies reaches the protocol stream.
    set_stream(Err, alias(user_output)),
    set_output(Err),
    empty_input,
    thread_self(Main),
    retractall(serving_input(_, _)),
    assertz(serving_input(ProtoIn, Main)),      % harness_limits.pl, cancellation
    % Taken while the child waits to serve, not when a session opens.
    record_reach_baseline,              % harness_recycle.pl
    answer_aborted(ProtoOut),
    % Whatever ends the loop, the child must exit: the halt guard would
    % otherwise cancel its own process's halt.
    catch(serve_loop(ProtoIn, ProtoOut), E, print_message(error, E)),
    assertz(halt_allowed),
    halt(0).

%   answer_aborted(+Out): serve/0 runs as the child's toplevel goal
%   (`swipl -t`), which SWI-Prolog runs again when an abort ends it. No
%   session code can abort (abort/0 is refused), but SWI-Prolog raises
%   '$aborted' in place of an error it cannot copy for lack of stack (an
%   error naming a culprit as large as the stacks left to the goal:
%   copy_exception() in pl-fli.c), and an abort goes on through every
%   catch/3 to the end of the query. The request it ended ('$pt_serving'
%   still holds its id) gets its reply here, an error of kind
%   resource_error; the child, its sessions and their programs stay.
answer_aborted(Out) :-
    (   flag('$pt_serving', Id, Id),
        Id \== 0
    ->  served,
        Message = "The goal raised an error whose term did not fit in the stacks left to it, \c
                   so SWI-Prolog aborted the goal instead (raise the session's stack limit to see the error)",
        reply_text([id=Id, ok= @(false),
                    error=json([kind=resource_error, message=Message, prolog_term= @(null)])], Reply),
        nl(Out),
        write(Out, Reply),
        nl(Out),
        flush_output(Out)
    ;   true
    ).

serve_loop(In, Out) :-
    poll_briefly(In),
    read_line_to_string(In, Line),
    note_gap,
    (   Line == end_of_file
    ->  true
    ;   split_string(Line, "", " \t\r", [""])
    ->  % A blank line is no request: the end of a harness sent over stdin
        % ends with one.
        serve_loop(In, Out)
    ;   sub_string(Line, 0, _, _, "{\"cancel\":")
    ->  % the cancel of a request that has ended (harness_limits.pl)
        serve_loop(In, Out)
    ;   handle_request(Line, Reply),
        served,
        % The newline first ends whatever a subprocess of a goal may have
        % written to fd 1 without one, so the reply is a line of its own.
        nl(Out),
        write(Out, Reply),
        nl(Out),
        flush_output(Out),
        recycle_after(Out),
        get_time(Replied),
        nb_setval('$pt_replied_at', Replied),
        serve_loop(In, Out)
    ).

%   recycle_after(+Out): when the request just answered carried
%   recycle_after:Id (the process backend sends it with the close of a
%   session whose child may serve again), run the recycle request
%   (harness_recycle.pl) now and write its reply, with that Id, as a
%   second line. The backend would otherwise send it once the close
%   reply is in: this way the check runs while that reply travels, and
%   the child is not woken again for it.
recycle_after(Out) :-
    (   nb_current('$pt_recycle_after', Id),
        integer(Id)
    ->  nb_setval('$pt_recycle_after', []),
        format(string(Request), '{"id":~d,"op":"recycle"}', [Id]),
        handle_request(Request, Reply),
        served,
        write(Out, Reply),
        nl(Out),
        flush_output(Out)
    ;   true
    ).

%   poll_briefly(+In): look for the next request for up to 150 us before
%   blocking in read, when polling paid for the last request: it came
%   within that time after the reply before it. A backend that sends
%   requests back to back sends the next one that soon, and a process
%   blocked in read costs 30-60 us to wake on a machine with idle cores
%   (a third of a round trip); polling costs about 0.5 us a look. When
%   requests come further apart (an agent that thinks between calls),
%   polling would only burn 150 us of CPU after every reply, so the child
%   blocks at once; the gap is measured on every request (note_gap/0).
poll_briefly(In) :-
    (   nb_current('$pt_request_gap', Gap),
        Gap < 0.00015
    ->  get_time(Now),
        Until is Now + 0.00015,
        poll_until(In, Until)
    ;   true
    ).

%   note_gap: a line came; how long after the last reply.
note_gap :-
    (   nb_current('$pt_replied_at', Replied),
        number(Replied)
    ->  get_time(Now),
        Gap is Now - Replied,
        nb_setval('$pt_request_gap', Gap)
    ;   true
    ).

poll_until(In, Until) :-
    (   wait_for_input([In], [_], 0)
    ->  true
    ;   get_time(Now),
        Now < Until
    ->  poll_until(In, Until)
    ;   true
    ).

                 /*******************************
                 *           DISPATCH           *
                 *******************************/

%!  handle_request(+RequestText, -ReplyText) is det.
%
%   Parse one JSON request, run it, and serialise the reply. Never fails
%   and never throws: whatever goes wrong becomes an ok:false reply.

handle_request(Text, ReplyText) :-
    call_cleanup(handle_request_(Text, ReplyText),
                 end_of_request).

handle_request_(Text, ReplyText) :-
    nb_setval('$pt_halt_attempted', false),
    nb_setval('$pt_reentry', 0),
    no_depth_limit,
    no_inference_limit,                 % harness_limits.pl
    standard_input,                     % harness_guard.pl
    record_fresh_fingerprint,           % harness_recycle.pl
    (   read_request(Text, Req)
    ->  ( get_dict(id, Req, Id) -> true ; Id = @(null) ),
        (   get_dict(recycle_after, Req, After),
            integer(After)
        ->  nb_setval('$pt_recycle_after', After)       % serve_loop/2 runs it
        ;   true
        ),
        note_serving(Id),                       % harness_limits.pl
        statistics(cputime, C0),
        statistics(inferences, I0),
        catch(cancellable_dispatch(Req, Pairs0), Error, error_pairs(Error, Pairs0)),
        statistics(inferences, I1),
        statistics(cputime, C1),
        with_cost(Req, I1-I0, C1-C0, Pairs0, Pairs),
        catch(reply_text([id=Id|Pairs], ReplyText0), WriteError,
              ( error_pairs(WriteError, EPairs),
                reply_text([id=Id|EPairs], ReplyText0) )),
        option_value(Req, max_reply, 16777216, MaxReply),
        bounded_reply(Id, ReplyText0, MaxReply, ReplyText)
    ;   error_pairs(error(protocol_error(bad_json), _), EPairs),
        reply_text([id= @(null)|EPairs], ReplyText)
    ).

%   with_cost(+Req, +Inferences, +Cpu, +Pairs0, -Pairs): the reply of a
%   request that runs user code (consult, goal, run_tests, execute)
%   ends in cost: {inferences, cpu_us}: the inferences this thread
%   counted while it served the request (the harness's own bookkeeping
%   included, a few hundred) and the CPU microseconds of this thread
%   (statistics(cputime), the thread's user time) meanwhile, an integer
%   (writing a float costs a reply about a microsecond). Threads the user
%   code started are not counted.
with_cost(Req, I, C, Pairs0, Pairs) :-
    (   get_dict(op, Req, Op),
        cost_op(Op)
    ->  Inferences is I,
        CpuUs is max(0, round(C * 1000000)),
        append(Pairs0, [cost=json([inferences=Inferences, cpu_us=CpuUs])], Pairs)
    ;   Pairs = Pairs0
    ).

cost_op("consult").
cost_op("goal").
cost_op("run_tests").
cost_op("execute").

%   bounded_reply(+Id, +Text, +MaxBytes, -Reply): Text, or when it takes
%   more than MaxBytes bytes of UTF-8 an error reply of kind
%   reply_too_large in its place. The backend reads no longer reply (the
%   process backend's maxReplyBytes, which it sends as max_reply when it
%   is not the default 16 MiB, ProcessBackend.DEFAULT_MAX_REPLY_BYTES;
%   the in-process backend takes the default): refused here, the reply
%   costs neither the child nor the session anything, and what the
%   request did (asserted facts, a consult) stays done. A character takes
%   at most 4 bytes, so most replies are not even measured.
bounded_reply(Id, Text, Max, Reply) :-
    string_length(Text, Len),
    (   Len * 4 =< Max
    ->  Bytes = Len
    ;   utf8_bytes(Text, Bytes)
    ),
    (   Bytes =< Max
    ->  Reply = Text
    ;   format(string(Msg), "The reply would take ~D bytes, more than the ~D bytes a reply \c
                             may take (the process backend's maxReplyBytes): ask for fewer \c
                             or smaller answers (maxAnswers, a goal that binds less), or \c
                             less output. What the request did is kept.",
               [Bytes, Max]),
        reply_text([id=Id, ok= @(false),
                    error=json([kind=reply_too_large, message=Msg, prolog_term= @(null)])],
                   Reply)
    ).

utf8_bytes(Text, Bytes) :-
    setup_call_cleanup(
        open_null_stream(Null),
        ( set_stream(Null, encoding(utf8)),
          write(Null, Text),
          byte_count(Null, Bytes) ),
        close(Null)).

%   end_of_request: what a request leaves on its thread goes back to its
%   session (global variables) or away (the standard input it rebound, the
%   claim on the session, which may let a deferred close run now).
end_of_request :-
    owned_replay,                       % harness_guard.pl
    standard_input,
    catch(save_session_globals, E, print_message(warning, E)),   % harness_guard.pl
    release_sessions,
    release_closed_modules.

%   no_depth_limit: lift any depth limit left on this thread. A time
%   limit that strikes while call_with_depth_limit/3 restores the limit
%   it replaced leaves the goal's limit in force on the thread (SWI-Prolog
%   9.0.4), and a later request there that recurses deeper than it
%   outside call_with_depth_limit/3 (a consult, a trace) simply fails.
%   On the JPL backend the thread serves every session.
no_depth_limit :-
    ignore('$depth_limit_false'(inf, 0, _)).

%!  read_request(+Text, -Request:dict) is semidet.
%
%   The request as atom_json_dict/3 with value_string_as(string) reads it;
%   fails on text that is not a JSON object.
%
%   Requests are compact JSON written by a backend, and compact JSON is
%   also Prolog text for a term of {}/1, ','/2 and :/2 over strings,
%   numbers, lists and the atoms true, false and null. SWI-Prolog's term
%   reader (C) reads it about five times faster than library(http/json)
%   (Prolog), which matters on every request. Only a term of exactly those
%   shapes is taken; everything else goes to the JSON reader: a negative
%   number after a colon (read as :-), an escape the two syntaxes do not
%   share (\/, a surrogate pair), a variable or an operator (not JSON at
%   all). So the request read is the same either way.

read_request(Text, Req) :-
    catch(term_string(Term, Text), _, fail),
    ground(Term),
    json_object_term(Term, Req),
    !.
read_request(Text, Req) :-
    catch(atom_json_dict(Text, Req, [value_string_as(string)]), _, fail),
    is_dict(Req).                       % a list or a number is no request

json_object_term({}, Dict) :-
    !,
    dict_pairs(Dict, _, []).
json_object_term({Members}, Dict) :-
    json_member_pairs(Members, Pairs),
    catch(dict_pairs(Dict, _, Pairs), _, fail).   % duplicate keys

json_member_pairs((Member, Members), [Pair|Pairs]) :-
    !,
    json_member_pair(Member, Pair),
    json_member_pairs(Members, Pairs).
json_member_pairs(Member, [Pair]) :-
    json_member_pair(Member, Pair).

json_member_pair(KeyText:Value0, Key-Value) :-
    string(KeyText),
    atom_string(Key, KeyText),
    json_value_term(Value0, Value).

json_value_term(Value, Value) :-
    string(Value),
    !.
json_value_term(Value, Value) :-
    ( integer(Value) ; float(Value) ),
    !.
json_value_term(Value, Value) :-
    atom(Value),
    json_constant(Value),
    !.
json_value_term(List, Values) :-
    is_list(List),
    !,
    maplist(json_value_term, List, Values).
json_value_term(Object, Dict) :-
    json_object_term(Object, Dict).

%   reply_text(+Pairs, -Text): the reply as one line of JSON.
%
%   The reply is made as a list of pieces joined once (atomics_to_string/2)
%   rather than written to a stream: each write to a stream costs its own
%   lookup and lock, and a trivial reply took about 30 of them (8 us, the
%   largest single cost of a trivial request in issue 16's profile).
%   Covered shapes: json(Pairs), lists, text, integers, @(true), @(false),
%   @(null). Text with no character that JSON escapes (", \ and the
%   control characters) goes in as it is; other text, and any other shape
%   (floats, for example), is written by library(http/json), so the JSON
%   is the same as json_write/3's.
%
%   The pieces are made by plain recursion over the pairs and items, one
%   type test per value, and a key of the harness's own comes with its
%   colon as one piece (json_key/2): a DCG that called its item writer
%   through call/N took 3.9 us for a trivial goal reply, this 3.1 us.

reply_text(Pairs, Text) :-
    object_pieces(Pairs, Pieces, []),
    atomics_to_string(Pieces, Text0),
    surrogates_escaped(Text0, Text).

%   surrogates_escaped(+Text0, -Text): Text0 with every code point of the
%   surrogate range (U+D800..U+DFFF, which an atom or string of session
%   code may hold alone) written as a JSON escape, \uD800: no UTF-8 can
%   carry such a code point as it is (the JVM's decoder makes it U+FFFD,
%   SWI-Prolog's memory streams and JPL's conversion refuse it), and the
%   escape decodes to the same Java char. In a reply such a code point is
%   always inside a JSON string (every other piece is ASCII), where an
%   escape stands for it. Only a wide string can hold one: a string of
%   Latin-1 text takes a byte a character, a wide one four, and
%   term_size/2 tells the two apart in 0.15 us, so most replies are never
%   scanned (a wide one is, in C: 10 us for 350 characters). A reply is
%   never shorter than 2 characters, where the two sizes could be equal.
surrogates_escaped(Text0, Text) :-
    (   term_size(Text0, Cells),
        string_length(Text0, Len),
        Cells =< (Len + 9) // 8 + 2     % 2 cells of header, a flag byte and a NUL
    ->  Text = Text0
    ;   catch(with_output_to(string(_), write(Text0)),
              error(representation_error(_), _), fail)
    ->  Text = Text0                    % wide, but no surrogate
    ;   string_codes(Text0, Codes0),
        escape_surrogate_codes(Codes0, Codes),
        string_codes(Text, Codes)
    ).

escape_surrogate_codes([], []).
escape_surrogate_codes([C|Cs], Out) :-
    (   C >= 0xD800, C =< 0xDFFF
    ->  format(codes(Out, Rest), '\\u~16r', [C])
    ;   Out = [C|Rest]
    ),
    escape_surrogate_codes(Cs, Rest).

object_pieces([]) -->
    !,
    ['{}'].
object_pieces([Pair|Pairs]) -->
    ['{'],
    pair_pieces(Pair),
    more_pair_pieces(Pairs).

more_pair_pieces([]) -->
    ['}'].
more_pair_pieces([Pair|Pairs]) -->
    [','],
    pair_pieces(Pair),
    more_pair_pieces(Pairs).

pair_pieces(Pair) -->
    { pair_key_value(Pair, Key, Value) },
    (   { atom(Key), json_key(Key, KeyPiece) }
    ->  [KeyPiece]
    ;   text_pieces(Key),
        [':']
    ),
    value_pieces(Value).

pair_key_value(Pair, Key, Value) :-
    (   Pair = (Key0=Value0)
    ->  true
    ;   Pair = Key0-Value0
    ->  true
    ;   compound(Pair),
        compound_name_arguments(Pair, Key0, [Value0])
    ->  true
    ;   type_error(json_pair, Pair)
    ),
    Key = Key0,
    Value = Value0.

value_pieces(Value) -->
    (   { atom(Value) ; string(Value) }
    ->  text_pieces(Value)
    ;   { integer(Value) }
    ->  [Value]
    ;   { float(Value), float_class(Value, Class), finite_class(Class) }
    ->  [Value]                         % written as json_write/3 writes it
    ;   { var(Value) }
    ->  other_pieces(Value)
    ;   { Value = json(Pairs) }
    ->  object_pieces(Pairs)
    ;   { Value == [] }
    ->  ['[]']
    ;   { Value = [Item|Items], is_list(Items) }
    ->  ['['],
        value_pieces(Item),
        more_item_pieces(Items)
    ;   { Value = @(Constant), atom(Constant), json_constant(Constant) }
    ->  [Constant]
    ;   other_pieces(Value)
    ).

finite_class(zero).
finite_class(subnormal).
finite_class(normal).

more_item_pieces([]) -->
    [']'].
more_item_pieces([Item|Items]) -->
    [','],
    value_pieces(Item),
    more_item_pieces(Items).

other_pieces(Value) -->
    { with_output_to(string(Text),
                     ( current_output(Out),
                       json_write(Out, Value, [width(0)]) )) },
    [Text].

text_pieces(Text) -->
    { atom(Text), json_word(Text, Quoted) },
    !,
    [Quoted].
text_pieces(Text) -->
    { Text == "" },
    !,
    ['""'].
text_pieces(Text) -->
    (   { json_unescaped(Unescaped, Nul),
          % raises on a lone surrogate, which the escaping below handles
          catch(split_string(Text, Unescaped, "", [_]), error(representation_error(_), _), fail),
          \+ sub_string(Text, _, _, _, Nul) }
    ->  ['"', Text, '"']
    ;   { catch(with_output_to(string(Escaped),
                               ( current_output(Out),
                                 json:json_write_string(Out, Text) )),
                error(representation_error(_), _),
                fail) }
    ->  [Escaped]
    ;   % a lone surrogate, which no memory stream takes: escaped by hand
        { string_codes(Text, Codes),
          phrase(json_string_codes(Codes), Quoted),
          string_codes(Escaped, Quoted) },
        [Escaped]
    ).

json_string_codes(Codes) -->
    "\"",
    json_codes(Codes),
    "\"".

json_codes([]) -->
    [].
json_codes([C|Cs]) -->
    (   { C == 0'" ; C == 0'\\ }
    ->  [0'\\, C]
    ;   { C < 0x20 ; C >= 0xD800, C =< 0xDFFF }
    ->  { format(codes(Escape), '\\u~|~`0t~16r~4+', [C]) },
        Escape
    ;   [C]
    ),
    json_codes(Cs).

%   json_unescaped(-Chars, -Nul): the characters a JSON string cannot hold
%   as they are: the quote, the backslash and the control characters, the
%   NUL character apart (split_string/4 would take it for the end of its
%   separators).
:- dynamic json_unescaped/2.
:- numlist(1, 31, Controls),
   string_codes(Chars, [0'", 0'\\|Controls]),
   string_codes(Nul, [0]),
   assertz(json_unescaped(Chars, Nul)).

%   json_word(?Word, -Quoted) and json_key(?Word, -KeyPiece): the keys and
%   words of the harness's replies, quoted once here ("word" and "word":):
%   looking one up costs a fifth of checking it.
:- dynamic json_word/2, json_key/2.
:- forall(member(Word,
                 [ % keys
                   id, ok, outcome, error, kind, message, prolog_term, messages,
                   severity, line, column, variables, answers, count, truncated,
                   depth_exceeded, output, output_truncated, residuals, module,
                   closed, pong, status, type, name, value, elements, tail,
                   functor, args, text, unit, children, tree, rule, goal,
                   rule_base, clause_count, node_count, found, clauses, traces,
                   replaced, predicate, total, tests, terms, source, skipped,
                   passed, failed, results, predicates, phase, lines, cursor,
                   clean, differences, caller, callee, arity, similar,
                   cost, inferences, cpu_us, exported, explanation, category,
                   candidates, trace_problem,
                   % words
                   success, failure, timeout, depth_exceeded, inference_limit,
                   cancelled,
                   variable, integer, float, string, list, atom, compound,
                   warning, informational
                 ]),
          (   format(atom(Quoted), '"~w"', [Word]),
              format(atom(KeyPiece), '"~w":', [Word]),
              (   json_word(Word, _)
              ->  true                  % a key and a word (depth_exceeded)
              ;   assertz(json_word(Word, Quoted)),
                  assertz(json_key(Word, KeyPiece))
              )
          )).

%   Made static once filled: a call of a dynamic predicate costs its
%   generation checks, and a reply looks these up a dozen times.
:- compile_predicates([json_unescaped/2, json_word/2, json_key/2]).

json_constant(true).
json_constant(false).
json_constant(null).

%   cancellable_dispatch(+Req, -Pairs): dispatch/2, where a cancel may
%   strike (harness_limits.pl); nowhere else in the request.
cancellable_dispatch(Req, Pairs) :-
    setup_call_cleanup(nb_setval('$pt_cancellable', true),
                       ( cancel_pending, dispatch(Req, Pairs) ),
                       nb_setval('$pt_cancellable', false)).

error_pairs(Error, [ok= @(false), error=json(ErrorPairs)]) :-
    error_json(Error, _Module, ErrorPairs).

dispatch(Req, Pairs) :-
    must_have(op, Req, Op),
    atom_string(OpA, Op),
    (   request(OpA, Req, Pairs0)
    ->  Pairs = [ok= @(true)|Pairs0]
    ;   throw(error(domain_error(harness_op, OpA), _))
    ).

must_have(Key, Dict, Value) :-
    (   get_dict(Key, Dict, Value)
    ->  true
    ;   throw(error(protocol_error(missing_key(Key)), _))
    ).

%   request(+Op, +Request, -ReplyPairs): one clause per request type.
request(ping, _, [pong= @(true)]).
request(open, Req, [module=M]) :-
    session_module(Req, M),
    (   ( session(M, _) ; closed_module(M, _) )
    ->  throw(error(permission_error(open, session, M), _))
    ;   true
    ),
    open_session(M, Req).
request(consult, Req, Pairs) :-
    existing_session(Req, M),
    must_have(text, Req, Text),
    consult_text(M, Text, Req, Pairs).
request(goal, Req, Pairs) :-
    existing_session(Req, M),
    must_have(goal, Req, Text),
    run_goal(M, Text, Req, Pairs).
request(close, Req, [closed=Closed]) :-
    session_module(Req, M),
    (   session(M, _), \+ pending_close(M)
    ->  (   threaded,
            thread_self(Me),
            session_busy(M, T), T \== Me, thread_running(T)
        ->  assertz(pending_close(M)),  % closed by T when its request ends
            Closed = @(false)
        ;   close_session(M),
            Closed = @(true)
        )
    ;   Closed = @(false)
    ).

%   session_module(+Req, -M): the module of the session the request names;
%   a domain error unless the id is a word of letters, digits and _.
session_module(Req, M) :-
    named_module(Req, Id, IdA, M0),
    (   atom_codes(IdA, Codes),
        Codes \== [],
        forall(member(C, Codes), code_type(C, csym))
    ->  M = M0
    ;   throw(error(domain_error(session_id, Id), _))
    ).

%   named_module(+Req, -Id, -IdA, -M): the request's session id, as given
%   and as an atom, and the module m_<id> it names, the id not checked.
named_module(Req, Id, IdA, M) :-
    must_have(session, Req, Id),
    atom_string(IdA, Id),
    atom_concat(m_, IdA, M).

%   existing_session(+Req, -M): the open session the request names, claimed
%   for this request under its limits. An open session's id was checked
%   when it opened, so the session is looked up first and the id checked
%   only when there is none (a domain error for a bad id, else an
%   existence error).
existing_session(Req, M) :-
    named_module(Req, _, _, M0),
    (   session(M0, Opts),
        \+ pending_close(M0)
    ->  M = M0,
        claim_session(M),
        apply_session_limits(Opts)
    ;   session_module(Req, M),
        throw(error(existence_error(session, M), _))
    ).

%   The per-thread limits of the session whose request runs now: a thread
%   serves many sessions on an in-process backend, and a session must
%   never run under what another one left behind.
apply_session_limits(Opts) :-
    (   get_dict(stack_limit, Opts, Limit), integer(Limit)
    ->  set_stack_limit(Limit)
    ;   table_tripwires
    ),
    (   get_dict(max_atom_chars, Opts, MaxAtom), integer(MaxAtom)
    ->  nb_setval('$pt_max_atom', MaxAtom)
    ;   nb_setval('$pt_max_atom', 1048576)
    ),
    % table_space is the thread's: on an in-process backend a thread holds
    % the tables of the request it runs only (release_sessions/0)
    (   get_dict(table_space, Opts, TableSpace), integer(TableSpace),
        \+ current_prolog_flag(table_space, TableSpace)
    ->  catch(set_prolog_flag(table_space, TableSpace), _, true)
    ;   true
    ).

%   claim_session(+M): when requests run on several threads (the
%   in-process backend), one session's requests never run at once: a
%   request whose session is still busy on another thread (a goal that
%   overran its limit and was left behind) waits for it up to its own
%   time limit, then fails.
claim_session(M) :-
    (   threaded
    ->  thread_self(Me),
        (   session_busy(M, Me)
        ->  true
        ;   wait_until_free(M, 200),
            assertz(session_busy(M, Me))
        )
    ;   true
    ).

wait_until_free(M, Tries) :-
    (   \+ ( session_busy(M, T), thread_running(T) )
    ->  retractall(session_busy(M, _))
    ;   Tries > 0
    ->  sleep(0.05),
        T1 is Tries - 1,
        wait_until_free(M, T1)
    ;   throw(error(resource_error(session_busy),
                    context(_, 'the previous request of this session still runs past its limit')))
    ).

thread_running(T) :-
    catch(thread_property(T, status(running)), _, fail).

release_sessions :-
    (   threaded
    ->  thread_self(Me),
        forall(retract(session_busy(M, Me)),
               (   drop_thread_tables(M),
                   (   retract(pending_close(M))
                   ->  catch(close_session(M), E, print_message(warning, E))
                   ;   true
                   )
               ))
    ;   true
    ).

%   drop_thread_tables(+M): destroy this thread's tables of session M.
%   Tables are per thread, and the next request of M may run on another
%   worker: kept, they would stay on this one after M closed (about 73
%   MB for a closed session's million answers, on every worker it had
%   used), and count against the table space of the next session this
%   thread serves. So on an in-process backend a session's tables last
%   one request. (abolish_module_tables/1 would do, but looks the module
%   up first.)
drop_thread_tables(M) :-
    catch(forall(( '$tbl_variant_table'(Tables),
                   trie_gen(Tables, M:_, Trie) ),
                 '$tbl_destroy_table'(Trie)),
          E, print_message(warning, E)).

                 /*******************************
                 *           SESSIONS           *
                 *******************************/

open_session(M, Req) :-
    (   get_dict(options, Req, Opts) -> true ; Opts = _{} ),
    % The module inherits from the guards (harness_guard.pl), and they from
    % system only: it sees the built-ins and autoloads libraries, but
    % nothing in user or in other sessions.
    set_module(M:base(prologtool_guard)),
    (   module_property(M, class(temporary))
    ->  true                        % an execute's module (harness_execute.pl)
    ;   set_module(M:class(temporary)) % destroyed on close (harness_limits.pl)
    ),
    (   get_dict(program_space, Opts, Space), integer(Space), Space > 0
    ->  set_module(M:program_space(Space))
    ;   true
    ),
    note_session_opened(Opts),          % harness_recycle.pl
    assertz(session(M, Opts)),
    nb_setval('$pt_consults', 0).

refuse_halt(M, Goal) :-
    (   sandboxed_session(M)
    ->  throw(error(sandbox_violation(Goal),
                    context(_, 'halt/0,1 and abort/0 are not permitted inside a prologtool session')))
    ;   refused_halt_error(Goal, Error),
        throw(Error)
    ).

refused_halt_error(Error) :-
    refused_halt_error(halt, Error).
refused_halt_error(Goal,
                   error(permission_error(call, halt, Goal),
                         context(halt/0, 'halt/0,1 and abort/0 are not permitted inside a prologtool session'))).

%   close_session(+M): stop what the session left running, then take
%   it apart. A cursor or thread that does not end when asked (it spins
%   in a cleanup handler, where signals are blocked) still runs the
%   session's code: its module and clauses must outlive it, or the
%   thread runs on in freed memory (a crash, and on the in-process
%   backend the crash of the JVM). Then the session ends at once (no
%   request reaches it any more) and its module is taken apart once the
%   last of those threads has ended (release_closed_modules/0).
close_session(M) :-
    stop_session_cursors(M, StuckCursors),      % harness_cursor.pl
    stop_session_threads(M, StuckThreads),      % harness_guard.pl
    append(StuckCursors, StuckThreads, Stuck),
    (   Stuck == []
    ->  take_apart_session(M)
    ;   retractall(session(M, _)),
        assertz(closed_module(M, Stuck))
    ).

%   release_closed_modules: take apart the modules of closed sessions
%   whose last thread has ended. Run after every request, on whichever
%   thread served it (the thread that closed the session may never serve
%   again).
release_closed_modules :-
    (   closed_module(_, _)
    ->  forall(( closed_module(M, Threads),
                 \+ ( member(T, Threads), thread_running(T) ) ),
               (   retract(closed_module(M, Threads))
               ->  catch(take_apart_session(M), E, print_message(warning, E))
               ;   true                 % another thread took it
               ))
    ;   true
    ).

take_apart_session(M) :-
    forget_session_units(M),            % harness_plunit.pl
    forall(consult_source(M, Id), forget_source(M, Id)),
    % no abolish/1 per predicate: destroying the module (below) frees its
    % predicates and their clauses; abolishing them first cost about 40 of
    % a PARARULE-Plus close's 130 us, and 9,000 sessions in one swipl grew
    % it by the same 43 MB either way (the tabled predicates' wrappers that
    % SWI-Prolog keeps)
    retractall(session_message(M, _, _)),
    forget_session_findings(M),         % harness_check.pl
    forall(retract(loaded_source(M, Id, _)), assertz(free_source(Id))),
    retractall(source_count(M, _)),
    retractall(session(M, _)),
    forget_session_state(M),            % harness_guard.pl
    forget_session_module(M).           % harness_limits.pl

abolish_quietly(M, PI) :-
    catch(abolish(M:PI), _, true).

%   The sources a session loaded. (source_file/1 does not list them:
%   sources loaded from a stream have modification time 0.)
consult_source(M, Id) :-
    loaded_source(M, Id, _).

%   A source id is reused by a later text (SWI-Prolog never forgets a
%   source file, nor its name: an id per text would leak an atom each):
%   it must forget the module it was loaded into, and the goals it ran
%   with initialization(Goal, now) or registered for restore_state:
%   SWI-Prolog keeps those (system:'$init_goal'/3, for saved states) until
%   the source itself is destroyed. Each tabled predicate is one (:- table
%   runs '$wrap_tabled' now), and each names the session's module: kept,
%   they cost about 15 KB a session and made every later load slower.
%
%   forget_source(+M, +Id): what the harness forgets of source Id of the
%   closed session M. A source that defined predicates of M only is not
%   unloaded: destroying M (forget_session_module/1) frees them and takes
%   them off the source's list. SWI-Prolog 9.0.4's '$unload_file'/1 ends
%   with a clause garbage collection over every predicate that has erased
%   clauses, whose cost grows with the sessions open: closing the newest
%   of 16,000 sessions took 2 ms, and a backend closing 50,000 took
%   minutes; without it a close takes 0.3 ms whatever the number. A
%   source that declared a module (a test unit's: the source names its
%   modules, and only unloading forgets them) or added clauses to a
%   predicate of another module (a multifile hook) is unloaded, before M
%   is destroyed, as a source of a session that goes on is.
forget_source(M, Id) :-
    (   (   '$current_module'(_, Id)
        ;   '$source_file_predicates'(Id, Preds),
            member(Q:Head, Preds),
            Q \== M,
            Q:Head \= system:'$init_goal'(_, _, _)  % forgotten below
        )
    ->  unload_source(Id)
    ;   forget_source(Id)
    ).

forget_source(Id) :-
    retractall(system:'$init_goal'(_, _, Id:_)),
    retractall(system:'$load_context_module'(Id, _, _)).

%   unload_source(+Id): a source of a session that goes on (a test text
%   run again) is unloaded, then forgotten. '$unload_file'/1 takes a name
%   it does not know (a text that loaded nothing) as done; unload_file/1
%   would first look the name up among every source file, one by one.
unload_source(Id) :-
    catch('$unload_file'(Id), _, true),
    forget_source(Id).

%   must_be_time_limit(+Seconds): a request's time limit, more than 0.
must_be_time_limit(Seconds) :-
    (   number(Seconds), Seconds > 0
    ->  true
    ;   domain_error(positive_time_limit, Seconds)
    ).

option_value(Req, Key, Default, Value) :-
    (   get_dict(Key, Req, V0), V0 \== null
    ->  Value = V0
    ;   Value = Default
    ).

                 /*******************************
                 *            CONSULT           *
                 *******************************/

%   consult_text(+Module, +Text, +Req, -ReplyPairs)
%
%   Load Text into Module as a new source (so a later consult adds to the
%   session rather than reloading). Loading is non-fatal: what compiles
%   stays loaded, and every message becomes a diagnostic with the line
%   in Text. Then the static check (harness_check.pl) adds a warning for
%   each call in Text to a predicate the session cannot call, unless Req
%   has check:false (or the session static_check:false and Req no check).

consult_text(M, Text, _Req, [messages=[Diag], output="", output_truncated= @(false)]) :-
    text_nesting_exceeds(Text, Offset),        % harness_guard.pl
    !,
    sub_string(Text, 0, Offset, _, Before),
    split_string(Before, "\n", "", Lines),
    length(Lines, Line),
    term_depth_limit(Limit),
    format(string(Msg), "Not loaded: brackets nest more than ~D levels deep here, \c
                         deeper than SWI-Prolog's reader can safely go", [Limit]),
    Diag = json([severity=error, kind=resource_error, message=Msg, line=Line]),
    remember_messages(M, [Diag]).
consult_text(M, Text, Req, [messages=Diags, output=Output, output_truncated= @(Cut)]) :-
    option_value(Req, time_limit, 30, TimeLimit),
    option_value(Req, max_output, 65536, MaxOut),
    option_value(Req, directory, [], Dir),
    next_source_id(M, Id),
    (   sandboxed_session(M) -> Sandbox = [sandboxed(true)] ; Sandbox = [] ),
    retractall(collected(_)),
    declare_discontiguous(M, Text),
    setup_call_cleanup(
        open_string(Text, In),
        with_captured_output(
            catch(limit_time(
                      TimeLimit,
                      setup_call_cleanup(
                          ( nb_setval('$pt_loading', M),
                            nb_setval('$pt_load_dir', Dir) ),
                          load_sandboxed(Sandbox, load_files(M:Id, [stream(In), silent(true), modified(0.0)|Sandbox])),
                          ( nb_setval('$pt_loading', []),
                            nb_setval('$pt_load_dir', []) ))),
                  E, load_exception(E)),
            MaxOut, Output, Cut),
        close(In)),
    findall(D, retract(collected(D)), Diags0),
    remember_messages(M, Diags0),
    (   static_check_wanted(M, Req) -> Check = true ; Check = false ),
    static_check(M, Id, Check, Checked),        % harness_check.pl
    append(Diags0, Checked, Diags).

%   load_sandboxed(+Sandbox, :Load): run Load, with this thread's flag
%   sandboxed_load set to true first when Sandbox asks for a sandboxed
%   load. load_files/2 then finds the sandbox entered already and does
%   not look for library(sandbox) again (source_file_property/2 through
%   absolute_file_name/3: about 40 us of each consult). Prolog flags are
%   the thread's own: no other thread's loads change.
load_sandboxed([], Load) :-
    !,
    call(Load).
load_sandboxed(_, Load) :-
    current_prolog_flag(sandboxed_load, Old),
    (   Old == true
    ->  call(Load)
    ;   setup_call_cleanup(set_prolog_flag(sandboxed_load, true),
                           Load,
                           set_prolog_flag(sandboxed_load, Old))
    ).

%   declare_discontiguous(+M, +Text): in a session opened with
%   declare_discontiguous, declare discontiguous each predicate whose
%   clauses are apart in Text, and say so in one informational diagnostic.
%   The text is read with the session's operators; a term that does not
%   read is skipped here (the load reports it).
declare_discontiguous(M, Text) :-
    session(M, Opts),
    get_dict(declare_discontiguous, Opts, true),
    !,
    catch(setup_call_cleanup(
              open_string(Text, In),
              apart_predicates(In, M, none, [], [], PIs0),
              close(In)),
          _, PIs0 = []),
    reverse(PIs0, PIs),
    (   PIs == []
    ->  true
    ;   forall(member(PI, PIs), catch(discontiguous(M:PI), _, true)),
        findall(S, ( member(PI, PIs), format(string(S), "~q", [PI]) ), Ss),
        atomic_list_concat(Ss, ', ', List),
        format(string(Msg), "Declared discontiguous (their clauses are apart in the text): ~w", [List]),
        add_diagnostic(info, discontiguous, Msg, 0, 0, [])
    ).
declare_discontiguous(_, _).

apart_predicates(In, M, Prev, Seen, Apart0, Apart) :-
    (   session_catch(read_term(In, T, [module(M), syntax_errors(quiet)]), _, fail)
    ->  (   T == end_of_file
        ->  Apart = Apart0
        ;   clause_indicator(T, PI)
        ->  (   PI == Prev                  % Seen holds each predicate once, not each clause
            ->  Apart1 = Apart0,
                Seen1 = Seen
            ;   memberchk(PI, Seen)
            ->  (   memberchk(PI, Apart0) -> Apart1 = Apart0 ; Apart1 = [PI|Apart0] ),
                Seen1 = Seen
            ;   Apart1 = Apart0,
                Seen1 = [PI|Seen]
            ),
            apart_predicates(In, M, PI, Seen1, Apart1, Apart)
        ;   apart_predicates(In, M, Prev, Seen, Apart0, Apart)
        )
    ;   stream_property(In, end_of_stream(not))
    ->  apart_predicates(In, M, Prev, Seen, Apart0, Apart)
    ;   Apart = Apart0
    ).

clause_indicator((:- _), _) :- !, fail.
clause_indicator((?- _), _) :- !, fail.
clause_indicator((H --> _), Name/A) :- !,
    dcg_head(H, H1), callable(H1), functor(H1, Name, A0), A is A0 + 2.
clause_indicator((H :- _), Name/A) :- !,
    callable(H), functor(H, Name, A).
clause_indicator(H, Name/A) :-
    callable(H), functor(H, Name, A).

dcg_head((H, _), H) :- !.
dcg_head(H, H).

load_exception('$pt_cancelled') :-
    !,
    add_diagnostic(error, load_error,
                   "cancelled: loading was cancelled; what loaded before it stays loaded", 0, 0, []).
load_exception(time_limit_exceeded) :-
    !,
    diagnostic_extra(time_limit_exceeded, Extra),
    add_diagnostic(error, load_error,
                   "Loading did not finish within the time limit", 0, 0, Extra).
load_exception(E) :-
    error_message(E, Msg),
    diagnostic_extra(E, Extra),
    add_diagnostic(error, load_error, Msg, 0, 0, Extra).

%   next_source_id(+M, -Id): the name of the next text that session M
%   loads: the id of the tests it replaces (harness_plunit.pl), one that
%   a closed session left free, or a new one. The
%   session knows it as its Nth text: N counts every text it loaded,
%   those that a later run of the same tests unloaded included, so no two
%   texts of a session share a number, and finding it does not grow with
%   the session's history (counting the session's sources did: a
%   session's thousandth consult took 150 us longer than its first).
next_source_id(M, Id) :-
    (   retract(reused_source(M, Id0))          % harness_plunit.pl
    ->  Id = Id0
    ;   retract(free_source(Id0))
    ->  Id = Id0
    ;   flag(prologtool_sources, K, K+1),
        format(atom(Id), 'prologtool://~d', [K])
    ),
    (   retract(source_count(M, N0))
    ->  true
    ;   N0 = 0
    ),
    N is N0 + 1,
    assertz(source_count(M, N)),
    assertz(loaded_source(M, Id, N)).

remember_messages(M, Diags) :-
    forall(member(D, Diags),
           ( flag(prologtool_messages, N, N+1),
             assertz(session_message(M, N, D)) )).

%   Term expansion for session sources only (never for the libraries a
%   session source loads):
%     - code that declares its own module still lands in the session;
%     - a directive that throws a non-error term would abort the whole
%       load in SWI-Prolog; turned into an error, it is one diagnostic.
%   (The term_expansion/2 hook that applies this is installed at the end of
%   this file, once everything it calls is defined.)

%   Directives are adapted here (session_directive/2, called by the hook
%   at the end of this file). A term that reaches outside the session
%   never gets here: the hook of harness_sandbox.pl, which comes first,
%   drops it with an error diagnostic.

loading_session_source :-
    nb_current('$pt_loading', M),
    M \== [],
    prolog_load_context(source, Source),
    atom(Source),
    sub_atom(Source, 0, _, _, 'prologtool://').

session_directive(module(_, _), []) :- !.
session_directive(Directive, Expanded) :-
    nb_current('$pt_load_dir', Dir),
    Dir \== [],
    relative_load(Directive, Dir, Directive1),
    !,
    (   session_directive(Directive1, Expanded0)
    ->  Expanded = Expanded0
    ;   Expanded = (:- Directive1)
    ).
session_directive(Directive, (:- prologtool_harness:guarded_directive(M:Directive))) :-
    callable(Directive),
    \+ declaration(Directive),
    prolog_load_context(module, M),
    \+ sandboxed_session(M).       % the sandboxed loader checks directives itself

%   relative_load(+Directive, +Dir, -Directive1): a text consulted from a
%   file (its request's directory) loads the files it names by a relative
%   path from that file's folder, as a file consulted by SWI-Prolog does.
%   Fails when Directive loads nothing by a relative path.
relative_load(Files, Dir, Files1) :-
    Files = [_|_],
    !,
    relative_specs(Files, Dir, Files1).
relative_load(Directive, Dir, Directive1) :-
    compound(Directive),
    compound_name_arguments(Directive, Name, [Spec|Rest]),
    length([Spec|Rest], Arity),
    load_directive(Name, Arity),
    relative_specs(Spec, Dir, Spec1),
    compound_name_arguments(Directive1, Name, [Spec1|Rest]).

load_directive(consult, 1).
load_directive(ensure_loaded, 1).
load_directive(use_module, 1).
load_directive(use_module, 2).
load_directive(reexport, 1).
load_directive(reexport, 2).
load_directive(include, 1).
load_directive(load_files, 1).
load_directive(load_files, 2).

%   relative_specs(+Spec, +Dir, -Spec1): Spec (a file or a list of files)
%   with each relative file name made absolute; fails when none is.
relative_specs(Specs, Dir, Specs1) :-
    is_list(Specs),
    !,
    maplist(relative_spec_or_same(Dir), Specs, Specs1),
    Specs1 \== Specs.
relative_specs(Spec, Dir, Spec1) :-
    relative_spec(Spec, Dir, Spec1).

relative_spec_or_same(Dir, Spec, Spec1) :-
    (   relative_spec(Spec, Dir, Spec0) -> Spec1 = Spec0 ; Spec1 = Spec ).

relative_spec(Spec, Dir, Abs) :-
    (   atom(Spec) ; string(Spec) ),
    \+ is_absolute_file_name(Spec),
    atomic_list_concat([Dir, /, Spec], Abs).

%   Directives that the loader or a library's own term expansion must see
%   as they are.
declaration(D) :-
    functor(D, Name, Arity),
    declaration(Name, Arity),
    !.

declaration((table), 1).
declaration((dynamic), 1).
declaration((discontiguous), 1).
declaration((multifile), 1).
declaration((module_transparent), 1).
declaration((meta_predicate), 1).
declaration((initialization), 1).
declaration((initialization), 2).
declaration(use_module, 1).
declaration(use_module, 2).
declaration(ensure_loaded, 1).
declaration(reexport, 1).
declaration(reexport, 2).
declaration(include, 1).
declaration(if, 1).
declaration(elif, 1).
declaration(else, 0).
declaration(endif, 0).
declaration(encoding, 1).
declaration(set_prolog_flag, 2).
declaration(op, 3).
declaration((public), 1).
declaration((thread_local), 1).
declaration(license, 1).
declaration(expects_dialect, 1).
declaration(use_foreign_library, 1).
declaration(create_prolog_flag, 3).
declaration(det, 1).
declaration(format_predicate, 2).

:- meta_predicate guarded_directive(0).
guarded_directive(Goal) :-
    catch(Goal, E, rethrow_as_error(E)).

rethrow_as_error(E) :-
    (   E = error(_, _)
    ;   control_exception(E)
    ),
    !,
    throw(E).
rethrow_as_error(E) :-
    throw(error(prologtool_exception(E), _)).

user_directive(_:prologtool_harness:guarded_directive(_:Goal), Goal) :- !.
user_directive(_:Goal, Goal) :- !.
user_directive(Goal, Goal).

control_exception(time_limit_exceeded).
control_exception('$pt_cancelled').
control_exception('$aborted').
control_exception(unwind(_)).

:- multifile prolog:error_message//1.
prolog:error_message(prologtool_exception(E)) -->
    [ 'Unhandled exception: ~q'-[E] ].

%   Diagnostics: every message printed while a session source loads.
:- multifile user:message_hook/3.
user:message_hook(Term, Kind, Lines) :-
    nb_current('$pt_loading', M),
    M \== [],
    memberchk(Kind, [error, warning, informational]),
    \+ noise(Term),
    diagnostic(Term, Kind, Lines).

noise(load_file(_)).
noise(autoload(_)).
noise(halt(_)).

diagnostic(Term, Kind, Lines) :-
    severity(Kind, Severity),
    message_kind(Term, Severity, DKind),
    (   Term = error(syntax_error(What), _)
    ->  message_text(error(syntax_error(What), _), Msg0)
    ;   Term = goal_failed(directive, Goal)
    ->  user_directive(Goal, Shown),
        format(string(Msg0), "Goal (directive) failed: ~q", [Shown])
    ;   Term = initialization_error(_, E, _)
    ->  error_message(E, EMsg),
        string_concat("Initialization goal raised exception: ", EMsg, Msg0)
    ;   message_lines_text(Lines, Msg1),
        bounded_message_text(Term, Msg1, Msg0)
    ),
    message_location(Term, Line, Column),
    nb_getval('$pt_loading', M),
    clean_message(M, Msg0, Msg),
    (   DKind == directive_failed,
        collected(json(Prev)),
        memberchk(line=Line, Prev),
        memberchk(severity=error, Prev)
    ->  true                    % the directive raised; its error is reported
    ;   diagnostic_extra(Term, Extra),
        add_diagnostic(Severity, DKind, Msg, Line, Column, Extra)
    ).

%   bounded_message_text(+Term, +Text0, -Text): the text of a message
%   printed while loading, made again from the message cut to a bounded
%   size (cut_term/2) when it is long: a directive that raised an error
%   holding a huge culprit would otherwise put all of it in the reply.
bounded_message_text(Term, Text0, Text) :-
    (   string_length(Text0, Len),
        Len =< 16384
    ->  Text = Text0
    ;   cut_term(Term, Cut),
        message_text(Cut, Text1),
        string_length(Text1, Len1),
        Len1 =< 16384
    ->  Text = Text1
    ;   sub_string(Text0, 0, 16384, _, Part),
        string_concat(Part, "...", Text)
    ).

add_diagnostic(Severity, Kind, Msg, Line, Column) :-
    add_diagnostic(Severity, Kind, Msg, Line, Column, []).

%   Extra: more pairs for the diagnostic (execute adds the error's
%   category, see diagnostic_extra/2 in harness_execute.pl).
add_diagnostic(Severity, Kind, Msg, Line, Column, Extra) :-
    Base = [severity=Severity, kind=Kind, message=Msg],
    (   Line > 0 -> L = [line=Line] ; L = [] ),
    (   Column > 0 -> C = [column=Column] ; C = [] ),
    append([Base, L, C, Extra], Pairs),
    assertz(collected(json(Pairs))).

severity(error, error).
severity(warning, warning).
severity(informational, info).

message_kind(error(syntax_error(_), _), _, syntax_error) :- !.
message_kind(singletons(_, _), _, singleton) :- !.
message_kind(multiton(_, _), _, singleton) :- !.
message_kind(discontiguous(_, _), _, discontiguous) :- !.
message_kind(redefined_procedure(_, _), _, redefine) :- !.
message_kind(redefine_module(_, _), _, redefine) :- !.
message_kind(goal_failed(directive, _), _, directive_failed) :- !.
message_kind(initialization_failure(_, _), _, directive_failed) :- !.
message_kind(initialization_error(_, E, _), S, K) :- !,
    message_kind(E, S, K).
message_kind(error(sandbox_violation(_), _), _, sandbox_violation) :- !.
% An unknown procedure is no refusal, whoever found it.
message_kind(error(existence_error(procedure, _), _), _, existence_error) :- !.
% The sandboxed loader's refusals, whatever error SWI-Prolog raised: a
% goal it cannot prove safe (an instantiation_error for a load or a goal
% built at run time, with the sandbox as context), a clause for another
% module's hook, an initialization that would outlive the load.
message_kind(error(_, Context), _, sandbox_violation) :-
    nonvar(Context),
    Context = sandbox(_, _),
    !.
message_kind(error(permission_error(_, Type, _), _), _, sandbox_violation) :-
    memberchk(Type, [sandboxed, sandboxed_clause, initialization(restore)]),
    !.
message_kind(error(Formal, _), _, Kind) :-
    callable(Formal),
    functor(Formal, Name, _),
    memberchk(Name, [existence_error, permission_error, type_error,
                     instantiation_error]),
    !,
    Kind = Name.
message_kind(error(_, _), error, directive_error) :- !.
message_kind(_, _, other).

message_location(error(syntax_error(_), Where), Line, Column) :-
    nonvar(Where),
    (   Where = file(_, Line, LinePos, _)
    ;   Where = stream(_, Line, LinePos, _)
    ),
    integer(Line),
    !,
    Column is LinePos + 1.
message_location(Term, Line, 0) :-
    (   Term = initialization_error(_, _, _:Line)
    ;   Term = initialization_failure(_, _:Line)
    ),
    integer(Line),
    !.
message_location(_, Line, 0) :-
    source_location(_, Line),
    !.
message_location(_, 0, 0).

%   clean_message(+Module, +Text0, -Text)
%
%   Messages speak of the session's module and of the harness's source
%   ids; users wrote neither. Drop "m_<id>:" and say "consult N, line L"
%   for "prologtool://K:L", N being which of the session's texts it is.
clean_message(M, Text0, Text) :-
    atom_concat(M, ':', Qualifier),
    atomic_list_concat(Parts, Qualifier, Text0),
    atomic_list_concat(Parts, '', Text1),
    atomic_list_concat([First|Rest], 'prologtool://', Text1),
    maplist(source_reference, Rest, Refs),
    atomic_list_concat([First|Refs], Text2),
    atom_string(Text2, Text).

source_reference(Part, Ref) :-
    atom_codes(Part, Codes),
    (   phrase(digits(KCodes), Codes, AfterK),
        KCodes \== []
    ->  atom_codes(K, KCodes),
        atom_concat('prologtool://', K, Id),
        (   loaded_source(_, Id, N) -> true ; N = K ),
        (   AfterK = [0':|LineRest],
            phrase(digits(LineCodes), LineRest, RestCodes),
            LineCodes \== []
        ->  atom_codes(Line, LineCodes),
            atom_codes(TailRest, RestCodes),
            format(atom(Ref), 'consult ~w, line ~w~w', [N, Line, TailRest])
        ;   atom_codes(TailRest, AfterK),
            format(atom(Ref), 'consult ~w~w', [N, TailRest])
        )
    ;   atom_concat('prologtool://', Part, Ref)
    ).

digits([D|Ds]) --> [D], { code_type(D, digit) }, !, digits(Ds).
digits([]) --> [].

message_lines_text(Lines, Text) :-
    session_catch(( print_message_lines(string(S0), '', Lines),
                    normalize_space(string(Text), S0) ),
                  _, Text = "").

                 /*******************************
                 *             GOALS            *
                 *******************************/

%   run_goal(+Module, +GoalText, +Req, -ReplyPairs)

run_goal(M, Text, Req, Pairs) :-
    goal_limits(Req, Limits),
    option_value(Req, allow_side_effects, true, SideEffects),
    parse_goal(M, Text, Goal0, Bindings),
    check_side_effects(SideEffects, M, Goal0),
    apply_stack_limit(Req),
    module_property(M, last_modified_generation(Generation)),
    nb_setval('$pt_edited', false),
    % Without side effects the goal may change nothing in the session
    % either: its database changes are discarded when the search ends.
    solve_goal(M, Goal0, Bindings, Limits, false, SideEffects, Solved),
    goal_pairs(M, Bindings, Solved, Pairs0),
    (   SideEffects == true,
        session_changed(M, Generation)
    ->  Pairs = [changed= @(true)|Pairs0]
    ;   Pairs = Pairs0
    ).

%   session_changed(+M, +Generation): since Generation, a clause of the
%   session's module was added or removed, or the goal set one of its
%   flags or operators ('$pt_edited', harness_guard.pl). A goal's reply
%   says so (changed: true), for the checkpoints of a session store.
session_changed(M, Generation) :-
    (   module_property(M, last_modified_generation(Now)),
        Now \== Generation
    ->  true
    ;   nb_current('$pt_edited', true)
    ).

%   goal_limits(+Req, -Limits): the bounds of a goal request, checked.
%   Limits = limits(MaxAnswers, TimeLimit, MaxDepth, MaxInferences, MaxOutput).
goal_limits(Req, limits(MaxAnswers, TimeLimit, MaxDepth, MaxInf, MaxOut)) :-
    option_value(Req, max_answers, 10, MaxAnswers),
    option_value(Req, time_limit, 30, TimeLimit),
    option_value(Req, max_depth, 1000000, MaxDepth),
    option_value(Req, max_inferences, infinite, MaxInf),
    option_value(Req, max_output, 65536, MaxOut),
    must_be(positive_integer, MaxAnswers),
    must_be(positive_integer, MaxDepth),
    must_be_time_limit(TimeLimit).

%!  solve_goal(+Module, +Goal, +Bindings, +Limits, +Lines, -Solved) is det.
%
%   Search Goal (parsed, checked) under Limits, keeping the answers found
%   before a bound or an error stopped it. Solved is
%   solved(Outcome, Error, Answers, Truncated, Output, OutputCut):
%   Error is the exception term when Outcome is error, else none; each
%   answer is answer(Json, Residuals, Line), Line a toplevel-style text
%   when Lines is true (else "").

solve_goal(M, Goal, Bindings, Limits, Lines, Solved) :-
    solve_goal(M, Goal, Bindings, Limits, Lines, true, Solved).

%   solve_goal(..., +Lines, +Keep, -Solved): with Keep false, every database
%   change the search makes is discarded when it ends (snapshot/1), and a
%   change of the session's flags or operators, which a snapshot would
%   not undo, is refused. The answers are kept in a chain that neither a
%   snapshot nor backtracking nor an exception takes back (answer_chain/1).
solve_goal(M, Goal, Bindings, limits(MaxAnswers, TimeLimit, MaxDepth, MaxInf, MaxOut),
           Lines, Keep, solved(Outcome, Error, Answers, Truncated, Output, OutputCut)) :-
    Limit is MaxAnswers + 1,
    answer_chain(Chain),
    % answers, depth hit, inference, answer lines wanted, last link of the chain
    State = state(0, false, complete, Lines, Chain),
    Search = limited(M, Goal, Bindings, MaxDepth, MaxInf, TimeLimit, Limit, State),
    (   Keep == false                   % session_set_flag/3 refuses in it
    ->  Run = setup_call_cleanup(nb_setval('$pt_keep_changes', false),
                                 snapshot(Search),
                                 nb_setval('$pt_keep_changes', true))
    ;   Run = Search
    ),
    with_captured_output(catch(Run, E, true), MaxOut, Output, OutputCut),
    chained_answers(Chain, Answers0),
    arg(1, State, Count),
    (   Count > MaxAnswers
    ->  Truncated = true,
        length(Answers, MaxAnswers),
        append(Answers, _, Answers0)
    ;   Truncated = false,
        Answers = Answers0
    ),
    outcome(E, State, Count, Outcome0),
    (   nb_current('$pt_halt_attempted', true), Outcome0 \== error
    ->  refused_halt_error(Error),
        Outcome = error
    ;   Outcome = Outcome0,
        ( Outcome == error -> Error = E ; Error = none )
    ).

%   The reply of a goal request. Residual goals (constraints left on the
%   answer's variables) come as a parallel list, only when there are any.
goal_pairs(M, Bindings, solved(Outcome, Error, Answers, Truncated, Output, OutputCut),
           Pairs) :-
    (   Outcome == error
    ->  error_json(Error, M, ErrorPairs),
        Pairs0 = [outcome=error, error=json(ErrorPairs)]
    ;   Pairs0 = [outcome=Outcome]
    ),
    pairs_keys(Bindings, Names),
    maplist([answer(J, _, _), J]>>true, Answers, Jsons),
    residual_pairs(Answers, ResidualPairs),
    ( Outcome == depth_exceeded -> DepthHit = true ; DepthHit = false ),
    length(Jsons, Count),
    append([ Pairs0,
             [ variables=Names, answers=Jsons, count=Count,
               truncated= @(Truncated), depth_exceeded= @(DepthHit),
               output=Output, output_truncated= @(OutputCut) ],
             ResidualPairs ],
           Pairs).

residual_pairs(Answers, Pairs) :-
    maplist([answer(_, R, _), R]>>true, Answers, Residuals),
    (   member(R, Residuals), R \== []
    ->  Pairs = [residuals=Residuals]
    ;   Pairs = []
    ).

%   The stack limit is a per-thread flag; in-process backends share one
%   process, so each goal sets its session's limit.
apply_stack_limit(Req) :-
    (   get_dict(stack_limit, Req, Limit),
        integer(Limit)
    ->  set_stack_limit(Limit)
    ;   true
    ).

%!  set_stack_limit(+Bytes) is det.
%
%   Set this thread's stack limit, and the size bounds of tabled calls
%   and answers that follow from it (table_tripwires/0).
set_stack_limit(Limit) :-
    (   current_prolog_flag(stack_limit, Limit)
    ->  true
    ;   catch(set_prolog_flag(stack_limit, Limit), _, true)
    ),
    table_tripwires.

%!  table_tripwires is det.
%
%   A tabled call's variant and each of its answers go into a trie, which
%   SWI-Prolog builds by walking the term as a tree in C, without looking
%   at signals: a call whose argument is a DAG (f(T, T) nested 40 deep)
%   would add 2^40 nodes. SWI-Prolog's own tripwires bound that as it
%   goes (max_table_subgoal_size and max_table_answer_size, per thread,
%   raising resource_error(tripwire(...))); they are set to the cells
%   that any term may have unfolded (term_cells_limit/1, harness_guard.pl).
table_tripwires :-
    term_cells_limit(Max),
    (   current_prolog_flag(max_table_subgoal_size, Max),
        current_prolog_flag(max_table_answer_size, Max),
        current_prolog_flag(max_table_subgoal_size_action, error),
        current_prolog_flag(max_table_answer_size_action, error)
    ->  true                            % set by an earlier request here
    ;   table_tripwires(Max)
    ).

table_tripwires(Max) :-
    catch(( set_prolog_flag(max_table_subgoal_size_action, error),
            set_prolog_flag(max_table_subgoal_size, Max),
            set_prolog_flag(max_table_answer_size_action, error),
            set_prolog_flag(max_table_answer_size, Max) ), _, true).

check_side_effects(true, _, _) :- !.
check_side_effects(false, M, Goal) :-
    !,
    (   catch(safe_goal(M:Goal), E, true)
    ->  (   var(E)
        ->  true
        ;   % an unknown predicate is no refusal: it is the existence error
            % the goal would raise, with the session's similar predicates
            E = error(existence_error(procedure, Culprit), _),
            unknown_indicator(Culprit, M, PI)
        ->  throw(error(existence_error(procedure, PI), _))
        ;   error_message(E, Msg),
            throw(error(sandbox_violation(Goal), context(_, Msg)))
        )
    ;   throw(error(sandbox_violation(Goal), _))
    ).

check_side_effects(Other, _, _) :-
    type_error(boolean, Other).

%   unknown_indicator(+Culprit, +M, -PI): the predicate indicator of the
%   unknown procedure library(sandbox) names (a head or an indicator, in
%   module M or another), qualified: error_json/3 then finds the session's
%   similar predicates even where it is not told the session.
unknown_indicator(Culprit, M, PI) :-
    nonvar(Culprit),
    (   Culprit = Q:Spec, atom(Q)
    ->  true
    ;   Q = M,
        Spec = Culprit
    ),
    nonvar(Spec),
    (   Spec = Name/Arity, atom(Name), integer(Arity)
    ->  true
    ;   callable(Spec),
        functor(Spec, Name, Arity)
    ),
    PI = Q:Name/Arity.

%   limited(...): the whole search under all bounds. Answers are stored
%   as they are found so that those found before a bound hits survive.
limited(M, Goal, Bindings, MaxDepth, MaxInf, TimeLimit, Limit, State) :-
    Search = search(M, Goal, Bindings, MaxDepth, Limit, State),
    (   MaxInf == infinite
    ->  Bounded = Search
    ;   must_be(positive_integer, MaxInf),
        Bounded = inference_bounded(Search, MaxInf, State)
    ),
    limit_time(TimeLimit, Bounded).

inference_bounded(Search, MaxInf, State) :-
    call_with_inference_limit(Search, MaxInf, R),
    (   R == inference_limit_exceeded
    ->  (   harness_control(inference_limit_exceeded)
        ->  throw(time_limit_exceeded)  % the time limit's backstop, not this one
        ;   nb_setarg(3, State, inference_limit)
        )
    ;   true
    ).

search(M, Goal0, Bindings, MaxDepth, Limit, State) :-
    guarded_goal(M, Goal0, Goal),               % harness_guard.pl
    pairs_values(Bindings, Vars),
    Template =.. [v|Vars],
    (   depth_limited(M:Goal, MaxDepth, R),
        % An answer reported deeper than the limit was proved with a branch
        % cut short by it (e.g. inside \+), so it may be wrong: drop it.
        (   ( R == depth_limit_exceeded
            ; integer(R), integer(MaxDepth), R > MaxDepth
            )
        ->  nb_setarg(2, State, true),
            fail
        ;   true
        ),
        arg(4, State, Lines),
        check_depth(Template),                  % harness_guard.pl
        encode_answer(M, Bindings, Template, Lines, Answer),
        chain_answer(State, 5, Answer),
        arg(1, State, N0),
        N is N0 + 1,
        nb_setarg(1, State, N),
        N >= Limit
    ->  true
    ;   true
    ).

%!  answer_chain(-Chain) is det.
%!  chain_answer(+State, +Arg, +Answer) is det.
%!  chained_answers(+Chain, -Answers) is det.
%
%   The answers of a search, kept where neither backtracking into the
%   search, nor an exception out of it, nor snapshot/1 takes them back:
%   a chain of link(Answer, Next) terms, Next [] at the last link, hung
%   from the root link(root, []) that answer_chain/1 makes before the
%   search. chain_answer/3 copies the answer into a new link after the
%   last one with nb_setarg/3 (the copy survives backtracking), and keeps
%   that new link (already such a copy, so nb_linkarg/3 may hold it) in
%   argument Arg of State: each answer costs one copy of itself, as in a
%   message queue, without creating and destroying a queue per request
%   (1.3 us of a trivial goal request).
answer_chain(link(root, [])).

chain_answer(State, Arg, Answer) :-
    arg(Arg, State, Last),
    nb_setarg(2, Last, link(Answer, [])),
    arg(2, Last, Link),
    nb_linkarg(Arg, State, Link).

chained_answers(link(_, Next), Answers) :-
    (   Next == []
    ->  Answers = []
    ;   Next = link(Answer, _),
        Answers = [Answer|Answers1],
        chained_answers(Next, Answers1)
    ).

%   MaxDepth infinite (stateless execution's default): no depth bound.
depth_limited(Goal, infinite, R) :-
    !,
    R = 0,
    b_setval('$pt_depth_cap', none),
    call(Goal).
%   '$pt_depth_cap' is the frame level at which MaxDepth strikes, for a
%   nested call_with_depth_limit/3 (harness_guard.pl), which may not go
%   deeper; '$pt_depth_hit' says that such a cut limit was exceeded: an
%   answer found after it is dropped, and a search that ends after it
%   reports depth_exceeded, as for the request's own limit.
depth_limited(Goal, MaxDepth, R) :-
    prolog_current_frame(F),
    prolog_frame_attribute(F, level, Level),
    Cap is Level + MaxDepth,
    b_setval('$pt_depth_cap', Cap),
    nb_setval('$pt_depth_hit', false),
    (   call_with_depth_limit(Goal, MaxDepth, R0),
        (   nb_current('$pt_depth_hit', true)
        ->  R = depth_limit_exceeded
        ;   R = R0
        )
    ;   nb_current('$pt_depth_hit', true),
        R = depth_limit_exceeded
    ).

outcome(E, State, Count, Outcome) :-
    var(E),
    !,
    (   arg(3, State, inference_limit)
    ->  Outcome = inference_limit
    ;   arg(2, State, true)
    ->  Outcome = depth_exceeded
    ;   Count =:= 0
    ->  Outcome = failure
    ;   Outcome = success
    ).
outcome(time_limit_exceeded, _, _, timeout) :- !.
outcome('$pt_cancelled', _, _, cancelled) :- !.
outcome(inference_limit_exceeded, _, _, inference_limit) :- !.
outcome(_, _, _, error).

%   parse_goal(+Module, +Text, -Goal, -Bindings)
%
%   Text must hold exactly one term; its final full stop is optional.
%   Bindings are Name-Var for the named variables in query order,
%   leaving out _-prefixed ones as the toplevel does.

parse_goal(M, Text, Goal, Bindings) :-
    check_text_depth(Text),                     % harness_guard.pl
    (   single_term_text(M, Text, Goal1, VarNames1)
    ->  Goal0 = Goal1,
        VarNames = VarNames1
    ;   string_concat(Text, "\n.", Stopped),
        (   ends_with_full_stop(Text)
        ->  read_goal_text(M, Text, Stopped, Text, Goal0, VarNames)
        ;   read_goal_text(M, Stopped, Text, Text, Goal0, VarNames)
        )
    ),
    (   Goal0 == end_of_file
    ->  throw(error(syntax_error(empty_goal), _))
    ;   true
    ),
    Goal = Goal0,
    (   var(Goal),
        sandboxed_session(M)
    ->  throw(error(sandbox_violation(Goal),
                    context(_, 'a sandboxed session does not run a goal that is a bare variable')))
    ;   true
    ),
    must_be(callable, Goal),
    check_goal_safety(M, Goal),
    include([Name=_]>>(\+ sub_atom(Name, 0, _, _, '_')), VarNames, Visible),
    maplist([Name=Var, Name-Var]>>true, Visible, Bindings).

%   read_goal_text(+M, +First, +Second, +AsIs, -Goal, -VarNames): the goal
%   as read from the text as it is (AsIs), or else with a full stop added;
%   First is the likelier of the two (a goal usually comes without its
%   full stop, and a failed read costs as much as a good one). At most one
%   of them reads as one term. A syntax error is the one of AsIs.

read_goal_text(M, First, Second, AsIs, Goal, VarNames) :-
    (   catch(read_one(M, First, Goal, VarNames), E, true)
    ->  true
    ;   E = error(syntax_error(cannot_read), _)
    ),
    (   var(E)
    ->  true
    ;   E = error(syntax_error(_), _)
    ->  (   catch(read_one(M, Second, Goal, VarNames), E2, true)
        ->  true
        ;   E2 = error(syntax_error(cannot_read), _)
        ),
        % Both failed: the error of the text with its full stop is SWI's own
        % (what swipl says of it), where the bare text would only tell of an
        % unexpected end of file.
        (   var(E2)
        ->  true
        ;   Second == AsIs
        ->  throw(E)
        ;   throw(E2)
        )
    ;   throw(E)
    ).

%   single_term_text(+M, +Text, -Goal, -VarNames) is semidet.
%
%   The usual goal text, read at once: one without a full stop anywhere
%   (no end token, no float, no quoted dot) holds at most one term, so
%   read_term_from_atom/3 (one C call) reads it as read_goal_text/6 would,
%   at a fifth of the cost. Fails on anything else, and on a syntax error,
%   whose message read_goal_text/6 then gives as it always does.
single_term_text(M, Text, Goal, VarNames) :-
    % split_string/4 raises on a lone surrogate, which the reader takes
    catch(split_string(Text, ".", "", [_]), error(representation_error(_), _),
          \+ sub_string(Text, _, _, _, ".")),
    catch(read_term_from_atom(Text, Goal, [variable_names(VarNames), module(M),
                                           syntax_errors(error)]),
          error(syntax_error(_), _), fail).

ends_with_full_stop(Text) :-
    catch(split_string(Text, "", " \t\r\n", [Trimmed]), error(representation_error(_), _),
          Trimmed = Text),
    sub_string(Trimmed, _, 1, 0, ".").

read_one(M, Text, Term, VarNames) :-
    setup_call_cleanup(
        open_string(Text, S),
        ( read_term(S, Term, [variable_names(VarNames), module(M),
                              syntax_errors(error)]),
          (   Term == end_of_file
          ->  true
          ;   catch(read_term(S, Next, [module(M), syntax_errors(error)]),
                    _, Next = '$more'),
              (   Next == end_of_file
              ->  true
              ;   throw(error(syntax_error(goal_must_be_one_term), _))
              )
          )
        ),
        close(S)).

                 /*******************************
                 *        OUTPUT CAPTURE        *
                 *******************************/

%   with_captured_output(:Goal, +Max, -Output, -Cut)
%
%   Run Goal with current output, user_output and user_error sent to a
%   stream that keeps at most Max characters. Goal runs once (its first
%   answer), as the callers need.

with_captured_output(Goal, Max, Output, Cut) :-
    stream_property(OldOut, alias(user_output)),
    stream_property(OldErr, alias(user_error)),
    current_output(OldCur),
    setup_call_cleanup(
        capture_open(Max, Capture),
        ( setup_call_cleanup(
              ( open_prolog_stream(prologtool_harness, write, Cap, []),
                set_stream(Cap, alias(user_output)),
                set_stream(Cap, alias(user_error)),
                set_output(Cap)
              ),
              once(Goal),
              ( set_stream(OldOut, alias(user_output)),
                set_stream(OldErr, alias(user_error)),
                set_output(OldCur),
                % closed last: closing a stream that still holds a standard
                % alias leaks about 300 bytes per call in SWI-Prolog 9.0.4;
                % its last buffer is kept as it closes
                catch(close(Cap), _, true)
              )),
          capture_close(Capture, Output, Cut)
        ),
        capture_drop(Capture)).

%   capture_open(+Max, -Capture): from now on, what the capture stream is
%   given is kept, up to Max characters, in a new memory file (of wide
%   characters, so that any code, a lone surrogate included, comes back
%   as it was written). Appending to it costs what is appended; a list of
%   the parts in a global variable was copied whole on every write, which
%   made 10 MB of output take seconds. Capture names the memory file and
%   the capture this one nests in (or none), which capture_close/3 and
%   capture_drop/1 put back.
capture_open(Max, capture(MF, saved(Kept0, Out0, Max0))) :-
    (   nb_current('$pt_out_kept', Kept0) -> true ; Kept0 = [] ),
    (   nb_current('$pt_out', Out0) -> true ; Out0 = out(0, false) ),
    (   nb_current('$pt_out_max', Max0) -> true ; Max0 = 0 ),
    new_memory_file(MF),
    open_memory_file(MF, write, Kept, [encoding(wchar_t)]),
    nb_setval('$pt_out_kept', kept(MF, Kept)),
    nb_setval('$pt_out', out(0, false)),
    nb_setval('$pt_out_max', Max).

%   capture_close(+Capture, -Output, -Cut): what was kept since
%   capture_open/2, and whether some was cut; the memory file is freed.
capture_close(capture(MF, Saved), Output, Cut) :-
    nb_getval('$pt_out_kept', kept(MF, Kept)),
    nb_getval('$pt_out', out(_, Cut)),
    capture_restore(Saved),
    call_cleanup(( close(Kept),
                   memory_file_to_string(MF, Output)
                 ),
                 free_memory_file(MF)).

%   capture_drop(+Capture): the capture of capture_open/2 ends without
%   output (Goal failed or raised); nothing once capture_close/3 ran.
capture_drop(capture(MF, Saved)) :-
    (   nb_current('$pt_out_kept', kept(MF0, Kept)),
        MF0 == MF
    ->  capture_restore(Saved),
        catch(close(Kept), _, true),
        free_memory_file(MF)
    ;   true
    ).

capture_restore(saved(Kept, Out, Max)) :-
    nb_setval('$pt_out_kept', Kept),
    nb_setval('$pt_out', Out),
    nb_setval('$pt_out_max', Max).

% Called by the capture stream (library(prolog_stream)); with no capture
% open, what it is given is dropped.
stream_write(_Stream, String) :-
    nb_getval('$pt_out', out(N, Cut)),
    nb_getval('$pt_out_max', Max),
    string_length(String, Len),
    Room is Max - N,
    (   Room =< 0
    ->  (   Cut == true -> true ; nb_setval('$pt_out', out(N, true)) )
    ;   nb_getval('$pt_out_kept', kept(_, Kept)),
        (   Len =< Room
        ->  N1 is N + Len,
            write(Kept, String),
            nb_setval('$pt_out', out(N1, Cut))
        ;   sub_string(String, 0, Room, _, Part),
            write(Kept, Part),
            nb_setval('$pt_out', out(Max, true))
        )
    ).

stream_close(_Stream).

                 /*******************************
                 *        TERMS TO JSON         *
                 *******************************/

%   encode_answer(+Module, +Bindings, +Template, +Lines, -Answer)
%
%   Answer is answer(Json, Residuals, Line). Bindings and Template share
%   variables; the answer is copied so that naming its free variables
%   cannot disturb the search. Residuals are the goals that still
%   constrain the answer's variables (copy_term/3: CLP(FD) domains,
%   dif/2, freeze/2), as text with the query's variable names; Line, when
%   Lines is true, is the answer as the toplevel shows it
%   ("X = a, Y in 1..3"), else "".

encode_answer(M, Bindings, Template, Lines, answer(json(Pairs), Residuals, Line)) :-
    pairs_keys(Bindings, Names),
    copy_term(Template, Copy0, Residue),
    check_depth(Residue),               % written below (harness_guard.pl)
    factorize(Copy0, Copy),
    (   Residue == [], Lines \== true
    ->  Residuals = [], Line = ""
    ;   answer_texts(M, Names, Copy, Residue, Lines, Residuals, Line)
    ),
    term_variables(Copy, FreeVars),
    name_variables(FreeVars, 1),
    Copy =.. [_|Values],
    maplist([Name, Value, Name=J]>>term_json(Value, J), Names, Values, Pairs).

%   The texts are written from a copy: a query variable that is still
%   free shows as its own name, other free variables as _G<N>, numbered
%   as in the JSON answer.
answer_texts(M, Names, Copy, Residue0, Lines, Residuals, Line) :-
    (   session_catch(answer_texts_(M, Names, Copy, Residue0, Lines, Residuals, Line), _, fail)
    ->  true
    ;   Residuals = [], Line = "<unprintable>"
    ).

answer_texts_(M, Names, Copy, Residue0, Lines, Residuals, Line) :-
    copy_term(Copy-Residue0, Shown-Residue),
    Shown =.. [_|Values],
    term_variables(Shown, Vars),
    maplist([Name, V]>>( var(V) -> V = '$VAR'(Name) ; true ), Names, Values),
    number_answer_vars(Vars, 1),
    term_variables(Residue, Rest),
    maplist(=('$VAR'('_')), Rest),
    maplist(residual_text(M), Residue, Residuals),
    (   Lines == true
    ->  answer_line(M, Names, Values, Residuals, Line)
    ;   Line = ""
    ).

number_answer_vars([], _).
number_answer_vars([V|Vs], N) :-
    (   var(V)
    ->  format(atom(Name), '_G~d', [N]),
        V = '$VAR'(Name)
    ;   true
    ),
    N1 is N + 1,
    number_answer_vars(Vs, N1).

%   A residual goal is written with the operators of the module that
%   owns it (clpfd:(X in 1..3) reads X in 1..3), without the qualifier.
residual_text(M, Goal, Text) :-
    (   nonvar(Goal), Goal = Q:G, atom(Q)
    ->  answer_text(Q, G, 1200, Text)
    ;   answer_text(M, Goal, 1200, Text)
    ).

answer_line(M, Names, Values, Residuals, Line) :-
    foldl(binding_text(M), Names, Values, Texts, []),
    append(Texts, Residuals, Parts),
    (   Parts == []
    ->  Line = "true"
    ;   atomic_list_concat(Parts, ', ', Atom),
        atom_string(Atom, Line)
    ).

binding_text(M, Name, Value, Texts, Tail) :-
    (   Value == '$VAR'(Name)
    ->  Texts = Tail
    ;   answer_text(M, Value, 699, ValueText),
        format(string(Text), "~w = ~w", [Name, ValueText]),
        Texts = [Text|Tail]
    ).

answer_text(M, Term, Priority, Text) :-
    format(string(Text), "~W",
           [Term, [ quoted(true), numbervars(true), portray(false),
                    spacing(next_argument), priority(Priority), module(M) ]]).

factorize(T, T) :-
    acyclic_term(T),
    !.
factorize(T, F) :-
    T =.. [F0|Args],
    maplist(factor_one, Args, FArgs),
    F =.. [F0|FArgs].

%   The factorisation is SWI-Prolog's own (the one its writer uses for
%   cyclic terms), in time linear in the term: every subterm it shares
%   comes out as a substitution, and those whose binding makes no cycle
%   are bound back, so only the cycles stay in Substitution.
%   library(terms)' term_factorized/3, used before, took 0.7 s for a
%   cyclic term with a part nested 1,000 deep and 10 s at 4,000.
factor_one(T, T) :-
    acyclic_term(T),
    !.
factor_one(T, @(Skeleton, Cycles)) :-
    '$factorize_term'(T, Skeleton, Substitution),
    bind_acyclic(Substitution, Cycles).

bind_acyclic([], []).
bind_acyclic([V=Value|Substitution], Cycles) :-
    (   unify_with_occurs_check(V, Value)
    ->  Cycles = Cycles1
    ;   Cycles = [V=Value|Cycles1]
    ),
    bind_acyclic(Substitution, Cycles1).

name_variables([], _).
name_variables(['$prologtool_var'(N)|Vs], N) :-
    N1 is N + 1,
    name_variables(Vs, N1).

%!  term_json(+Term, -Json) is det.
%
%   Json is the wire form of an acyclic Term whose variables are bound to
%   '$prologtool_var'(N).

term_json(T, json([type=variable, name=Name])) :-
    var(T),
    !,
    Name = "_".
term_json('$prologtool_var'(N), json([type=variable, name=Name])) :-
    integer(N),
    !,
    format(string(Name), "_G~d", [N]).
term_json(T, json([type=integer, value=T])) :-
    integer(T),
    !.
term_json(T, json([type=float, value=V])) :-
    float(T),
    !,
    float_class(T, Class),
    (   Class == nan
    ->  V = "nan"
    ;   Class == infinite
    ->  ( T > 0 -> V = "inf" ; V = "-inf" )
    ;   V = T
    ).
term_json(T, json([type=string, value=T])) :-
    string(T),
    !.
term_json([], json([type=list, elements=[]])) :-
    !.
term_json(T, Json) :-
    compound(T),
    compound_name_arity(T, '[|]', 2),
    !,
    list_spine(T, Elements, Tail),
    maplist(term_json, Elements, Js),
    (   Tail == []
    ->  Json = json([type=list, elements=Js])
    ;   term_json(Tail, TailJson),
        Json = json([type=list, elements=Js, tail=TailJson])
    ).
term_json(T, json([type=atom, value=S])) :-
    atom(T),
    !,
    atom_string(T, S).
term_json(T, json([type=atom, value=S])) :-
    is_dict(T),                         % a compound whose name is no atom
    !,
    format(string(S), "~q", [T]).
term_json(T, json([type=compound, functor=F, args=Js])) :-
    compound(T),
    !,
    compound_name_arguments(T, Name, Args),
    atom_string(Name, F),
    maplist(term_json, Args, Js).
term_json(T, json([type=atom, value=S])) :-
    % blobs (streams, clause references): their printed form
    format(string(S), "~q", [T]).

list_spine(L, [], L) :-
    \+ ( compound(L), compound_name_arity(L, '[|]', 2) ),
    !.
list_spine([H|T], [H|Es], Tail) :-
    list_spine(T, Es, Tail).

                 /*******************************
                 *            ERRORS            *
                 *******************************/

%   error_json(+Error, ?Module, -Pairs): kind, message, prolog_term (and
%   candidates for unknown procedures).

error_json(E0, M, Pairs) :-
    shallow_error(E0, E),
    error_kind(E, Kind),
    error_message(E, Msg0),
    error_term_text(E, TermText),
    (   unknown_procedure(E, M, Name, Arity)
    ->  similar_predicates(M, Name, Arity, Candidates),
        (   Candidates == []
        ->  format(string(Msg), "Unknown procedure: ~q", [Name/Arity])
        ;   atomic_list_concat(Candidates, ', ', CText),
            format(string(Msg), "Unknown procedure: ~q (did you mean: ~w?)",
                   [Name/Arity, CText])
        ),
        Extra = [candidates=Candidates]
    ;   (   atom(M), session(M, _)
        ->  clean_message(M, Msg0, Msg)
        ;   Msg = Msg0
        ),
        Extra = []
    ),
    append([kind=Kind, message=Msg, prolog_term=TermText], Extra, Pairs).

%   shallow_error(+Error, -Cut): Error cut to a bounded size (cut_term/2)
%   before anything writes it: the culprit and context of an error are
%   session data of any size and shape (a 9 MB string, a list of a
%   million elements, a deep or cyclic term), and both its message and
%   its prolog_term text go into the reply.
shallow_error(E, S) :-
    cut_term(E, S).

%!  cut_term(+Term, -Cut) is det.
%
%   Term cut to at most 50 levels, 256 arguments or list elements a
%   level, 1,000 characters a text, and about 4,000 nodes and characters
%   in all (an error's message and its prolog_term then take some 10 KB
%   at most); what is cut is marked: '...' for a subterm, for the rest of a
%   list ([a,b|...]) or of the arguments (f(a,b,...)), "...(N characters)"
%   at the end of a cut text, '...(an integer of N bits)' for a huge
%   integer; an attributed variable becomes a fresh plain one. A term
%   within those bounds and free of attributes comes back as it is (an
%   equal copy sharing its variables). The walk never goes beyond its budget, so
%   a deep or cyclic term costs no more than a small one.
cut_term(T, Cut) :-
    cut_term(T, 50, 4000, _, Cut).

%   cut_term(+Term, +Depth, +Budget0, -Budget, -Cut): the budget is
%   threaded through the walk (what is left of it after Term).
cut_term(T, _, N0, N, Cut) :-
    var(T),
    !,
    N = N0,
    (   attvar(T)
    ->  true                            % a fresh variable: its attributes may be
                                        % anything, and a writer prints them
    ;   Cut = T
    ).
cut_term(T, D, N0, N, Cut) :-
    (   N0 =< 0
    ->  N = N0,
        Cut = '...'
    ;   atom(T)
    ->  atom_length(T, L),
        cut_text(T, L, N0, N, Cut)
    ;   string(T)
    ->  string_length(T, L),
        cut_text(T, L, N0, N, Cut)
    ;   integer(T), T \== 0, msb(abs(T)) > 8192
    ->  Bits is msb(abs(T)) + 1,
        format(atom(Cut), '...(an integer of ~D bits)', [Bits]),
        N is N0 - 64
    ;   \+ compound(T)
    ->  N is N0 - 1,
        Cut = T
    ;   D =< 0
    ->  N is N0 - 1,
        Cut = '...'
    ;   D1 is D - 1,
        N1 is N0 - 1,
        (   compound_name_arity(T, '[|]', 2)
        ->  cut_list(T, 256, D1, N1, N, Cut)
        ;   compound_name_arity(T, Name, Arity),
            Keep is min(Arity, 256),
            cut_args(1, Keep, T, D1, N1, N, Args0),
            (   Arity > Keep
            ->  append(Args0, ['...'], Args)
            ;   Args = Args0
            ),
            compound_name_arguments(Cut, Name, Args)
        )
    ).

cut_text(T, L, N0, N, Cut) :-
    Max is max(32, min(1000, N0)),
    (   L =< Max
    ->  Cut = T,
        N is N0 - L
    ;   format(string(Mark), "...(~D characters)", [L]),
        (   atom(T)
        ->  sub_atom(T, 0, Max, _, Part),
            atom_concat(Part, Mark, Cut)
        ;   sub_string(T, 0, Max, _, Part),
            string_concat(Part, Mark, Cut)
        ),
        N is N0 - Max
    ).

cut_list(L, K, D, N0, N, Cut) :-
    (   compound(L),
        compound_name_arity(L, '[|]', 2)
    ->  (   ( K =< 0 ; N0 =< 0 )
        ->  N = N0,
            Cut = '...'
        ;   arg(1, L, H),
            arg(2, L, T),
            cut_term(H, D, N0, N1, CH),
            N2 is N1 - 1,
            K1 is K - 1,
            cut_list(T, K1, D, N2, N, CT),
            Cut = [CH|CT]
        )
    ;   cut_term(L, D, N0, N, Cut)
    ).

cut_args(I, Keep, T, D, N0, N, Args) :-
    (   I > Keep
    ->  N = N0,
        Args = []
    ;   arg(I, T, A),
        cut_term(A, D, N0, N1, CA),
        Args = [CA|Rest],
        I1 is I + 1,
        cut_args(I1, Keep, T, D, N1, N, Rest)
    ).

iso_kind(syntax_error).
iso_kind(instantiation_error).
iso_kind(type_error).
iso_kind(domain_error).
iso_kind(existence_error).
iso_kind(permission_error).
iso_kind(evaluation_error).
iso_kind(representation_error).
iso_kind(resource_error).
iso_kind(uninstantiation_error).
iso_kind(sandbox_violation).
iso_kind(protocol_error).

error_kind(E, Kind) :-
    nonvar(E),
    E = error(Formal, _),
    nonvar(Formal),
    (   atom(Formal) -> Name = Formal
    ;   compound(Formal) -> compound_name_arity(Formal, Name, _)
    ),
    iso_kind(Name),
    !,
    (   Name == existence_error, Formal = existence_error(session, _)
    ->  Kind = session_closed
    ;   Name == existence_error, Formal = existence_error(cursor, _)
    ->  Kind = cursor_closed            % harness_cursor.pl
    ;   Name == permission_error, Formal = permission_error(_, sandboxed, _)
    ->  Kind = sandbox_violation
    ;   Kind = Name
    ).
error_kind(E, resource_error) :-
    memory_exhausted(E),
    !.
error_kind(time_limit_exceeded, timeout) :- !.
error_kind('$pt_cancelled', cancelled) :- !.
error_kind(_, execution_exception).

%   memory_exhausted(+Error): SWI-Prolog's own errors for text that a
%   built-in could not make for want of memory, which are no ISO errors:
%   a memory stream (format/3 into an atom or a string, with_output_to/2)
%   that could not grow, and format/2,3's column count (~*c) beyond what
%   it can allocate (SWI-Prolog 9.0.4 says "no or negative integer" for
%   any count past 2^31-1).
memory_exhausted(E) :-
    nonvar(E),
    E = error(Formal, Context),
    nonvar(Formal),
    (   Formal = io_error(_, _)
    ->  nonvar(Context),
        Context = context(_, Msg),
        Msg == 'Cannot allocate memory'
    ;   Formal = format(Msg)
    ->  Msg == 'no or negative integer for `*\' argument'
    ).

error_message(error(sandbox_violation(_), context(_, Msg)), Text) :-
    nonvar(Msg),
    !,
    format(string(Text), "Sandbox: ~w", [Msg]).
error_message('$pt_cancelled', Text) :-
    !,
    Text = "The request was cancelled (PrologSession.cancel, a cancelled future, an interrupt or a close).".
error_message(error(protocol_error(What), _), Text) :-
    !,
    format(string(Text), "Bad harness request: ~q", [What]).
error_message(error(syntax_error(goal_must_be_one_term), _), Text) :-
    !,
    Text = "Syntax error: the goal text holds more than one term; join goals with ',' instead of '.'".
error_message(error(syntax_error(empty_goal), _), Text) :-
    !,
    Text = "Syntax error: the goal text is empty".
error_message(error(syntax_error(What), stream(_, Line, Column, _)), Text) :-
    integer(Line), integer(Column),
    !,
    message_text(error(syntax_error(What), _), Text0),
    format(string(Text), "~w (line ~d, column ~d)", [Text0, Line, Column]).
error_message(error(syntax_error(What), _), Text) :-
    !,
    message_text(error(syntax_error(What), _), Text).
error_message(E, Text) :-
    E \= error(_, _),
    !,
    format(string(Text), "Unhandled exception: ~q", [E]).
error_message(error(Formal, Context), Text) :-
    % "catch/3: " is where the harness called the goal: noise to users
    nonvar(Context),
    Context = context(system:catch/3, _),
    !,
    error_message(error(Formal, _), Text).
error_message(E, Text) :-
    message_text(E, Text),
    !.
error_message(E, Text) :-
    format(string(Text), "Unhandled exception: ~q", [E]).

message_text(E, Text) :-
    catch(( '$messages':translate_message(E, Lines, []),
            message_lines_text(Lines, Text0) ),
          _, fail),
    Text0 \== "",
    Text = Text0.

error_term_text(E, Text) :-
    copy_term(E, Copy),
    (   acyclic_term(Copy) -> T = Copy ; factor_one(Copy, T) ),
    catch(format(string(Text), "~W",
                 [T, [quoted(true), max_depth(50), portray(false)]]),
          _, Text = "<unprintable>").

unknown_procedure(error(existence_error(procedure, PI), _), M, Name, Arity) :-
    nonvar(PI),
    (   PI = M:Name/Arity -> true ; PI = Name/Arity ),
    atom(Name),
    integer(Arity),
    atom(M),
    session(M, _).

%   Predicates of the session module whose name is close to Name (edit
%   distance at most a third of its length, 1 to 3), or which have Name
%   with another arity; best first.
similar_predicates(M, Name, Arity, Candidates) :-
    atom_length(Name, Len),
    MaxDist is max(1, min(3, Len // 3)),
    findall(D-Text,
            ( user_predicate(M, H),
              functor(H, N, A),
              N/A \== Name/Arity,
              % the lengths differ by no more than the distance: a cheap test first
              atom_length(N, NLen),
              abs(NLen - Len) =< MaxDist,
              name_distance(Name, N, D0),
              D0 =< MaxDist,
              % equal distance: the same arity ranks first
              ( A =:= Arity -> D is D0*2 ; D is D0*2 + 1 ),
              format(atom(Text), "~w/~w", [N, A])
            ),
            Scored),
    keysort(Scored, Sorted),
    pairs_values(Sorted, All),
    list_to_set(All, Set),
    (   length(Set, L), L > 5
    ->  length(Candidates, 5),
        append(Candidates, _, Set)
    ;   Candidates = Set
    ).

name_distance(A, A, 0) :- !.
name_distance(A, B, D) :-
    atom_codes(A, As),
    atom_codes(B, Bs),
    levenshtein(As, Bs, D).

levenshtein(As, Bs, D) :-
    length(Bs, LB),
    numlist(0, LB, Row0),
    foldl(lev_row(Bs), As, Row0-1, Row-_),
    last(Row, D).

lev_row(Bs, A, Prev-I, Row-I1) :-
    I1 is I + 1,
    Prev = [P0|_],
    lev_cells(Bs, A, Prev, P0, I, Cells),
    Row = [I|Cells].

lev_cells([], _, _, _, _, []).
lev_cells([B|Bs], A, [Diag, Up|Prev], _, Left, [D|Ds]) :-
    ( A == B -> Cost = 0 ; Cost = 1 ),
    D is min(min(Up + 1, Left + 1), Diag + Cost),
    lev_cells(Bs, A, [Up|Prev], Up, D, Ds).

                 /*******************************
                 *        THE OTHER PARTS       *
                 *******************************/

:- include(harness_inspect).    % inspect, source, replace, messages
:- include(harness_plunit).     % run_tests
:- include(harness_trace).      % trace
:- include(harness_limits).     % limits user code cannot defeat
:- include(harness_guard).      % the built-ins as session code sees them
:- include(harness_sandbox).    % isolation between sessions, sandbox
:- include(harness_execute).    % execute (stateless runs), parse
:- include(harness_recycle).    % is a Prolog whose sessions closed as clean as a fresh one
:- include(harness_cursor).     % answers on demand
:- include(harness_check).      % the static check after a consult: undefined calls

%   From here on a call of a guarded built-in, wherever compiled, is
%   resolved through the calling module (harness_guard.pl).
:- unbind_guarded_builtins.
:- initialization(unbind_guarded_builtins, restore).

                 /*******************************
                 *          LOAD HOOKS          *
                 *******************************/

%   Installed last: it runs for every term SWI-Prolog loads from now on,
%   so everything it calls must exist already. Only directives: its head
%   says so, so that a clause (most of what a session loads) does not pay
%   for a second loading_session_source/0 after the isolation check's.
system:term_expansion((:- Directive), Expanded) :-
    loading_session_source,
    session_directive(Directive, Expanded).

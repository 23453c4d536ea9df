/*  Part of the prologtool harness (included by harness.pl, module
    prologtool_harness): whether a Prolog whose sessions have all closed
    is as clean as a fresh one, so that a backend may give it to the next
    session instead of starting another (issue 16: the process backend
    recycles a child whose session closed cleanly).

    The first request a Prolog serves records the fingerprint of its
    state (fingerprint/1 below); recycle compares the state now with it.

    Request:  {"op":"recycle"}, or recycle_after:Id on another request
              (the close of a session): the check runs right after that
              request's reply, and its reply carries Id (harness.pl,
              recycle_after/1)
    Reply pairs (after ok:true):
      clean        true when nothing differs from the fresh state
      differences  what differs, as texts (empty when clean)

    The fingerprint holds what session code could leave behind and a
    later session could see: sessions and their sources, modules,
    threads (the harness's watchdog apart), streams, operators, the
    global flags, global variables, flag/3 keys and recorded keys, the
    clauses of user, the working directory, the harness's per-session
    stores, message queues, mutexes, foreign libraries, the goals that
    session sources left for saved states, and whether the environment
    was changed (setenv/2, unsetenv/1). Source ids that a closed session
    handed back (free_source/1) and the harness's own '$pt_...' globals
    are not state a session sees.
*/

:- dynamic
    fresh_fingerprint/1,        % the state before the first request
    fingerprint_recorded/0,     % fresh_fingerprint/1 holds it (a cheap test)
    environment_changed/0.      % session code called setenv/2 or unsetenv/1

%   Called by the guarded setenv/2 and unsetenv/1 (harness_guard.pl).
note_environment_changed :-
    (   environment_changed -> true ; assertz(environment_changed) ).

%   Called before every request is dispatched; records the fingerprint
%   before the first. (Testing fresh_fingerprint(_) would copy the whole
%   fingerprint out of its clause each time.)
record_fresh_fingerprint :-
    (   fingerprint_recorded
    ->  true
    ;   fingerprint(F),
        assertz(fresh_fingerprint(F)),
        assertz(fingerprint_recorded)
    ).

request(recycle, _Req, [clean= @(Clean), differences=Texts]) :-
    (   fresh_fingerprint(Fresh)
    ->  fingerprint(Now),
        (   Now == Fresh                % the usual case: one comparison
        ->  Texts = []
        ;   findall(Text, fingerprint_difference(Fresh, Now, Text), Texts)
        )
    ;   Texts = []                      % it served nothing yet
    ),
    ( Texts == [] -> Clean = true ; Clean = false ).

fingerprint_difference(Fresh, Now, Text) :-
    memberchk(flags-Before, Fresh),
    memberchk(flags-After, Now),
    Before \== After,                   % both sorted: the usual case, no flag by flag scan
    member(F-V, Before),                % a library may add flags; none may change
    \+ memberchk(F-V, After),
    (   memberchk(F-V1, After) -> true ; V1 = '<gone>' ),
    format(string(Text), "flag ~q: ~q, was ~q", [F, V1, V]).
fingerprint_difference(Fresh, Now, Text) :-
    member(Name-Before, Fresh),
    Name \== flags,
    memberchk(Name-After, Now),
    Before \== After,
    (   is_list(Before), is_list(After)
    ->  subtract(After, Before, Added),
        subtract(Before, After, Gone),
        format(string(Text), "~w: added ~q, gone ~q", [Name, Added, Gone])
    ;   format(string(Text), "~w: ~q, was ~q", [Name, After, Before])
    ).

%!  fingerprint(-Pairs) is det.
fingerprint([ sessions-Sessions, sources-Sources, modules-Modules,
              threads-Threads, streams-Streams, operators-Ops,
              flags-Flags, globals-Globals, flag_keys-FlagKeys,
              record_keys-RecordKeys, user_clauses-UserClauses,
              directory-Dir, session_stores-Stores, queues-Queues,
              mutexes-Mutexes, foreign-Foreign, init_goals-InitGoals,
              environment-Env ]) :-
    findall(M, session(M, _), Sessions0), sort(Sessions0, Sessions),
    findall(Id, loaded_source(_, Id, _), Sources0), sort(Sources0, Sources),
    findall(M, ( current_module(M), session_visible_module(M) ), Modules0),
    sort(Modules0, Modules),
    findall(T, ( thread_property(T, status(running)), \+ harness_thread(T) ), Threads0),
    sort(Threads0, Threads),
    findall(A, ( stream_property(S, mode(_)), stream_fingerprint(S, A) ), Streams0),
    msort(Streams0, Streams),
    operators(Ops),
    % Sorted: the order current_prolog_flag/2 gives changes in a child
    % after its first session with no flag added or changed, and an
    % unsorted list then sent every check into the flag by flag scan of
    % fingerprint_difference/3 (about 0.5 ms, against 20-27 us to sort).
    findall(F-V, ( current_prolog_flag(F, V), \+ volatile_flag(F) ), Flags0),
    msort(Flags0, Flags),
    findall(K, ( nb_current(K, _), \+ harness_global(K) ), Globals0), sort(Globals0, Globals),
    findall(K, ( current_flag(K), \+ harness_flag_key(K) ), FlagKeys0), sort(FlagKeys0, FlagKeys),
    findall(K, current_key(K), RecordKeys0), sort(RecordKeys0, RecordKeys),
    findall(PI-N, user_predicate_clauses(PI, N), UserClauses0), msort(UserClauses0, UserClauses),
    working_directory(Dir, Dir),
    findall(store(S), session_store_entry(S), Stores0), msort(Stores0, Stores),
    findall(Q, ( message_queue_property(Q0, size(_)), blob_name(Q0, alias, Q) ), Queues0),
    msort(Queues0, Queues),
    findall(X, ( mutex_property(X0, status(_)), blob_name(X0, alias, X),
                 \+ harness_flag_key(X) ), Mutexes0),
    msort(Mutexes0, Mutexes),
    findall(F, foreign_library(F), Foreign0), msort(Foreign0, Foreign),
    aggregate_all(count, session_init_goal, InitGoals),
    ( environment_changed -> Env = changed ; Env = as_started ).

%   operators(-Ops): the operators of system, and those of user as a
%   reader in user sees them. Session code that declares an operator in
%   system (system:op/3, @(op/3, system)) gets it declared in user
%   (SWI-Prolog 9.0.4); one that op(0, Type, Name) takes away from user
%   is gone from user's list (HarnessProtocolTest names both).
operators(Ops) :-
    findall(op(system, P, Ty, N), current_op(P, Ty, system:N), System),
    findall(op(user, P, Ty, N), current_op(P, Ty, user:N), User),
    append(System, User, Ops0),
    sort(Ops0, Ops).

%   foreign_library(-File): a foreign library loaded into the process.
%   current_foreign_library/2 also lists each one's predicates (about 30
%   us a check); the table it reads, shlib:current_library/5, holds the
%   files alone.
foreign_library(File) :-
    (   current_predicate(shlib:current_library/5)
    ->  shlib:current_library(File, _, _, _, _)
    ;   current_foreign_library(File, _)
    ).

%   A goal that session code ran with initialization(Goal, now) (each
%   :- table does) or registered for restore_state: SWI-Prolog keeps it
%   for saved states until the harness forgets it with the source
%   (unload_source/1).
session_init_goal :-
    clause(system:'$init_goal'(_, _, Source:_), true),
    atom(Source),
    sub_atom(Source, 0, _, _, 'prologtool://').

%   A queue's or mutex's alias, or `anonymous`: their handles differ from
%   run to run, their number does not.
blob_name(Blob, Property, Name) :-
    (   atom(Blob)
    ->  Name = Blob
    ;   Prop =.. [Property, A],
        (   catch(message_queue_property(Blob, Prop), _, fail)
        ;   catch(mutex_property(Blob, Prop), _, fail)
        ),
        atom(A)
    ->  Name = A
    ;   Name = anonymous
    ).

%   Modules of user code: library modules that a session's calls
%   autoloaded would be loaded by the same calls in a fresh Prolog.
session_visible_module(M) :-
    \+ sub_atom(M, 0, _, _, '$'),
    module_property(M, class(Class)),
    memberchk(Class, [user, temporary]).

harness_thread(T) :-
    (   T == main
    ->  true
    ;   catch(thread_property(T, alias(A)), _, fail),
        memberchk(A, [main, prologtool_watchdog, gc])
    ).

stream_fingerprint(S, Id) :-
    (   stream_property(S, alias(A))
    ->  Id = alias(A)
    ;   stream_property(S, file_name(F))
    ->  Id = file(F)
    ;   stream_property(S, type(Type)),
        stream_property(S, mode(Mode)),
        Id = stream(Type, Mode)
    ).

%   Flags that change by themselves or per request (facts, so that the
%   test of each of the 150-odd flags is one indexed lookup).
volatile_flag(stack_limit).
volatile_flag(table_space).
volatile_flag(shared_table_space).
volatile_flag(last_call_optimisation).
volatile_flag(agc_margin).
volatile_flag(cpu_count).
volatile_flag(threads).
volatile_flag(max_tagged_integer).
volatile_flag(min_tagged_integer).
volatile_flag(access_level).
volatile_flag(debug).
volatile_flag(generate_debug_info).
volatile_flag(optimise).
volatile_flag(tty_control).

%   The harness's own globals, and SWI-Prolog's ('$...' and '__...').
harness_global(K) :-
    (   sub_atom(K, 0, _, _, '$')
    ;   sub_atom(K, 0, _, _, '__')
    ),
    !.

%   The harness's own flag/3 counters and mutexes (session code's flag/3
%   keys are scoped apart).
harness_flag_key(K) :-
    atom(K),
    (   sub_atom(K, 0, _, _, '$')
    ;   sub_atom(K, 0, _, _, prologtool_)
    ),
    !.

%   user_predicate_clauses(-PI, -N): a predicate defined in user (not
%   imported), with its number of clauses. The attributes are read as
%   predicate_property/2 reads them, without its Prolog layer (which
%   resolves and checks the predicate again: 50 against 23 us a check).
user_predicate_clauses(PI, N) :-
    current_predicate(user:Name/Arity),
    functor(H, Name, Arity),
    \+ '$get_predicate_attribute'(user:H, imported, _),
    PI = Name/Arity,
    (   '$get_predicate_attribute'(user:H, number_of_clauses, N0) -> N = N0 ; N = 0 ).

session_store_entry(S) :-
    (   session_message(M, _, _), S = message(M)
    ;   source_count(M, _), S = source_count(M)
    ;   session_global(M, K, _), S = global(M, K)
    ;   session_flag_value(M, K, _), S = flag(M, K)
    ;   session_record_key_(M, K), S = record(M, K)
    ;   session_thread_(M, T), S = thread(M, T)
    ;   test_source(M, _, _), S = test_source(M)
    ;   pending_close(M), S = pending_close(M)
    ;   closed_module(M, _), S = closed_module(M)
    ;   check_finding(M, _, _, _, _), S = check_finding(M)
    ).

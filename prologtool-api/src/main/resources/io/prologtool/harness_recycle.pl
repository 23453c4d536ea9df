:- encoding(utf8).
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
        (   resident_kb(Kb)
        ->  assertz(fresh_resident_kb(Kb))
        ;   true
        ),
        assertz(fingerprint_recorded)
    ).

%   Memory. A child keeps what its sessions made it take from the system
%   (the stacks they grew, the heap their clauses, atoms and tables
%   fragmented), and a pool of reused children would grow with every
%   session served. So the check first gives back what it can (garbage
%   collection, unused stack and heap), then compares the resident
%   memory with what the child had before its first request: more than
%   max_growth_kb above it is a difference, and the child is not reused.
%   Where /proc/self/status is not there (not Linux) memory is not
%   compared.
:- dynamic fresh_resident_kb/1.

max_growth_kb(65536).

memory_differences(Texts) :-
    (   fresh_resident_kb(Fresh)
    ->  garbage_collect,
        trim_stacks,
        catch(trim_heap, _, true),
        max_growth_kb(Max),
        (   resident_kb(Now),
            Now > Fresh + Max
        ->  format(string(Text), "memory: ~D kB resident, ~D kB before the first request (at most ~D kB more)",
                   [Now, Fresh, Max]),
            Texts = [Text]
        ;   Texts = []
        )
    ;   Texts = []
    ).

%   resident_kb(-Kb): this process's resident memory (VmRSS), in kB.
resident_kb(Kb) :-
    catch(setup_call_cleanup(open('/proc/self/status', read, In),
                             read_string(In, 100000, Status),
                             close(In)),
          _, fail),
    sub_string(Status, Before, _, _, "VmRSS:"),
    !,
    sub_string(Status, Before, _, 0, From),
    split_string(From, "\n", "", [Line|_]),
    split_string(Line, " \t", " \t", Parts),
    member(P, Parts),
    catch(number_string(Kb, P), _, fail),
    !.

request(recycle, _Req, [clean= @(Clean), differences=Texts]) :-
    (   fresh_fingerprint(Fresh)
    ->  fingerprint(Now),
        (   Now == Fresh                % the usual case: one comparison
        ->  Texts0 = []
        ;   findall(Text, fingerprint_difference(Fresh, Now, Text), Texts0)
        )
    ;   Texts0 = []                     % it served nothing yet
    ),
    reach_differences(Texts1),
    memory_differences(Texts2),
    append([Texts0, Texts1, Texts2], Texts),
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
%   (forget_source/1).
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
volatile_flag(max_table_subgoal_size).
volatile_flag(max_table_answer_size).
volatile_flag(max_table_subgoal_size_action).
volatile_flag(max_table_answer_size_action).
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
    ;   session_tmp_file_(M, _), S = tmp_file(M)
    ).


                 /*******************************
                 *     WHAT UNSANDBOXED CODE    *
                 *          COULD REACH         *
                 *******************************/

/*  The fingerprint above holds what any session could leave behind. An
    unsandboxed session can reach further: trusted code that builds a
    module name at run time walks around the isolation check
    (harness_sandbox.pl checks written forms) and may add a clause to
    system:term_expansion/2, prolog:message//1, user:portray/1 or
    lists, import a module into another, or declare a format directive;
    each then acts on the programs of later sessions in the same Prolog.
    A child that served such a session may serve again only when none of
    that happened, so after an unsandboxed session the check compares
    the reach fingerprint too:

      - every module but the temporary ones (sessions, and what the
        fingerprint's modules part names already), with the database
        generation of its last clause change: one number per module
        that moves with any assert, retract or erase in it;
      - system, whose own bookkeeping changes on every load: each
        predicate by name, with its generation, but for the loader's
        stores (volatile_system_predicate/1). A pass over its 1,100
        predicates costs about 2 ms, so while the module's size is what
        it was (no predicate added) only its dynamic and multifile
        predicates are looked at (about 0.1 ms);
      - the import modules of every module, and the format predicates.

    A module loaded since (a library autoloaded by a session's call) is
    as a fresh Prolog would load it unless one of its dynamic predicates
    holds a clause that no file loaded; then the child ends too.

    A child whose sessions were all sandboxed skips it: the sandbox
    admits no goal that names another module or changes the database
    outside the session (safe_goal/1 with the isolation check), so this
    check would cost 1-2 ms for nothing. The baseline is taken when the
    child starts to serve (serve/0) and moves on after each clean check,
    so the modules that sessions' autoloading brought in are checked
    once.
*/

:- dynamic
    reach_module_base/2,        % Module, Generation: when last known clean
    reach_predicate_base/5,     % Name, Module, Arity, Generation, Content (by name: indexed)
    reach_other_base/1,         % imports and format predicates, as a term
    reach_system_size/1,        % module_property(system, size(S)) then
    reach_system_watched/1,     % Name/Arity list: system's dynamic and multifile predicates
    reach_recorded/0,           % the baseline is taken
    unsandboxed_served/0.       % an unsandboxed session opened since then

%   Called when a session opens (open_session/2, harness.pl).
note_session_opened(Options) :-
    (   get_dict(sandboxed, Options, true)
    ->  true
    ;   unsandboxed_served
    ->  true
    ;   record_reach_baseline,          % without serve/0: when first needed
        assertz(unsandboxed_served)
    ).

%   Called by serve/0 before the first request, while the child waits in
%   the pool, so that no session waits for it (about 5 ms).
record_reach_baseline :-
    (   reach_recorded
    ->  true
    ;   forall(reach_module(M, G), record_module_base(M, G)),
        record_system_size,
        reach_other(Other),
        assertz(reach_other_base(Other)),
        assertz(reach_recorded)
    ).

record_module_base(M, G) :-
    retractall(reach_module_base(M, _)),
    retractall(reach_predicate_base(_, M, _, _, _)),
    assertz(reach_module_base(M, G)),
    forall(predicate_generation(M, Name/Arity, H, PG),
           ( (   volatile_predicate(M, Name/Arity, H)
             ->  Content = by_itself
             ;   predicate_content(M, H, Content)
             ),
             assertz(reach_predicate_base(Name, M, Arity, PG, Content)) )).

%   predicate_content(+M, +Head, -Content): what a predicate whose
%   generation moved may be compared by.
%     - multifile (hooks such as prolog:message//1): files(Files, Hash),
%       each file's number of clauses, and a hash of the clauses that no
%       file loaded. A library that a session's call autoloaded adds its
%       own clauses from its own file, which is no change (content_moved/3).
%     - dynamic: a hash of its clauses, to tell a clause added and taken
%       back again (plunit adds one to prolog:assertion_failed/2 while
%       tests run) from a change;
%     - static: `static`; its generation moves only when it is loaded
%       again, which is a change.
predicate_content(M, H, Content) :-
    (   '$get_predicate_attribute'(M:H, (multifile), 1)
    ->  (   catch(findall(F-Clause, ( nth_clause(M:H, _, Ref),
                                      clause_origin(Ref, F, Clause) ), Pairs), _, fail)
        ->  findall(F, member(F-none, Pairs), Fs0),
            msort(Fs0, Fs),
            clumped(Fs, Files),
            findall(C, member(asserted-C, Pairs), Cs),
            variant_sha1(Cs, Hash),
            Content = files(Files, Hash)
        ;   Content = unreadable
        )
    ;   '$get_predicate_attribute'(M:H, dynamic, 1)
    ->  (   catch(findall(H-B, clause(M:H, B), Clauses), _, fail),
            variant_sha1(Clauses, Hash)
        ->  Content = Hash
        ;   Content = unreadable
        )
    ;   Content = static
    ).

%   clause_origin(+Ref, -File, -Clause): File is the file that loaded the
%   clause (Clause = none), or asserted (Clause is the clause).
clause_origin(Ref, F, Clause) :-
    (   clause_property(Ref, file(F0))
    ->  F = F0, Clause = none
    ;   F = asserted,
        clause(H, B, Ref),
        Clause = (H :- B)
    ).

%   content_moved(+Before, +Now): a predicate whose generation moved holds
%   nothing a fresh Prolog would not: the same clauses, or for a hook,
%   only the clauses of libraries loaded since.
content_moved(Same, Same) :- !.
content_moved(files(Before, Hash), files(Now, Hash)) :-
    forall(( member(F-N, Now), \+ memberchk(F-N, Before) ),
           library_file(F)).

library_file(F) :-
    source_file_property(F, module(LM)),
    module_property(LM, class(Class)),
    memberchk(Class, [library, system]),
    !.

%   reach_differences(-Texts): what unsandboxed code changed outside its
%   sessions since the baseline; [] when no unsandboxed session opened.
%   A clean check moves the baseline on (to the generations it saw), so
%   each change is looked at once.
reach_differences(Texts) :-
    (   unsandboxed_served
    ->  findall(M-G, ( reach_module(M, G), \+ reach_module_base(M, G) ), Changed),
        maplist(module_scan, Changed, Scans),
        findall(Text, ( member(Scan, Scans), member(text(Text), Scan) ), Texts0),
        reach_other(Other),
        findall(Text, reach_difference(Other, Text), Texts1),
        append(Texts0, Texts1, Texts),
        (   Texts == []
        ->  maplist(move_module_base, Changed, Scans),
            (   reach_system_size(Size),
                module_property(system, size(Size))
            ->  true
            ;   record_system_size
            ),
            (   reach_other_base(Before),
                Before =@= Other
            ->  true
            ;   retractall(reach_other_base(_)),
                assertz(reach_other_base(Other))
            ),
            retractall(unsandboxed_served)
        ;   true
        )
    ;   Texts = []
    ).

reach_difference(_, Text) :-
    reach_module_base(M, _),
    \+ reach_module(M, _),
    format(string(Text), "module ~q: gone", [M]).
reach_difference(Now, Text) :-
    reach_other_base(Before),
    Before \=@= Now,
    member(Part-B, Before),
    memberchk(Part-N, Now),
    B \== N,
    subtract(N, B, Added0),
    subtract(B, N, Gone),
    (   Part == imports
    ->  exclude(new_module_imports(B), Added0, Added)
    ;   Added = Added0
    ),
    \+ ( Added == [], Gone == [] ),
    format(string(Text), "~w: added ~q, gone ~q", [Part, Added, Gone]).

%   The imports of a module loaded since the baseline (module_taint/2
%   looks at it).
new_module_imports(Before, M-_) :-
    \+ memberchk(M-_, Before).

%   module_scan(+M-G, -Scan): a module whose generation moved. For one
%   loaded since the baseline, text(Why) when it holds more than its
%   files loaded. For another, one pass over its predicates (system has
%   about 1,100: most of the check's time): text(Text) for each that
%   changed, is new or is gone, and base(Name, Arity, G, Content) for
%   each whose generation moved while it holds what it held.
module_scan(system-_, Scan) :-
    reach_system_size(Size),
    module_property(system, size(Size)),
    !,
    reach_system_watched(Watched),
    findall(R, ( member(Name/Arity, Watched),
                 scan_known(system, Name, Arity, R) ),
            Scan).
module_scan(M-_, Scan) :-
    (   reach_module_base(M, _)
    ->  findall(R, scan_predicate(M, R), Scan0),
        aggregate_all(count, member(kept, Scan0), Kept0),
        aggregate_all(count, member(base(_, _, _, _), Scan0), Moved),
        Kept is Kept0 + Moved,
        aggregate_all(count, reach_predicate_base(_, M, _, _, _), Before),
        (   Kept < Before
        ->  findall(text(Text), gone_predicate(M, Text), Gone),
            append(Scan0, Gone, Scan)
        ;   Scan = Scan0
        )
    ;   module_taint(M, Why)
    ->  format(string(Text), "module ~q, loaded since: ~w", [M, Why]),
        Scan = [text(Text)]
    ;   Scan = []
    ).

gone_predicate(M, Text) :-
    reach_predicate_base(Name, M, Arity, _, _),
    functor(H, Name, Arity),
    \+ ( current_predicate(M:Name/Arity),
         \+ '$get_predicate_attribute'(M:H, imported, _) ),
    format(string(Text), "~q: gone", [M:Name/Arity]).

%   record_system_size: system's size and the predicates whose clauses
%   may change without changing it (module_scan/2).
record_system_size :-
    retractall(reach_system_size(_)),
    retractall(reach_system_watched(_)),
    module_property(system, size(Size)),
    findall(Name/Arity, ( reach_predicate_base(Name, system, Arity, _, Content),
                          Content \== static,
                          Content \== by_itself ), Watched),
    assertz(reach_system_size(Size)),
    assertz(reach_system_watched(Watched)).

%   scan_known(+M, +Name, +Arity, -Result): scan_predicate/2 for one
%   predicate of the baseline.
scan_known(M, Name, Arity, R) :-
    (   current_predicate(M:Name/Arity)
    ->  functor(H, Name, Arity),
        scan_defined(M, Name, Arity, H, R)
    ;   format(string(Text), "~q: gone", [M:Name/Arity]),
        R = text(Text)
    ).

%   scan_predicate(+M, -Result): for each predicate defined in M, kept
%   (unchanged, or a store that changes by itself and is in the
%   baseline), base(...) (see module_scan/2) or text(Text).
scan_predicate(M, R) :-
    current_predicate(M:Name/Arity),
    functor(H, Name, Arity),
    \+ '$get_predicate_attribute'(M:H, imported, _),
    scan_defined(M, Name, Arity, H, R).

scan_defined(M, Name, Arity, H, R) :-
    (   '$get_predicate_attribute'(M:H, last_modified_generation, G0) -> G = G0 ; G = 0 ),
    (   reach_predicate_base(Name, M, Arity, G, _)      % the usual case: unchanged
    ->  R = kept
    ;   volatile_predicate(M, Name/Arity, H)
    ->  (   reach_predicate_base(Name, M, Arity, _, _)
        ->  R = kept
        ;   R = base(Name, Arity, G, by_itself)
        )
    ;   reach_predicate_base(Name, M, Arity, _, Content0)
    ->  predicate_content(M, H, Content),
        (   Content \== static,
            content_moved(Content0, Content)
        ->  R = base(Name, Arity, G, Content)
        ;   format(string(Text), "~q: its clauses changed", [M:Name/Arity]),
            R = text(Text)
        )
    ;   format(string(Text), "~q: a new predicate", [M:Name/Arity]),
        R = text(Text)
    ).

%   move_module_base(+M-G, +Scan): after a clean check, the baseline of M
%   is its state now.
move_module_base(M-G, Scan) :-
    (   retract(reach_module_base(M, _))
    ->  assertz(reach_module_base(M, G)),
        forall(member(base(Name, Arity, PG, Content), Scan),
               ( retractall(reach_predicate_base(Name, M, Arity, _, _)),
                 assertz(reach_predicate_base(Name, M, Arity, PG, Content)) ))
    ;   record_module_base(M, G)       % loaded since
    ).

%   Predicates that change by themselves: the loader's and the tabling's
%   stores in system, the foreign libraries loaded (which the
%   fingerprint's foreign part compares with the fresh state), and the
%   harness's own dynamic predicates (the fingerprint above holds what
%   they hold for sessions).
volatile_predicate(system, PI, _) :-
    volatile_system_predicate(PI).
volatile_predicate(shlib, PI, _) :-        % the fingerprint's foreign part
    memberchk(PI, [current_library/5, foreign_predicate/2]).
volatile_predicate(prologtool_harness, _, H) :-
    '$get_predicate_attribute'(prologtool_harness:H, dynamic, 1).

%   A module whose clauses the reach fingerprint covers: all but the
%   temporary ones (sessions: the fingerprint's modules part names any
%   left) and the harness itself. The harness's code is static (assert
%   cannot change it), sessions do not inherit from it (a predicate
%   added to it is called by nothing), and what its stores hold for
%   sessions is in the fingerprint above; its stores change on every
%   request, and a pass over its 500 predicates cost 1.3 ms a check.
reach_module(M, G) :-
    current_module(M),
    M \== prologtool_harness,
    \+ module_property(M, class(temporary)),
    \+ session(M, _),
    \+ closed_module(M, _),
    module_property(M, last_modified_generation(G)).

%   reach_other(-Pairs): the import modules of every module but the
%   temporary ones, and the format predicates.
reach_other([imports-Imports, format_predicates-Formats]) :-
    findall(M-Is, ( reach_module(M, _),
                    findall(I, import_module(M, I), Is) ), Imports0),
    msort(Imports0, Imports),
    findall(C-P, current_format_predicate(C, P), Formats0),
    msort(Formats0, Formats).

%   predicate_generation(+M, -Name/Arity, -Head, -Generation): a predicate
%   defined in M (not imported) and the generation of its last change.
predicate_generation(M, Name/Arity, H, G) :-
    current_predicate(M:Name/Arity),
    functor(H, Name, Arity),
    \+ '$get_predicate_attribute'(M:H, imported, _),
    (   '$get_predicate_attribute'(M:H, last_modified_generation, G0) -> G = G0 ; G = 0 ).

%   The loader's and the tabling's own stores in system: SWI-Prolog
%   changes them on every load (each consult of a session's text).
volatile_system_predicate('$autoload_nesting'/1).
volatile_system_predicate('$compilation_mode_store'/1).
volatile_system_predicate('$init_goal'/3).
volatile_system_predicate('$load_context_module'/3).
volatile_system_predicate('$load_input'/2).
volatile_system_predicate('$loading_file'/3).
volatile_system_predicate('$search_path_file_cache'/3).
volatile_system_predicate(trie_gen_compiled/2).

%   module_taint(+M, -Why): M, loaded since the baseline, holds more than
%   its files loaded (Why says what); fails when it is as a fresh Prolog
%   would load it.
module_taint(M, Why) :-
    \+ ( module_property(M, class(Class)),
         memberchk(Class, [user, temporary]) ),   % the fingerprint's modules part names those
    predicate_generation(M, PI, H, _),
    '$get_predicate_attribute'(M:H, dynamic, 1),
    clause(M:H, _, Ref),
    \+ clause_property(Ref, file(_)),
    !,
    format(string(Why), "~q holds a clause no file loaded", [M:PI]).

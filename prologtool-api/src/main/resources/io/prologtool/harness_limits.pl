:- encoding(utf8).
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
harness_control('$pt_cancelled').       % cancellation, below
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
    thread_inference_limit(OuterLimit),
    setup_call_cleanup(
        ( nb_setval('$pt_deadline', Deadline),
          nb_setval('$pt_inference_cap', CapAt),
          watch_deadline(Deadline, Saved) ),
        call_with_inference_limit(once(Goal), Cap, R),
        ( unwatch_deadline(Saved),
          nb_setval('$pt_deadline', Outer),
          nb_setval('$pt_inference_cap', OuterCap),
          set_thread_inference_limit(OuterLimit),
          '$set_source_module'(SourceModule)
        )),
    (   R == inference_limit_exceeded
    ->  throw(time_limit_exceeded)
    ;   true
    ).

%!  thread_inference_limit(-Limit) is det.
%!  set_thread_inference_limit(+Limit) is det.
%!  no_inference_limit is det.
%
%   The inference count at which SWI-Prolog raises inference_limit_exceeded
%   on this thread (2^63-1, the largest int64, when none is set), and
%   setting it outright. call_with_inference_limit/3 puts back the limit
%   it found when it ends, and limit_time/2 puts it back once more,
%   whatever happened inside: a swipl child was seen keeping a request's
%   limit (its time limit's backstop) after the request ended, and a later
%   request whose own work crossed it (writing a large reply) ended with
%   inference_limit_exceeded outside every limit (found by the fuzzer,
%   after a goal that the time limit stopped). Every request also starts
%   with no limit (no_inference_limit/0, run by handle_request/2), so
%   nothing one request leaves on a thread reaches the next.
%   '$inference_limit'/2 only lowers the limit (here to one 2^60
%   inferences away, which the next call takes back), and
%   '$inference_limit_false'/1 sets it and fails.
thread_inference_limit(Limit) :-
    '$inference_limit'(1152921504606846976, Limit),
    set_thread_inference_limit(Limit).

set_thread_inference_limit(Limit) :-
    \+ '$inference_limit_false'(Limit).

no_inference_limit :-
    set_thread_inference_limit(9223372036854775807).

                 /*******************************
                 *           WATCHDOG           *
                 *******************************/

/*  One thread, prologtool_watchdog, keeps every time limit of this
    Prolog. Each thread that runs under a limit has a slot: a flag/3 key
    of its own ('$pt_watch_<thread id>', registered once in watched/2)
    holding the earliest deadline of the limits running there (inf when
    none). Entering a limit sets the slot, leaving it puts the slot back:
    two flag updates, no assert, no retract, no lock held across them.

    The watchdog sleeps until the earliest deadline in the slots (or 10
    ms while session code runs and the memory is watched, 2 ms while a
    child serves a request, a second otherwise: memory_watched/0) and
    signals each thread whose slot has passed, once per deadline; the
    thread checks its own slot again and, if the limit still runs there,
    throws time_limit_exceeded (through an alarm due at once: see
    watch_expired/0). A deadline earlier than the moment the watchdog
    wakes anyway wakes it with a message. Like an alarm it is a signal,
    so the inference backstop stays for code where no signal reaches.

    No deadline is missed between the two threads: the watchdog sets
    '$pt_watchdog_wakes' to its latest wake before it reads the slots,
    and a thread sets its slot before it reads '$pt_watchdog_wakes'
    (flag updates are atomic and ordered). A slot set after the
    watchdog's read is compared with a wake time the watchdog has not yet
    shortened, so the thread wakes it if its deadline, or the next look
    at the memory (10 ms from now), is earlier.
*/

:- dynamic
    watched/2,                  % Thread, SlotKey
    watchdog_started/0.

%!  watch_deadline(+Deadline, -Saved) is det.
%!  unwatch_deadline(+Saved) is det.
%
%   Enter and leave a limit expiring at Deadline (get_time/1 time) on
%   this thread; Saved is what the slot held before, for nested limits.
%
%   Only the thread itself writes its slot (the watchdog reads it), so
%   get_flag/2 and set_flag/2, each atomic, do: flag/3 with an expression
%   takes a global mutex, twice per goal request (about 1 us together).
watch_deadline(Deadline, Saved) :-
    watch_slot(Key),
    get_flag(Key, Saved),
    Earliest is min(Saved, Deadline),
    set_flag(Key, Earliest),
    get_flag('$pt_watchdog_wakes', Wake),
    get_time(Now),
    (   min(Deadline, Now + 0.01) < Wake   % memory_watched/0
    ->  catch(thread_send_message(prologtool_watchdog, wake), _, true)
    ;   true
    ).

unwatch_deadline(Saved) :-
    nb_getval('$pt_watch_slot', Key),
    set_flag(Key, Saved),
    get_time(Now),
    set_flag('$pt_limit_ended', Now).   % memory_watched/0

%   watch_slot(-Key): this thread's slot, registered on first use. A thread
%   that reuses the id of one that ended takes its slot over.
watch_slot(Key) :-
    (   nb_current('$pt_watch_slot', Key0)
    ->  Key = Key0
    ;   ensure_watchdog,
        thread_self(Me),
        thread_property(Me, id(Id)),
        atom_concat('$pt_watch_', Id, Key),
        flag(Key, _, inf),
        with_mutex(prologtool_watchdog,
                   ( retractall(watched(_, Key)),
                     assertz(watched(Me, Key)) )),
        nb_setval('$pt_watch_slot', Key)
    ).

%   Run in the signalled thread: if a limit there has expired, an alarm of
%   library(time) due now throws time_limit_exceeded. Thrown from
%   thread_signal/2's goal instead, the exception would run the goal's
%   cleanup handlers where the inference backstop is not checked
%   (SWI-Prolog 9.0.4): a cleanup handler that loops after the limit
%   struck would never end.
watch_expired :-
    (   slot_expired
    ->  alarm(0, prologtool_harness:watch_strike, _, [remove(true)])
    ;   true
    ).

watch_strike :-
    (   slot_expired
    ->  throw(time_limit_exceeded)
    ;   true
    ).

slot_expired :-
    nb_current('$pt_watch_slot', Key),
    flag(Key, Deadline, Deadline),
    get_time(Now),
    Now >= Deadline.

%   slot_running: a harness limit runs on this thread.
slot_running :-
    nb_current('$pt_watch_slot', Key),
    flag(Key, Deadline, Deadline),
    Deadline \== inf.

%   watchdog_started/0 is asserted once and never taken back.
ensure_watchdog :-
    (   watchdog_started
    ->  true
    ;   with_mutex(prologtool_watchdog_start, start_watchdog)
    ).

start_watchdog :-
    (   watchdog_started
    ->  true
    ;   set_memory_bound,
        flag('$pt_watchdog_wakes', _, 0.0),   % set before its first look at the slots
        thread_create(watchdog_loop, _, [alias(prologtool_watchdog), detached(true)]),
        assertz(watchdog_started)
    ).

%   The watchdog's own global '$pt_struck' holds Thread-Deadline for the
%   expired slots it signalled already, so each deadline is signalled once.
watchdog_loop :-
    nb_setval('$pt_struck', []),
    repeat,
    get_time(Now),
    (   serving_input(_, _),            % a child's request has run since
        flag('$pt_serving', Id, Id),    % the last look: a cancel line is
        Id \== 0                        % looked for every 2 ms (below)
    ->  Latest0 is Now + 0.002
    ;   memory_watched                  % the memory bound is looked at
    ->  Latest0 is Now + 0.01           % (below) while code may allocate
    ;   Latest0 is Now + 1.0
    ),
    flag('$pt_watchdog_wakes', _, Latest0),  % before the slots are read
    findall(T-Key, watched(T, Key), Watched),
    (   Latest0 > Now + 0.01,           % a limit began since the look
        memory_watched                  % above: its thread saw Latest0
    ->  Latest is Now + 0.01
    ;   Latest = Latest0
    ),
    check_memory(Now, Watched),
    trim_after_closes(Now),
    poll_cancel,
    foldl(watch_thread(Now), Watched, Latest-[], Wake-Struck),
    nb_setval('$pt_struck', Struck),
    flag('$pt_watchdog_wakes', _, Wake),
    get_time(Then),
    Wait is max(0.0, Wake - Then),
    (   Wait > 0.0
    ->  catch(thread_get_message(prologtool_watchdog, _, [timeout(Wait)]), _, true),
        drain_wakes
    ;   true
    ),
    fail.

%   watch_thread(+Now, +Thread-Key, +Wake0-Struck0, -Wake-Struck)
watch_thread(Now, T-Key, Wake0-Struck0, Wake-Struck) :-
    flag(Key, Deadline, Deadline),
    (   \+ catch(thread_property(T, status(running)), _, fail)
    ->  with_mutex(prologtool_watchdog, retract(watched(T, Key))),
        Wake = Wake0, Struck = Struck0
    ;   Deadline > Now
    ->  Wake is min(Wake0, Deadline), Struck = Struck0
    ;   Wake = Wake0,
        Struck = [T-Deadline|Struck0],
        (   nb_getval('$pt_struck', Before),
            memberchk(T-Deadline, Before)
        ->  true
        ;   catch(thread_signal(T, prologtool_harness:watch_expired), _, true)
        )
    ).

drain_wakes :-
    (   thread_peek_message(prologtool_watchdog, _)
    ->  thread_get_message(prologtool_watchdog, _),
        drain_wakes
    ;   true
    ).

%!  unsignalled(:Goal) is semidet.
%
%   Runs Goal, which no signal reaches (the setup or cleanup goal of
%   setup_call_cleanup/3 and its relatives, sig_atomic/1: see
%   harness_guard.pl), as once/1 under an inference budget of 5 million
%   per second left before the harness's deadline, plus a million: a
%   twentieth of the backstop's rate, so a goal spinning there stops
%   after a small part of a core's time however many workers it holds.
%   The budget stands in for the time limit, which cannot reach the goal:
%   past it, the goal ends with time_limit_exceeded (outcome timeout),
%   even before the deadline. Goal's failure is taken outside the limit: in
%   SWI-Prolog 9.0.4 a call_with_inference_limit/3 that fails in a
%   thread whose signals are blocked and that has one pending (a user's
%   call_with_time_limit/2 around a cleanup handler) leaves the thread
%   spinning in C once the signals are let in. Without a harness
%   deadline (a thread that session code started, which the session's
%   close stops) only the backstop applies.
unsignalled(Goal) :-
    (   nb_current('$pt_deadline', Deadline),
        number(Deadline)
    ->  get_time(Now),
        Budget is ceiling(max(0, Deadline - Now) * 5_000_000) + 1_000_000,
        call_with_inference_limit(( call(Goal) -> Ok = true ; Ok = false ), Budget, R),
        (   R == inference_limit_exceeded
        ->  throw(time_limit_exceeded)
        ;   Ok == true
        )
    ;   once(Goal)
    ).

                 /*******************************
                 *         CANCELLATION         *
                 *******************************/

/*  A request is cancelled by a signal to the thread that runs it, which
    throws '$pt_cancelled' there: a control exception (harness_control/1)
    that the guarded catch/3 of session code passes on, and that the
    harness turns into outcome cancelled (a goal keeps the answers found
    before it), a diagnostic (a consult), or an error of kind cancelled.

    Check is a goal that holds exactly while the request to cancel still
    runs on that thread (the in-process backend's ticket, the child's
    request id): it is tried when the signal arrives and again when the
    exception is thrown, so a cancel that arrives after its request ended
    never reaches the next one. The exception is thrown through an alarm
    due at once, as watch_expired/0 does with a time limit, so that the
    cleanup handlers it runs keep their inference backstop; where no
    signal reaches (a cleanup handler), that budget bounds the goal.
    Only inside dispatch/2 ('$pt_cancellable' true) does it strike: the
    reply of a request that has ended is never lost to it.

    A swipl child reads requests on its standard input, one at a time on
    its main thread. A cancel is a line {"cancel":Id} there. While a
    request runs nobody else reads that input: the watchdog (which looks
    every 2 ms while a request runs) takes a cancel line that waits
    at the front of the input and signals the main thread. It reads only
    while the request runs ('$pt_serving' holds its id) and only a line
    that starts as a cancel, under the mutex prologtool_cancel that the
    main thread takes to mark the request ended, so it never takes the
    next request. A cancel line that comes after its request ended is
    read by the main loop, which skips it.
*/

:- dynamic
    serving_input/2.                    % In, MainThread (a swipl child)

%!  cancel_strike(:Check) is det.
%
%   Run in the signalled thread: throw '$pt_cancelled' if Check still
%   holds. A cancel that comes before its request reached dispatch/2 is
%   kept ('$pt_cancel_pending') for cancel_pending/0, which dispatch
%   runs first: a cancel is never lost for coming early.
cancel_strike(Check) :-
    (   \+ catch(Check, _, fail)
    ->  true
    ;   nb_current('$pt_cancellable', true)
    ->  alarm(0, prologtool_harness:cancel_throw(Check), _, [remove(true)])
    ;   nb_setval('$pt_cancel_pending', Check)
    ).

%!  cancel_pending is det.
%
%   Throw '$pt_cancelled' if a cancel of the request that runs on this
%   thread came before it reached dispatch/2.
cancel_pending :-
    (   nb_current('$pt_cancel_pending', Check),
        Check \== []
    ->  nb_setval('$pt_cancel_pending', []),
        (   catch(Check, _, fail)
        ->  throw('$pt_cancelled')
        ;   true
        )
    ;   true
    ).

cancel_throw(Check) :-
    (   cancellable(Check)
    ->  throw('$pt_cancelled')
    ;   true
    ).

cancellable(Check) :-
    nb_current('$pt_cancellable', true),
    catch(Check, _, fail),
    !.

%!  serving(+Id) is semidet.
%
%   The child's main thread runs request Id now.
serving(Id) :-
    flag('$pt_serving', Now, Now),
    Now == Id.

%   note_serving(+Id): a swipl child starts request Id.
note_serving(Id) :-
    (   serving_input(_, _),
        integer(Id)
    ->  flag('$pt_serving', _, Id)
    ;   true
    ).

%   served: the request has ended; no cancel line is read for it now.
served :-
    with_mutex(prologtool_cancel, flag('$pt_serving', _, 0)).

%   poll_cancel: on the watchdog, take a cancel line waiting for the
%   request that runs now, and signal the main thread.
poll_cancel :-
    (   serving_input(In, Main),
        flag('$pt_serving', Id, Id),
        Id \== 0
    ->  catch(with_mutex(prologtool_cancel, take_cancel(In, Main)), E,
              print_message(warning, E))
    ;   true
    ).

take_cancel(In, Main) :-
    flag('$pt_serving', Id, Id),
    (   Id \== 0,
        wait_for_input([In], [_], 0),
        peek_string(In, 10, Start),
        sub_string(Start, 0, _, _, "{\"cancel\":")
    ->  read_line_to_string(In, Line),
        (   catch(cancel_target(Line, Target), _, fail),
            Target == Id
        ->  catch(thread_signal(Main, prologtool_harness:cancel_strike(prologtool_harness:serving(Id))),
                  _, true)
        ;   true
        )
    ;   true
    ).

%!  cancel_target(+Line, -Id) is semidet.
%
%   Line is a cancel line {"cancel":Id}.
cancel_target(Line, Id) :-
    sub_string(Line, 0, _, _, "{\"cancel\":"),
    sub_string(Line, 10, _, 0, Rest0),
    split_string(Rest0, "", " }\r\n\t", [Rest]),
    number_string(Id, Rest),
    integer(Id).

                 /*******************************
                 *         MEMORY BOUND         *
                 *******************************/

/*  What a goal allocates off its stacks (atoms, a findall/3 bag, strings
    held there, clauses, tables) comes from the process's heap, which no
    Prolog flag bounds. In a swipl child under an address-space limit an
    allocation past it is fatal: an atom flood (findall/3 over
    atom_concat/3 of atoms of 512 K characters, sandboxed) ended the
    child with "Could not allocate memory" in about a second (SWI-Prolog
    9.0.4 halts when the atom table cannot grow). In-process, it takes
    the JVM's memory.

    So while a session is open the watchdog looks at the heap in use
    (statistics(heapused): what malloc handed out and is not freed, big
    blocks included; about 2 us a look) every 10 ms. Over the bound, it
    collects atoms first (atoms no longer referenced are free memory to
    be); still over, it makes each request that runs under a limit
    throw resource_error(memory), which unwinds the request and frees
    what it held. The session and the process stay. A goal that catches
    the error and allocates again is struck again at the next look.

    The bound is set when the watchdog starts: under an address-space
    limit, the heap then plus 3/4 of the room the limit leaves above the
    process's size (the last quarter takes what a goal allocates between
    two looks, thread stacks and the allocator's own overhead; 1 GiB and
    a fresh child leave about 700 MiB to a session: its 256 MiB of
    stacks and 256 MiB of clauses by default fit); with no limit (the
    JVM), the heap then plus 1 GiB. In-process the heap is the JVM's and
    every session's: over the bound, every running request is struck.
*/

%   set_memory_bound: '$pt_memory_bound' (a flag/3 key) holds the bound,
%   '$pt_memory_measure' what it bounds: heap, or atoms where SWI-Prolog
%   cannot tell the heap in use (libswipl in a JVM: heapused is 0 there),
%   so that at least the atom table (the flood the trust model names) is
%   bounded in-process. statistics(atom_space) walks the atom table
%   (about 4 ms at a million atoms), so it is read less often the more
%   atoms there are (memory_measure/1).
set_memory_bound :-
    statistics(heapused, Heap),
    (   Heap > 0
    ->  Measure = heap,
        (   address_space_limit(Limit),
            process_size(Size),
            Limit > Size
        ->  Bound is Heap + (Limit - Size) * 3 // 4
        ;   Bound is Heap + (1 << 30)
        )
    ;   Measure = atoms,
        statistics(atom_space, Atoms),
        Bound is Atoms + (1 << 30)
    ),
    flag('$pt_memory_measure', _, Measure),
    flag('$pt_memory_bound', _, Bound).

%   address_space_limit(-Bytes): the soft RLIMIT_AS of this process;
%   fails when it has none (or /proc cannot tell).
address_space_limit(Bytes) :-
    proc_line('/proc/self/limits', "Max address space", Line),
    split_string(Line, " ", " ", Fields0),
    exclude(==(""), Fields0, Fields),
    append(_, [Soft, _Hard, "bytes"], Fields),
    number_string(Bytes, Soft).

%   process_size(-Bytes): the process's virtual size now.
process_size(Bytes) :-
    proc_line('/proc/self/status', "VmSize:", Line),
    split_string(Line, " \t", " \t", Fields0),
    exclude(==(""), Fields0, Fields),
    append(_, [KB, "kB"], Fields),
    number_string(K, KB),
    Bytes is K * 1024.

proc_line(File, Prefix, Line) :-
    catch(read_file_to_string(File, Text, []), _, fail),
    split_string(Text, "\n", "", Lines),
    member(Line, Lines),
    string_concat(Prefix, _, Line),
    !.

%   check_memory(+Now, +Watched): the watchdog's look at the heap; strikes
%   the requests running in the watched threads when it is over the
%   bound.
check_memory(_Now, Watched) :-
    (   session(_, _),
        over_memory_bound
    ->  garbage_collect_atoms,
        nb_setval('$pt_atom_space', 0-0),       % read it again
        (   over_memory_bound
        ->  nb_setval('$pt_memory_struck', true),
            forall(( member(T, Watched), T = Thread-Key,
                     flag(Key, Deadline, Deadline),
                     Deadline \== inf ),
                   catch(thread_signal(Thread, prologtool_harness:memory_expired), _, true))
        ;   true
        )
    ;   nb_current('$pt_memory_struck', true)
    ->  % the struck goals have let go of what they held: the atoms are
        % collected and the allocator gives the memory back to the system
        nb_setval('$pt_memory_struck', false),
        garbage_collect_atoms,
        catch(trim_heap, _, true)
    ;   true
    ).

%   trim_after_closes(+Now): memory that closed sessions held goes back
%   to the system. The allocator keeps what is freed in its arenas (one
%   per worker thread on the in-process backend, where glibc's malloc
%   serves Prolog) until asked, so without this the process's resident
%   memory only grows with the largest sessions it served on each thread.
%   At most once a second, and only when a session closed since the last
%   time, whether or not requests run: waiting for a moment when none
%   ran, sessions served back to back were never trimmed (10,000 that
%   table answers took the JVM from 388 MB after the first 1,000 to 557
%   MB). A trim takes 1-3 ms of this thread, against deadlines looked at
%   every 10 ms.
trim_after_closes(Now) :-
    (   flag('$pt_closed_since_trim', 1, 1),
        flag('$pt_last_trim', Last, Last),
        Now > Last + 1.0
    ->  flag('$pt_closed_since_trim', _, 0),
        flag('$pt_last_trim', _, Now),
        catch(trim_heap, _, true)
    ;   true
    ).

%   session_closed_for_trim: a session closed; its memory is worth giving back.
session_closed_for_trim :-
    flag('$pt_closed_since_trim', _, 1).

over_memory_bound :-
    flag('$pt_memory_bound', Bound, Bound),
    integer(Bound),
    memory_measure(Used),
    Used > Bound.

%   memory_measure(-Bytes): the heap in use, or the atom table's size
%   (set_memory_bound/0). The atom table is read at most every
%   atoms * 0.2 us (one read costs about atoms * 4 ns: 2% of the
%   watchdog's time), the last reading standing in between.
memory_measure(Used) :-
    flag('$pt_memory_measure', Measure, Measure),
    (   Measure == heap
    ->  statistics(heapused, Used)
    ;   get_time(Now),
        (   nb_current('$pt_atom_space', Next-Last),
            Now < Next
        ->  Used = Last
        ;   statistics(atom_space, Used),
            statistics(atoms, N),
            Again is Now + N * 2.0e-7,
            nb_setval('$pt_atom_space', Again-Used)
        )
    ).

%   Run in the signalled thread, through an alarm due now as
%   watch_expired/0 does, for the same reason. Like a time limit, the
%   bound strikes only where a harness limit runs on the thread, checked
%   when the signal arrives and again when the alarm fires: the watchdog
%   saw the limit when it signalled, but the goal may have ended since,
%   and an exception in the harness writing its reply would lose the
%   answers and the reply (the request "raised resource_error(memory)
%   outside the harness").
memory_expired :-
    (   slot_running
    ->  alarm(0, prologtool_harness:memory_strike, _, [remove(true)])
    ;   true
    ).

memory_strike :-
    (   slot_running,
        nb_setval('$pt_atom_space', 0-0),   % this thread's reading is not the watchdog's
        over_memory_bound
    ->  throw(error(resource_error(memory),
                    context(_, 'the session allocated more memory than the process may give it (atoms, findall/3, strings, clauses); what the goal held was freed')))
    ;   true
    ).

%   memory_watched: something may allocate now, so the memory
%   is looked at every 10 ms: a limit runs on some thread (a request, a
%   cursor's fetch) or ended less than 100 ms ago (requests come in a
%   row), or a thread of a session's own lives. Otherwise no session code
%   runs, and a look a second does: each look costs the process CPU (100
%   looks a second took 2.6% of a core in an idle JVM holding one session,
%   and 1.8% in each idle child). The first request after a quiet spell
%   wakes the watchdog (watch_deadline/2); requests in a row find it
%   awake.
memory_watched :-
    session(_, _),
    (   watched(_, Key),
        get_flag(Key, Deadline),
        Deadline \== inf
    ->  true
    ;   session_thread_(_, _)
    ->  true
    ;   get_flag('$pt_limit_ended', Ended),
        number(Ended),
        get_time(Now),
        Now - Ended < 0.1
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
    session_closed_for_trim,
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

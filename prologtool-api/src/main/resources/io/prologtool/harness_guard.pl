:- encoding(utf8).
/*  Part of the prologtool harness (included by harness.pl, module
    prologtool_harness): the built-ins as session code sees them.

    Every session module inherits from the module prologtool_guard
    (set_module(M:base(prologtool_guard)), whose own base is
    prologtool_libraries, the preloaded libraries (harness.pl), whose
    base is system).
    prologtool_guard redefines the built-ins that would let session code
    escape its bounds, reach state that other sessions share, or crash an
    embedding process:

      - catch/3, catch_with_backtrace/3: the harness's own control
        exceptions (its time limit, its inference backstop, abort) go on
        to the harness, never to a user recovery goal;
      - halt/0,1, abort/0, at_halt/1, thread_exit/1: refused;
      - writing and asserting a term nested deeper than the term depth
        limit (SWI-Prolog's writer, compiler and reader recurse in C, and
        an in-process backend cannot survive a C-stack overflow), reading
        text nested that deep, and re-entering Prolog from C (format's ~@,
        with_output_to/2) deeper than the nesting limit: resource_error;
      - atoms longer than the session's max_atom_chars (atoms are not
        bounded by the stack limit): resource_error;
      - global variables, flag/3 and the recorded database: confined to
        the session (a key of one session is not a key of another);
      - set_prolog_flag/2 and op/3: confined to the session's module, or
        refused for the flags that every module shares;
      - thread_create/2,3 and thread_signal/2: refused unless the session
        was opened with allow_threads, and then only for its own threads,
        which are stopped and joined when it closes;
      - sleep/1 and waiting for a message: never past the request's
        deadline.

    Every call from session code finds the redefinition through the base
    module, whether it was compiled from session text, asserted, or
    compiled at run time for a conjunction (G = (A, B), call(G)): the
    guarded built-ins lose SWI-Prolog's ISO flag, which would otherwise
    bind such calls to system directly (unbind_guarded_builtins/0).
    A built-in called through another module (lists:catch/3) bypasses
    that: the isolation check refuses it (harness_sandbox.pl).
*/

:- set_module(prologtool_guard:base(prologtool_libraries)).
:- use_module(library(memfile)).
:- use_module(library(terms), [term_size/2]).
:- use_module(library(occurs), [sub_term/2]).

%!  guarded(?Head) is nondet.
%
%   The built-ins that prologtool_guard redefines.

guarded(catch(_, _, _)).
guarded(catch_with_backtrace(_, _, _)).
guarded(halt).
guarded(halt(_)).
guarded(abort).
guarded(at_halt(_)).
guarded(thread_exit(_)).
guarded(thread_create(_, _)).
guarded(thread_create(_, _, _)).
guarded(thread_create_in_pool(_, _, _, _)).
guarded(thread_signal(_, _)).
guarded(sleep(_)).
guarded(setenv(_, _)).
guarded(unsetenv(_)).
guarded(thread_get_message(_)).
guarded(thread_get_message(_, _)).
guarded(thread_get_message(_, _, _)).
guarded(set_prolog_flag(_, _)).
guarded(create_prolog_flag(_, _, _)).
guarded(format_predicate(_, _)).
guarded(op(_, _, _)).
guarded(nb_setval(_, _)).
guarded(b_setval(_, _)).
guarded(nb_getval(_, _)).
guarded(b_getval(_, _)).
guarded(nb_current(_, _)).
guarded(nb_delete(_)).
guarded(flag(_, _, _)).
guarded(recorda(_, _)).
guarded(recorda(_, _, _)).
guarded(recordz(_, _)).
guarded(recordz(_, _, _)).
guarded(recorded(_, _)).
guarded(recorded(_, _, _)).
guarded(assert(_)).
guarded(asserta(_)).
guarded(assertz(_)).
guarded(assert(_, _)).
guarded(asserta(_, _)).
guarded(assertz(_, _)).
guarded(write(_)).
guarded(write(_, _)).
guarded(print(_)).
guarded(print(_, _)).
guarded(writeln(_)).
guarded(writeln(_, _)).
guarded(writeq(_)).
guarded(writeq(_, _)).
guarded(write_canonical(_)).
guarded(write_canonical(_, _)).
guarded(write_term(_, _)).
guarded(write_term(_, _, _)).
guarded(portray_clause(_)).
guarded(portray_clause(_, _)).
guarded(print_message(_, _)).
guarded(print_message_lines(_, _, _)).
guarded(read(_)).
guarded(read(_, _)).
guarded(read_term(_, _)).
guarded(read_term(_, _, _)).
guarded(read_clause(_, _, _)).
guarded(format(_)).
guarded(format(_, _)).
guarded(format(_, _, _)).
guarded(with_output_to(_, _)).
guarded(term_to_atom(_, _)).
guarded(term_string(_, _)).
guarded(term_string(_, _, _)).
guarded(atom_to_term(_, _, _)).
guarded(read_term_from_atom(_, _, _)).
guarded(atom_concat(_, _, _)).
guarded(atomic_list_concat(_, _)).
guarded(atomic_list_concat(_, _, _)).
guarded(atom_codes(_, _)).
guarded(atom_chars(_, _)).
guarded(atom_string(_, _)).
guarded(string_to_atom(_, _)).
guarded(upcase_atom(_, _)).
guarded(setup_call_cleanup(_, _, _)).
guarded(setup_call_catcher_cleanup(_, _, _, _)).
guarded(call_cleanup(_, _)).
guarded(sig_atomic(_)).
guarded(shell).
guarded(shell(_)).
guarded(shell(_, _)).
guarded(downcase_atom(_, _)).
guarded(normalize_space(_, _)).
guarded(sformat(_, _)).
guarded(sformat(_, _, _)).
guarded(snapshot(_)).
guarded(transaction(_)).
guarded(transaction(_, _)).
guarded(transaction(_, _, _)).
guarded(seen).
guarded(told).
guarded(close(_)).
guarded(close(_, _)).
guarded(open(_, _, _)).
guarded(open(_, _, _, _)).
guarded(open_string(_, _)).
guarded(open_null_stream(_)).
guarded(tmp_file_stream(_, _, _)).
guarded(tmp_file(_, _)).
guarded(engine_create(_, _, _)).
guarded(engine_create(_, _, _, _)).
guarded(call_with_depth_limit(_, _, _)).
guarded(see(_)).
guarded(tell(_)).
guarded(append(_)).
guarded(format_to_chars(_, _, _)).
guarded(format_to_chars(_, _, _, _)).
guarded(with_output_to_chars(_, _)).
guarded(with_output_to_chars(_, _, _)).
guarded(with_output_to_chars(_, _, _, _)).
guarded(variant_sha1(_, _)).
guarded(variant_hash(_, _)).
guarded(term_hash(_, _, _, _)).
guarded(trie_insert(_, _)).
guarded(trie_insert(_, _, _)).
guarded(trie_insert(_, _, _, _)).
guarded(trie_update(_, _, _)).
guarded(trie_lookup(_, _, _)).

%!  guarded_name(+Name) is semidet.
%
%   Name is the name of a guarded built-in (of any arity).
guarded_name(Name) :-
    atom(Name),
    guarded_name_(Name),
    !.

guarded_name_(Name) :-
    guarded(Head),
    functor(Head, Name, _).

:- forall(guarded(Head), prologtool_guard:redefine_system_predicate(Head)).

%   One mechanism makes every call of a guarded built-in from session code
%   reach its guard, however the call was compiled. SWI-Prolog binds a
%   call in a clause body (a consulted or asserted clause, and the
%   temporary clause that call/1 compiles for a conjunction built at run
%   time: G = (A, B), call(G), findall/3, call_with_time_limit/2 ...) to
%   system's definition directly when that definition is flagged ISO and
%   the clause's module defines no predicate of that name (pl-comp.c,
%   lookupBodyProcedure). Any other call is resolved through the module's
%   base, where prologtool_guard's redefinition comes first. So the
%   guarded built-ins lose the ISO flag once the harness is loaded (the
%   harness's own clauses, compiled before, keep system's definitions),
%   and again whenever a saved state is restored. The flag has no other
%   effect on how a predicate runs; code in user or in a library module
%   still reaches system's definition through its own default chain.
%   unbound_builtin(Name, Arity) remembers which they were: the sandbox
%   and the session's own definitions still treat them as ISO (below).
:- dynamic unbound_builtin/2.

unbind_guarded_builtins :-
    forall(( guarded(Head),
             predicate_property(system:Head, iso),
             functor(Head, Name, Arity),
             \+ unbound_builtin(Name, Arity) ),
           assertz(unbound_builtin(Name, Arity))),
    forall(unbound_builtin(Name, Arity),
           '$set_predicate_attribute'(system:Name/Arity, iso, false)).

%!  unbound_iso(+Goal) is semidet.
%
%   Goal calls a guarded built-in that SWI-Prolog flags as ISO.
unbound_iso(Goal) :-
    callable(Goal),
    functor(Goal, Name, Arity),
    unbound_builtin(Name, Arity).

%   library(sandbox) proves a call of an ISO built-in safe from its tables
%   of ISO built-ins (safe_primitive(write(_)), safe_meta(catch(0,*,0)))
%   when SWI-Prolog flags it ISO. Library code (dif/2, clpfd, ...) calls
%   the unbound ones resolved to system's: this hook answers for
%   them as the tables do, through safe_meta/2 (a safe_primitive/1 rule
%   over many built-ins is not a declaration library(sandbox) accepts:
%   it reports it as invalid whenever it checks its declarations, as in
%   every child restored from the saved state). A session's own call
%   resolves to the guard, which the hooks below answer for.
:- multifile sandbox:safe_meta/2.
sandbox:safe_meta(M:Goal, Called) :-
    atom(M),
    M \== prologtool_guard,
    unbound_iso(Goal),
    (   sandbox:safe_meta_call(Goal, M, Called0)
    ->  Called = Called0
    ;   sandbox:safe_primitive(Goal)
    ->  Called = []
    ).

%   Sandboxed sessions: a guard is exactly as safe as the built-in it
%   guards, and calls what that built-in would call. halt/0,1
%   and abort/0 make the check itself throw (refused_goal/1), so that they
%   are refused before anything runs: a refusal at run time could be
%   caught by the checked code (catch(halt, _, true)).
:- multifile sandbox:safe_meta/2.
sandbox:safe_meta(prologtool_guard:Goal, _) :-
    callable(Goal),
    refused_goal(Goal),
    !,
    Builtin = Goal,
    throw(error(permission_error(call, sandboxed, Builtin),
                sandbox(prologtool_guard:Goal, []))).
sandbox:safe_meta(prologtool_guard:Goal, Called) :-
    callable(Goal),
    guarded(Goal),
    !,
    Builtin = Goal,
    (   safe_builtin(Builtin, Called)
    ->  true
    ;   catch(clause(prologtool_guard:Builtin, prologtool_harness:refuse(_, _)), _, fail)
    ->  Called = []                     % its guard refuses it, saying why
    ;   % refused as the built-in: left to library(sandbox), the refusal
        % named a harness predicate that the guard's body calls
        throw(error(permission_error(call, sandboxed, Builtin),
                    sandbox(prologtool_guard:Goal, [])))
    ).

%   Built-ins whose guard confines them to the session (see GLOBAL STATE
%   below): its own global variables, flags, records and operators.
%   library(sandbox) refuses them (they would change the whole Prolog),
%   and its analysis of the guard's body then named a harness predicate
%   as missing.
session_confined(nb_setval(_, _)).
session_confined(b_setval(_, _)).
session_confined(nb_getval(_, _)).
session_confined(b_getval(_, _)).
session_confined(nb_current(_, _)).
session_confined(nb_delete(_)).
session_confined(op(_, _, _)).
session_confined(flag(_, _, _)).
session_confined(recorda(_, _)).
session_confined(recorda(_, _, _)).
session_confined(recordz(_, _)).
session_confined(recordz(_, _, _)).
session_confined(recorded(_, _)).
session_confined(recorded(_, _, _)).

%   Refused by the sandbox check itself, named as the built-in: halt/0,1
%   and abort/0 (see above), and setenv/2, unsetenv/1 and shell/0,1,2,
%   whose guards call the harness (the check would otherwise name that
%   call).
refused_goal(halt).
refused_goal(halt(_)).
refused_goal(abort).
refused_goal(setenv(_, _)).
refused_goal(unsetenv(_)).
refused_goal(shell).
refused_goal(shell(_)).
refused_goal(shell(_, _)).

safe_builtin(format(Format), Called) :-
    !,                                  % as library(sandbox) checks format/2
    safe_builtin(format(Format, []), Called).
safe_builtin(sformat(String, Format), Called) :-
    !,                                  % the guard writes into a string
    safe_builtin(format(string(String), Format, []), Called).
safe_builtin(sformat(String, Format, Args), Called) :-
    !,
    safe_builtin(format(string(String), Format, Args), Called).
safe_builtin(format_to_chars(Format, Args, _), Called) :-
    !,                                  % its guard is format/3 into codes
    safe_builtin(format(Format, Args), Called).
safe_builtin(format_to_chars(Format, Args, _, _), Called) :-
    !,
    safe_builtin(format(Format, Args), Called).
safe_builtin(with_output_to_chars(Goal, _), [Goal]) :- !.
safe_builtin(with_output_to_chars(Goal, _, _), [Goal]) :- !.
safe_builtin(with_output_to_chars(Goal, _, _, _), [Goal]) :- !.
safe_builtin(Builtin, []) :-
    session_confined(Builtin),
    !.
safe_builtin(Builtin, Called) :-
    (   catch(sandbox:safe_meta(system:Builtin, Called0), _, fail)
    ->  Called = Called0
    ;   (   catch(sandbox:safe_primitive(system:Builtin), _, fail)
        ;   catch(sandbox:safe_primitive(Builtin), _, fail)
        ;   predicate_property(system:Builtin, imported_from(Home)),
            catch(sandbox:safe_primitive(Home:Builtin), _, fail)    % print_message/2 of '$messages'
        )
    ->  Called = []
    ;   functor(Builtin, Name, Arity),          % setup_call_cleanup/3 and its relatives
        functor(Template, Name, Arity),
        catch(sandbox:safe_meta(system:Template), _, fail)
    ->  findall(G, ( arg(I, Template, 0), arg(I, Builtin, G) ), Called)
    ;   Builtin = catch(Goal, _, Recovery)
    ->  Called = [Goal, Recovery]
    ;   Builtin = catch_with_backtrace(Goal, _, Recovery)
    ->  Called = [Goal, Recovery]
    ;   Builtin = call_with_depth_limit(Goal, _, _)
    ->  Called = [Goal]
    ).

                 /*******************************
                 *          EXCEPTIONS          *
                 *******************************/

:- meta_predicate
    prologtool_guard:catch(0, ?, 0),
    prologtool_guard:catch_with_backtrace(0, ?, 0).

prologtool_guard:catch(Goal, Catcher, Recovery) :-
    prologtool_harness:session_catch(Goal, Catcher, Recovery).
prologtool_guard:catch_with_backtrace(Goal, Catcher, Recovery) :-
    prologtool_harness:session_catch(Goal, Catcher, Recovery).

                 /*******************************
                 *        ENDING THINGS         *
                 *******************************/

:- module_transparent
    prologtool_guard:halt/0,
    prologtool_guard:halt/1,
    prologtool_guard:abort/0.

prologtool_guard:(halt :-
    context_module(M),
    prologtool_harness:refuse_halt(M, halt)).
prologtool_guard:(halt(Status) :-
    context_module(M),
    prologtool_harness:refuse_halt(M, halt(Status))).
prologtool_guard:(abort :-
    context_module(M),
    prologtool_harness:refuse_halt(M, abort)).

prologtool_guard:at_halt(Goal) :-
    prologtool_harness:refuse(at_halt(Goal),
                              'at_halt/1 would register a goal that outlives the session').
prologtool_guard:thread_exit(Term) :-
    prologtool_harness:refuse(thread_exit(Term),
                              'thread_exit/1 would end the Prolog thread that serves the session').

                 /*******************************
                 *            THREADS           *
                 *******************************/

:- meta_predicate
    prologtool_guard:thread_create(0, -),
    prologtool_guard:thread_create(0, -, :),
    prologtool_guard:thread_create_in_pool(+, 0, -, :),
    prologtool_guard:thread_signal(+, 0).

prologtool_guard:thread_create(Goal, Id) :-
    prologtool_harness:session_thread_create(Goal, Id, []).
prologtool_guard:thread_create(Goal, Id, _:Options) :-
    prologtool_harness:session_thread_create(Goal, Id, Options).
prologtool_guard:thread_create_in_pool(_Pool, Goal, Id, _:Options) :-
    prologtool_harness:session_thread_create(Goal, Id, Options).
prologtool_guard:thread_signal(Thread, Goal) :-
    prologtool_harness:session_thread_signal(Thread, Goal).

prologtool_guard:sleep(Seconds) :-
    prologtool_harness:bounded_sleep(Seconds).

%   The environment is the process's: a child that served a session which
%   changed it does not serve another (harness_recycle.pl).
prologtool_guard:setenv(Name, Value) :-
    prologtool_harness:note_environment_changed,
    system:setenv(Name, Value).
prologtool_guard:unsetenv(Name) :-
    prologtool_harness:note_environment_changed,
    system:unsetenv(Name).
prologtool_guard:thread_get_message(Message) :-
    thread_self(Me),
    prologtool_harness:bounded_get_message(Me, Message, []).
prologtool_guard:thread_get_message(Queue, Message) :-
    prologtool_harness:bounded_get_message(Queue, Message, []).
prologtool_guard:thread_get_message(Queue, Message, Options) :-
    prologtool_harness:bounded_get_message(Queue, Message, Options).

%   shell/1,2: see session_shell/2 below. shell/0, an interactive shell,
%   would read the standard input of the process (the JVM's, or the
%   child's protocol stream).
prologtool_guard:shell :-
    prologtool_harness:refuse(shell,
                              'an interactive shell would read the standard input of the process that runs the session').
prologtool_guard:shell(Command) :-
    prologtool_harness:session_shell(Command, 0).
prologtool_guard:shell(Command, Status) :-
    prologtool_harness:session_shell(Command, Status).

                 /*******************************
                 *         GLOBAL STATE         *
                 *******************************/

:- meta_predicate
    prologtool_guard:set_prolog_flag(:, +),
    prologtool_guard:create_prolog_flag(:, +, +),
    prologtool_guard:op(+, +, :),
    prologtool_guard:nb_setval(:, +),
    prologtool_guard:b_setval(:, +),
    prologtool_guard:nb_getval(:, -),
    prologtool_guard:b_getval(:, -),
    prologtool_guard:nb_current(:, ?),
    prologtool_guard:nb_delete(:),
    prologtool_guard:flag(:, -, +),
    prologtool_guard:recorda(:, +),
    prologtool_guard:recorda(:, +, -),
    prologtool_guard:recordz(:, +),
    prologtool_guard:recordz(:, +, -),
    prologtool_guard:recorded(:, ?),
    prologtool_guard:recorded(:, ?, ?).

prologtool_guard:set_prolog_flag(M:Flag, Value) :-
    prologtool_harness:session_set_flag(M, Flag, Value).
prologtool_guard:create_prolog_flag(_:Flag, Value, Options) :-
    prologtool_harness:refuse(create_prolog_flag(Flag, Value, Options),
                              'a new Prolog flag would be shared by every session').
%   A format directive is the process's, and one that names a session's
%   predicate would call into a destroyed module after the session
%   closed (a crash in SWI-Prolog 9.0.4, seen by the recycle check's
%   current_format_predicate/2).
prologtool_guard:format_predicate(Char, Goal) :-
    prologtool_harness:refuse(format_predicate(Char, Goal),
                              'a format directive would be shared by every session and outlive this one').
prologtool_guard:op(Priority, Type, M:Names) :-
    prologtool_harness:session_op(M, Priority, Type, Names).

prologtool_guard:nb_setval(M:Key, Value) :-
    prologtool_harness:session_global_key(M, Key, Scoped),
    system:nb_setval(Scoped, Value).
prologtool_guard:b_setval(M:Key, Value) :-
    prologtool_harness:session_global_key(M, Key, Scoped),
    system:b_setval(Scoped, Value).
prologtool_guard:nb_getval(M:Key, Value) :-
    prologtool_harness:session_global_value(M, Key, Value).
prologtool_guard:b_getval(M:Key, Value) :-
    prologtool_harness:session_global_value(M, Key, Value).
prologtool_guard:nb_current(M:Key, Value) :-
    prologtool_harness:session_global_current(M, Key, Value).
prologtool_guard:nb_delete(M:Key) :-
    prologtool_harness:session_global_delete(M, Key).

prologtool_guard:flag(M:Key, Old, New) :-
    prologtool_harness:session_flag(M, Key, Old, New).

prologtool_guard:recorda(M:Key, Value) :-
    prologtool_harness:session_record_key(M, Key, Scoped),
    system:recorda(Scoped, Value).
prologtool_guard:recorda(M:Key, Value, Ref) :-
    prologtool_harness:session_record_key(M, Key, Scoped),
    system:recorda(Scoped, Value, Ref).
prologtool_guard:recordz(M:Key, Value) :-
    prologtool_harness:session_record_key(M, Key, Scoped),
    system:recordz(Scoped, Value).
prologtool_guard:recordz(M:Key, Value, Ref) :-
    prologtool_harness:session_record_key(M, Key, Scoped),
    system:recordz(Scoped, Value, Ref).
prologtool_guard:recorded(M:Key, Value) :-
    prologtool_harness:session_recorded(M, Key, Value, _).
prologtool_guard:recorded(M:Key, Value, Ref) :-
    prologtool_harness:session_recorded(M, Key, Value, Ref).

                 /*******************************
                 *            ASSERT            *
                 *******************************/

:- meta_predicate
    prologtool_guard:assert(:),
    prologtool_guard:asserta(:),
    prologtool_guard:assertz(:),
    prologtool_guard:assert(:, -),
    prologtool_guard:asserta(:, -),
    prologtool_guard:assertz(:, -).

prologtool_guard:assert(Clause) :-
    prologtool_harness:guarded_clause(Clause, Checked),
    system:assertz(Checked).
prologtool_guard:asserta(Clause) :-
    prologtool_harness:guarded_clause(Clause, Checked),
    system:asserta(Checked).
prologtool_guard:assertz(Clause) :-
    prologtool_harness:guarded_clause(Clause, Checked),
    system:assertz(Checked).
prologtool_guard:assert(Clause, Ref) :-
    prologtool_harness:guarded_clause(Clause, Checked),
    system:assertz(Checked, Ref).
prologtool_guard:asserta(Clause, Ref) :-
    prologtool_harness:guarded_clause(Clause, Checked),
    system:asserta(Checked, Ref).
prologtool_guard:assertz(Clause, Ref) :-
    prologtool_harness:guarded_clause(Clause, Checked),
    system:assertz(Checked, Ref).

                 /*******************************
                 *     TERMS WALKED AS TREES    *
                 *******************************/

%   These walk a term as a tree in C without looking at signals: a term
%   that shares subterms (f(T, T) nested 40 deep) is checked for its size
%   unfolded first (check_depth/1). Tabled calls and answers are bounded
%   by SWI-Prolog's own tripwires (table_tripwires/0 in harness.pl).

prologtool_guard:variant_sha1(Term, Hash) :-
    prologtool_harness:check_depth(Term),
    system:variant_sha1(Term, Hash).
prologtool_guard:variant_hash(Term, Hash) :-
    prologtool_harness:check_depth(Term),
    system:variant_hash(Term, Hash).
prologtool_guard:term_hash(Term, Depth, Range, Hash) :-
    prologtool_harness:check_depth(Term),
    prologtool_harness:narrow_strings(Term, Hashable),
    system:term_hash(Hashable, Depth, Range, Hash).
prologtool_guard:trie_insert(Trie, Key) :-
    prologtool_harness:check_depth(Key),
    system:trie_insert(Trie, Key).
prologtool_guard:trie_insert(Trie, Key, Value) :-
    prologtool_harness:check_depth(Key-Value),
    system:trie_insert(Trie, Key, Value).
prologtool_guard:trie_insert(Trie, Key, Value, Handle) :-
    prologtool_harness:check_depth(Key-Value),
    system:trie_insert(Trie, Key, Value, Handle).
prologtool_guard:trie_update(Trie, Key, Value) :-
    prologtool_harness:check_depth(Key-Value),
    system:trie_update(Trie, Key, Value).
prologtool_guard:trie_lookup(Trie, Key, Value) :-
    prologtool_harness:check_depth(Key),
    system:trie_lookup(Trie, Key, Value).

                 /*******************************
                 *            WRITING           *
                 *******************************/

%   The writer recurses in C: every term written is checked first. The
%   context module is the session's (module_transparent), so operators,
%   portray hooks and format's ~@ goals resolve there.

:- module_transparent
    prologtool_guard:write/1, prologtool_guard:write/2,
    prologtool_guard:print/1, prologtool_guard:print/2,
    prologtool_guard:writeln/1, prologtool_guard:writeln/2,
    prologtool_guard:writeq/1, prologtool_guard:writeq/2,
    prologtool_guard:write_canonical/1, prologtool_guard:write_canonical/2,
    prologtool_guard:write_term/2, prologtool_guard:write_term/3,
    prologtool_guard:portray_clause/1, prologtool_guard:portray_clause/2,
    prologtool_guard:print_message/2,
    prologtool_guard:format/1, prologtool_guard:format/2, prologtool_guard:format/3,
    prologtool_guard:term_to_atom/2,
    prologtool_guard:term_string/2, prologtool_guard:term_string/3,
    prologtool_guard:atom_to_term/3, prologtool_guard:read_term_from_atom/3.

prologtool_guard:(write(T) :-
    prologtool_harness:check_depth(T), context_module(M), @(system:write(T), M)).
prologtool_guard:(write(S, T) :-
    prologtool_harness:check_depth(T), context_module(M), @(system:write(S, T), M)).
prologtool_guard:(print(T) :-
    prologtool_harness:check_depth(T), context_module(M), @(system:print(T), M)).
prologtool_guard:(print(S, T) :-
    prologtool_harness:check_depth(T), context_module(M), @(system:print(S, T), M)).
prologtool_guard:(writeln(T) :-
    prologtool_harness:check_depth(T), context_module(M), @(system:writeln(T), M)).
prologtool_guard:(writeln(S, T) :-
    prologtool_harness:check_depth(T), context_module(M), @(system:writeln(S, T), M)).
prologtool_guard:(writeq(T) :-
    prologtool_harness:check_depth(T), context_module(M), @(system:writeq(T), M)).
prologtool_guard:(writeq(S, T) :-
    prologtool_harness:check_depth(T), context_module(M), @(system:writeq(S, T), M)).
prologtool_guard:(write_canonical(T) :-
    prologtool_harness:check_depth(T), context_module(M), @(system:write_canonical(T), M)).
prologtool_guard:(write_canonical(S, T) :-
    prologtool_harness:check_depth(T), context_module(M), @(system:write_canonical(S, T), M)).
prologtool_guard:(write_term(T, Options) :-
    prologtool_harness:check_depth(T), context_module(M), @(system:write_term(T, Options), M)).
prologtool_guard:(write_term(S, T, Options) :-
    prologtool_harness:check_depth(T), context_module(M), @(system:write_term(S, T, Options), M)).
prologtool_guard:(portray_clause(T) :-
    prologtool_harness:check_depth(T), context_module(M), @(listing:portray_clause(T), M)).
prologtool_guard:(portray_clause(S, T) :-
    prologtool_harness:check_depth(T), context_module(M), @(listing:portray_clause(S, T), M)).
prologtool_guard:(print_message(Kind, T) :-
    prologtool_harness:check_depth(T), context_module(M), @(system:print_message(Kind, T), M)).
%   Message lines are written as they are, not translated: the message
%   hook below never sees them.
prologtool_guard:(print_message_lines(S, Prefix, Lines) :-
    prologtool_harness:check_depth(Lines), context_module(M),
    @(system:print_message_lines(S, Prefix, Lines), M)).

%   Every message that SWI-Prolog translates to text (print_message/2
%   from any library, message_to_string/2, assertion/1's report of its
%   goal, the toplevel's own) is translated by '$messages' through this
%   hook first: a message nested deeper than the limit is shown as a
%   line saying so, and never reaches the writer. print_message/2 keeps
%   its guard above because a session asks for it and gets the error,
%   where a library printing a message must not fail.
:- multifile prolog:message//1.
prolog:message(Term) -->
    { \+ prologtool_harness:depth_ok(Term),
      prologtool_harness:term_depth_limit(Limit)
    },
    [ 'A message nested more than ~D levels deep or too large unfolded (not printed)'-[Limit] ].

%   library(debug) translates its own assertion_failed message before the
%   hook above is asked (it was loaded first), and prints the goal:
%   assertion/1 of a goal nested too deep is a resource error instead.
:- multifile prolog:assertion_failed/2.
:- dynamic prolog:assertion_failed/2.
prolog:assertion_failed(_Reason, Goal) :-
    \+ prologtool_harness:depth_ok(Goal),
    prologtool_harness:check_depth(Goal).
%   A swipl child serves as its toplevel goal (so that SWI-Prolog starts
%   it again after an abort), which makes library(debug) take the child
%   for interactive and start the tracer on a failed assertion. Session
%   code gets what it gets on a thread with no toplevel (the in-process
%   backend): the report and the error. A time limit or an abort that
%   ends the asserted goal goes on as library(debug) lets it.
prolog:assertion_failed(Reason, Goal) :-
    current_prolog_flag(break_level, _),
    Reason \== time_limit_exceeded,
    Reason \== '$aborted',
    print_message(error, assertion_failed(Reason, Goal)),
    backtrace(10),
    throw(error(assertion_error(Reason, Goal), _)).

prologtool_guard:(format(Format) :-
    context_module(M),
    prologtool_harness:reentering(@(system:format(Format), M))).
prologtool_guard:(format(Format, Args) :-
    prologtool_harness:check_depth(Args),
    context_module(M),
    prologtool_harness:reentering(@(system:format(Format, Args), M))).
prologtool_guard:(format(Sink, Format, Args) :-
    prologtool_harness:check_depth(Args),
    context_module(M),
    prologtool_harness:to_sink(Sink, Out,
                               prologtool_harness:reentering(@(system:format(Out, Format, Args), M)))).

:- meta_predicate prologtool_guard:with_output_to(+, 0).
prologtool_guard:with_output_to(Sink, Goal) :-
    prologtool_harness:to_sink(Sink, Out,
                               prologtool_harness:reentering(system:with_output_to(Out, Goal))).

%   Text to terms and back: the reader recurses in C on nested brackets.
prologtool_guard:(term_to_atom(Term, Atom) :-
    context_module(M),
    (   var(Atom)
    ->  prologtool_harness:check_depth(Term),
        @(system:term_string(Term, String), M),
        prologtool_harness:checked_atom(Atom, String)
    ;   prologtool_harness:check_text_depth(Atom),
        @(system:term_to_atom(Term, Atom), M),
        prologtool_harness:check_read_atoms(Atom, Term)
    )).
prologtool_guard:(term_string(Term, String) :-
    context_module(M),
    (   var(String)
    ->  prologtool_harness:check_depth(Term),
        @(system:term_string(Term, String), M)
    ;   prologtool_harness:check_text_depth(String),
        @(system:term_string(Term, String), M),
        prologtool_harness:check_read_atoms(String, Term)
    )).
prologtool_guard:(term_string(Term, String, Options) :-
    context_module(M),
    (   var(String)
    ->  prologtool_harness:check_depth(Term),
        @(system:term_string(Term, String, Options), M)
    ;   prologtool_harness:check_text_depth(String),
        @(system:term_string(Term, String, Options), M),
        prologtool_harness:check_read_atoms(String, Term)
    )).
prologtool_guard:(atom_to_term(Atom, Term, Bindings) :-
    prologtool_harness:check_text_depth(Atom),
    context_module(M),
    @(system:atom_to_term(Atom, Term, Bindings), M),
    prologtool_harness:check_read_atoms(Atom, Term)).
prologtool_guard:(read_term_from_atom(Atom, Term, Options) :-
    prologtool_harness:check_text_depth(Atom),
    context_module(M),
    @(system:read_term_from_atom(Atom, Term, Options), M),
    prologtool_harness:check_read_atoms(Atom, Term)).

%   Reading from a stream: the text of the next term is read raw first
%   ('$raw_read'/2 scans to the full stop in a loop, without parsing),
%   its brackets counted, and only then parsed, from that text. A term's
%   positions (term_position/1, subterm_positions/1 options) are then
%   relative to its own text.
:- module_transparent
    prologtool_guard:read/1, prologtool_guard:read/2,
    prologtool_guard:read_term/2, prologtool_guard:read_term/3,
    prologtool_guard:read_clause/3.

prologtool_guard:(read(Term) :-
    context_module(M),
    current_input(S),
    prologtool_harness:checked_read(M, S, Term, [])).
prologtool_guard:(read(Stream, Term) :-
    context_module(M),
    prologtool_harness:checked_read(M, Stream, Term, [])).
prologtool_guard:(read_term(Term, Options) :-
    context_module(M),
    current_input(S),
    prologtool_harness:checked_read(M, S, Term, Options)).
prologtool_guard:(read_term(Stream, Term, Options) :-
    context_module(M),
    prologtool_harness:checked_read(M, Stream, Term, Options)).
prologtool_guard:(read_clause(Stream, Term, Options) :-
    context_module(M),
    prologtool_harness:checked_read(M, Stream, Term, Options)).

                 /*******************************
                 *             ATOMS            *
                 *******************************/

%   Atoms are not bounded by the stack limit: each guard works out the
%   length of the atom it would create and refuses one that is too long.

prologtool_guard:atom_concat(A, B, C) :-
    (   var(C), atomic(A), atomic(B)
    ->  prologtool_harness:check_atom_length([A, B], 0)
    ;   true
    ),
    system:atom_concat(A, B, C).
prologtool_guard:atomic_list_concat(List, Atom) :-
    (   var(Atom), is_list(List)
    ->  prologtool_harness:check_atom_length(List, 0)
    ;   true
    ),
    system:atomic_list_concat(List, Atom).
prologtool_guard:atomic_list_concat(List, Separator, Atom) :-
    (   var(Atom), is_list(List), atomic(Separator)
    ->  length(List, N),
        atom_length(Separator, SepLen),
        Extra is max(0, N - 1) * SepLen,
        prologtool_harness:check_atom_length(List, Extra)
    ;   true
    ),
    system:atomic_list_concat(List, Separator, Atom).
prologtool_guard:atom_codes(Atom, Codes) :-
    (   var(Atom) -> prologtool_harness:check_list_length(Codes) ; true ),
    system:atom_codes(Atom, Codes).
prologtool_guard:atom_chars(Atom, Chars) :-
    (   var(Atom) -> prologtool_harness:check_list_length(Chars) ; true ),
    system:atom_chars(Atom, Chars).
prologtool_guard:atom_string(Atom, String) :-
    (   var(Atom), atomic(String)
    ->  prologtool_harness:check_atom_length([String], 0)
    ;   true
    ),
    system:atom_string(Atom, String).
prologtool_guard:string_to_atom(String, Atom) :-
    (   var(Atom), atomic(String)
    ->  prologtool_harness:check_atom_length([String], 0)
    ;   true
    ),
    system:string_to_atom(String, Atom).
prologtool_guard:upcase_atom(Text, Atom) :-
    (   atomic(Text) -> prologtool_harness:check_atom_length([Text], 0) ; true ),
    system:upcase_atom(Text, Atom).
prologtool_guard:downcase_atom(Text, Atom) :-
    (   atomic(Text) -> prologtool_harness:check_atom_length([Text], 0) ; true ),
    system:downcase_atom(Text, Atom).
%   The normalised text is never longer than the input text.
prologtool_guard:normalize_space(Out, Input) :-
    (   nonvar(Out), Out = atom(_)
    ->  (   atomic(Input)
        ->  prologtool_harness:check_atom_length([Input], 0)
        ;   prologtool_harness:check_list_length(Input)
        )
    ;   true
    ),
    system:normalize_space(Out, Input).

%   sformat/2,3 (library(backcomp)) would call system's format/3 from its
%   library, past the guard: they are the guarded format/3 into a string.
:- module_transparent
    prologtool_guard:sformat/2, prologtool_guard:sformat/3.
prologtool_guard:(sformat(String, Format) :-
    context_module(M),
    @(prologtool_guard:format(string(String), Format, []), M)).
prologtool_guard:(sformat(String, Format, Args) :-
    context_module(M),
    @(prologtool_guard:format(string(String), Format, Args), M)).

%   library(charsio)'s format_to_chars/3,4 and with_output_to_chars/2,3,4
%   would call system's format/3 and with_output_to/2 from their library:
%   they are the guarded ones into codes (the text in memory bounded).
:- module_transparent
    prologtool_guard:format_to_chars/3, prologtool_guard:format_to_chars/4.
prologtool_guard:(format_to_chars(Format, Args, Codes) :-
    context_module(M),
    @(prologtool_guard:format(codes(Codes), Format, Args), M)).
prologtool_guard:(format_to_chars(Format, Args, Codes, Tail) :-
    context_module(M),
    @(prologtool_guard:format(codes(Codes, Tail), Format, Args), M)).

:- meta_predicate
    prologtool_guard:with_output_to_chars(0, -),
    prologtool_guard:with_output_to_chars(0, -, ?),
    prologtool_guard:with_output_to_chars(0, -, -, ?).
prologtool_guard:with_output_to_chars(Goal, Codes) :-
    prologtool_guard:with_output_to(codes(Codes), Goal).
prologtool_guard:with_output_to_chars(Goal, Codes, Tail) :-
    prologtool_guard:with_output_to(codes(Codes, Tail), Goal).
prologtool_guard:with_output_to_chars(Goal, Stream, Codes, Tail) :-
    prologtool_guard:with_output_to(codes(Codes, Tail),
                                    ( current_output(Stream), Goal )).

                 /*******************************
                 *       STANDARD STREAMS       *
                 *******************************/

%   A session never closes a standard stream (user_input, user_output,
%   user_error, or a stream holding one of those aliases): closing is a
%   no-op for them, as ISO says. SWI-Prolog puts the process's own
%   standard input back in place of a closed user_input (seen/0 after
%   the harness made user_input an empty stream): every later read/1, in
%   every session served by that thread, would read the JVM's standard
%   input (the MCP server's protocol stream) or the child's protocol
%   stream. user_output and user_error are the harness's capture stream
%   while a goal runs.
prologtool_guard:seen :-
    current_input(S),
    (   prologtool_harness:standard_stream(S)
    ->  true
    ;   close(S),
        set_input(user_input)
    ).
prologtool_guard:told :-
    current_output(S),
    (   prologtool_harness:standard_stream(S)
    ->  true
    ;   close(S),
        set_output(user_output)
    ).
prologtool_guard:close(S) :-
    (   prologtool_harness:standard_stream(S)
    ->  true
    ;   system:close(S),
        prologtool_harness:no_process_input
    ).
prologtool_guard:close(S, Options) :-
    (   prologtool_harness:standard_stream(S)
    ->  true
    ;   system:close(S, Options),
        prologtool_harness:no_process_input
    ).

%   SWI-Prolog has a second way back to the process's standard input: a
%   closed stream that was a thread's current input or its user_input is
%   replaced there by file descriptor 0, and only on the thread that closed
%   it (a thread whose current input another thread closed keeps a handle
%   to a freed stream). So set_input/1 or set_stream(S, alias(user_input))
%   to a session's stream, and that stream closed by the session, by
%   close/1 or when the session closes, would leave every later read/1
%   of that thread reading the JVM's standard input or the child's
%   protocol stream. Every request therefore starts and ends with the
%   thread's current input and user_input back on the harness's empty
%   stream (standard_input/0), and a stream closed during a request that
%   hands the process's own input back is replaced at once
%   (no_process_input/0).

%!  standard_input is det.
%
%   user_input is the harness's empty stream, and so is current input.
standard_input :-
    (   empty_input_stream(In),
        is_stream(In),
        stream_property(In, alias(user_input))  % In bound: no walk of the aliases
    ->  set_input(In)
    ;   empty_input
    ).

%!  no_process_input is det.
%
%   Neither user_input nor the current input is the process's standard
%   input.
no_process_input :-
    (   stream_property(U, alias(user_input)),
        stream_property(U, file_no(0))
    ->  empty_input
    ;   true
    ),
    (   current_input(C),
        stream_property(C, file_no(0))
    ->  set_input(user_input)
    ;   true
    ).

%   Streams a session opens are its own: at most max_open_streams of them
%   are open at once (resource_error(streams)), and closing the session
%   closes every one still open, so a session that never closes its
%   streams does not run the process out of file descriptors. The
%   temporary files it makes (tmp_file/2, tmp_file_stream/3) are deleted
%   when it closes.
:- module_transparent
    prologtool_guard:open/3, prologtool_guard:open/4,
    prologtool_guard:open_string/2, prologtool_guard:open_null_stream/1,
    prologtool_guard:tmp_file_stream/3, prologtool_guard:tmp_file/2.
prologtool_guard:(open(Source, Mode, Stream) :-
    context_module(M),
    prologtool_harness:session_stream(M, system:open(Source, Mode, Stream, []), Stream)).
prologtool_guard:(open(Source, Mode, Stream, Options) :-
    context_module(M),
    prologtool_harness:session_stream(M, system:open(Source, Mode, Stream, Options), Stream)).
prologtool_guard:(open_string(Text, Stream) :-
    context_module(M),
    prologtool_harness:session_stream(M, system:open_string(Text, Stream), Stream)).
prologtool_guard:(open_null_stream(Stream) :-
    context_module(M),
    prologtool_harness:session_stream(M, system:open_null_stream(Stream), Stream)).
prologtool_guard:(tmp_file_stream(A1, A2, A3) :-
    context_module(M),
    prologtool_harness:session_tmp_file_stream(M, A1, A2, A3)).
prologtool_guard:(tmp_file(Base, File) :-
    context_module(M),
    system:tmp_file(Base, File),
    prologtool_harness:session_tmp_file(M, File)).
%   Edinburgh-style I/O: see/1, tell/1 and append/1 of a file name open a
%   stream of the session's, as open/3 does, and make it current; of a
%   stream, an alias or user they only make it current. They do not use
%   SWI-Prolog's own: those push the input or output they replace on a
%   stack of the thread's, which outlives the session and its streams
%   (a later seen/0 or told/0 on that thread would make a closed stream
%   current again: a crash). seen/0 and told/0 close the current stream
%   unless it is a standard one, and go back to the standard one.
:- module_transparent
    prologtool_guard:see/1, prologtool_guard:tell/1, prologtool_guard:append/1.
prologtool_guard:(see(Source) :-
    context_module(M),
    prologtool_harness:session_redirect(M, Source, read)).
prologtool_guard:(tell(Sink) :-
    context_module(M),
    prologtool_harness:session_redirect(M, Sink, write)).
prologtool_guard:(append(Sink) :-
    context_module(M),
    prologtool_harness:session_redirect(M, Sink, append)).

                 /*******************************
                 *      ENGINES, NESTED LIMITS  *
                 *******************************/

%   An engine runs its goal outside the request's time limit and
%   inference backstop: SWI-Prolog 9.0.4 delivers no signal into an
%   engine, and an engine kept in a global variable runs on after its
%   session closed. Refused in every session.
:- module_transparent
    prologtool_guard:engine_create/3, prologtool_guard:engine_create/4.
prologtool_guard:(engine_create(Template, Goal, Engine) :-
    context_module(M),
    prologtool_harness:refuse_engine(M, engine_create(Template, Goal, Engine))).
prologtool_guard:(engine_create(Template, Goal, Engine, Options) :-
    context_module(M),
    prologtool_harness:refuse_engine(M, engine_create(Template, Goal, Engine, Options))).

%   A nested call_with_depth_limit/3 never goes deeper than the request's
%   own depth limit (SWI-Prolog sets the new limit as it is asked,
%   lifting the outer one).
:- meta_predicate prologtool_guard:call_with_depth_limit(0, +, -).
prologtool_guard:call_with_depth_limit(Goal, Limit, Result) :-
    prologtool_harness:session_depth_limit(Goal, Limit, Result).

                 /*******************************
                 *    THE HARNESS SIDE: CHECKS  *
                 *******************************/

%!  refuse(+Goal, +Why) is det.
%
%   Throw the error that a guarded built-in refuses Goal with:
%   sandbox_violation, the kind every isolation refusal has.
refuse(Goal, Why) :-
    throw(error(sandbox_violation(Goal), context(_, Why))).

%   The limits. A term nested deeper than term_depth_limit/1 would need
%   about half a kilobyte of C stack per level in SWI-Prolog's writer and
%   reader; the in-process backend's Prolog threads have far more than
%   the limit needs, and a swipl child's 8 MiB main thread has enough.
term_depth_limit(10000).
reentry_limit(200).

%!  check_depth(@Term) is det.
%
%   Throw resource_error(term_depth) when Term is nested deeper than the
%   term depth limit, and resource_error(term_size) when Term, unfolded
%   into the tree that SWI-Prolog's writer, compiler and tabling walk,
%   has more cells than the session's stacks hold (term_cells_limit/1).
%   List elements count as one level each; a list's length does not (the
%   C code walks list tails in a loop).
%
%   A term that shares no subterm and has no cycle ('$factorize_term'/3,
%   iterative in C, finds nothing to factor) is the tree itself: its size
%   is bounded by the stacks it lives on, and with fewer cells than the
%   depth limit it cannot be too deep, which spares the walk for almost
%   every term.
%
%   A term that shares subterms is a DAG: f(T, T) nested 40 deep is 40
%   cells on the stacks and 2^40 nodes to every C routine that walks it
%   as a tree (the writer, assert's compiler, a tabled call's trie,
%   variant_sha1/2), which runs for hours without looking at signals. A
%   cyclic term is measured, not exempted: SWI-Prolog's writer writes it
%   from its factorisation, and a deep acyclic part beside a cycle
%   reaches the C writer all the same. Both are measured on their
%   factorisation (factored_within/3), in time linear in their cells.
check_depth(Term) :-
    (   \+ compound(Term)
    ->  true
    ;   unshared(Term)
    ->  checked_tree(Term)
    ;   term_cells_limit(MaxCells),
        small_shared(Term, MaxCells)
    ->  true
    ;   checked_factored(Term)
    ).

%   small_shared(@Term): Term, which shares subterms, is within both
%   bounds without a walk. A term of S cells is nested at most S deep,
%   and with K shared subterms it unfolds to at most S^(K+1) cells (each
%   shared subterm occurs at most S times in what holds it). Most terms
%   that share anything share a subterm or two (f(X, X)).
small_shared(Term, MaxCells) :-
    term_depth_limit(Limit),
    term_size(Term, Size),
    Size =< Limit,
    findall(K, ( '$factorize_term'(Term, _, Substitutions),
                 length(Substitutions, K) ), [K]),
    (K + 1) * log(max(2, Size)) =< log(MaxCells).

%   unshared(@Term): the compound Term has no cycle and shares no
%   subterm. '$factorize_term'/3 puts variables in place of the shared
%   subterms of Term itself (to be bound back): when it finds none,
%   nothing changed, and otherwise the failed unification undoes it.
unshared(Term) :-
    '$factorize_term'(Term, _, []).

checked_tree(Term) :-
    term_depth_limit(Limit),
    (   term_size(Term, Size),
        Size =< Limit
    ->  true
    ;   with_walk_room(depth_within(Term, Limit))
    ->  true
    ;   too_deep(Limit)
    ).

checked_factored(Term) :-
    term_depth_limit(Limit),
    term_cells_limit(MaxCells),
    factored_within(Term, Limit, MaxCells).

%!  term_cells_limit(-MaxCells) is det.
%
%   How many cells a term may have once unfolded: as many as the stacks
%   of the request hold (its stack limit, 8 bytes a cell), so a shared
%   term may cost a C routine no more than a term of the same size that
%   shares nothing. At the default 256 MiB stack limit that is 32 Mi
%   cells, about a second and a half of the writer.
term_cells_limit(MaxCells) :-
    current_prolog_flag(stack_limit, Stack),
    MaxCells is max(1_000_000, Stack // 8).

%!  factored_within(@Term, +Limit, +MaxCells) is det.
%
%   Throw resource_error(term_depth) or resource_error(term_size) when
%   the cyclic or shared Term, unfolded as far as the writer unfolds it,
%   is nested more than Limit deep or has more than MaxCells cells. Its
%   factorisation is a skeleton and substitutions V = Value, each Value
%   an acyclic term that names other substitutions' variables (a cycle
%   names its own). Each such variable is bound to a marker
%   '$pt_factor'(I, Memo) (Memo a term of this call only, so no term of
%   the session can pass for a marker), and the depth and size of a
%   marker are those of its Value, worked out once (memo) and counted 0
%   while being worked out (a cycle, which the writer does not unfold).
%   So the walk visits each cell of the factorisation once, and each
%   descent stops at Limit.
factored_within(Term, Limit, MaxCells) :-
    \+ \+ ( '$factorize_term'(Term, Skeleton, Substitutions),
            length(Substitutions, N),
            Twice is 2 * N,
            functor(Memo, memo, Twice),
            bind_factors(Substitutions, 1, Memo, Values),
            Values1 =.. [values|Values],
            with_walk_room(unfolded(Skeleton, Limit, Limit-MaxCells, Memo, Values1, _, _))
          ).

bind_factors([], _, _, []).
bind_factors([V=Value|Subs], I, Memo, [Value|Values]) :-
    V = '$pt_factor'(I, Memo),
    I1 is I + 1,
    bind_factors(Subs, I1, Memo, Values).

%   unfolded(+Term, +Left, +Limits, +Memo, +Values, -Depth, -Cells):
%   Term unfolds to Cells cells, nested Depth deep, and Depth =< Left;
%   else it throws. Limits is Limit-MaxCells, for the errors.
unfolded(Term, Left, Limits, Memo, Values, Depth, Cells) :-
    (   \+ compound(Term)
    ->  Depth = 0,
        Cells = 0
    ;   Term = '$pt_factor'(I, M),
        M == Memo
    ->  factor_unfolded(I, Limits, Memo, Values, Depth, Cells),
        (   Depth =< Left
        ->  true
        ;   Limits = Limit-_,
            too_deep(Limit)
        )
    ;   Left =< 0
    ->  Limits = Limit-_,
        too_deep(Limit)
    ;   Left1 is Left - 1,
        (   Term = [_|_]
        ->  list_unfolded(Term, Left1, Limits, Memo, Values, 0, D, 0, C)
        ;   compound_name_arity(Term, _, Arity),
            args_unfolded(1, Arity, Term, Left1, Limits, Memo, Values, 0, D, 0, C0),
            C is C0 + Arity + 1
        ),
        Depth is D + 1,
        Cells = C,
        check_cells(Cells, Limits)
    ).

check_cells(Cells, _-MaxCells) :-
    (   Cells =< MaxCells
    ->  true
    ;   too_large(MaxCells)
    ).

%   A substitution's value, unfolded once: its depth counted from its own
%   root, so that it holds wherever the value occurs. Memo's argument I
%   holds the depth of value I, argument I + N its cells (0 and 0 while
%   being worked out: a cycle): small integers, which nb_setarg/3 stores
%   without taking global stack, so the walk takes none beyond its frames
%   (with_walk_room/1).
factor_unfolded(I, Limits, Memo, Values, Depth, Cells) :-
    arg(I, Memo, Known),
    functor(Memo, _, Twice),
    J is I + Twice // 2,
    (   nonvar(Known)
    ->  Depth = Known,
        arg(J, Memo, Cells)
    ;   nb_setarg(I, Memo, 0),
        nb_setarg(J, Memo, 0),
        arg(I, Values, Value),
        Limits = Limit-_,
        unfolded(Value, Limit, Limits, Memo, Values, Depth, Cells),
        nb_setarg(I, Memo, Depth),
        nb_setarg(J, Memo, Cells)
    ).

list_unfolded(List, Left, Limits, Memo, Values, D0, D, C0, C) :-
    (   List = [H|T],
        \+ ( List = '$pt_factor'(_, M), M == Memo )
    ->  unfolded(H, Left, Limits, Memo, Values, DH, CH),
        D1 is max(D0, DH),
        C1 is C0 + CH + 3,
        check_cells(C1, Limits),
        list_unfolded(T, Left, Limits, Memo, Values, D1, D, C1, C)
    ;   List = '$pt_factor'(I, M),      % a shared tail: its elements
        M == Memo,                      % are at the level of these
        arg(I, Values, [_|_])
    ->  Left1 is Left + 1,
        unfolded(List, Left1, Limits, Memo, Values, DT, CT),
        D is max(D0, DT - 1),
        C is C0 + CT
    ;   unfolded(List, Left, Limits, Memo, Values, DT, CT),      % the tail
        D is max(D0, DT),
        C is C0 + CT
    ).

args_unfolded(I, Arity, Term, Left, Limits, Memo, Values, D0, D, C0, C) :-
    (   I > Arity
    ->  D = D0,
        C = C0
    ;   arg(I, Term, Arg),
        unfolded(Arg, Left, Limits, Memo, Values, DA, CA),
        D1 is max(D0, DA),
        C1 is C0 + CA,
        check_cells(C1, Limits),
        I1 is I + 1,
        args_unfolded(I1, Arity, Term, Left, Limits, Memo, Values, D1, D, C1, C)
    ).

%!  narrow_strings(@Term, -Hashable) is det.
%
%   SWI-Prolog 9.0.4's term_hash/4 crashes the process (SIGSEGV) on a
%   string holding a character above U+00FF (term_hash/2 does not). So
%   Hashable is Term with each such string in place of the integer that
%   term_hash/2 gives it: the same term always hashes the same, which is
%   all a hash promises. A term without such strings is taken as it is.
%   The walk goes over the term's factorisation, so shared and cyclic
%   terms cost their size, not their unfolding.
narrow_strings(Term, Hashable) :-
    (   ( string(Term) ; compound(Term) )
    ->  findall(S-V, '$factorize_term'(Term, S, V), [Skeleton-Substitutions]),
        (   sub_term(X, Skeleton-Substitutions),
            wide_string(X)
        ->  narrowed(Skeleton, Hashable),
            maplist(bind_narrowed, Substitutions)
        ;   Hashable = Term
        )
    ;   Hashable = Term
    ).

wide_string(X) :-
    string(X),
    string_codes(X, Codes),
    member(C, Codes),
    C > 0xFF,
    !.

narrowed(T, N) :-
    (   var(T)
    ->  N = T
    ;   wide_string(T)
    ->  term_hash(T, N)
    ;   compound(T)
    ->  compound_name_arguments(T, Name, Args),
        maplist(narrowed, Args, NArgs),
        compound_name_arguments(N, Name, NArgs)
    ;   N = T
    ).

bind_narrowed(V = Value) :-
    narrowed(Value, N),
    V = N.

%!  session_stream(+Module, :Open, -Stream) is det.
%
%   Run Open, which opens Stream, for session Module: refused when the
%   session has as many streams open as it may; recorded so that
%   closing the session closes it.
session_stream(M, Open, Stream) :-
    (   session(M, Opts),
        get_dict(max_open_streams, Opts, Max), integer(Max)
    ->  true
    ;   Max = 64
    ),
    owned_replay,
    with_mutex(prologtool_streams, prune_session_streams(M, Open0)),
    (   Open0 >= Max
    ->  format(atom(Why), 'the session has ~D streams open, as many as it may (close some)', [Open0]),
        throw(error(resource_error(streams), context(_, Why)))
    ;   true
    ),
    call(Open),
    (   session(M, _),
        \+ session_stream_(M, Stream)
    ->  owned(session_stream_(M, Stream))
    ;   true
    ).

%!  session_redirect(+Module, +Spec, +Mode) is det.
%
%   see/1 (Mode read), tell/1 (write) or append/1 (append) of Spec for
%   session Module. user, a stream or an alias is made current. A file
%   name selects the stream the session opened for that file in that
%   mode before, if it is still open, or opens one (counted and closed
%   with the session, as open/3's) and makes it current.
session_redirect(M, Spec, Mode) :-
    (   Mode == read -> Select = set_input ; Select = set_output ),
    (   Spec == user
    ->  (   Mode == read -> call(Select, user_input) ; call(Select, user_output) )
    ;   (   is_stream(Spec)
        ;   atom(Spec), stream_property(_, alias(Spec))
        )
    ->  call(Select, Spec)
    ;   session_file_stream(M, Spec, Mode, Stream)
    ->  call(Select, Stream)
    ;   session_stream(M, system:open(Spec, Mode, Stream, []), Stream),
        call(Select, Stream)
    ).

session_file_stream(M, Spec, Mode, Stream) :-
    catch(absolute_file_name(Spec, File), _, fail),
    session_stream_(M, Stream),
    is_stream(Stream),
    stream_property(Stream, file_name(File)),
    (   Mode == read
    ->  stream_property(Stream, mode(read))
    ;   stream_property(Stream, mode(M1)),
        memberchk(M1, [write, append])
    ),
    !.

:- dynamic session_stream_/2.           % Module, Stream

%   prune_session_streams(+M, -Open): forget the streams of M that were
%   closed since; Open is how many are still open.
prune_session_streams(M, Open) :-
    findall(S, session_stream_(M, S), Ss),
    partition(is_stream, Ss, Live, Closed),
    forall(member(S, Closed), retractall(session_stream_(M, S))),
    length(Live, Open).

close_session_streams(M) :-
    forall(retract(session_stream_(M, S)),
           (   is_stream(S)
           ->  catch(close(S, [force(true)]), _, true)
           ;   true
           )),
    forall(retract(session_tmp_file_(M, File)),
           catch(delete_file(File), _, true)).

%   tmp_file_stream/3 for session M, in either of SWI-Prolog's forms:
%   (+Encoding, -File, -Stream), told apart as SWI-Prolog does, and
%   (-File, -Stream, +Options). The stream is counted and closed with the
%   session as open/3's are, and the file deleted then.
session_tmp_file_stream(M, A1, A2, A3) :-
    (   atom(A1), var(A2), var(A3)
    ->  Stream = A3, File = A2
    ;   Stream = A2, File = A1
    ),
    session_stream(M, system:tmp_file_stream(A1, A2, A3), Stream),
    session_tmp_file(M, File).

:- dynamic session_tmp_file_/2.         % Module, File

%   session_tmp_file(+M, +File): File, a temporary file's name that
%   session M made, is deleted when M closes.
session_tmp_file(M, File) :-
    (   session(M, _),
        \+ session_tmp_file_(M, File)
    ->  owned(session_tmp_file_(M, File))
    ;   true
    ).

%!  standard_stream(+Stream) is semidet.
%
%   Stream (a handle or an alias) is, or holds the alias of, one of the
%   standard streams.
standard_stream(S) :-
    (   atom(S)
    ->  memberchk(S, [user_input, user_output, user_error])
    ;   catch(stream_property(S, alias(A)), _, fail),
        memberchk(A, [user_input, user_output, user_error])
    ->  true
    ).

refuse_engine(M, Goal) :-
    (   sandboxed_session(M)
    ->  refuse(Goal, 'engines run outside the time limit of the request')
    ;   throw(error(permission_error(create, engine, Goal),
                    context(_, 'engines run outside the time limit and inference limit of the request (SWI-Prolog 9.0.4 delivers no signal into an engine), so a session may not create one')))
    ).

%!  session_depth_limit(:Goal, +Limit, -Result) is nondet.
%
%   call_with_depth_limit/3 inside a request: the limit is cut to what
%   the request's depth limit leaves at this level ('$pt_depth_cap', set
%   by depth_limited/3 as the level where the request's limit strikes).
%   When the cut limit is what was exceeded, '$pt_depth_hit' tells the
%   request, which reports depth_exceeded as for its own limit.
session_depth_limit(Goal, Limit, Result) :-
    (   integer(Limit),
        nb_current('$pt_depth_cap', Cap),
        integer(Cap),
        prolog_current_frame(F),
        prolog_frame_attribute(F, level, Level),
        Left is max(1, Cap - Level),
        Left < Limit
    ->  system:call_with_depth_limit(Goal, Left, Result),
        (   Result == depth_limit_exceeded
        ->  nb_setval('$pt_depth_hit', true)
        ;   true
        )
    ;   system:call_with_depth_limit(Goal, Limit, Result)
    ).

%!  depth_ok(@Term) is semidet.
%
%   Term is neither nested too deep nor too large unfolded (check_depth/1).
depth_ok(Term) :-
    catch(check_depth(Term), error(resource_error(_), _), fail).

too_deep(Limit) :-
    format(atom(Why), 'the term is nested more than ~D levels deep', [Limit]),
    throw(error(resource_error(term_depth), context(_, Why))).

too_large(MaxCells) :-
    format(atom(Why), 'the term shares subterms that, unfolded, make more than ~D cells, \c
                       more than the stacks hold, or for an asserted clause what is left of the \c
                       session\'s clause space (a C routine would walk them all)', [MaxCells]),
    throw(error(resource_error(term_size), context(_, Why))).

%!  with_walk_room(:Walk) is semidet.
%
%   Run Walk, one of the depth checks' walks over a term, as once/1 with
%   this thread's stack limit raised by walk_room/1 while it runs. A walk
%   descends at most term_depth_limit/1 levels and takes no global stack
%   beyond its frames, so with that room it cannot overflow the stacks,
%   however full the term it walks has left them. An overflow there would
%   cost more than the walk: SWI-Prolog's report of a stack overflow looks
%   for a recursion among the top frames by comparing the arguments of
%   frames of the same predicate (is_variant_frame() in pl-alloc.c), in C,
%   where no signal reaches, and the frames of a walk hold the term. A
%   3,000,000-deep cyclic list written under a 100 MiB stack limit took
%   40-50 s past its 2 s time limit there (a worker busy in C on the
%   in-process backend, a child on the process backend).
with_walk_room(Walk) :-
    current_prolog_flag(stack_limit, Limit),
    walk_room(Room),
    Raised is Limit + Room,
    setup_call_cleanup(catch(set_prolog_flag(stack_limit, Raised), _, true),
                       once(Walk),
                       restore_stack_limit(Limit)).

%   The room of a walk: at most term_depth_limit/1 frames of a few hundred
%   bytes, with their choice points, and what the garbage collector needs.
walk_room(16_777_216).

%   The limit goes back once the walk's frames are gone. SWI-Prolog
%   refuses a limit below the stacks' present size, which the walk may
%   have grown into its room: trim them, and try once more.
restore_stack_limit(Limit) :-
    (   catch(set_prolog_flag(stack_limit, Limit), _, fail)
    ->  true
    ;   trim_stacks,
        catch(set_prolog_flag(stack_limit, Limit), _, true)
    ).

depth_within(Term, Depth) :-
    (   compound(Term)
    ->  Depth > 0,
        Depth1 is Depth - 1,
        (   Term = [_|_]
        ->  list_within(Term, Depth1)
        ;   compound_name_arity(Term, _, Arity),
            args_within(1, Arity, Term, Depth1)
        )
    ;   true
    ).

list_within(List, Depth) :-
    (   compound(List), List = [H|T]
    ->  depth_within(H, Depth),
        list_within(T, Depth)
    ;   depth_within(List, Depth)
    ).

args_within(I, Arity, Term, Depth) :-
    (   I > Arity
    ->  true
    ;   arg(I, Term, Arg),
        depth_within(Arg, Depth),
        I1 is I + 1,
        args_within(I1, Arity, Term, Depth)
    ).

%!  check_text_depth(+Text) is det.
%
%   Throw resource_error(term_depth) when the brackets of Text ((, [, {)
%   nest deeper than the term depth limit, before SWI-Prolog's reader
%   recurses on them. Quotes and comments are not told apart: the count
%   can only be too high, for text with unbalanced brackets inside
%   quotes. Text with fewer opening brackets than the limit is not
%   walked at all.
check_text_depth(Text) :-
    (   text_nesting_exceeds(Text, _)
    ->  term_depth_limit(Limit),
        too_deep(Limit)
    ;   true
    ).

%   text_nesting_exceeds(+Text, -Offset): the brackets of Text nest
%   deeper than the limit; Offset is where (in characters). Text of up to
%   a megabyte is first split at its opening brackets (in C): with no
%   more of them than the limit it is not walked. Otherwise Text is walked
%   4,096 characters at a time, so that the walk never holds more than
%   one chunk's parts (splitting 3,000,000 brackets would take more than a
%   small stack limit), and each chunk from opening bracket to opening
%   bracket: the text between two of them is split at its closing
%   brackets in C, so the walk costs a few inferences per opening bracket
%   rather than per character (walking every character was a fifth of
%   the time a consult of 100,000 facts took).
text_nesting_exceeds(Text, Offset) :-
    atomic(Text),
    term_depth_limit(Limit),
    atom_length(Text, Length),
    Length > Limit,
    (   Length =< 1_000_000,
        catch(split_string(Text, "([{", "", Parts),   % refuses a lone surrogate
              error(representation_error(_), _), fail)
    ->  length(Parts, N),
        N > Limit + 1                   % N - 1 opening brackets
    ;   true
    ),
    text_chunks_exceed(Text, 0, Length, 0, Limit, Offset).

text_chunks_exceed(Text, Start, Length, Depth0, Limit, Offset) :-
    Start < Length,
    N is min(4096, Length - Start),
    sub_string(Text, Start, N, _, Chunk),
    chunk_nesting(Chunk, Depth0, Limit, Start, Result),
    (   Result = exceeded(Offset0)
    ->  Offset = Offset0
    ;   Result = depth(Depth),
        Next is Start + N,
        text_chunks_exceed(Text, Next, Length, Depth, Limit, Offset)
    ).

%   chunk_nesting(+Chunk, +Depth0, +Limit, +Start, -Result): Result is
%   exceeded(Offset) when the brackets of Chunk (at Start in the text)
%   pass Limit at Offset, else depth(Depth), the nesting after Chunk. A
%   chunk that split_string/4 refuses (a lone surrogate) is walked code
%   by code.
chunk_nesting(Chunk, Depth0, Limit, Start, Result) :-
    (   catch(split_string(Chunk, "([{", "", [First|Parts]),
              error(representation_error(_), _), fail)
    ->  after_closings(First, Depth0, Depth1, Start, Next),
        openings(Parts, Depth1, Limit, Next, Result)
    ;   string_codes(Chunk, Codes),
        nesting(Codes, Depth0, Limit, Start, Result)
    ).

%   openings(+Parts, +Depth0, +Limit, +I, -Result): each of Parts
%   follows an opening bracket, the first of them at offset I.
openings([], Depth, _, _, depth(Depth)).
openings([Part|Parts], Depth0, Limit, I, Result) :-
    D is Depth0 + 1,
    (   D > Limit
    ->  Result = exceeded(I)
    ;   I1 is I + 1,
        after_closings(Part, D, Depth, I1, Next),
        openings(Parts, Depth, Limit, Next, Result)
    ).

%   after_closings(+Part, +Depth0, -Depth, +I, -Next): Part, at offset I,
%   holds no opening bracket; Depth is the nesting after its closing
%   ones (never below 0), Next the offset after Part.
after_closings(Part, Depth0, Depth, I, Next) :-
    split_string(Part, ")]}", "", Pieces),
    length(Pieces, N),
    Depth is max(0, Depth0 - (N - 1)),
    string_length(Part, L),
    Next is I + L.

%   nesting(+Codes, +Depth0, +Limit, +I, -Result): as chunk_nesting/5,
%   code by code.
nesting([], Depth, _, _, depth(Depth)).
nesting([C|Cs], Depth0, Limit, I, Result) :-
    (   opening(C)
    ->  D is Depth0 + 1,
        (   D > Limit
        ->  Result = exceeded(I)
        ;   I1 is I + 1,
            nesting(Cs, D, Limit, I1, Result)
        )
    ;   closing(C)
    ->  D is max(0, Depth0 - 1),
        I1 is I + 1,
        nesting(Cs, D, Limit, I1, Result)
    ;   I1 is I + 1,
        nesting(Cs, Depth0, Limit, I1, Result)
    ).

opening(0'().
opening(0'[).
opening(0'{).
closing(0')).
closing(0']).
closing(0'}).

%!  checked_read(+Module, +Stream, -Term, +Options) is det.
%
%   read_term/3 in Module, with the text of the term checked for depth
%   (check_text_depth/1) and for atoms that are too long before and after
%   it is parsed.
checked_read(M, Stream, Term, Options) :-
    '$raw_read'(Stream, Raw),
    check_text_depth(Raw),
    (   Raw == end_of_file
    ->  Text = "end_of_file ."
    ;   atom_concat(Raw, ' .', Text)
    ),
    setup_call_cleanup(open_string(Text, In),
                       @(system:read_term(In, Term0, Options), M),
                       close(In)),
    check_read_atoms(Raw, Term0),
    Term = Term0.

%!  check_read_atoms(+Text, @Term) is det.
%
%   Term was read from Text: throw resource_error(atom_length) if it
%   holds an atom longer than the session allows. The reader makes the
%   atoms it reads as it goes, so this checks what it made (an atom
%   with no other reference goes with the next atom garbage collection);
%   text shorter than the limit cannot hold a longer atom and is not
%   walked.
check_read_atoms(Text, Term) :-
    max_atom_chars(Max),
    (   atomic(Text),
        atom_length(Text, Length),
        Length > Max
    ->  forall(( sub_term(A, Term), atom(A) ),
               check_atom_length([A], 0))
    ;   true
    ).

%!  reentering(:Goal) is semidet.
%
%   Run Goal, a built-in that may call back into Prolog from C (format's
%   ~@, with_output_to/2), counting how deep such calls nest on this
%   thread: each level holds several kilobytes of C stack.
:- meta_predicate reentering(0).
reentering(Goal) :-
    (   nb_current('$pt_reentry', N0), integer(N0) -> true ; N0 = 0 ),
    reentry_limit(Limit),
    (   N0 >= Limit
    ->  format(atom(Why), 'format/2 and with_output_to/2 nest more than ~D levels deep', [Limit]),
        throw(error(resource_error(c_stack), context(_, Why)))
    ;   true
    ),
    N is N0 + 1,
    setup_call_cleanup(nb_setval('$pt_reentry', N),
                       once(Goal),
                       nb_setval('$pt_reentry', N0)).

%!  to_sink(+Sink, -Out, :Goal) is semidet.
%
%   Run Goal writing to Out. A stream (or alias) is written as it is. A
%   sink in memory (atom(A), string(S), codes(Cs), codes(Cs, Tail),
%   chars(Cs), chars(Cs, Tail)) is written through a stream of the
%   harness's own (library(prolog_stream)) that counts what goes through
%   it and throws resource_error as soon as the text grows past the
%   session's bound, into a memory file: SWI-Prolog's own memory sinks
%   grow in C, without a limit and without running Prolog (so without
%   noticing a time limit), until the goal is done. An atom sink's bound
%   is the session's atom length (so an atom longer than that is never
%   made), any other sink's the larger of that and an eighth of the
%   stack limit (the text has to fit on the stacks once it is done).
%   Each chunk of output runs Prolog, so a time limit strikes inside a
%   C loop such as format's ~*c. About 10 us per sink.
:- meta_predicate to_sink(+, -, 0).
to_sink(Sink, Out, Goal) :-
    (   nonvar(Sink),
        memory_sink(Sink, Kind)
    ->  sink_bound(Kind, Max),
        new_memory_file(MF),
        setup_call_cleanup(
            true,
            ( setup_call_cleanup(
                  ( open_memory_file(MF, write, Mem),
                    open_prolog_stream(prologtool_sink, write, Out, []),
                    assertz(sink_(Out, Mem, Kind, Max)) ),
                  ( once(Goal), flush_output(Out) ),
                  ( retractall(sink_(Out, _, _, _)),
                    close(Out, [force(true)]),
                    close(Mem) )),
              sink_result(Sink, MF) ),
            free_memory_file(MF))
    ;   Out = Sink,
        once(Goal)
    ).

memory_sink(atom(_), atom).
memory_sink(string(_), text).
memory_sink(codes(_), text).
memory_sink(codes(_, _), text).
memory_sink(chars(_), text).
memory_sink(chars(_, _), text).

sink_bound(atom, Max) :-
    max_atom_chars(Max).
sink_bound(text, Max) :-
    max_atom_chars(MaxAtom),
    current_prolog_flag(stack_limit, Stack),
    Max is max(MaxAtom, Stack // 8).

sink_result(atom(A), MF) :-
    memory_file_to_atom(MF, A).
sink_result(string(S), MF) :-
    memory_file_to_string(MF, S).
sink_result(codes(Cs), MF) :-
    memory_file_to_codes(MF, Cs).
sink_result(codes(Cs, Tail), MF) :-
    memory_file_to_codes(MF, Cs0),
    append(Cs0, Tail, Cs).
sink_result(chars(Cs), MF) :-
    memory_file_to_codes(MF, Codes),
    maplist(char_code, Cs, Codes).
sink_result(chars(Cs, Tail), MF) :-
    memory_file_to_codes(MF, Codes),
    maplist(char_code, Cs0, Codes),
    append(Cs0, Tail, Cs).

:- thread_local sink_/4.                % Stream, MemoryStream, Kind, Max

%   The sink stream's callbacks (library(prolog_stream)). Once the bound
%   is passed the stream forgets its sink, so that flushing it when it is
%   closed does not throw again.
prologtool_sink:stream_write(Stream, String) :-
    prologtool_harness:sink_write(Stream, String).
prologtool_sink:stream_close(_).

sink_write(Stream, String) :-
    (   sink_(Stream, Mem, Kind, Max)
    ->  character_count(Mem, N0),
        string_length(String, Len),
        (   N0 + Len =< Max
        ->  write(Mem, String)
        ;   retractall(sink_(Stream, _, _, _)),
            (   Kind == atom
            ->  format(atom(Why), 'an atom of more than ~D characters is longer than this session allows', [Max]),
                throw(error(resource_error(atom_length), context(_, Why)))
            ;   format(atom(Why), 'text of more than ~D characters written to memory is more than this session allows', [Max]),
                throw(error(resource_error(text_length), context(_, Why)))
            )
        )
    ;   true
    ).

%!  checked_atom(?Atom, +String) is semidet.
checked_atom(Atom, String) :-
    check_atom_length([String], 0),
    atom_string(Atom, String).

%!  check_atom_length(+Parts, +Extra) is det.
%
%   Throw resource_error(atom_length) when the atom made of Parts (and
%   Extra more characters) would be longer than the session allows.
check_atom_length(Parts, Extra) :-
    max_atom_chars(Max),
    foldl(add_text_length, Parts, Extra, Length),
    (   Length =< Max
    ->  true
    ;   format(atom(Why), 'an atom of ~D characters is longer than this session allows (~D)',
               [Length, Max]),
        throw(error(resource_error(atom_length), context(_, Why)))
    ).

add_text_length(Part, L0, L) :-
    (   atomic(Part)
    ->  atom_length(Part, N),
        L is L0 + N
    ;   L = L0                          % the built-in raises its own error
    ).

check_list_length(List) :-
    (   is_list(List)
    ->  length(List, N),
        check_atom_length([], N)
    ;   true
    ).

%   The session's atom length limit: the option of the session whose
%   request runs on this thread.
max_atom_chars(Max) :-
    (   nb_current('$pt_max_atom', Max0), integer(Max0)
    ->  Max = Max0
    ;   Max = 1048576
    ).

%!  guarded_clause(+MClause, -Checked) is det.
%
%   A clause that session code asserts, once it is known not to be too
%   deep or too large unfolded for the compiler, and its long atoms fit
%   the session's clause space (charge_clause_atoms/2).
guarded_clause(M:Clause, M:Clause) :-
    (   nonvar(Clause),
        builtin_clause(Clause, PI)
    ->  throw(error(permission_error(modify, static_procedure, PI), _))
    ;   true
    ),
    (   \+ compound(Clause)
    ->  atom_chars_in(Clause, 0, Chars)
    ;   unshared(Clause)
    ->  checked_tree(Clause),
        atom_chars_in(Clause, 0, Chars)
    ;   clause_cells_limit(M, MaxCells),
        (   small_shared(Clause, MaxCells)
        ->  true
        ;   term_depth_limit(Limit),
            factored_within(Clause, Limit, MaxCells)
        ),
        findall(C, ( '$factorize_term'(Clause, Skeleton, Substitutions),
                     atom_chars_in(Skeleton, 0, C0),
                     substitution_atom_chars(Substitutions, C0, C) ),
                [Chars])
    ),
    charge_clause_atoms(M, Chars).

%   clause_cells_limit(+M, -MaxCells): the cells a clause that session M
%   asserts may have unfolded. SWI-Prolog compiles a clause unfolded (a
%   shared subterm once per occurrence), into about 8 bytes per cell, and
%   compiling takes as much again for a moment (measured: f/1 nested
%   1,000 deep and shared 10,000 times, 20 Mi cells, makes a clause of
%   160 MB, and the process's peak grew by 315 MB). So a small term that
%   shares much makes a clause as large as its tree: one whose 16 bytes
%   a cell are more than what is left of the session's clause space is
%   refused before the compiler allocates it (which, in a child with an
%   address-space limit, could exhaust it).
clause_cells_limit(M, MaxCells) :-
    term_cells_limit(Max0),
    (   module_property(M, program_space(Space)),
        module_property(M, program_size(Size))
    ->  MaxCells is max(1000, min(Max0, (Space - Size) // 16))
    ;   MaxCells = Max0
    ).

%!  charge_clause_atoms(+Module, +Chars) is det.
%
%   A clause holds its atoms by reference: SWI-Prolog's clause space
%   (the module's program_space, the session's clauseSpaceBytes) counts
%   the reference, not the atom's text, so facts holding long atoms (each
%   up to max_atom_chars) could hold any amount of memory within a small
%   budget. The text of the long atoms (long_atom/1) that a session's
%   asserted clauses hold is charged to the clause space as well: a
%   running total per session (Chars, the text of the long atoms of the
%   clause asserted now, is found by a walk of the clause's factorisation,
%   which the depth check makes anyway), and
%   when the total says the budget is passed it is counted again from the
%   clauses the session holds now (distinct atoms; retracted clauses no
%   longer count) before the assert is refused with
%   resource_error(program_space).
charge_clause_atoms(M, Chars) :-
    (   Chars =:= 0
    ->  true
    ;   module_property(M, program_space(Space))
    ->  (   session_atom_chars_(M, Held0) -> true ; Held0 = 0 ),
        module_property(M, program_size(Size)),
        (   Size + Held0 + Chars =< Space
        ->  Held = Held0
        ;   held_atom_chars(M, Held),
            (   Size + Held + Chars =< Space
            ->  true
            ;   format(atom(Why), 'the session\'s clauses would hold ~D bytes of clauses and long atoms, \c
                                   more than its clause space (~D bytes)', [Size + Held + Chars, Space]),
                throw(error(resource_error(program_space), context(_, Why)))
            )
        ),
        retractall(session_atom_chars_(M, _)),
        Total is Held + Chars,
        assertz(session_atom_chars_(M, Total))
    ;   true
    ).

:- dynamic session_atom_chars_/2.       % Module, Chars of long atoms charged

%   An atom long enough to be charged: shorter ones cost about as much as
%   the clause cell that refers to them.
long_atom(A) :-
    atom(A),
    atom_length(A, L),
    L > 64.

%   atom_chars_in(@Term, +Chars0, -Chars): add the text of the long atoms
%   in the acyclic Term (names of compound terms included). A clause is
%   walked in the pieces of its factorisation, so that each shared
%   subterm counts once and a cyclic term ends.
atom_chars_in(T, C0, C) :-
    (   var(T)
    ->  C = C0
    ;   T = [H|Tail]
    ->  atom_chars_in(H, C0, C1),
        atom_chars_in(Tail, C1, C)
    ;   compound(T)
    ->  compound_name_arity(T, Name, Arity),
        atom_chars_in(Name, C0, C1),
        atom_args_chars(1, Arity, T, C1, C)
    ;   atom(T),
        atom_length(T, L),
        L > 64
    ->  C is C0 + L
    ;   C = C0
    ).

substitution_atom_chars([], C, C).
substitution_atom_chars([_=Value|Substitutions], C0, C) :-
    atom_chars_in(Value, C0, C1),
    substitution_atom_chars(Substitutions, C1, C).

%   The last argument is a last call: a list is walked in a loop.
atom_args_chars(I, Arity, T, C0, C) :-
    arg(I, T, A),
    (   I >= Arity
    ->  atom_chars_in(A, C0, C)
    ;   atom_chars_in(A, C0, C1),
        I1 is I + 1,
        atom_args_chars(I1, Arity, T, C1, C)
    ).

%   held_atom_chars(+M, -Chars): the text of the distinct long atoms held
%   by the dynamic clauses of session M now.
held_atom_chars(M, Chars) :-
    findall(A, ( current_predicate(M:Name/Arity),
                 functor(Head, Name, Arity),
                 predicate_property(M:Head, dynamic),
                 \+ predicate_property(M:Head, imported_from(_)),
                 clause(M:Head, Body),
                 long_atom_in(Head-Body, A) ), As),
    sort(As, Distinct),
    foldl([A, C0, C]>>( atom_length(A, L), C is C0 + L ), Distinct, 0, Chars).

long_atom_in(T, A) :-
    (   compound(T)
    ->  (   compound_name_arity(T, A, _), long_atom(A)
        ;   arg(_, T, Arg), long_atom_in(Arg, A)
        )
    ;   long_atom(T),
        A = T
    ).

%!  builtin_clause(+Clause, -PI) is semidet.
%
%   Clause is a clause for one of the guarded ISO built-ins, PI. SWI-Prolog
%   refuses to let a module define an ISO built-in; once the guarded ones
%   lost the flag it would not, and a session's own write/1 would take the
%   place of the built-in in its module. The assert guards and the
%   consult (harness_sandbox.pl) refuse such a clause as SWI-Prolog did.
builtin_clause(Clause, Name/Arity) :-
    (   Clause = (Head :- _)
    ->  true
    ;   Head = Clause
    ),
    callable(Head),
    functor(Head, Name, Arity),
    unbound_builtin(Name, Arity).

%!  expand_in(+Module, +Goal, -Expanded) is det.
%
%   Goal expansion as if Goal were compiled in Module (expand_goal/2 uses
%   the source module, not the context module).
expand_in(M, Goal, Expanded) :-
    '$set_source_module'(Old, M),
    call_cleanup(expand_goal(Goal, Expanded),
                 '$set_source_module'(Old)).

                 /*******************************
                 *     THE HARNESS SIDE: STATE  *
                 *******************************/

%   Global variables of session M live under the key M\x1f\Key on the
%   thread that runs the request. Keys touched by a request are saved
%   with the session when it ends (save_session_globals/1) and taken
%   back lazily on the next read, so a session sees its own values from
%   one request to the next whichever thread serves it, and never
%   another session's.

:- dynamic
    session_global/3,               % Module, Key, Ref (of the value's record)
    session_flag_value/3,           % Module, Key, Value
    session_record_key_/2,          % Module, ScopedKey
    session_thread_/2.              % Module, Thread
:- thread_local
    touched_global/2.               % Module, Key

session_global_key(M, Key, Scoped) :-
    must_be(atom, Key),
    atomic_list_concat([M, Key], '\x1f\', Scoped),
    (   touched_global(M, Key) -> true ; owned(touched_global(M, Key)) ).

session_global_value(M, Key, Value) :-
    session_global_key(M, Key, Scoped),
    (   nb_current(Scoped, V0)
    ->  Value = V0
    ;   session_global(M, Key, Ref)
    ->  recorded(_, V0, Ref),
        system:nb_setval(Scoped, V0),
        nb_getval(Scoped, Value)
    ;   existence_error(variable, Key)
    ).

session_global_current(M, Key, Value) :-
    (   atom(Key)
    ->  catch(session_global_value(M, Key, Value), error(existence_error(_, _), _), fail)
    ;   findall(K, ( session_global(M, K, _)
                   ; atom_concat(M, '\x1f\', P),
                     nb_current(S, _), atom(S), atom_concat(P, K, S)
                   ), Ks),
        sort(Ks, Keys),
        member(Key, Keys),
        session_global_value(M, Key, Value)
    ).

session_global_delete(M, Key) :-
    session_global_key(M, Key, Scoped),
    nb_delete(Scoped),
    forget_session_global(M, Key).

%   The values are kept in the recorded database, which holds cyclic
%   and deeply nested terms (a clause cannot hold a cyclic term, and
%   compiling one nested 10^6 deep overflows the C stack).
forget_session_global(M, Key) :-
    forall(retract(session_global(M, Key, Ref)), erase(Ref)).

%!  save_session_globals is det.
%
%   At the end of every request: move the global variables it touched
%   from the thread to their session, so that the thread carries nothing
%   of one session into the next request it serves.
save_session_globals :-
    forall(retract(touched_global(M, Key)),
           ( atomic_list_concat([M, Key], '\x1f\', Scoped),
             (   nb_current(Scoped, Value)
             ->  forget_session_global(M, Key),
                 (   session(M, _)
                 ->  recordz('$pt_session_global', Value, Ref),
                     assertz(session_global(M, Key, Ref))
                 ;   true
                 ),
                 nb_delete(Scoped)
             ;   true
             ) )).

session_flag(M, Key, Old, New) :-
    (   session_flag_value(M, Key, Old0) -> true ; Old0 = 0 ),
    Old = Old0,
    Value is New,
    retractall(session_flag_value(M, Key, _)),
    assertz(session_flag_value(M, Key, Value)).

session_record_key(M, Key, Scoped) :-
    (   compound(Key) -> functor(Key, Name, Arity) ; Name = Key, Arity = 0 ),
    format(atom(Scoped), '~w\x1f\~w/~w', [M, Name, Arity]),
    (   session_record_key_(M, Scoped) -> true ; owned(session_record_key_(M, Scoped)) ).

session_recorded(M, Key, Value, Ref) :-
    (   nonvar(Key)
    ->  session_record_key(M, Key, Scoped),
        system:recorded(Scoped, Value, Ref)
    ;   session_record_key_(M, Scoped),
        system:recorded(Scoped, Value, Ref)
    ).

%   Flags that every module has its own value of are set in the
%   session's module; any other flag is shared by the whole Prolog.
session_set_flag(_, Flag, Value) :-
    nb_current('$pt_keep_changes', false),
    !,
    refuse(set_prolog_flag(Flag, Value),
           'a goal run without side effects may not change the session\'s flags').
session_set_flag(M, Flag, Value) :-
    (   atom(Flag), module_local_flag(Flag)
    ->  system:set_prolog_flag(M:Flag, Value),
        nb_setval('$pt_edited', true)   % run_goal/4 in harness.pl
    ;   format(atom(Why), 'the flag ~q is shared by every session', [Flag]),
        refuse(set_prolog_flag(Flag, Value), Why)
    ).

%   Operators defined at run time belong to the session's module (a goal
%   runs with user as its source module).
session_op(_, Priority, Type, Names) :-
    nb_current('$pt_keep_changes', false),
    !,
    refuse(op(Priority, Type, Names),
           'a goal run without side effects may not change the session\'s operators').
session_op(M, Priority, Type, Names) :-
    (   is_list(Names)
    ->  maplist(session_op_name(M), Names, Qualified)
    ;   session_op_name(M, Names, Qualified)
    ),
    system:op(Priority, Type, Qualified),
    nb_setval('$pt_edited', true).     % run_goal/4 in harness.pl

session_op_name(M, Name, Q) :-
    (   nonvar(Name), Name = _:_
    ->  Q = Name                    % the isolation check looked at it
    ;   Q = M:Name
    ).

%   Threads: refused unless the session allows them; then each is the
%   session's, stopped and joined when it closes.
session_thread_create(M:Goal, Id, Options) :-
    (   session(M, Opts),
        get_dict(allow_threads, Opts, true),
        \+ sandboxed_session(M)
    ->  exclude(detached_option, Options, Options1),
        system:thread_create(M:Goal, Id, Options1),
        owned(session_thread_(M, Id))
    ;   refuse(thread_create(Goal),
               'a session may not create threads (open it with allowThreads(true) to let it)')
    ).

%   What a session owns outlives the transactions it rolls back. The
%   harness records a session's streams, temporary files, threads, global
%   variables and record keys as clauses (session_stream_/2,
%   session_tmp_file_/2, session_thread_/2, touched_global/2,
%   session_record_key_/2), so that closing the session closes, deletes,
%   stops or forgets each. SWI-Prolog takes back every clause
%   asserted inside a snapshot/1, or a transaction that fails or throws,
%   the harness's among them: a stream opened inside one would stay open
%   after the session closed, uncounted by the session's stream cap. So
%   such a record is made by owned/1, which inside a transaction also
%   keeps a copy in the recorded database, which no transaction rolls
%   back; owned_replay/0, outside every transaction, asserts again what a
%   rollback took away. It runs as each snapshot/1 and transaction/1,2,3
%   of session code ends (their guards), before a stream is counted, and
%   at the end of every request (end_of_request/0), which covers a
%   transaction called through system.
owned(Fact) :-
    assertz(Fact),
    (   current_transaction(_)
    ->  thread_self(Me),
        recordz('$pt_owned', Me-Fact)
    ;   true
    ).

owned_replay :-
    (   recorded('$pt_owned', _),
        \+ current_transaction(_)
    ->  thread_self(Me),
        forall(recorded('$pt_owned', Me-Fact, Ref),
               (   erase(Ref),
                   (   \+ \+ call(Fact)
                   ->  true
                   ;   assertz(Fact)
                   )
               ))
    ;   true
    ).

%   A detached thread could not be joined when its session closes.
detached_option(detached(_)).

session_thread_signal(Thread, M:Goal) :-
    (   session_thread_(M, Thread)
    ->  system:thread_signal(Thread, M:Goal)
    ;   refuse(thread_signal(Thread, Goal),
               'a session may signal only the threads it created')
    ).

%!  stop_session_threads(+Module, -Stuck) is det.
%
%   Stop every thread session Module created and wait for it to end (at
%   most about a second each); a thread that will not end (it blocks
%   signals) is detached and returned in Stuck, never left to run in a
%   module that is about to be destroyed: the caller keeps the module
%   then (close_session/1).
stop_session_threads(M, Stuck) :-
    findall(Id, retract(session_thread_(M, Id)), Ids),
    maplist(stop_thread, Ids),
    include(thread_running, Ids, Stuck).        % harness.pl

stop_thread(Id) :-
    catch(system:thread_signal(Id, abort), _, true),
    (   thread_ended_within(Id, 1)
    ->  catch(thread_join(Id, _), _, true)
    ;   catch(thread_detach(Id), _, true)
    ).

%!  thread_ended_within(+Id, +Seconds) is semidet.
%
%   Thread Id has ended, or ends within about Seconds. It looks after
%   0.05 ms, then twice as long each time up to 10 ms: a thread told to
%   stop usually ends within a fraction of a millisecond, and sleeping
%   10 ms before the first look made every close of an open query take
%   10 ms.
thread_ended_within(Id, Seconds) :-
    get_time(Now),
    Until is Now + Seconds,
    thread_ended_by(Id, Until, 0.00005).

thread_ended_by(Id, Until, Wait) :-
    (   \+ catch(thread_property(Id, status(running)), _, fail)
    ->  true
    ;   get_time(Now),
        Now < Until
    ->  sleep(Wait),
        Next is min(0.01, Wait * 2),
        thread_ended_by(Id, Until, Next)
    ).

%   What a session leaves in the harness's own stores when it closes.
forget_session_state(M) :-
    close_session_streams(M),
    retractall(session_atom_chars_(M, _)),
    forget_session_global(M, _),
    retractall(session_flag_value(M, _, _)),
    forall(retract(session_record_key_(M, Scoped)),
           forall(system:recorded(Scoped, _, Ref), erase(Ref))).

%!  bounded_get_message(+Queue, ?Message, +Options) is semidet.
%
%   thread_get_message/3 (Options: timeout(Seconds), deadline(Stamp)),
%   but never waiting past the deadline of the request that runs it.
%
%   It never blocks in thread_get_message itself: in SWI-Prolog 9.0.4 a
%   thread whose signals are blocked (a cleanup handler) and that has a
%   signal pending (the request's alarm) spins at full speed inside
%   thread_get_message, whatever timeout it was given, and never
%   returns. So it looks at the queue with thread_peek_message/2 and
%   sleeps between looks (1 ms at first, doubling to 20 ms): sleep/1
%   returns in that state. A message can wait up to 20 ms longer than it
%   would otherwise; session threads are the exception (allow_threads),
%   so no common path pays it.

bounded_get_message(Queue, Message, Options) :-
    get_time(Now),
    (   option(deadline(Until0), Options)
    ->  true
    ;   option(timeout(Seconds), Options)
    ->  must_be(number, Seconds),
        Until0 is Now + Seconds
    ;   Until0 = inf
    ),
    (   nb_current('$pt_deadline', Deadline0),
        number(Deadline0)
    ->  Deadline is Deadline0 + 0.05
    ;   Deadline = inf
    ),
    poll_message(Queue, Message, Until0, Deadline, 0.001).

poll_message(Queue, Message, Until, Deadline, Wait) :-
    (   system:thread_peek_message(Queue, Message),
        system:thread_get_message(Queue, Message, [timeout(0)])
    ->  true
    ;   get_time(Now),
        (   Deadline \== inf,
            Now >= Deadline
        ->  throw(time_limit_exceeded)
        ;   Until \== inf,
            Now >= Until
        ->  fail
        ;   earliest([Until, Deadline], Now + Wait, End),
            Sleep is max(0, End - Now),
            system:sleep(Sleep),
            Next is min(0.02, Wait * 2),
            poll_message(Queue, Message, Until, Deadline, Next)
        )
    ).

earliest([], End0, End) :-
    End is End0.
earliest([inf|Ts], End0, End) :-
    !,
    earliest(Ts, End0, End).
earliest([T|Ts], End0, End) :-
    End1 is min(T, End0),
    earliest(Ts, End1, End).

%!  bounded_sleep(+Seconds) is det.
%
%   sleep/1, but never past the deadline of the request that runs it: a
%   sleep where signals are blocked (a cleanup handler) would otherwise
%   outlast the time limit.
bounded_sleep(Seconds) :-
    must_be(number, Seconds),
    (   nb_current('$pt_deadline', Deadline),
        number(Deadline)
    ->  get_time(Now),
        Left is max(0, Deadline - Now + 0.05),
        S is min(Seconds, Left)
    ;   S = Seconds
    ),
    system:sleep(S),
    (   S < Seconds
    ->  throw(time_limit_exceeded)
    ;   true
    ).

%!  session_shell(+Command, -Status) is semidet.
%
%   shell/2 for session code. SWI-Prolog's own shell/2 waits for the
%   command in C, where no signal of a thread reaches in an embedding
%   JVM (SWI-Prolog runs there without signal handlers): a command that
%   outlived the time limit kept its worker and session busy and went on
%   after the backend closed, with the JVM's standard input and output.
%   Here the command runs with an empty standard input, in a process
%   group of its own, and its output goes to a file that is copied to
%   the goal's output when it ends (so the capture and its bound apply);
%   the wait is a loop that signals reach, and when the wait ends, by the
%   command's exit, a time limit or any other way, the whole group is
%   killed: no process of the command outlives its call.
session_shell(Command, Status) :-
    text_to_string(Command, Text),
    tmp_file_stream(binary, File, Out),
    setup_call_cleanup(
        true,
        run_shell(Text, Out, Exit),
        ( close(Out, [force(true)]),
          shell_output(File),
          catch(delete_file(File), _, true) )),
    shell_status(Exit, Status).

run_shell(Text, Out, Exit) :-
    setup_call_catcher_cleanup(
        process_create(path(sh), ['-c', Text],
                       [ stdin(null), stdout(stream(Out)), stderr(stream(Out)),
                         detached(true), process(Pid) ]),
        wait_shell(Pid, Exit),
        Catcher,
        end_shell(Catcher, Pid)).

%   process_wait/3 of SWI-Prolog 9.0.4 blocks in C for any timeout but 0:
%   look, then sleep a little where a signal can reach the thread.
wait_shell(Pid, Exit) :-
    repeat,
    process_wait(Pid, Exit0, [timeout(0)]),
    (   Exit0 == timeout
    ->  sleep(0.02),
        fail
    ;   !,
        Exit = Exit0
    ).

%   The group is killed however the wait ended, so what the command left
%   running in the background (`cmd &`) ends with it too.
end_shell(Catcher, Pid) :-
    catch(process_group_kill(Pid, kill), _, true),
    (   Catcher == exit
    ->  true
    ;   catch(process_wait(Pid, _), _, true)
    ).

shell_output(File) :-
    setup_call_cleanup(
        open(File, read, In, [encoding(utf8)]),
        copy_stream_data(In, current_output),
        close(In)).

shell_status(exit(Status), Status) :- !.
shell_status(killed(Signal), Status) :-
    Status is 128 + Signal.

%!  guarded_goal(+Module, +Goal, -Guarded) is det.
%
%   A goal text's goal as a clause body of Module would be compiled:
%   expanded as the toplevel expands what it is given. The expansion runs
%   the session's own goal_expansion/2 hooks, so the search does it
%   (search/6, cursor_search/6), under the request's limits, and an
%   error in it leaves the goal as it is, while a time limit or a cancel
%   that strikes there ends the request (session_catch/3).
guarded_goal(M, Goal, Guarded) :-
    (   session_catch(expand_in(M, Goal, Guarded0), _, fail)
    ->  Guarded = Guarded0
    ;   Guarded = Goal
    ).

                 /*******************************
                 *    WHERE NO SIGNAL REACHES   *
                 *******************************/

%   SWI-Prolog blocks signals in the setup and cleanup goals of
%   setup_call_cleanup/3 and its relatives and in sig_atomic/1, so no time
%   limit reaches them. The request's inference backstop
%   (harness_limits.pl) still ends them, but only after 100 million
%   inferences per second of the limit: a session that keeps every worker
%   spinning in cleanup handlers would burn the cores for seconds after
%   its calls timed out and it closed. Each of these goals therefore runs
%   under a budget of its own (unsignalled/1 in harness_limits.pl), a
%   twentieth of the backstop's rate.

:- meta_predicate
    prologtool_guard:setup_call_cleanup(0, 0, 0),
    prologtool_guard:setup_call_catcher_cleanup(0, 0, ?, 0),
    prologtool_guard:call_cleanup(0, 0),
    prologtool_guard:sig_atomic(0).

prologtool_guard:setup_call_cleanup(Setup, Goal, Cleanup) :-
    system:setup_call_cleanup(prologtool_harness:unsignalled(Setup), Goal,
                              prologtool_harness:unsignalled(Cleanup)).
prologtool_guard:setup_call_catcher_cleanup(Setup, Goal, Catcher, Cleanup) :-
    system:setup_call_catcher_cleanup(prologtool_harness:unsignalled(Setup), Goal, Catcher,
                                      prologtool_harness:unsignalled(Cleanup)).
prologtool_guard:call_cleanup(Goal, Cleanup) :-
    system:setup_call_cleanup(true, Goal, prologtool_harness:unsignalled(Cleanup)).
prologtool_guard:sig_atomic(Goal) :-
    system:sig_atomic(prologtool_harness:unsignalled(Goal)).

%   Transactions: what the session owns survives their rollback
%   (owned_replay/0 above).
:- meta_predicate
    prologtool_guard:snapshot(0),
    prologtool_guard:transaction(0),
    prologtool_guard:transaction(0, +),
    prologtool_guard:transaction(0, 0, +).
prologtool_guard:snapshot(Goal) :-
    system:setup_call_cleanup(true, system:snapshot(Goal), prologtool_harness:owned_replay).
prologtool_guard:transaction(Goal) :-
    system:setup_call_cleanup(true, system:transaction(Goal), prologtool_harness:owned_replay).
prologtool_guard:transaction(Goal, Options) :-
    system:setup_call_cleanup(true, system:transaction(Goal, Options), prologtool_harness:owned_replay).
prologtool_guard:transaction(Goal, Constraint, Mutex) :-
    system:setup_call_cleanup(true, system:transaction(Goal, Constraint, Mutex),
                              prologtool_harness:owned_replay).

:- forall(guarded(Head),
          ( functor(Head, Name, Arity),
            prologtool_guard:public(Name/Arity) )).

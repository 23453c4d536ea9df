:- encoding(utf8).
/*  Part of the prologtool harness (included by harness.pl, module
    prologtool_harness): isolation between sessions, and the sandbox.

    Isolation holds for every session: code may not name another module
    than its own for a call, a clause or a database change when that
    module is another session's, a global one (user, system, the
    harness), or a library it would write into; nor change a global flag.
    library(sandbox) alone does not give this (see FACTS: it checks
    Other:G as if Other were the caller, and accepts M:assertz(Fact)).

    A sandboxed session (option sandboxed:true) also loads its text with
    load_files/2's sandboxed(true) and checks every goal with safe_goal/1,
    so it cannot reach files, processes, the network or the system.
*/

:- multifile sandbox:safe_primitive/1.

% Output is captured per call and capped, so printing is harmless.
sandbox:safe_primitive(system:write(_)).
sandbox:safe_primitive(system:print(_)).
sandbox:safe_primitive(system:writeq(_)).
sandbox:safe_primitive(system:write_canonical(_)).
sandbox:safe_primitive(system:write_term(_, _)).
sandbox:safe_primitive(system:nl).
sandbox:safe_primitive(system:tab(_)).
sandbox:safe_primitive(system:put_char(_)).

%!  sandboxed_session(+Module) is semidet.
sandboxed_session(M) :-
    session(M, Options),
    get_dict(sandboxed, Options, true).

%!  check_isolation(+Module, +Term) is det.
%
%   Throw error(sandbox_violation(Culprit), context(_, Why)) when Term (a
%   goal, a clause or a directive of session Module) reaches outside it.
check_isolation(M, Term) :-
    (   isolation_violation(M, Term, Culprit, Why)
    ->  throw(error(sandbox_violation(Culprit), context(_, Why)))
    ;   true
    ).

isolation_violation(M, Term, Culprit, Why) :-
    suspect_subterm(Term, Sub),
    violation(M, Sub, Culprit, Why),
    !.

%   suspect_subterm(+Term, -Sub): the subterms of Term, outermost first,
%   that some clause of violation/4 could match: M:G, the flag setters,
%   run_tests and include/1. Walking only into compound terms and looking
%   at each one's name and arity once is what keeps the check cheap: with
%   violation/4 tried on every subterm, the 7,672 terms of the 200
%   PARARULE-Plus programs took 14.2 ms, with this walk 6.4 ms.
suspect_subterm(Term, Sub) :-
    compound(Term),
    !,
    compound_name_arity(Term, Name, Arity),
    (   suspect(Name, Arity),
        Sub = Term
    ;   between(1, Arity, I),
        arg(I, Term, Arg),
        suspect_subterm(Arg, Sub)
    ).
suspect_subterm(Term, Term) :-
    Term == run_tests.

suspect((:), 2).
suspect(set_prolog_flag, 2).
suspect(create_prolog_flag, 3).
suspect(run_tests, 1).
suspect(run_tests, 2).
suspect(include, 1).

violation(M, Q:Inner, Q:Inner, Why) :-
    atom(Q),
    Q \== M,
    (   session_like(Q)
    ->  Why = 'another session\'s module is out of reach'
    ;   protected_module(Q)
    ->  format(atom(Why), 'the module ~q is out of reach of a session', [Q])
    ;   current_module(Q),
        callable(Inner),
        database_goal(Inner)
    ->  format(atom(Why), 'a session may not change the module ~q', [Q])
    ).
violation(M, Q:Inner, Q:Inner, Why) :-
    atom(Q),
    Q \== M,
    callable(Inner),
    functor(Inner, Name, _),
    guarded_name(Name),                 % harness_guard.pl
    format(atom(Why), '~q is guarded in a session: call it without the module ~q', [Name, Q]).
violation(_, Goal, Goal, Why) :-
    callable(Goal),
    (   Goal = set_prolog_flag(Flag, _)
    ;   Goal = create_prolog_flag(Flag, _, _)
    ),
    \+ (atom(Flag), module_local_flag(Flag)),
    format(atom(Why), 'the flag ~q is shared by every session', [Flag]).
violation(_, Goal, Goal, Why) :-
    callable(Goal),
    (   Goal = run_tests ; Goal = run_tests(_) ; Goal = run_tests(_, _) ),
    Why = 'run_tests would run every session\'s units; use the run_tests tool (runTests)'.
violation(M, Goal, Goal, Why) :-
    nonvar(Goal),
    Goal = include(_),
    sandboxed_session(M),
    Why = 'a sandboxed session may not read files'.

%   Another session's module, here or (on the process backend) in another
%   process: what a session module is named like.
session_like(Q) :-
    (   session(Q, _)
    ->  true
    ;   sub_atom(Q, 0, _, _, m_)
    ).

protected_module(user).
protected_module(system).
protected_module(prologtool_harness).
protected_module(plunit).
protected_module(sandbox).
protected_module('$syspreds').
protected_module('$bags').
protected_module('$messages').

database_goal(G) :-
    functor(G, Name, Arity),
    memberchk(Name/Arity,
              [ assert/1, asserta/1, assertz/1, assert/2, asserta/2, assertz/2,
                retract/1, retractall/1, abolish/1, abolish/2, erase/1,
                (dynamic)/1, (discontiguous)/1, (multifile)/1, op/3,
                set_prolog_flag/2, compile_aux_clauses/1
              ]).

% Flags every module has its own value of.
module_local_flag(double_quotes).
module_local_flag(back_quotes).
module_local_flag(unknown).
module_local_flag(character_escapes).
module_local_flag(var_prefix).
module_local_flag(rational_syntax).

%   Consulted text: every clause and directive of a session source is
%   checked before it is compiled; a violating term is dropped with an
%   error diagnostic at its line. The walk over the term comes first: most
%   terms hold nothing suspect, and for them the hook ends there, before
%   asking where the load is (loading_session_source/0 costs about as
%   much as the walk).
system:term_expansion(Term, []) :-
    builtin_clause(Term, PI),                   % harness_guard.pl
    loading_session_source,
    print_message(error, error(permission_error(modify, static_procedure, PI), _)).
system:term_expansion(Term, []) :-
    \+ \+ suspect_subterm(Term, _),
    loading_session_source,
    prolog_load_context(module, M),
    catch(check_isolation(M, Term), E, true),
    nonvar(E),
    print_message(error, E).

:- multifile prolog:error_message//1.
prolog:error_message(sandbox_violation(Culprit)) -->
    [ 'Sandbox: ~q is not allowed'-[Culprit] ].

%!  check_goal_safety(+Module, +Goal) is det.
%
%   Every goal passes the isolation check; in a sandboxed session it
%   also passes library(sandbox)'s safe_goal/1.
check_goal_safety(M, Goal) :-
    check_isolation(M, Goal),
    (   sandboxed_session(M)
    ->  check_side_effects(false, M, Goal)
    ;   true
    ).

:- encoding(utf8).
/*  Part of the prologtool harness (included by harness.pl, module
    prologtool_harness): inspect_predicate, get_source, replace_predicate
    and list_messages.
*/

                 /*******************************
                 *            INSPECT           *
                 *******************************/

request(inspect, Req, Pairs) :-
    existing_session(Req, M),
    indicator(Req, Name, Arity),
    functor(Head, Name, Arity),
    (   user_predicate(M, Head)
    ->  predicate_type(M:Head, Type),
        ( predicate_property(M:Head, exported) -> Exported = true ; Exported = false ),
        predicate_clauses(M, Head, Clauses),
        length(Clauses, Count),
        Pairs = [found= @(true), type=Type, exported= @(Exported),
                 clause_count=Count, clauses=Clauses, candidates=[]]
    ;   predicate_property(M:Head, defined)
    ->  % a built-in or library predicate the session can call
        predicate_type(M:Head, Type),
        Pairs = [found= @(true), type=Type, exported= @(false),
                 clause_count=0, clauses=[], candidates=[]]
    ;   similar_predicates(M, Name, Arity, Candidates),
        Pairs = [found= @(false), type=undefined, exported= @(false),
                 clause_count=0, clauses=[], candidates=Candidates]
    ).

%   Every predicate of the session, without clauses (consult_text's
%   include_predicates).
request(predicates, Req, [predicates=Descriptors]) :-
    existing_session(Req, M),
    session_heads(M, Heads),
    maplist(predicate_descriptor(M), Heads, Descriptors).

predicate_descriptor(M, Head, json([name=Name, arity=Arity, type=Type,
                                    exported= @(Exported), clause_count=Count])) :-
    functor(Head, Name, Arity),
    predicate_type(M:Head, Type),
    ( predicate_property(M:Head, exported) -> Exported = true ; Exported = false ),
    ( predicate_property(M:Head, number_of_clauses(Count)) -> true ; Count = 0 ).

indicator(Req, Name, Arity) :-
    must_have(name, Req, NameS),
    must_have(arity, Req, Arity),
    must_be(string, NameS),
    must_be(nonneg, Arity),
    atom_string(Name, NameS).

%!  user_predicate(+Module, ?Head) is nondet.
%
%   Head is a predicate the session's own code defines: not imported,
%   not one of the harness's helpers (names starting with $, the
%   halt/0,1 guards).
user_predicate(M, Head) :-
    (   var(Head)
    ->  current_predicate(M:Name/Arity),
        functor(Head, Name, Arity)
    ;   functor(Head, Name, Arity),
        current_predicate(M:Name/Arity)
    ),
    \+ sub_atom(Name, 0, _, _, $),     % the cheap test first: tabling adds a '$wrap$' per predicate
    \+ predicate_property(M:Head, imported_from(_)).

predicate_type(MHead, Type) :-
    (   predicate_property(MHead, (dynamic))
    ->  Type = (dynamic)
    ;   predicate_property(MHead, foreign)
    ->  Type = foreign
    ;   Type = static
    ).

predicate_clauses(M, Head, Texts) :-
    findall(Text,
            ( clause(M:Head, Body),
              clause_text(M, Head, Body, Text) ),
            Texts).

%   A ground fact is written as portray_clause/3 writes it (the same
%   options; checked on the shapes it lays out specially: operators,
%   lists of a thousand elements, terms nested a hundred deep), at a
%   tenth of its cost: a checkpoint writes every fact of the session.
clause_text(M, Head, true, Text) :-
    ground(Head),
    !,
    format(string(Text), "~W.", [Head, [quoted(true), spacing(next_argument), portray(true),
                                        numbervars(true), module(M)]]).
clause_text(M, Head, Body, Text) :-
    (   Body == true -> Clause = Head ; Clause = (Head :- Body) ),
    with_output_to(string(Text0),
                   portray_clause(current_output, Clause, [module(M)])),
    split_string(Text0, "", "\n", [Text]).

                 /*******************************
                 *             SOURCE           *
                 *******************************/

%   The program rebuilt from the live clauses: the session's own
%   operators, then dynamic and table declarations, then every
%   predicate's clauses in the order the user first defined them.

request(source, Req, [source=Source]) :-
    existing_session(Req, M),
    session_source(M, Source).

%   fork_state: what a copy of the session needs (PrologSession.fork()):
%   the module's own flags, then its source as get_source rebuilds it
%   (operators, declarations, every clause, dynamic facts as they are
%   now), and the texts of its plunit units, loaded again without
%   running them.
request(fork_state, Req, [text=Text, tests=Tests]) :-
    existing_session(Req, M),
    findall(F, module_flag_directive(M, F), Flags),
    session_source(M, Source),
    atomic_list_concat(Flags, '\n', FlagText),
    (   Flags == [] -> Text = Source ; format(string(Text), "~w~n~w", [FlagText, Source]) ),
    findall(T, test_source(M, _, T), Tests).

%   A flag the session set in its module (harness_guard.pl keeps them
%   there), as the directive that sets it again.
module_flag_directive(M, Directive) :-
    module_local_flag(Flag),
    current_prolog_flag(M:Flag, Value),
    current_prolog_flag(prologtool_libraries:Flag, Default),
    Value \== Default,
    format(string(Directive), ":- set_prolog_flag(~q, ~q).", [Flag, Value]).

session_source(M, Source) :-
    session_heads(M, Heads),
    findall(Op, local_op(M, Op), Ops),
    findall(D, ( member(H, Heads), declaration_text(M, H, D) ), Decls),
    findall(Block, ( member(H, Heads), clauses_block(M, H, Block) ), Blocks),
    append([Ops, Decls], Header),
    (   Header == []
    ->  Parts = Blocks
    ;   atomic_list_concat(Header, '\n', HeaderText),
        Parts = [HeaderText|Blocks]
    ),
    atomic_list_concat(Parts, '\n\n', Text),
    (   Text == '' -> Source = "" ; format(string(Source), "~w~n", [Text]) ).

%!  session_heads(+M, -Heads) is det.
%
%   The session's own predicates in the order the user defined them.
session_heads(M, Heads) :-
    findall(Key-Head,
            ( user_predicate(M, Head),
              \+ predicate_property(M:Head, foreign),
              definition_key(M, Head, Key) ),
            Keyed),
    keysort(Keyed, Sorted),
    pairs_values(Sorted, Heads).

%   Predicates from loaded text sort by consult and line; those created
%   by assert come last, by name.
definition_key(M, Head, Key) :-
    functor(Head, Name, Arity),
    functor(Fresh, Name, Arity),
    (   clause(M:Fresh, _, Ref),
        clause_property(Ref, file(File)),
        clause_property(Ref, line_count(Line)),
        consult_number(File, N)
    ->  Key = k(0, N, Line)
    ;   Key = k(1, Name, Arity)
    ).

consult_number(File, N) :-
    loaded_source(_, File, N),
    !.
consult_number(_, 0).

%   An operator of the session's own: not one it inherits from the
%   preloaded libraries or system (harness.pl).
local_op(M, Text) :-
    current_op(P, T, M:Op),
    \+ current_op(P, T, prologtool_libraries:Op),
    format(string(Text), ":- op(~w, ~w, ~q).", [P, T, Op]).

declaration_text(M, Head, Text) :-
    functor(Head, Name, Arity),
    (   predicate_property(M:Head, tabled)
    ->  format(string(Text), ":- table ~q.", [Name/Arity])
    ;   predicate_property(M:Head, dynamic)
    ->  format(string(Text), ":- dynamic ~q.", [Name/Arity])
    ).

clauses_block(M, Head, Block) :-
    predicate_clauses(M, Head, Texts),
    Texts \== [],
    atomic_list_concat(Texts, '\n', Block).

                 /*******************************
                 *            REPLACE           *
                 *******************************/

%   Replace every clause of Name/Arity by the clauses of a patch text,
%   atomically. The patch is read and checked first; only a patch that
%   compiles and defines nothing but the target (it may declare it
%   dynamic) is loaded, after the old clauses are removed. Otherwise the
%   session is left exactly as it was.

request(replace, Req, Pairs) :-
    existing_session(Req, M),
    indicator(Req, Name, Arity),
    must_have(text, Req, Text),
    option_value(Req, time_limit, 30, TimeLimit),
    read_patch(M, Text, Terms, ReadDiags),
    format(string(PI), "~w/~w", [Name, Arity]),
    (   member(D, ReadDiags), diagnostic_is_error(D)
    ->  remember_messages(M, ReadDiags),
        patch_refused(syntax_error,
                      "The patch does not compile; the session is unchanged",
                      PI, ReadDiags, Pairs)
    ;   functor(Target, Name, Arity),
        predicate_property(system:Target, defined),
        \+ user_predicate(M, Target)
    ->  format(string(Msg), "~w is a built-in predicate and cannot be replaced; \c
                             the session is unchanged", [PI]),
        patch_refused(permission_error, Msg, PI, ReadDiags, Pairs)
    ;   member(Term, Terms),
        catch(check_isolation(M, Term), Violation, true),
        nonvar(Violation)
    ->  error_message(Violation, Msg0),
        format(string(Msg), "~w; the session is unchanged", [Msg0]),
        patch_refused(sandbox_violation, Msg, PI, ReadDiags, Pairs)
    ;   patch_intruder(M, Name, Arity, Terms, Intruder)
    ->  format(string(Msg),
                "The patch must define only ~w, but it ~w; the session is unchanged",
                [PI, Intruder]),
        patch_refused(invalid_patch, Msg, PI, ReadDiags, Pairs)
    ;   functor(Head, Name, Arity),
        (   predicate_property(M:Head, dynamic),
            \+ predicate_property(M:Head, imported_from(_))
        ->  WasDynamic = true
        ;   WasDynamic = false
        ),
        abolish_quietly(M, Name/Arity),
        (   WasDynamic == true
        ->  dynamic(M:Name/Arity)
        ;   true
        ),
        % the request's check (if any) decides whether the patch is checked
        (   get_dict(check, Req, Check)
        ->  LoadReq = _{time_limit:TimeLimit, check:Check}
        ;   LoadReq = _{time_limit:TimeLimit}
        ),
        consult_text(M, Text, LoadReq, LoadPairs),
        memberchk(messages=LoadDiags, LoadPairs),
        Pairs = [replaced= @(true), predicate=PI, messages=LoadDiags]
    ).

patch_refused(Kind, Msg, PI, Diags, Pairs) :-
    Pairs = [ replaced= @(false), predicate=PI, messages=Diags,
              error=json([kind=Kind, message=Msg, prolog_term= @(null)]) ].

diagnostic_is_error(json(Pairs)) :-
    memberchk(severity=error, Pairs).

%!  read_patch(+Module, +Text, -Terms, -Diagnostics) is det.
%
%   Read every term of Text with Module's operators, without running
%   anything. Syntax errors and singletons become diagnostics with their
%   line in Text.
read_patch(M, Text, Terms, Diags) :-
    check_text_depth(Text),                     % harness_guard.pl
    retractall(collected(_)),
    setup_call_cleanup(
        open_string(Text, S),
        read_patch_terms(S, M, Terms),
        close(S)),
    findall(D, retract(collected(D)), Diags).

read_patch_terms(S, M, Terms) :-
    stream_property(S, position(Start)),
    catch(read_term(S, T, [ module(M), syntax_errors(error),
                            singletons(Singles), term_position(Pos) ]),
          E, true),
    (   var(E)
    ->  (   T == end_of_file
        ->  Terms = []
        ;   stream_position_data(line_count, Pos, Line),
            singleton_diagnostics(Singles, T, Line),
            Terms = [T|Rest],
            read_patch_terms(S, M, Rest)
        )
    ;   E = error(syntax_error(What), Where)
    ->  syntax_error_diagnostic(What, Where),
        skip_after_error(S, Start),
        read_patch_terms(S, M, Terms)
    ;   throw(E)
    ).

%   A syntax error met while reading a text term by term (nothing runs):
%   one diagnostic at its line and column.
syntax_error_diagnostic(What, Where) :-
    (   nonvar(Where),
        Where = stream(_, Line, LinePos, _)
    ->  Column is LinePos + 1
    ;   Line = 0, Column = 0
    ),
    message_text(error(syntax_error(What), _), Msg),
    add_diagnostic(error, syntax_error, Msg, Line, Column).

%   After a syntax error SWI-Prolog has consumed the bad clause, up to its
%   full stop; make sure we always move on.
skip_after_error(S, Start) :-
    stream_property(S, position(Now)),
    (   Now == Start
    ->  ( at_end_of_stream(S) -> true ; get_char(S, _) )
    ;   true
    ).

singleton_diagnostics(Singles, Term, Line) :-
    include([Name=_]>>(\+ sub_atom(Name, 0, _, _, '_')), Singles, Named),
    (   Named == []
    ->  true
    ;   Term = (:- _)
    ->  true
    ;   pairs_keys_eq(Named, Names),
        format(string(Msg), "Singleton variables: ~w", [Names]),
        add_diagnostic(warning, singleton, Msg, Line, 0)
    ).

pairs_keys_eq([], []).
pairs_keys_eq([K=_|T], [K|Ks]) :-
    pairs_keys_eq(T, Ks).

%!  patch_intruder(+M, +Name, +Arity, +Terms, -What) is semidet.
%
%   True when a term of the patch is something other than a clause of
%   Name/Arity or its dynamic/discontiguous declaration; What says what.
patch_intruder(M, Name, Arity, Terms, What) :-
    member(Term, Terms),
    patch_term_problem(M, Name, Arity, Term, What),
    !.

patch_term_problem(_, Name, Arity, (:- Directive), What) :-
    !,
    \+ ( patch_declaration(Directive, PIs),
          forall(member(PI, PIs), PI == Name/Arity) ),
    format(string(What), "contains the directive ~q", [(:- Directive)]).
patch_term_problem(M, Name, Arity, Term, What) :-
    catch(expand_term(Term, Expanded0), _, Expanded0 = Term),
    (   is_list(Expanded0) -> Expanded = Expanded0 ; Expanded = [Expanded0] ),
    member(C, Expanded),
    C \= (:- _),                % declarations that expansion adds (DCG)
    \+ clause_defines(M, C, Name, Arity),
    clause_head_pi(C, Other),
    format(string(What), "defines ~w", [Other]).

clause_defines(M, Clause, Name, Arity) :-
    clause_head_pi(Clause, PI),
    (   PI == Name/Arity
    ;   PI == M:Name/Arity
    ).

clause_head_pi(Clause, PI) :-
    (   Clause = (Head :- _) -> true ; Head = Clause ),
    (   var(Head)
    ->  PI = 'a variable head'
    ;   Head = Mod:H, callable(H)
    ->  functor(H, N, A), PI = Mod:N/A
    ;   callable(Head)
    ->  functor(Head, N, A), PI = N/A
    ;   PI = Head
    ).

patch_declaration(dynamic(Spec), PIs) :- pi_list(Spec, PIs).
patch_declaration(discontiguous(Spec), PIs) :- pi_list(Spec, PIs).

pi_list(Spec, _) :-
    var(Spec),
    !,
    fail.
pi_list((A, B), PIs) :-
    !,
    pi_list(A, P1),
    pi_list(B, P2),
    append(P1, P2, PIs).
pi_list(List, PIs) :-
    is_list(List),
    !,
    PIs = List.
pi_list(PI, [PI]).

                 /*******************************
                 *           MESSAGES           *
                 *******************************/

request(messages, Req, [messages=Messages]) :-
    existing_session(Req, M),
    option_value(Req, min_severity, "info", MinS),
    atom_string(Min, MinS),
    (   severity_rank(Min, MinRank)
    ->  true
    ;   domain_error(severity, MinS)
    ),
    findall(D,
            ( session_message(M, _, D),
              D = json(Pairs),
              memberchk(severity=S, Pairs),
              severity_rank(S, Rank),
              Rank >= MinRank ),
            Messages).

severity_rank(info, 0).
severity_rank(warning, 1).
severity_rank(error, 2).

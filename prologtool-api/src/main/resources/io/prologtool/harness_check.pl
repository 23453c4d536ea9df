:- encoding(utf8).
/*  Part of the prologtool harness (included by harness.pl, module
    prologtool_harness): the static check after a consult (issue 17).

    After a text is loaded (consult, replace_predicate), every call in
    the clauses of that text to a predicate the session cannot call
    becomes a warning diagnostic of kind undefined_predicate: with the
    caller (Name/Arity), the line of the calling clause, and up to three
    similar predicates of the session. A predicate the session can call
    is one that predicate_property(M:Head, visible) accepts: defined in
    the session (clauses, or declared dynamic, discontiguous, multifile
    or table), inherited through the session's base modules (the guards,
    the preloaded libraries, system) or imported, or autoloadable. That
    property looks autoloadable predicates up in the library index
    without loading them, which `defined` would do.

    Which calls: the goals of each clause body, through the control
    constructs and every meta-argument that the callee's own
    meta_predicate declaration names (call/N, findall/3, forall/2,
    aggregate_all/3, maplist/N, catch/3, setof/3's ^, phrase/2,3's //,
    ...), so call(foo) is a call of foo/0 while call(G) with G unbound
    in the clause is a goal built at run time, which the check does not
    guess. Meta-arguments are followed only into predicates that are
    already defined: asking an autoloadable predicate for its
    declaration would load its library. A call qualified with another
    module (lists:append/3) is that module's business and is not
    checked. Lambdas and maplist calls that goal expansion compiled
    into '__aux_...' helper predicates (library(yall), library(apply))
    are followed into the helpers, so that a finding names the user's
    clause, never the helper.

    Which text: only the clauses of the text just loaded are walked
    (O(size of that text)), so a session that grows by many consults
    does not pay again for what it checked before. A call to a predicate
    that a later text defines is reported once, with the text that
    makes it; a finding is remembered with the session's messages
    (list_messages) and forgotten at the next load once its callee can
    be called or its calling clause is gone (replaced or redefined), so
    the session's messages show what is still undefined.

    Directives are not walked: they ran while the text loaded, and an
    undefined call in one is already an existence_error diagnostic.
*/

:- dynamic
    check_finding/5.            % Module, MessageSeq, Callee PI, Caller PI, SourceId

%!  static_check_wanted(+M, +Req) is semidet.
%
%   The check runs for this load: the request's own `check` (true or
%   false) when it has one, else the session's option static_check,
%   which is on unless the session was opened with it false.
static_check_wanted(M, Req) :-
    (   get_dict(check, Req, Check), Check \== null
    ->  Check == true
    ;   session(M, Opts),
        \+ get_dict(static_check, Opts, false)
    ).

%!  static_check(+M, +Source, +Wanted, -Diagnostics) is det.
%
%   After Source was loaded into session M: forget the findings of
%   earlier loads that no longer hold, then (when Wanted is true) walk
%   the clauses of Source and return and remember one diagnostic per
%   calling clause and undefined callee. A fault in the check itself is
%   one warning of kind other: it must never cost the user the load.
static_check(M, Source, Wanted, Diags) :-
    (   catch(static_check_(M, Source, Wanted, Diags0), E, true)
    ->  (   var(E)
        ->  Diags = Diags0
        ;   control_exception(E)            % harness.pl: not ours to keep
        ->  throw(E)
        ;   error_message(E, Msg0),
            format(string(Msg), "The static check did not complete: ~w", [Msg0]),
            Diags = [json([severity=warning, kind=other, message=Msg])],
            remember_messages(M, Diags)
        )
    ;   Diags = []
    ).

static_check_(M, Source, Wanted, Diags) :-
    forget_stale_findings(M),
    (   Wanted == true
    ->  findall(Finding, source_finding(M, Source, Finding), Findings0),
        sort(Findings0, Findings),          % by line, then names
        % similar predicates once per callee: a program often calls one
        % missing predicate from many clauses
        findall(Callee, member(finding(_, _, Callee), Findings), Callees0),
        sort(Callees0, Callees),
        maplist(similar_to_callee(M), Callees, Similars),
        maplist(finding_diagnostic(M, Source, Similars), Findings, Diags)
    ;   Diags = []
    ).

%   forget_stale_findings(+M): a finding of an earlier load goes (with
%   its message) once its callee can be called, or once no clause of the
%   caller from that load is left.
forget_stale_findings(M) :-
    forall(( check_finding(M, Seq, Callee, Caller, Source),
             \+ finding_holds(M, Callee, Caller, Source) ),
           ( retractall(session_message(M, Seq, _)),
             retractall(check_finding(M, Seq, _, _, _)) )).

finding_holds(M, Name/Arity, CName/CArity, Source) :-
    \+ callable_predicate(M, Name, Arity),
    functor(Head, CName, CArity),
    catch(clause(M:Head, _, Ref), _, fail),
    clause_property(Ref, source(Source)),
    !.

%!  callable_predicate(+M, +Name, +Arity) is semidet.
%
%   Session M can call Name/Arity without an existence error (see the
%   head of this file).
callable_predicate(M, Name, Arity) :-
    functor(Head, Name, Arity),
    predicate_property(M:Head, visible),
    !.

%!  source_finding(+M, +Source, -Finding) is nondet.
%
%   Finding = finding(Line, Caller, Callee): a clause of a user
%   predicate of M loaded from Source, at Line, calls Callee, which M
%   cannot call. Each callee once per clause.
source_finding(M, Source, finding(Line, Caller, Callee)) :-
    user_predicate(M, Head),                    % harness_inspect.pl
    functor(Head, CName, CArity),
    \+ aux_predicate(CName),
    Caller = CName/CArity,
    catch(clause(M:Head, Body, Ref), _, fail),
    Body \== true,                      % a fact calls nothing: the cheap test first
    clause_property(Ref, source(Source)),
    findall(Callee, undefined_call(M, Body, [], Callee), Callees0),
    Callees0 \== [],                    % the usual case: no line to look up
    ( clause_property(Ref, line_count(Line)) -> true ; Line = 0 ),
    sort(Callees0, Callees),
    member(Callee, Callees).

%   '__aux_...' predicates are compiled from the user's lambdas and
%   maplist calls: their calls belong to the clause that uses them.
aux_predicate(Name) :-
    sub_atom(Name, 0, _, _, '__aux_').

%!  undefined_call(+M, +Goal, +Seen, -Callee) is nondet.
%
%   Goal, run in module M, calls Callee = Name/Arity, which M cannot
%   call. Seen: the aux helpers already entered (they may recurse).
undefined_call(_, Goal, _, _) :-
    var(Goal),
    !,
    fail.                               % built at run time: not guessed
undefined_call(M, Q:Goal, Seen, Callee) :-
    !,
    Q == M,                             % another module's: not checked
    undefined_call(M, Goal, Seen, Callee).
undefined_call(M, Goal, Seen, Callee) :-
    callable(Goal),
    functor(Goal, Name, Arity),
    predicate_class(M, Name, Arity, Class),
    (   Class == undefined
    ->  Callee = Name/Arity
    ;   Class == aux
    ->  \+ memberchk(Name/Arity, Seen),
        functor(Head, Name, Arity),
        catch(clause(M:Head, Body), _, fail),
        undefined_call(M, Body, [Name/Arity|Seen], Callee)
    ;   Class = meta(Spec)
    ->  meta_goal(Spec, Goal, Meta),
        undefined_call(M, Meta, Seen, Callee)
    ).

%!  predicate_class(+M, +Name, +Arity, -Class) is det.
%
%   What a call of Name/Arity in M is, for the walk: `undefined`, `aux`
%   (a helper to walk into), meta(Spec) (defined, with meta-arguments),
%   or `plain` (defined or autoloadable: nothing to follow). Asked
%   afresh at every call (1-2 us each): a memo of the classes, asserted
%   as thread-local clauses and retracted after the check, cost more
%   than the calls it spared (a PARARULE-Plus program makes 25 calls of
%   17 predicates; its check took about 100 us with the memo and 85
%   without), and an assoc in a global variable, copied at every
%   insertion, more still (about 140 us).
predicate_class(M, Name, Arity, Class) :-
    (   current_predicate(M:Name/Arity)
    ->  functor(Head, Name, Arity),
        (   aux_predicate(Name)
        ->  Class = aux
        ;   predicate_property(M:Head, meta_predicate(Spec))
        ->  Class = meta(Spec)
        ;   Class = plain
        )
    ;   callable_predicate(M, Name, Arity)
    ->  Class = plain                   % autoloadable
    ;   Class = undefined
    ).

%!  meta_goal(+Spec, +Goal, -Called) is nondet.
%
%   Called is a goal that Goal (a call of a predicate defined for M)
%   calls through one of its meta-arguments, as its meta_predicate
%   declaration says: an argument of spec N (0-9) is called with N more
%   arguments, one of spec ^ is a goal under V^..., one of spec // a
%   DCG body.
meta_goal(Spec, Goal, Called) :-
    arg(I, Spec, ArgSpec),
    arg(I, Goal, Arg),
    nonvar(Arg),
    meta_arg_goal(ArgSpec, Arg, Called).

meta_arg_goal(N, Arg, Called) :-
    integer(N),
    extend_goal(Arg, N, Called).
meta_arg_goal(^, Arg, Called) :-
    strip_existential(Arg, Called).
meta_arg_goal(//, Arg, Called) :-
    dcg_body_goal(Arg, Called).

strip_existential(Goal, Goal) :-
    var(Goal),
    !.
strip_existential(_^Goal0, Goal) :-
    !,
    strip_existential(Goal0, Goal).
strip_existential(Goal, Goal).

%!  extend_goal(+Goal0, +N, -Goal) is semidet.
%
%   Goal0 with N more (fresh) arguments, as call/N would call it.
extend_goal(Goal, 0, Goal) :-
    !.
extend_goal(Q:Goal0, N, Q:Goal) :-
    !,
    nonvar(Goal0),
    extend_goal(Goal0, N, Goal).
extend_goal(Goal0, N, Goal) :-
    callable(Goal0),
    compound_name_arguments_(Goal0, Name, Args0),
    length(Extra, N),
    append(Args0, Extra, Args),
    compound_name_arguments(Goal, Name, Args).

compound_name_arguments_(Goal, Name, Args) :-
    (   atom(Goal)
    ->  Name = Goal, Args = []
    ;   compound_name_arguments(Goal, Name, Args)
    ).

%!  dcg_body_goal(+Body, -Goal) is nondet.
%
%   Goal is called by the DCG body Body (phrase/2,3): a non-terminal
%   with its two list arguments, or a goal in {}/1.
dcg_body_goal(Body, _) :-
    var(Body),
    !,
    fail.
dcg_body_goal(Q:Body, Q:Goal) :-
    !,
    dcg_body_goal(Body, Goal).
dcg_body_goal(List, _) :-
    (   List == []
    ;   List = [_|_]
    ;   string(List)
    ),
    !,
    fail.
dcg_body_goal({}(Goal), Goal) :-
    !.
dcg_body_goal(!, _) :-
    !,
    fail.
dcg_body_goal(Body, Goal) :-
    dcg_control(Body, Parts),
    !,
    member(Part, Parts),
    dcg_body_goal(Part, Goal).
dcg_body_goal(call(G0), Goal) :-         % call//N: the goal gets the two lists
    !,
    extend_goal(G0, 2, Goal).
dcg_body_goal(Body, Goal) :-
    Body =.. [call, G0|Args],
    !,
    length(Args, N0),
    N is N0 + 2,
    extend_goal(G0, N, Goal).
dcg_body_goal(NonTerminal, Goal) :-
    extend_goal(NonTerminal, 2, Goal).

dcg_control((A, B), [A, B]).
dcg_control((A ; B), [A, B]).
dcg_control((A | B), [A, B]).
dcg_control((A -> B), [A, B]).
dcg_control(\+ A, [A]).

%   similar_to_callee(+M, +Callee, -Pair): Callee-Similar, up to three
%   predicates of M that resemble Callee (same name or a close one).
similar_to_callee(M, Name/Arity, (Name/Arity)-Similar) :-
    similar_predicates(M, Name, Arity, Similar0),       % harness.pl
    include(resembles(Name), Similar0, Similar1),
    first_n(3, Similar1, Similar).

%!  finding_diagnostic(+M, +Source, +Similars, +Finding, -Diagnostic) is det.
%
%   The warning for one finding, remembered with the session's messages
%   (and as a finding, so that a later load can take it back).
finding_diagnostic(M, Source, Similars, finding(Line, Caller, Callee), Diag) :-
    memberchk(Callee-Similar, Similars),
    format(string(CalleeText), "~q", [Callee]),
    format(string(CallerText), "~q", [Caller]),
    (   Line > 0
    ->  format(string(Where), " (line ~d)", [Line])
    ;   Where = ""
    ),
    (   Similar == []
    ->  SimilarText = ""
    ;   atomic_list_concat(Similar, ', ', Joined),
        format(string(SimilarText), "; similar: ~w", [Joined])
    ),
    format(string(Msg), "Undefined procedure ~w called from ~w~w~w",
           [CalleeText, CallerText, Where, SimilarText]),
    (   Line > 0 -> LinePair = [line=Line] ; LinePair = [] ),
    append([ [severity=warning, kind=undefined_predicate, message=Msg],
             LinePair,
             [caller=CallerText, callee=CalleeText, similar=Similar] ],
           Pairs),
    Diag = json(Pairs),
    flag(prologtool_messages, Seq, Seq+1),
    assertz(session_message(M, Seq, Diag)),
    assertz(check_finding(M, Seq, Callee, Caller, Source)).

%   resembles(+Name, +CandidateText): similar_predicates/4 takes any name
%   within one edit of a short name (for q/1: p/1, s/2, ...); a warning
%   names a candidate only when it is the same name, or keeps part of it
%   (fewer edits than the longer of the two names has characters).
resembles(Name, Text) :-
    sub_atom(Text, Before, 1, After, /),
    sub_atom(Text, _, After, 0, ArityText),
    atom_number(ArityText, _),
    !,
    sub_atom(Text, 0, Before, _, Other),
    (   Other == Name
    ->  true
    ;   name_distance(Name, Other, D),                  % harness.pl
        atom_length(Name, L1),
        atom_length(Other, L2),
        D < max(L1, L2)
    ).

first_n(N, List, Prefix) :-
    length(List, Len),
    (   Len =< N
    ->  Prefix = List
    ;   length(Prefix, N),
        append(Prefix, _, List)
    ).

%   forget_session_findings(+M): when the session closes.
forget_session_findings(M) :-
    retractall(check_finding(M, _, _, _, _)).

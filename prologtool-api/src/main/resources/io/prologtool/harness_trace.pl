:- encoding(utf8).
/*  Part of the prologtool harness (included by harness.pl, module
    prologtool_harness): trace: proof trees from a meta-interpreter.

    Request:
      {"op":"trace", "session":Id, "goal":Text, "max_depth":Int,
       "max_nodes":Int, "time_limit":Seconds, "stack_limit":Bytes,
       "max_output":Chars}
    Reply pairs (after ok:true):
      outcome    success | failure | timeout | error
      tree       {goal, rule, line, kind, children} or null when the goal
                 text could not be read
      node_count number of nodes in tree
      truncated  true when max_depth or max_nodes cut the tree
      error      {kind, message, prolog_term} when outcome is error
      output     what the goal printed (captured, capped)

    A node's goal is quoted Prolog text as the proof left it; rule is the
    clause that proved it (portray_clause style, on one line) or "" when
    no clause did; line is the clause's line in the consulted text (0
    when unknown). Kinds:
      clause     a user predicate proved by the clause in rule
      builtin    a built-in or library predicate, run as one step
      tabled     a tabled user predicate, run as one step
      negation   \+ G that succeeded; children: the failed attempt at G
      truncated  the depth bound stopped the expansion here: the goal was
                 still solved, but its subtree is not shown
      query      a synthetic root over the parts of a compound query
      failure    a goal (or clause attempt) that failed
      error, timeout
                 a goal that was running when the exception or the time
                 limit stopped the search

    How it works. tr_solve/9 is a meta-interpreter for the session's
    clauses. It builds the proof tree of the current branch as a logical
    term (undone on backtracking, so the tree of the answer is exactly the
    proof of that answer) and, at the same time, keeps a chronological
    log of attempts in thread-local facts that backtracking does not
    undo. The log explains failures: the tree of a failing query, the
    children of a negation node, and the partial tree when the search
    ends in an error or a time-out. Cut is implemented with a choice
    point barrier (prolog_current_choice/1, prolog_cut_to/1), so traced
    goals have the same answers, in the same order, as untraced ones.
*/

:- thread_local
    tr_log/5,                   % Id, ParentId, Type, ClauseRef, Depth
    tr_incomplete/1,            % Id: some of its children were not logged
    tr_kind_cache/4.            % Module, Name, Arity, user | tabled | builtin

%   Longest goal or rule text in a tree node; longer text is cut and ends
%   in " ...".
tr_max_text(2000).

%   Deepest tree the harness builds, whatever max_depth says: deeper
%   goals are still solved, untraced (and the tree is truncated). It
%   keeps the JSON nesting of the reply (two levels per tree level)
%   within what common JSON readers accept (Python's json module stops
%   near 1000), and the recursion of every reader of the tree modest.
tr_depth_cap(200).

                 /*******************************
                 *            REQUEST           *
                 *******************************/

request(trace, Req, Pairs) :-
    existing_session(Req, M),
    must_have(goal, Req, Text),
    option_value(Req, max_depth, 10, MaxDepth),
    option_value(Req, max_nodes, 200, MaxNodes),
    option_value(Req, time_limit, 30, TimeLimit),
    option_value(Req, max_output, 65536, MaxOut),
    must_be(positive_integer, MaxDepth),
    must_be(positive_integer, MaxNodes),
    must_be_time_limit(TimeLimit),
    (   catch(parse_goal(M, Text, Goal, Bindings), E, true)
    ->  true
    ;   E = error(syntax_error(cannot_read), _)
    ),
    (   var(E)
    ->  apply_stack_limit(Req),
        trace_goal(M, Goal, Bindings,
                   limits(MaxDepth, MaxNodes, TimeLimit, MaxOut), Pairs)
    ;   error_json(E, M, ErrorPairs),
        Pairs = [ outcome=error, tree= @(null), node_count=0,
                  truncated= @(false), error=json(ErrorPairs), output="" ]
    ).

%!  trace_goal(+Module, +Goal, +Bindings, +Limits, -ReplyPairs) is det.
%
%   Trace Goal (read in Module, Bindings its named variables) under
%   Limits = limits(MaxDepth, MaxNodes, TimeLimit, MaxOutput).

trace_goal(M, Goal, Bindings, limits(MaxDepth0, MaxNodes, TimeLimit, MaxOut),
           Pairs) :-
    tr_context(M, MaxDepth0, MaxNodes, Bindings, Ctx),
    setup_call_cleanup(
        tr_clear,
        ( with_captured_output(
              % limit_time/2 (harness_limits.pl): the harness's own limit,
              % which user catch/3 inside the traced goal cannot swallow
              catch(limit_time(TimeLimit, tr_top(Goal, Ctx, Result)),
                    E, true),
              MaxOut, Output, _OutputCut),
          tr_reply(E, Result, M, Goal, Bindings, Ctx, Pairs0)
        ),
        tr_clear),
    (   nb_current('$pt_halt_attempted', true),
        \+ memberchk(outcome=error, Pairs0)
    ->  refused_halt_error(HaltError),
        error_json(HaltError, M, HaltPairs),
        selectchk(outcome=_, Pairs0, Pairs1),
        Pairs2 = [outcome=error, error=json(HaltPairs)|Pairs1]
    ;   Pairs2 = Pairs0
    ),
    append(Pairs2, [output=Output], Pairs).

%!  trace_solutions(+Module, +Goal, +Bindings, +Limits, +Count, -Trees,
%!                  -Status) is det.
%
%   The proof trees of the first Count solutions of Goal, in solution
%   order, each json([outcome=success, tree, node_count, truncated]):
%   what execute's proof_trace lists, one tree per returned answer.
%   Limits as for trace_goal/5; MaxNodes bounds each tree. Status is
%   complete, or fewer(Found), timeout or error(E) when the traced run
%   did not reproduce Count solutions (Trees then holds those it did).
%   Output printed by the traced run is discarded.

trace_solutions(M, Goal, Bindings, limits(MaxDepth0, MaxNodes, TimeLimit, MaxOut),
                Count, Trees, Status) :-
    tr_context(M, MaxDepth0, MaxNodes, Bindings, Ctx),
    (   tr_compound_query(Goal)
    ->  Synthetic = true, D0 = 2, N0 = 1
    ;   Synthetic = false, D0 = 1, N0 = 0
    ),
    Found = found([]),
    setup_call_cleanup(
        tr_clear,
        with_captured_output(
            catch(limit_time(TimeLimit,
                             tr_collect(Goal, Ctx, D0, N0, Synthetic, Bindings,
                                        Count, Found)),
                  E, true),
            MaxOut, _Output, _OutputCut),
        tr_clear),
    arg(1, Found, Reversed),
    reverse(Reversed, Trees),
    length(Trees, Got),
    (   var(E), Got =:= Count
    ->  Status = complete
    ;   var(E)
    ->  Status = fewer(Got)
    ;   E == time_limit_exceeded
    ->  Status = timeout
    ;   Status = error(E)
    ).

%   Each solution's tree is built while its bindings stand and kept with
%   nb_setarg/3, so that backtracking into the next solution keeps it.
tr_collect(Goal, Ctx, D0, N0, Synthetic, Bindings, Count, Found) :-
    arg(1, Ctx, M),
    arg(3, Ctx, MaxNodes),
    State = count(0),
    (   prolog_current_choice(Cut),
        tr_solve(Goal, D0, Cut, 0, Ctx, Nodes, [], N0, _),
        tr_safely(tr_success_tree(M, Nodes, Synthetic, Goal, Bindings,
                                  MaxNodes, Tree, NodeCount, Truncated),
                  Tree, NodeCount, Truncated),
        arg(1, Found, Trees0),
        nb_setarg(1, Found, [json([outcome=success, tree=Tree,
                                   node_count=NodeCount,
                                   truncated= @(Truncated)])|Trees0]),
        arg(1, State, K0),
        K is K0 + 1,
        nb_setarg(1, State, K),
        K >= Count
    ->  true
    ;   true
    ).

%   tr_context(+Module, +MaxDepth, +MaxNodes, +Bindings, -Ctx)
%
%   Ctx = ctx(Module, MaxDepth, MaxNodes, LogMax, NextLogId, Bindings,
%   Goals, Status): NextLogId, and the arguments of Goals and Status (one
%   per log id: the goal as at its last exit, and exit or failed; unbound
%   while running), are set with nb_setarg/3 and survive backtracking;
%   Bindings name the query's variables in logged goals.
tr_context(M, MaxDepth0, MaxNodes, Bindings, Ctx) :-
    tr_depth_cap(DepthCap),
    MaxDepth is min(MaxDepth0, DepthCap),
    LogMax is min(100000, max(MaxNodes, min(MaxNodes * 10, 10000))),
    functor(Goals, goals, LogMax),
    functor(Status, status, LogMax),
    Ctx = ctx(M, MaxDepth, MaxNodes, LogMax, 1, Bindings, Goals, Status).

tr_clear :-
    retractall(tr_log(_, _, _, _, _)),
    retractall(tr_incomplete(_)),
    retractall(tr_kind_cache(_, _, _, _)).

%   tr_top(+Goal, +Ctx, -Result): Result is success(Nodes, Synthetic) or
%   failure(Synthetic). A compound query (a conjunction, disjunction or
%   if-then-else) gets a synthetic root, so its parts start at depth 2.

tr_top(Goal, Ctx, Result) :-
    (   tr_compound_query(Goal)
    ->  Synthetic = true, D0 = 2, N0 = 1
    ;   Synthetic = false, D0 = 1, N0 = 0
    ),
    (   prolog_current_choice(Cut),
        tr_solve(Goal, D0, Cut, 0, Ctx, Nodes, [], N0, _)
    ->  Result = success(Nodes, Synthetic)
    ;   Result = failure(Synthetic)
    ).

tr_compound_query((_,_)).
tr_compound_query((_;_)).
tr_compound_query((_->_)).
tr_compound_query((_*->_)).

                 /*******************************
                 *             REPLY            *
                 *******************************/

tr_reply(E, Result, M, Goal, Bindings, Ctx, Pairs) :-
    arg(3, Ctx, MaxNodes),
    (   var(E), Result = success(Nodes, Synthetic)
    ->  Outcome = success,
        tr_safely(tr_success_tree(M, Nodes, Synthetic, Goal, Bindings,
                                  MaxNodes, Tree, Count, Truncated),
                  Tree, Count, Truncated),
        ErrorPairs = []
    ;   (   var(E)
        ->  Outcome = failure, Pending = failure, ErrorPairs = []
        ;   E == time_limit_exceeded
        ->  Outcome = timeout, Pending = timeout, ErrorPairs = []
        ;   Outcome = error, Pending = error,
            error_json(E, M, EPairs),
            ErrorPairs = [error=json(EPairs)]
        ),
        (   tr_compound_query(Goal) -> Synthetic = true ; Synthetic = false ),
        tr_safely(tr_attempt_tree(Ctx, Synthetic, Pending, Goal, Bindings,
                                  MaxNodes, Tree, Count, Truncated),
                  Tree, Count, Truncated)
    ),
    append([ outcome=Outcome, tree=Tree, node_count=Count,
             truncated= @(Truncated) ],
           ErrorPairs, Pairs).

%   Building the tree must not lose the outcome: if it fails or raises
%   (a resource error, say), the reply has no tree.
:- meta_predicate tr_safely(0, -, -, -).
tr_safely(Build, Tree, Count, Truncated) :-
    (   session_catch(Build, _, fail)
    ->  true
    ;   Tree = @(null), Count = 0, Truncated = true
    ).

%   The tree of an answer: the logical tree that tr_solve/9 built, its
%   goals as the proof left them. Query variables that stayed free keep
%   their names; other free variables are _G1, _G2, ...

tr_success_tree(M, Nodes0, Synthetic, Goal, Bindings, MaxNodes,
                Tree, Count, Truncated) :-
    copy_term_nat(Goal-Bindings-Nodes0, GoalC-BindingsC-Nodes),
    tr_name_variables(BindingsC, GoalC-Nodes),
    (   Synthetic == false,
        Nodes = [Node],
        Node \== omitted
    ->  Root = Node
    ;   Root = n(GoalC, none, query, Nodes)
    ),
    tr_node_json(M, Root, MaxNodes, _, Tree, Count, false, Truncated).

tr_name_variables(Bindings, Term) :-
    maplist(tr_name_query_var, Bindings),
    term_variables(Term, Free),
    tr_number_vars(Free, 1).

tr_name_query_var(Name-Var) :-
    (   var(Var)
    ->  Var = '$VAR'(Name)
    ;   true
    ).

tr_number_vars([], _).
tr_number_vars([V|Vs], N) :-
    format(atom(Name), '_G~d', [N]),
    V = '$VAR'(Name),
    N1 is N + 1,
    tr_number_vars(Vs, N1).

%   tr_node_json(+Module, +Node, +Budget0, -Budget, -Json, -Count, +Trunc0, -Trunc)
%
%   Json of a logical node: n(Goal, ClauseRefOrNone, Kind, Children) or
%   tr_done(Json, Count, Truncated), a node already converted from the
%   log (under a negation); `omitted` children are dropped and make the
%   tree truncated. Budget is a last guard on the node count.

tr_node_json(M, n(Goal, Ref, Kind, Children), B0, B, Json, Count, T0, T) :-
    B1 is B0 - 1,
    tr_goal_text(M, Goal, GoalText),
    tr_rule(M, Ref, Rule, Line),
    ( Kind == truncated -> T1 = true ; T1 = T0 ),
    tr_children_json(M, Children, B1, B, ChildJsons, 0, CCount, T1, T),
    Count is CCount + 1,
    Json = json([goal=GoalText, rule=Rule, line=Line, kind=Kind,
                 children=ChildJsons]).
tr_node_json(_, tr_done(Json, Count, Trunc), B0, B, Json, Count, T0, T) :-
    B is B0 - Count,
    ( Trunc == true -> T = true ; T = T0 ).

tr_children_json(_, [], B, B, [], C, C, T, T).
tr_children_json(M, [omitted|Ns], B0, B, Js, C0, C, _, T) :-
    !,
    tr_children_json(M, Ns, B0, B, Js, C0, C, true, T).
tr_children_json(M, [N|Ns], B0, B, Js, C0, C, T0, T) :-
    (   B0 =< 0
    ->  B = B0, Js = [], C = C0, T = true
    ;   tr_node_json(M, N, B0, B1, J, NC, T0, T1),
        Js = [J|Js1],
        C1 is C0 + NC,
        tr_children_json(M, Ns, B1, B, Js1, C1, C, T1, T)
    ).

%   The tree of a failed (or stopped) search, from the log. One top
%   attempt is the root itself; several get a synthetic root.

tr_attempt_tree(Ctx, Synthetic, Pending, Goal, Bindings, MaxNodes,
                Tree, Count, Truncated) :-
    findall(Id, tr_log(Id, 0, _, _, _), TopIds),
    (   tr_incomplete(0) -> T0 = true ; T0 = false ),
    (   Synthetic == false,
        TopIds = [Id]
    ->  tr_log_json(Ctx, Id, Pending, MaxNodes, _, Tree, Count, T0, Truncated)
    ;   B0 is MaxNodes - 1,
        tr_log_children_json(Ctx, TopIds, Pending, B0, _, Children,
                             0, CCount, T0, Truncated),
        Count is CCount + 1,
        copy_term_nat(Goal-Bindings, GoalC-BindingsC),
        tr_name_variables(BindingsC, GoalC),
        arg(1, Ctx, M),
        tr_goal_text(M, GoalC, GoalText),
        Tree = json([goal=GoalText, rule="", line=0, kind=Pending,
                     children=Children])
    ).

%   tr_log_json(+Ctx, +Id, +Pending, +Budget0, -Budget, -Json, -Count,
%               +Truncated0, -Truncated)
%
%   Json of logged node Id and (budget permitting) its children, in the
%   order they were tried. Pending is the kind of a node that neither
%   exited nor failed (failure, error or timeout).

tr_log_json(Ctx, Id, Pending, B0, B, Json, Count, T0, T) :-
    tr_log(Id, _, Type, Ref, _),
    B1 is B0 - 1,
    Ctx = ctx(M, _, _, _, _, _, Goals, Statuses),
    arg(Id, Statuses, Status0),
    (   var(Status0) -> Status = pending ; Status = Status0 ),
    tr_log_kind(Status, Type, Pending, Kind),
    arg(Id, Goals, Goal0),
    (   nonvar(Goal0)
    ->  copy_term(Goal0, Goal),
        tr_name_variables([], Goal),
        tr_goal_text(M, Goal, GoalText)
    ;   GoalText = ""
    ),
    tr_rule(M, Ref, Rule, Line),
    (   ( Type == truncated ; tr_incomplete(Id) )
    ->  T1 = true
    ;   T1 = T0
    ),
    findall(Child, tr_log(Child, Id, _, _, _), ChildIds),
    tr_log_children_json(Ctx, ChildIds, Pending, B1, B, Children,
                         0, CCount, T1, T),
    Count is CCount + 1,
    Json = json([goal=GoalText, rule=Rule, line=Line, kind=Kind,
                 children=Children]).

tr_log_children_json(_, [], _, B, B, [], N, N, T, T).
tr_log_children_json(Ctx, [Id|Ids], Pending, B0, B, Js, N0, N, T0, T) :-
    (   B0 =< 0
    ->  B = B0, Js = [], N = N0, T = true
    ;   tr_log_json(Ctx, Id, Pending, B0, B1, J, NJ, T0, T1),
        Js = [J|Js1],
        N1 is N0 + NJ,
        tr_log_children_json(Ctx, Ids, Pending, B1, B, Js1, N1, N, T1, T)
    ).

tr_log_kind(exit, Type, _, Kind) :-
    !,
    ( Type == nomatch -> Kind = failure ; Kind = Type ).
tr_log_kind(failed, _, _, failure) :- !.
tr_log_kind(pending, _, Pending, Pending).

%   The children of a negation node: the log of the failed attempt,
%   converted now (the logical tree keeps it as tr_done(Json, Count,
%   Truncated)), within the node budget that is left.

tr_negation_children(Ctx, Id, Budget, Children, Count) :-
    findall(Child, tr_log(Child, Id, _, _, _), ChildIds),
    (   tr_incomplete(Id) -> T0 = true ; T0 = false ),
    tr_log_children_json(Ctx, ChildIds, failure, Budget, _, Jsons, 0, Count,
                         T0, Truncated),
    tr_wrap_done(Jsons, Truncated, Children).

%   Each converted child becomes a tr_done/3 node; a cut is recorded by
%   an `omitted` marker.
tr_wrap_done(Jsons, Truncated, Children) :-
    maplist(tr_done_node, Jsons, Done),
    (   Truncated == true
    ->  append(Done, [omitted], Children)
    ;   Children = Done
    ).

tr_done_node(Json, tr_done(Json, Count, false)) :-
    tr_json_count(Json, Count).

tr_json_count(json(Pairs), Count) :-
    memberchk(children=Cs, Pairs),
    foldl(tr_add_count, Cs, 1, Count).

tr_add_count(Json, C0, C) :-
    tr_json_count(Json, N),
    C is C0 + N.

                 /*******************************
                 *         TEXT OF NODES        *
                 *******************************/

%   Text is written with the session's operators (module(M)), so that
%   e.g. CLP(FD) constraints read as X#=Y+1.
tr_goal_text(M, Goal, Text) :-
    tr_write_options(M, Options),
    catch(format(string(Text0), "~W", [Goal, Options]),
          _, Text0 = "<unprintable>"),
    tr_cap_text(Text0, Text).

tr_write_options(M, [ quoted(true), numbervars(true), portray(false),
                      spacing(next_argument), module(M), max_depth(Limit) ]) :-
    term_depth_limit(Limit).            % harness_guard.pl

tr_cap_text(Text0, Text) :-
    tr_max_text(Max),
    (   string_length(Text0, Len), Len > Max
    ->  sub_string(Text0, 0, Max, _, Head),
        string_concat(Head, " ...", Text)
    ;   Text = Text0
    ).

%   tr_rule(+Module, +ClauseRefOrNone, -Text, -Line): the clause as one
%   line, "head." for a fact or "head :- goal, goal." for a rule, with
%   its variables named A, B, ... and singletons written _. Constraints
%   that library(clpfd) compiled inline are shown as written (X#=Y).


tr_rule(M, Ref, Text, Line) :-
    blob(Ref, clause),
    catch(clause(Head, Body1, Ref), _, fail),
    !,
    (   clause_property(Ref, line_count(L)) -> Line = L ; Line = 0 ),
    tr_unqualified(Head, H),
    tr_fold_body(Body1, Body),
    term_singletons(H-Body, Singles),
    maplist(=('$VAR'('_')), Singles),
    numbervars(H-Body, 0, _),
    tr_write_options(M, Options0),
    Options = [priority(999)|Options0],
    format(string(HeadText), "~W", [H, Options]),
    (   Body == true
    ->  format(string(Text0), "~s.", [HeadText])
    ;   tr_conjuncts(Body, Goals),
        maplist(tr_write_goal(Options), Goals, Texts),
        atomic_list_concat(Texts, ', ', BodyText),
        format(string(Text0), "~s :- ~w.", [HeadText, BodyText])
    ),
    tr_cap_text(Text0, Text).
tr_rule(_, _, "", 0).

tr_write_goal(Options, Goal, Text) :-
    format(string(Text), "~W", [Goal, Options]).

tr_unqualified(_:H, H) :- !.
tr_unqualified(H, H).

tr_conjuncts(G, [G]) :-
    var(G),
    !.
tr_conjuncts((A,B), Goals) :-
    !,
    tr_conjuncts(A, GA),
    tr_conjuncts(B, GB),
    append(GA, GB, Goals).
tr_conjuncts(G, [G]).

                 /*******************************
                 *       META-INTERPRETER       *
                 *******************************/

%!  tr_solve(:Goal, +Depth, +Cut, +LogParent, +Ctx,
%!           -Nodes, ?Tail, +N0, -N) is nondet.
%
%   Prove Goal (in the session module) as call/1 would, with the same
%   answers in the same order. Nodes-Tail is the list of proof nodes of
%   Goal at tree depth Depth (control constructs add no node of their
%   own); N0-N counts the nodes of the current branch's tree. Cut is
%   the choice point a `!` in Goal cuts to. LogParent is the log id of
%   the enclosing attempt (0: the query; none: not logged).
%
%   Every clause commits (!) before it takes any choice point, so no
%   choice point of tr_solve/9 itself survives into the proof: a cut
%   in the user's clause cuts exactly the user's alternatives.

tr_solve(G, D, _, LP, C, Ns, T, N0, N) :-
    var(G),
    !,
    tr_leaf(G, G, builtin, D, LP, C, Ns, T, N0, N).
tr_solve(G, D, _, LP, C, Ns, T, N0, N) :-
    tr_clpfd_folded(G, Shown),
    !,
    tr_leaf(G, Shown, builtin, D, LP, C, Ns, T, N0, N).
tr_solve(true, _, _, _, _, Ns, T, N0, N) :-
    !,
    Ns = T, N = N0.
tr_solve((A,B), D, Cut, LP, C, Ns, T, N0, N) :-
    !,
    tr_solve(A, D, Cut, LP, C, Ns, T1, N0, N1),
    tr_solve(B, D, Cut, LP, C, T1, T, N1, N).
tr_solve(!, D, Cut, LP, C, Ns, T, N0, N) :-
    !,
    tr_leaf(!, !, builtin, D, LP, C, Ns, T, N0, N),
    prolog_cut_to(Cut).
tr_solve((If->Then;Else), D, Cut, LP, C, Ns, T, N0, N) :-
    !,
    (   prolog_current_choice(Local),
        tr_solve(If, D, Local, LP, C, Ns, T1, N0, N1)
    ->  tr_solve(Then, D, Cut, LP, C, T1, T, N1, N)
    ;   tr_solve(Else, D, Cut, LP, C, Ns, T, N0, N)
    ).
tr_solve((If*->Then;Else), D, Cut, LP, C, Ns, T, N0, N) :-
    !,
    (   prolog_current_choice(Local),
        tr_solve(If, D, Local, LP, C, Ns, T1, N0, N1)
    *-> tr_solve(Then, D, Cut, LP, C, T1, T, N1, N)
    ;   tr_solve(Else, D, Cut, LP, C, Ns, T, N0, N)
    ).
tr_solve((A;B), D, Cut, LP, C, Ns, T, N0, N) :-
    !,
    (   tr_solve(A, D, Cut, LP, C, Ns, T, N0, N)
    ;   tr_solve(B, D, Cut, LP, C, Ns, T, N0, N)
    ).
tr_solve((If->Then), D, Cut, LP, C, Ns, T, N0, N) :-
    !,
    (   prolog_current_choice(Local),
        tr_solve(If, D, Local, LP, C, Ns, T1, N0, N1)
    ->  tr_solve(Then, D, Cut, LP, C, T1, T, N1, N)
    ).
tr_solve((If*->Then), D, Cut, LP, C, Ns, T, N0, N) :-
    !,
    (   prolog_current_choice(Local),
        tr_solve(If, D, Local, LP, C, Ns, T1, N0, N1)
    *-> tr_solve(Then, D, Cut, LP, C, T1, T, N1, N)
    ).
tr_solve(\+ G, D, _, LP, C, Ns, T, N0, N) :-
    !,
    tr_negation(G, D, LP, C, Ns, T, N0, N).
tr_solve(not(G), D, _, LP, C, Ns, T, N0, N) :-
    !,
    tr_negation(G, D, LP, C, Ns, T, N0, N).
tr_solve(Q:G, D, Cut, LP, C, Ns, T, N0, N) :-
    !,
    (   arg(1, C, M),
        Q == M
    ->  tr_solve(G, D, Cut, LP, C, Ns, T, N0, N)
    ;   tr_leaf(Q:G, Q:G, builtin, D, LP, C, Ns, T, N0, N)
    ).
tr_solve(G, D, _, LP, C, Ns, T, N0, N) :-
    compound(G),
    compound_name_arguments(G, call, [G0|Extra]),
    !,
    (   tr_add_args(G0, Extra, G1)
    ->  prolog_current_choice(Local),
        tr_solve(G1, D, Local, LP, C, Ns, T, N0, N)
    ;   tr_leaf(G, G, builtin, D, LP, C, Ns, T, N0, N)
    ).
tr_solve(once(G), D, _, LP, C, Ns, T, N0, N) :-
    !,
    (   prolog_current_choice(Local),
        tr_solve(G, D, Local, LP, C, Ns, T, N0, N)
    ->  true
    ).
tr_solve(ignore(G), D, _, LP, C, Ns, T, N0, N) :-
    !,
    (   prolog_current_choice(Local),
        tr_solve(G, D, Local, LP, C, Ns, T, N0, N)
    ->  true
    ;   Ns = T, N = N0
    ).
tr_solve(catch(G, Catcher, Recovery), D, _, LP, C, Ns, T, N0, N) :-
    !,
    catch(( prolog_current_choice(Local),
            tr_solve(G, D, Local, LP, C, Ns, T, N0, N)
          ),
          Ball,
          tr_recover(Ball, Catcher, Recovery, D, LP, C, Ns, T, N0, N)).
tr_solve(G, D, _, LP, C, Ns, T, N0, N) :-
    arg(1, C, M),
    tr_predicate_kind(M, G, Kind),
    (   Kind == user
    ->  tr_user(G, D, LP, C, Ns, T, N0, N)
    ;   tr_leaf(G, G, Kind, D, LP, C, Ns, T, N0, N)
    ).

%   library(clpfd) compiles X #= Y, X #>= Y (also #=<, #>, #<) and
%   X in L..U inline, into an if-then-else that ends in a call of
%   clpfd:clpfd_equal/2, clpfd_geq/2 or clpfd_in/2. Such code is one
%   step of the proof, shown as the constraint it came from.
tr_clpfd_folded(G, Shown) :-
    compound(G),
    (   G = (_->_;_)
    ->  tr_last_else(G, Last),
        \+ tr_has_cut(G)
    ;   Last = G
    ),
    tr_clpfd_call(Last, Shown).

%   The last branch is clpfd:Call, or T = E (or T is E) followed by
%   clpfd:Call when the expansion evaluated one side first.
tr_clpfd_call(Last, Shown) :-
    nonvar(Last),
    (   Last = clpfd:Call
    ->  nonvar(Call),
        tr_clpfd_shown(Call, Shown)
    ;   Last = (Pre, clpfd:Call),
        nonvar(Pre), nonvar(Call),
        ( Pre = (T = E) ; Pre = (T is E) ),
        var(T),
        tr_clpfd_shown(Call, Shown0),
        Shown0 =.. [Op|Args0],
        maplist(tr_replace_var(T, E), Args0, Args),
        Shown =.. [Op|Args]
    ).

tr_replace_var(T, E, A0, A) :-
    ( A0 == T -> A = E ; A = A0 ).

tr_last_else(G, Last) :-
    nonvar(G),
    G = (_->_;Else),
    !,
    tr_last_else(Else, Last).
tr_last_else(G, G).

tr_clpfd_shown(clpfd_equal(X, Y), '#='(X, Y)).
tr_clpfd_shown(clpfd_geq(X, Y), '#>='(X, Y)).
tr_clpfd_shown(clpfd_in(X, Dom), in(X, Dom)).

tr_has_cut(G) :-
    var(G),
    !,
    fail.
tr_has_cut(!) :- !.
tr_has_cut((A,B)) :- !, ( tr_has_cut(A) -> true ; tr_has_cut(B) ).
tr_has_cut((A;B)) :- !, ( tr_has_cut(A) -> true ; tr_has_cut(B) ).
tr_has_cut((A->B)) :- !, ( tr_has_cut(A) -> true ; tr_has_cut(B) ).
tr_has_cut((A*->B)) :- !, ( tr_has_cut(A) -> true ; tr_has_cut(B) ).

%   The body of a clause as its text shows it: inline CLP(FD) code folded
%   back into the constraint.
tr_fold_body(G, G) :-
    var(G),
    !.
tr_fold_body(G, F) :-
    tr_clpfd_folded(G, F),
    !.
tr_fold_body((A0,B0), (A,B)) :- !, tr_fold_body(A0, A), tr_fold_body(B0, B).
tr_fold_body((A0;B0), (A;B)) :- !, tr_fold_body(A0, A), tr_fold_body(B0, B).
tr_fold_body((A0->B0), (A->B)) :- !, tr_fold_body(A0, A), tr_fold_body(B0, B).
tr_fold_body((A0*->B0), (A*->B)) :- !, tr_fold_body(A0, A), tr_fold_body(B0, B).
tr_fold_body(\+ A0, \+ A) :- !, tr_fold_body(A0, A).
tr_fold_body(G, G).

%   call/N: the closure with its extra arguments, still in the session
%   module unless it is qualified.
tr_add_args(G0, [], G0) :-
    !,
    callable(G0).
tr_add_args(Q:G0, Extra, Q:G) :-
    !,
    atom(Q),
    tr_add_args(G0, Extra, G).
tr_add_args(G0, Extra, G) :-
    callable(G0),
    G0 \= _:_,
    G0 =.. List0,
    append(List0, Extra, List),
    G =.. List.

%   catch/3 in traced code: the harness's own control exceptions (time
%   limit, abort) are never handed to the user's recovery goal.
tr_recover(Ball, Catcher, Recovery, D, LP, C, Ns, T, N0, N) :-
    (   \+ control_exception(Ball),
        Ball = Catcher
    ->  prolog_current_choice(Local),
        tr_solve(Recovery, D, Local, LP, C, Ns, T, N0, N)
    ;   throw(Ball)
    ).

%   tr_predicate_kind(+Module, +Goal, -Kind): user (the session's own
%   clauses, traced), tabled (own but tabled: run as one step, as
%   tabling must see the call) or builtin (built-in, foreign, imported
%   from a library, undefined, ...: run as one step).

tr_predicate_kind(M, G, Kind) :-
    callable(G),
    !,
    functor(G, Name, Arity),
    (   tr_kind_cache(M, Name, Arity, Kind0)
    ->  Kind = Kind0
    ;   tr_classify(M, G, Kind0),
        assertz(tr_kind_cache(M, Name, Arity, Kind0)),
        Kind = Kind0
    ).
tr_predicate_kind(_, _, builtin).

tr_classify(M, G, Kind) :-
    functor(G, Name, Arity),
    (   predicate_property(M:G, defined),
        predicate_property(M:G, implementation_module(M)),
        \+ predicate_property(M:G, imported_from(_)),
        \+ predicate_property(M:G, built_in),
        \+ predicate_property(M:G, foreign),
        \+ sub_atom(Name, 0, _, _, $),
        \+ ( Name == halt, Arity =< 1 )
    ->  (   predicate_property(M:G, tabled)
        ->  Kind = tabled
        ;   Kind = user
        )
    ;   Kind = builtin
    ).

%   A user goal: try its clauses in order, each attempt logged; the body
%   of the clause is proved one level deeper. At the depth bound the
%   clause is still chosen and shown, but its body runs untraced (kind
%   truncated, unless the clause is a fact).

tr_user(G, D, LP, C, Ns, T, N0, N) :-
    C = ctx(M, MaxDepth, MaxNodes, _, _, _, _, _),
    (   N0 >= MaxNodes
    ->  Ns = [omitted|T], N = N0,
        tr_mark_incomplete(LP),
        call(M:G)
    ;   N1 is N0 + 1,
        Ns = [n(G, Ref, Kind, Children)|T],
        State = tr_call(none, false),   % last attempt's log id, any attempt
        (   prolog_current_choice(Cut),
            clause(M:G, Body, Ref),
            (   D >= MaxDepth, Body \== true
            ->  Kind = truncated
            ;   Kind = clause
            ),
            tr_attempt(State, C, LP, G, Kind, Ref, D, Id),
            (   Kind == truncated
            ->  Children = [], N = N1,
                tr_plain(Body, Cut, M)
            ;   D1 is D + 1,
                tr_solve(Body, D1, Cut, Id, C, Children, [], N1, N)
            ),
            tr_log_exit(C, Id, G)
        ;   tr_exhausted(State, C, LP, G, D),
            fail
        )
    ).

%   A new clause attempt of one call: the previous attempt of the same
%   call is over; if it never exited, it failed.
tr_attempt(State, C, LP, G, Kind, Ref, D, Id) :-
    arg(1, State, Prev),
    tr_log_failed(C, Prev),
    nb_setarg(2, State, true),
    tr_log_new(C, LP, Kind, Ref, G, D, Id),
    nb_setarg(1, State, Id).

%   All clauses tried: the last attempt failed, or no clause head
%   matched at all (one failure node for the goal).
tr_exhausted(State, C, LP, G, D) :-
    arg(1, State, Prev),
    tr_log_failed(C, Prev),
    (   arg(2, State, false)
    ->  tr_log_new(C, LP, nomatch, none, G, D, Id),
        tr_log_failed(C, Id)
    ;   true
    ).

%   tr_leaf(:Goal, +Shown, +Kind, ...): Goal run as one step (built-ins,
%   library and tabled predicates); its node shows Shown.
tr_leaf(G, Shown, Kind, D, LP, C, Ns, T, N0, N) :-
    C = ctx(M, _, MaxNodes, _, _, _, _, _),
    (   N0 >= MaxNodes
    ->  Ns = [omitted|T], N = N0,
        tr_mark_incomplete(LP),
        call(M:G)
    ;   N is N0 + 1,
        Ns = [n(Shown, none, Kind, [])|T],
        tr_log_new(C, LP, Kind, none, Shown, D, Id),
        (   Id == none
        ->  call(M:G)
        ;   (   call(M:G),
                tr_log_exit(C, Id, Shown)
            ;   tr_log_failed(C, Id),
                fail
            )
        )
    ).

%   \+ G: a node of kind negation whose children are the failed attempt
%   at G, taken from the log. At the depth bound (or without node budget)
%   \+ G runs untraced.
tr_negation(G, D, LP, C, Ns, T, N0, N) :-
    C = ctx(M, MaxDepth, MaxNodes, _, _, _, _, _),
    (   N0 >= MaxNodes
    ->  Ns = [omitted|T], N = N0,
        tr_mark_incomplete(LP),
        \+ call(M:G)
    ;   D >= MaxDepth
    ->  N is N0 + 1,
        Ns = [n(\+ G, none, truncated, [])|T],
        tr_log_new(C, LP, truncated, none, \+ G, D, Id),
        (   \+ call(M:G)
        ->  tr_log_exit(C, Id, \+ G)
        ;   tr_log_failed(C, Id),
            fail
        )
    ;   N1 is N0 + 1,
        tr_log_new(C, LP, negation, none, \+ G, D, Id),
        D1 is D + 1,
        (   prolog_current_choice(Local),
            tr_solve(G, D1, Local, Id, C, _, [], N1, _)
        ->  tr_log_failed(C, Id),
            fail
        ;   tr_log_exit(C, Id, \+ G),
            (   Id == none
            ->  Children = [omitted], N = N1
            ;   Budget is MaxNodes - N1,
                tr_negation_children(C, Id, Budget, Children, Count),
                N is N1 + Count
            ),
            Ns = [n(\+ G, none, negation, Children)|T]
        )
    ).

%   tr_plain(:Body, +Cut, +Module): run a clause body untraced but with
%   its cuts cutting the clause (below the depth bound).
tr_plain(G, _, M) :-
    var(G),
    !,
    call(M:G).
tr_plain(!, Cut, _) :-
    !,
    prolog_cut_to(Cut).
tr_plain((A,B), Cut, M) :-
    !,
    tr_plain(A, Cut, M),
    tr_plain(B, Cut, M).
tr_plain((If->Then;Else), Cut, M) :-
    !,
    (   call(M:If)
    ->  tr_plain(Then, Cut, M)
    ;   tr_plain(Else, Cut, M)
    ).
tr_plain((If*->Then;Else), Cut, M) :-
    !,
    (   call(M:If)
    *-> tr_plain(Then, Cut, M)
    ;   tr_plain(Else, Cut, M)
    ).
tr_plain((A;B), Cut, M) :-
    !,
    (   tr_plain(A, Cut, M)
    ;   tr_plain(B, Cut, M)
    ).
tr_plain((If->Then), Cut, M) :-
    !,
    (   call(M:If)
    ->  tr_plain(Then, Cut, M)
    ).
tr_plain((If*->Then), Cut, M) :-
    !,
    (   call(M:If)
    *-> tr_plain(Then, Cut, M)
    ).
tr_plain(G, _, M) :-
    call(M:G).

                 /*******************************
                 *             THE LOG          *
                 *******************************/

%   tr_log_new(+Ctx, +Parent, +Type, +Ref, +Goal, +Depth, -Id): log a
%   new node under Parent, or Id = none when Parent is not logged or the
%   log is full (then Parent is marked incomplete).
tr_log_new(_, none, _, _, _, _, none) :-
    !.
tr_log_new(C, Parent, Type, Ref, Goal, D, Id) :-
    C = ctx(_, _, _, LogMax, Next, _, _, _),
    (   Next =< LogMax
    ->  Id = Next,
        Next1 is Next + 1,
        nb_setarg(5, C, Next1),
        assertz(tr_log(Id, Parent, Type, Ref, D)),
        tr_store_goal(C, Id, Goal)
    ;   Id = none,
        tr_mark_incomplete(Parent)
    ).

%   Goal as it is now, stored for log id Id; the copy keeps the names of
%   the query's free variables.
tr_store_goal(C, Id, Goal) :-
    (   acyclic_term(Goal)
    ->  arg(6, C, Bindings),
        term_variables(Goal, Vars),
        copy_term_nat(Goal-Vars, Copy-VarsCopy),
        maplist(tr_query_var_name(Bindings), Vars, VarsCopy)
    ;   format(atom(S), "~W", [Goal, [quoted(true), max_depth(20)]]),
        Copy = '$VAR'(S)
    ),
    arg(7, C, Goals),
    nb_setarg(Id, Goals, Copy).

tr_query_var_name(Bindings, Var, Copy) :-
    (   member(Name-V, Bindings),
        V == Var
    ->  Copy = '$VAR'(Name)
    ;   true
    ).

%   Logged node Id exited (again): its goal is as Goal is now.
tr_log_exit(_, none, _) :-
    !.
tr_log_exit(C, Id, Goal) :-
    tr_store_goal(C, Id, Goal),
    arg(8, C, Statuses),
    nb_setarg(Id, Statuses, exit).

%   Logged node Id is over: if it never exited, it failed.
tr_log_failed(_, none) :-
    !.
tr_log_failed(C, Id) :-
    arg(8, C, Statuses),
    arg(Id, Statuses, Status),
    (   var(Status)
    ->  nb_setarg(Id, Statuses, failed)
    ;   true
    ).

tr_mark_incomplete(none) :-
    !.
tr_mark_incomplete(Id) :-
    (   tr_incomplete(Id)
    ->  true
    ;   assertz(tr_incomplete(Id))
    ).

% description: CLP(FD) scheduling helpers: tasks with durations, precedences, one machine or a shared resource of limited capacity; finds a schedule with the smallest makespan.
% tags: clpfd, scheduling, constraints, optimisation
%
% schedule(+Tasks, +Before, -Schedule, -Makespan)
%     Tasks run one at a time. Tasks: [Name-Duration, ...]; Before: [A-B, ...]
%     (A ends before B starts). Schedule: [Name-Start, ...] (times from 0).
%     Example: schedule([a-3, b-2, c-1], [a-c], S, M).
%
% schedule(+Tasks, +Before, +Capacity, -Schedule, -Makespan)
%     Tasks share a resource of Capacity units and may overlap.
%     Tasks: [Name-Duration-Demand, ...]; Demand =< Capacity.
%     Example: schedule([a-3-2, b-2-1, c-2-2], [], 3, S, M).
%
% deadline(+Schedule, +Tasks, +Name, +Time): Name ends by Time; use it on the
%     Schedule of a task list before labeling (see schedule_with/5).

:- use_module(library(clpfd)).

schedule(Tasks, Before, Schedule, Makespan) :-
    maplist(exclusive, Tasks, Shared),
    schedule(Shared, Before, 1, Schedule, Makespan).

exclusive(Name-D, Name-D-1).

schedule(Tasks, Before, Capacity, Schedule, Makespan) :-
    schedule_with(Tasks, Before, Capacity, Schedule, Makespan),
    task_starts(Schedule, Starts),
    once(labeling([min(Makespan)], [Makespan|Starts])).

% schedule_with(+Tasks, +Before, +Capacity, -Schedule, -Makespan)
%     The constraints of schedule/5 without the search, to add your own
%     (deadlines, release times) before labeling [Makespan|Starts].
schedule_with(Tasks, Before, Capacity, Schedule, Makespan) :-
    must_be(list, Tasks),
    must_be(positive_integer, Capacity),
    foldl(add_duration, Tasks, 0, Horizon),
    maplist(task_vars(Horizon), Tasks, Schedule, CTasks, Ends),
    cumulative(CTasks, [limit(Capacity)]),
    maplist(precedence(Tasks, Schedule), Before),
    Makespan in 0..Horizon,
    maplist(ends_by(Makespan), Ends).

ends_by(Makespan, End) :-
    End #=< Makespan.

add_duration(_-D-_, H0, H) :-
    H is H0 + D.

task_vars(Horizon, Name-D-C, Name-S, task(S, D, E, C, Name), E) :-
    must_be(nonneg, D),
    S in 0..Horizon,
    E #= S + D.

precedence(Tasks, Schedule, A-B) :-
    memberchk(A-DA-_, Tasks),
    memberchk(A-SA, Schedule),
    memberchk(B-SB, Schedule),
    SA + DA #=< SB.

deadline(Schedule, Tasks, Name, Time) :-
    memberchk(Name-S, Schedule),
    (   memberchk(Name-D-_, Tasks) -> true ; memberchk(Name-D, Tasks) ),
    S + D #=< Time.

task_starts(Schedule, Starts) :-
    pairs_values(Schedule, Starts).

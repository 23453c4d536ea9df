% A family, its rules, and their plunit tests: PlunitTestsTest turns each test into a JUnit test.
parent(tom, bob).
parent(tom, liz).
parent(bob, ann).
parent(bob, pat).
parent(pat, jim).

grandparent(X, Z) :- parent(X, Y), parent(Y, Z).

ancestor(X, Y) :- parent(X, Y).
ancestor(X, Y) :- parent(X, Z), ancestor(Z, Y).

:- begin_tests(grandparent).

test(tom_is_grandparent_of_ann) :-
    grandparent(tom, ann).
test(grandchildren_of_tom, all(G == [ann, pat])) :-
    grandparent(tom, G).
test(ann_has_no_grandchildren, fail) :-
    grandparent(ann, _).

:- end_tests(grandparent).

:- begin_tests(ancestor).

test(tom_is_ancestor_of_jim) :-
    ancestor(tom, jim).
test(ancestors_of_jim, set(A == [bob, pat, tom])) :-
    ancestor(A, jim).

:- end_tests(ancestor).

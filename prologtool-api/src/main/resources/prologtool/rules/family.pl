% description: Family relations from parent/2, male/1 and female/1 facts: father, mother, child, son, daughter, grandparent, sibling, brother, sister, uncle, aunt, cousin, ancestor, descendant.
% tags: family, genealogy, kinship
%
% Give the facts in your code, e.g.
%     parent(tom, bob).  parent(bob, ann).  male(tom).  male(bob).  female(ann).
% and ask, e.g., grandparent(tom, Who) or ancestor(A, ann).
% Every relation is written so that both arguments may be unbound.
% Relations that need a sex (father, sister, ...) just fail without male/1
% or female/1 facts.

:- dynamic parent/2, male/1, female/1.
:- discontiguous parent/2, male/1, female/1.

father(F, C) :- parent(F, C), male(F).
mother(M, C) :- parent(M, C), female(M).

child(C, P) :- parent(P, C).
son(S, P) :- parent(P, S), male(S).
daughter(D, P) :- parent(P, D), female(D).

grandparent(G, C) :- parent(G, P), parent(P, C).
grandfather(G, C) :- grandparent(G, C), male(G).
grandmother(G, C) :- grandparent(G, C), female(G).
grandchild(C, G) :- grandparent(G, C).

% Two different people with a parent in common (each pair once, even when
% they share both parents).
sibling(A, B) :-
    setof(A-B, P^(parent(P, A), parent(P, B), A \== B), Pairs),
    member(A-B, Pairs).
brother(B, X) :- sibling(B, X), male(B).
sister(S, X) :- sibling(S, X), female(S).

uncle(U, N) :- parent(P, N), brother(U, P).
aunt(A, N) :- parent(P, N), sister(A, P).

cousin(A, B) :-
    setof(A-B, PA^PB^(parent(PA, A), parent(PB, B), sibling(PA, PB)), Pairs),
    member(A-B, Pairs).

% ancestor(A, D): A is a parent, grandparent, ... of D.
ancestor(A, D) :- parent(A, D).
ancestor(A, D) :- parent(A, X), ancestor(X, D).

descendant(D, A) :- ancestor(A, D).

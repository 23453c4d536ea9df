name('José').
:- begin_tests(l).
test(t) :- name(N), atom_length(N, 4).
:- end_tests(l).

/*  Part of the prologtool harness (included by harness.pl, module
    prologtool_harness): run_tests: plunit units of a session.
*/

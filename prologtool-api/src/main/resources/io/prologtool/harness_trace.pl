/*  Part of the prologtool harness (included by harness.pl, module
    prologtool_harness): trace: proof trees from a meta-interpreter.
*/

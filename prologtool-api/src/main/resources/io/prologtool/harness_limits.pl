/*  Part of the prologtool harness (included by harness.pl, module
    prologtool_harness): keeping the harness's own limits out of reach of
    user code (for example a catch-all catch/3 that would swallow a time
    limit).
*/

package io.prologtool.process;

import io.prologtool.PrologBackend;
import io.prologtool.conformance.SoakConformanceTest;

class ProcessSoakConformanceTest extends SoakConformanceTest {
    /** Each session here is a child process (about 80 ms of machine time with setsid and prlimit): 1,000 keep
     *  the soak's churn (eviction, expiry, the pool refilling) within about 90 s of a 2-core machine. */
    @Override
    protected int sessions() {
        return 1_000;
    }

    @Override
    protected PrologBackend createBackend() {
        return ProcessBackend.builder().poolSize(2).build();
    }

    @Override
    protected long liveResources(PrologBackend backend) {
        return ((ProcessBackend) backend).liveChildren();
    }
}

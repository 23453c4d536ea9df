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

    /** The harness, saved state and anything else the backend writes live in its work folder. */
    @Override
    protected long ownFiles(PrologBackend backend) {
        return filesBelow(((ProcessBackend) backend).workDir());
    }

    /** The pool of two refills in the background after the fixture's session closed: wait for it (60 s at most). */
    @Override
    protected void awaitSettled(PrologBackend backend) throws InterruptedException {
        long deadline = System.nanoTime() + java.time.Duration.ofSeconds(60).toNanos();
        while (((ProcessBackend) backend).liveChildren() < 2 && System.nanoTime() < deadline) {
            Thread.sleep(20);
        }
    }
}

package io.prologtool.jpl;

import io.prologtool.PrologBackend;
import io.prologtool.conformance.SoakConformanceTest;

class JplSoakConformanceTest extends SoakConformanceTest {
    @Override
    protected PrologBackend createBackend() {
        return JplBackend.get();
    }

    /**
     * The modules sessions hold (each session its own, each plunit unit one more). Libraries that
     * load on first use during the soak (library(occurs), say) are not held by sessions.
     */
    @Override
    protected long liveResources(PrologBackend backend) {
        return ((JplBackend) backend).sessionModuleCount();
    }
}

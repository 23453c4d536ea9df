package io.prologtool.process;

import io.prologtool.PrologBackend;
import io.prologtool.conformance.SoakConformanceTest;

class ProcessSoakConformanceTest extends SoakConformanceTest {
    @Override
    protected PrologBackend createBackend() {
        return ProcessBackend.builder().poolSize(2).build();
    }

    @Override
    protected long liveResources(PrologBackend backend) {
        return ((ProcessBackend) backend).liveChildren();
    }
}

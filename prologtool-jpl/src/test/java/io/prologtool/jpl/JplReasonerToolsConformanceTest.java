package io.prologtool.jpl;

import io.prologtool.PrologBackend;
import io.prologtool.conformance.ReasonerToolsConformanceTest;

class JplReasonerToolsConformanceTest extends ReasonerToolsConformanceTest {
    @Override
    protected PrologBackend createBackend() {
        return JplBackend.get();
    }
}

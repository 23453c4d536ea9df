package io.prologtool.process;

import io.prologtool.PrologBackend;
import io.prologtool.conformance.ReasonerToolsConformanceTest;

class ProcessReasonerToolsConformanceTest extends ReasonerToolsConformanceTest {
    @Override
    protected PrologBackend createBackend() {
        return ProcessBackend.builder().build();
    }
}

package io.prologtool.process;

import io.prologtool.PrologBackend;
import io.prologtool.conformance.LimitsConformanceTest;

class ProcessLimitsConformanceTest extends LimitsConformanceTest {
    @Override
    protected PrologBackend createBackend() {
        return ProcessBackend.builder().build();
    }
}

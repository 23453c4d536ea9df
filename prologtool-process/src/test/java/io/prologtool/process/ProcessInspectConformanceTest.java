package io.prologtool.process;

import io.prologtool.PrologBackend;
import io.prologtool.conformance.InspectConformanceTest;

class ProcessInspectConformanceTest extends InspectConformanceTest {
    @Override
    protected PrologBackend createBackend() {
        return ProcessBackend.builder().build();
    }
}

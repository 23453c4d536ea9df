package io.prologtool.process;

import io.prologtool.PrologBackend;
import io.prologtool.conformance.TraceConformanceTest;

class ProcessTraceConformanceTest extends TraceConformanceTest {
    @Override
    protected PrologBackend createBackend() {
        return ProcessBackend.builder().build();
    }
}

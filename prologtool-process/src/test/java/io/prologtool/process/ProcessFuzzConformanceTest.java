package io.prologtool.process;

import io.prologtool.PrologBackend;
import io.prologtool.conformance.FuzzConformanceTest;

class ProcessFuzzConformanceTest extends FuzzConformanceTest {
    @Override
    protected PrologBackend createBackend() {
        return ProcessBackend.builder().build();
    }
}

package io.prologtool.process;

import io.prologtool.PrologBackend;
import io.prologtool.conformance.QueryConformanceTest;

class ProcessQueryConformanceTest extends QueryConformanceTest {
    @Override
    protected PrologBackend createBackend() {
        return ProcessBackend.builder().build();
    }
}

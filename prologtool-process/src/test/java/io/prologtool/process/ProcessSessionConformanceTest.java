package io.prologtool.process;

import io.prologtool.PrologBackend;
import io.prologtool.conformance.SessionConformanceTest;

class ProcessSessionConformanceTest extends SessionConformanceTest {
    @Override
    protected PrologBackend createBackend() {
        return ProcessBackend.builder().build();
    }
}

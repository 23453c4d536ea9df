package io.prologtool.process;

import io.prologtool.PrologBackend;
import io.prologtool.conformance.SandboxConformanceTest;

class ProcessSandboxConformanceTest extends SandboxConformanceTest {
    @Override
    protected PrologBackend createBackend() {
        return ProcessBackend.builder().build();
    }
}

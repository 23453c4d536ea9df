package io.prologtool.process;

import io.prologtool.PrologBackend;
import io.prologtool.conformance.ToolsConformanceTest;

class ProcessToolsConformanceTest extends ToolsConformanceTest {
    @Override
    protected PrologBackend createBackend() {
        return ProcessBackend.builder().build();
    }
}

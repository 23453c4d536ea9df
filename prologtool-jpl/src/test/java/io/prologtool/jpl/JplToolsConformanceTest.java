package io.prologtool.jpl;

import io.prologtool.PrologBackend;
import io.prologtool.conformance.ToolsConformanceTest;

class JplToolsConformanceTest extends ToolsConformanceTest {
    @Override
    protected PrologBackend createBackend() {
        return JplBackend.get();
    }
}

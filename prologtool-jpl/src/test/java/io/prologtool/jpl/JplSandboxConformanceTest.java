package io.prologtool.jpl;

import io.prologtool.PrologBackend;
import io.prologtool.conformance.SandboxConformanceTest;

class JplSandboxConformanceTest extends SandboxConformanceTest {
    @Override
    protected PrologBackend createBackend() {
        return JplBackend.get();
    }
}

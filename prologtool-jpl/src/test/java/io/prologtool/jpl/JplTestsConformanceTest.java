package io.prologtool.jpl;

import io.prologtool.PrologBackend;
import io.prologtool.conformance.TestsConformanceTest;

class JplTestsConformanceTest extends TestsConformanceTest {
    @Override
    protected PrologBackend createBackend() {
        return JplBackend.get();
    }
}

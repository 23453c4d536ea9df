package io.prologtool.jpl;

import io.prologtool.PrologBackend;
import io.prologtool.conformance.LimitsConformanceTest;

class JplLimitsConformanceTest extends LimitsConformanceTest {
    @Override
    protected PrologBackend createBackend() {
        return JplBackend.get();
    }
}

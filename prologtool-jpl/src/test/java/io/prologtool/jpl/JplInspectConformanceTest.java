package io.prologtool.jpl;

import io.prologtool.PrologBackend;
import io.prologtool.conformance.InspectConformanceTest;

class JplInspectConformanceTest extends InspectConformanceTest {
    @Override
    protected PrologBackend createBackend() {
        return JplBackend.get();
    }
}

package io.prologtool.jpl;

import io.prologtool.PrologBackend;
import io.prologtool.conformance.TraceConformanceTest;

class JplTraceConformanceTest extends TraceConformanceTest {
    @Override
    protected PrologBackend createBackend() {
        return JplBackend.get();
    }
}

package io.prologtool.jpl;

import io.prologtool.PrologBackend;
import io.prologtool.conformance.SessionConformanceTest;

class JplSessionConformanceTest extends SessionConformanceTest {
    @Override
    protected PrologBackend createBackend() {
        return JplBackend.get();
    }
}

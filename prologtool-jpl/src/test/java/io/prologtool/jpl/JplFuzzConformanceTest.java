package io.prologtool.jpl;

import io.prologtool.PrologBackend;
import io.prologtool.conformance.FuzzConformanceTest;

class JplFuzzConformanceTest extends FuzzConformanceTest {
    @Override
    protected PrologBackend createBackend() {
        return JplBackend.get();
    }
}

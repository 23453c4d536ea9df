package io.prologtool.jpl;

import io.prologtool.PrologBackend;
import io.prologtool.conformance.CancellationConformanceTest;

class JplCancellationConformanceTest extends CancellationConformanceTest {
    @Override
    protected PrologBackend createBackend() {
        return JplBackend.get();
    }
}

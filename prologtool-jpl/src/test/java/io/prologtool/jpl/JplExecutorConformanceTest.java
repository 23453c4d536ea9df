package io.prologtool.jpl;

import io.prologtool.PrologBackend;
import io.prologtool.conformance.ExecutorConformanceTest;

class JplExecutorConformanceTest extends ExecutorConformanceTest {
    @Override
    protected PrologBackend createBackend() {
        return JplBackend.get();
    }
}

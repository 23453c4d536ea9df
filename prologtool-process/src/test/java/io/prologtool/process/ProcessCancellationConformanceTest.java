package io.prologtool.process;

import io.prologtool.PrologBackend;
import io.prologtool.conformance.CancellationConformanceTest;

class ProcessCancellationConformanceTest extends CancellationConformanceTest {
    @Override
    protected PrologBackend createBackend() {
        return ProcessBackend.builder().build();
    }
}

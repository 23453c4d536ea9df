package io.prologtool.process;

import io.prologtool.PrologBackend;
import io.prologtool.PrologListener;
import io.prologtool.conformance.ObservabilityConformanceTest;

class ProcessObservabilityConformanceTest extends ObservabilityConformanceTest {
    @Override
    protected PrologBackend createBackend(PrologListener listener) {
        ProcessBackend.Builder b = ProcessBackend.builder();
        if (listener != PrologListener.NONE) {
            b.listener(listener);
        }
        return b.build();
    }
}

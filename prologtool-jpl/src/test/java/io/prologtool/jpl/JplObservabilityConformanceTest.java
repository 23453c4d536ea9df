package io.prologtool.jpl;

import io.prologtool.PrologBackend;
import io.prologtool.PrologListener;
import io.prologtool.conformance.ObservabilityConformanceTest;

class JplObservabilityConformanceTest extends ObservabilityConformanceTest {
    @Override
    protected PrologBackend createBackend(PrologListener listener) {
        JplBackend.Builder b = JplBackend.builder();
        if (listener != PrologListener.NONE) {
            b.listener(listener);
        }
        return b.build();
    }
}

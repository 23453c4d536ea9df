package io.prologtool.jpl;

import io.prologtool.PrologBackend;
import io.prologtool.conformance.ConsultConformanceTest;

class JplConsultConformanceTest extends ConsultConformanceTest {
    @Override
    protected PrologBackend createBackend() {
        return JplBackend.get();
    }
}

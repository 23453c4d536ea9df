package io.prologtool.process;

import io.prologtool.PrologBackend;
import io.prologtool.conformance.ConsultConformanceTest;

class ProcessConsultConformanceTest extends ConsultConformanceTest {
    @Override
    protected PrologBackend createBackend() {
        return ProcessBackend.builder().build();
    }
}

package io.prologtool.process;

import io.prologtool.PrologBackend;
import io.prologtool.conformance.ConsultFileConformanceTest;

class ProcessConsultFileConformanceTest extends ConsultFileConformanceTest {
    @Override
    protected PrologBackend createBackend() {
        return ProcessBackend.builder().build();
    }
}

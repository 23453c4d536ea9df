package io.prologtool.process;

import io.prologtool.PrologBackend;
import io.prologtool.conformance.RegistryConformanceTest;

class ProcessRegistryConformanceTest extends RegistryConformanceTest {
    @Override
    protected PrologBackend createBackend() {
        return ProcessBackend.builder().build();
    }
}

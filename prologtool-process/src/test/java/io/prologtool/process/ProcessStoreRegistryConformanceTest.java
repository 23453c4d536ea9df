package io.prologtool.process;

import io.prologtool.PrologBackend;
import io.prologtool.conformance.StoreRegistryConformanceTest;

class ProcessStoreRegistryConformanceTest extends StoreRegistryConformanceTest {
    @Override
    protected PrologBackend createBackend() {
        return ProcessBackend.builder().build();
    }
}

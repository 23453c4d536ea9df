package io.prologtool.jpl;

import io.prologtool.PrologBackend;
import io.prologtool.conformance.StoreRegistryConformanceTest;

class JplStoreRegistryConformanceTest extends StoreRegistryConformanceTest {
    @Override
    protected PrologBackend createBackend() {
        return JplBackend.get();
    }
}

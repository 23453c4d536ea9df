package io.prologtool.jpl;

import io.prologtool.PrologBackend;
import io.prologtool.conformance.RegistryConformanceTest;

class JplRegistryConformanceTest extends RegistryConformanceTest {
    @Override
    protected PrologBackend createBackend() {
        return JplBackend.get();
    }
}

package io.prologtool.process;

import io.prologtool.PrologBackend;
import io.prologtool.conformance.StaticCheckConformanceTest;

class ProcessStaticCheckConformanceTest extends StaticCheckConformanceTest {
    @Override
    protected PrologBackend createBackend() {
        return ProcessBackend.builder().build();
    }
}

package io.prologtool.jpl;

import io.prologtool.PrologBackend;
import io.prologtool.conformance.StaticCheckConformanceTest;

class JplStaticCheckConformanceTest extends StaticCheckConformanceTest {
    @Override
    protected PrologBackend createBackend() {
        return JplBackend.get();
    }
}

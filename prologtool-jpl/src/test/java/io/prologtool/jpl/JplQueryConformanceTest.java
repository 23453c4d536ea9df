package io.prologtool.jpl;

import io.prologtool.PrologBackend;
import io.prologtool.conformance.QueryConformanceTest;

class JplQueryConformanceTest extends QueryConformanceTest {
    @Override
    protected PrologBackend createBackend() {
        return JplBackend.get();
    }
}

package io.prologtool.jpl;

import io.prologtool.PrologBackend;
import io.prologtool.conformance.ConsultFileConformanceTest;

class JplConsultFileConformanceTest extends ConsultFileConformanceTest {
    @Override
    protected PrologBackend createBackend() {
        return JplBackend.get();
    }
}

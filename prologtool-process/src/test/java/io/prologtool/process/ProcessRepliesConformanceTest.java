package io.prologtool.process;

import io.prologtool.PrologBackend;
import io.prologtool.conformance.RepliesConformanceTest;

class ProcessRepliesConformanceTest extends RepliesConformanceTest {
    @Override
    protected PrologBackend createBackend() {
        return ProcessBackend.builder().build();
    }
}

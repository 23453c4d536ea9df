package io.prologtool.process;

import io.prologtool.PrologBackend;
import io.prologtool.conformance.CheckpointConformanceTest;

class ProcessCheckpointConformanceTest extends CheckpointConformanceTest {
    @Override
    protected PrologBackend createBackend() {
        return ProcessBackend.builder().build();
    }
}

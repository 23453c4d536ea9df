package io.prologtool.jpl;

import io.prologtool.PrologBackend;
import io.prologtool.conformance.CheckpointConformanceTest;

class JplCheckpointConformanceTest extends CheckpointConformanceTest {
    @Override
    protected PrologBackend createBackend() {
        return JplBackend.get();
    }
}

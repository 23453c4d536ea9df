package io.prologtool.process;

import io.prologtool.PrologBackend;
import io.prologtool.conformance.GoalConformanceTest;

class ProcessGoalConformanceTest extends GoalConformanceTest {
    @Override
    protected PrologBackend createBackend() {
        return ProcessBackend.builder().build();
    }
}

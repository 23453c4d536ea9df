package io.prologtool.jpl;

import io.prologtool.PrologBackend;
import io.prologtool.conformance.GoalConformanceTest;

class JplGoalConformanceTest extends GoalConformanceTest {
    @Override
    protected PrologBackend createBackend() {
        return JplBackend.get();
    }
}

package io.prologtool.jpl;

import io.prologtool.PrologBackend;
import io.prologtool.conformance.RuleBaseConformanceTest;

class JplRuleBaseConformanceTest extends RuleBaseConformanceTest {
    @Override
    protected PrologBackend createBackend() {
        return JplBackend.get();
    }
}

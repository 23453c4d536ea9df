package io.prologtool.jpl;

import io.prologtool.PrologBackend;
import io.prologtool.conformance.RepliesConformanceTest;

class JplRepliesConformanceTest extends RepliesConformanceTest {
    @Override
    protected PrologBackend createBackend() {
        return JplBackend.get();
    }
}

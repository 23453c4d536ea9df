package io.prologtool.process;

import io.prologtool.conformance.HostileFuzzConformanceTest;

/** The bounded fuzz run on the process backend, with a pool of two children that serve again. */
class ProcessHostileFuzzConformanceTest extends HostileFuzzConformanceTest {

    @Override
    protected String backend() {
        return "process";
    }
}

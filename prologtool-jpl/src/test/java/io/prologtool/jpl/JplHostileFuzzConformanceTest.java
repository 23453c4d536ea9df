package io.prologtool.jpl;

import io.prologtool.conformance.HostileFuzzConformanceTest;

class JplHostileFuzzConformanceTest extends HostileFuzzConformanceTest {

    @Override
    protected String backend() {
        return "jpl";
    }
}

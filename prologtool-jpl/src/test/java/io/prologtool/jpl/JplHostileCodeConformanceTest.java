package io.prologtool.jpl;

import io.prologtool.PrologBackend;
import io.prologtool.conformance.HostileCodeConformanceTest;

import java.util.function.Supplier;

class JplHostileCodeConformanceTest extends HostileCodeConformanceTest {

    /** How the child JVM makes its backend. */
    public static final class Backend implements Supplier<PrologBackend> {
        @Override
        public PrologBackend get() {
            return JplBackend.get();
        }
    }

    @Override
    protected Class<?> backendSupplier() {
        return Backend.class;
    }
}

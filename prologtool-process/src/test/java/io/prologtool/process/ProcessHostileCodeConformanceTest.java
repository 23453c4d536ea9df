package io.prologtool.process;

import io.prologtool.PrologBackend;
import io.prologtool.conformance.HostileCodeConformanceTest;

import java.util.function.Supplier;

class ProcessHostileCodeConformanceTest extends HostileCodeConformanceTest {

    /** How the child JVM makes its backend. */
    public static final class Backend implements Supplier<PrologBackend> {
        @Override
        public PrologBackend get() {
            return ProcessBackend.builder().poolSize(2).build();
        }
    }

    @Override
    protected Class<?> backendSupplier() {
        return Backend.class;
    }
}

package io.prologtool.process;

import io.prologtool.PrologBackend;
import io.prologtool.conformance.HostileCodeConformanceTest;

import java.util.function.Supplier;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The attack classes on the process backend with a warm pool, whose children serve again after a
 * session that closed cleanly: sessions of later variants (attackers and siblings alike) run on children
 * that served earlier attackers, so every sibling check after the first variants is also a check that a
 * reused child is indistinguishable from a fresh one.
 */
class ProcessHostileCodeConformanceTest extends HostileCodeConformanceTest {

    private static final Pattern RECYCLED = Pattern.compile("RECYCLED (\\d+)");

    /** How the child JVM makes its backend; at exit it prints how many children served again. */
    public static final class Backend implements Supplier<PrologBackend> {
        @Override
        public PrologBackend get() {
            ProcessBackend b = ProcessBackend.builder().poolSize(2).build();
            Runtime.getRuntime().addShutdownHook(new Thread(() -> System.out.println("RECYCLED " + b.recycledChildren())));
            return b;
        }
    }

    @Override
    protected Class<?> backendSupplier() {
        return Backend.class;
    }

    @Override
    protected void afterAttacks(String attackClass, String childOutput) {
        Matcher m = RECYCLED.matcher(childOutput);
        assertThat(m.find()).as("the child JVM reported its recycled children:%n%s", childOutput).isTrue();
        assertThat(Long.parseLong(m.group(1))).as("children that served again after an attack class %s", attackClass)
                .isPositive();
    }
}

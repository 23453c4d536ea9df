package io.prologtool;

import java.util.Objects;

/**
 * One plunit test's result.
 *
 * @param unit    the unit name as the user wrote it
 * @param name    the test name (for tests named by a term, its quoted text)
 * @param status  passed, failed or skipped
 * @param message for a failed test, why (as plunit words it); for a blocked test, the reason; else empty
 * @param line    the test's line in the test source, or 0 when unknown
 */
public record TestCase(String unit, String name, TestStatus status, String message, int line) {

    public TestCase {
        Objects.requireNonNull(unit, "unit");
        Objects.requireNonNull(name, "name");
        Objects.requireNonNull(status, "status");
        Objects.requireNonNull(message, "message");
    }

    /** True when the test passed. */
    public boolean passed() {
        return status == TestStatus.PASSED;
    }

    /** True when the test failed. */
    public boolean failed() {
        return status == TestStatus.FAILED;
    }

    /** True when the test was blocked or otherwise not run. */
    public boolean skipped() {
        return status == TestStatus.SKIPPED;
    }

    @Override
    public String toString() {
        return unit + ":" + name + " " + status.wireName() + (line > 0 ? " (line " + line + ")" : "")
                + (message.isEmpty() ? "" : ": " + message);
    }
}

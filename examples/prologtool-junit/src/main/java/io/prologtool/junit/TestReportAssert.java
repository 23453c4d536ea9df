package io.prologtool.junit;

import io.prologtool.TestCase;
import io.prologtool.TestReport;
import org.assertj.core.api.AbstractAssert;

/**
 * Assertions on a plunit {@link TestReport}; from {@link PrologAssertions#assertThat(TestReport)}.
 */
public final class TestReportAssert extends AbstractAssert<TestReportAssert, TestReport> {

    TestReportAssert(TestReport actual) {
        super(actual, TestReportAssert.class);
    }

    /** The tests ran and none failed. */
    public TestReportAssert allPassed() {
        isNotNull();
        if (!actual.allPassed()) {
            StringBuilder sb = new StringBuilder();
            actual.error().ifPresent(e -> sb.append("\n  could not run: ").append(e));
            for (TestCase c : actual.failures()) {
                sb.append("\n  ").append(c);
            }
            failWithActualExpectedAndMessage(actual.failed(), 0, "Expecting every plunit test to pass but %d of %d failed:%s",
                    actual.failed(), actual.total(), sb);
        }
        return this;
    }

    /** Exactly {@code expected} tests passed. */
    public TestReportAssert hasPassed(int expected) {
        isNotNull();
        if (actual.passed() != expected) {
            failWithActualExpectedAndMessage(actual.passed(), expected, "Expecting %d passed plunit tests but %d passed: %s",
                    expected, actual.passed(), actual);
        }
        return this;
    }

    /** Exactly {@code expected} tests failed. */
    public TestReportAssert hasFailed(int expected) {
        isNotNull();
        if (actual.failed() != expected) {
            failWithActualExpectedAndMessage(actual.failed(), expected, "Expecting %d failed plunit tests but %d failed: %s",
                    expected, actual.failed(), actual);
        }
        return this;
    }
}

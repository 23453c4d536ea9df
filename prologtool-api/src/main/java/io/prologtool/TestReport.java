package io.prologtool;

import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * The result of {@link PrologSession#runTests(String)}: plunit tallies and per-test results.
 *
 * @param passed   tests that passed
 * @param failed   tests that failed
 * @param skipped  tests that were blocked or skipped
 * @param total    passed + failed + skipped
 * @param results  one entry per test, in the order plunit ran them
 * @param messages diagnostics from loading the test source
 * @param error    why the tests could not run at all (for example a time limit); empty otherwise
 * @param cost     what loading and running the tests cost (wall time, CPU time, inferences)
 */
public record TestReport(int passed, int failed, int skipped, int total, List<TestCase> results,
                         List<Diagnostic> messages, Optional<PrologError> error, Cost cost) {

    public TestReport {
        results = List.copyOf(results);
        messages = List.copyOf(messages);
        Objects.requireNonNull(error, "error");
        Objects.requireNonNull(cost, "cost");
    }

    /** A report that cost nothing measured ({@link Cost#NONE}). */
    public TestReport(int passed, int failed, int skipped, int total, List<TestCase> results,
                      List<Diagnostic> messages, Optional<PrologError> error) {
        this(passed, failed, skipped, total, results, messages, error, Cost.NONE);
    }

    /** This report with {@code cost} in place of its own. */
    public TestReport withCost(Cost cost) {
        return new TestReport(passed, failed, skipped, total, results, messages, error, cost);
    }

    /** {@link Cost#wallTime()}: how long the call took, as the caller saw it. */
    public java.time.Duration wallTime() {
        return cost.wallTime();
    }

    /** {@link Cost#cpuTime()}: the CPU time of the Prolog thread that served the call. */
    public java.time.Duration cpuTime() {
        return cost.cpuTime();
    }

    /** {@link Cost#inferences()}: the inferences counted while the call was served. */
    public long inferences() {
        return cost.inferences();
    }

    /** True when tests ran and none failed. */
    public boolean allPassed() {
        return error.isEmpty() && failed == 0;
    }

    /** The results with {@code status}, in run order. */
    public List<TestCase> results(TestStatus status) {
        Objects.requireNonNull(status, "status");
        return results.stream().filter(c -> c.status() == status).toList();
    }

    /** The failed tests, in run order. */
    public List<TestCase> failures() {
        return results(TestStatus.FAILED);
    }

    /** The first result of test {@code name} in unit {@code unit} (as the user named them). */
    public Optional<TestCase> result(String unit, String name) {
        return results.stream().filter(c -> c.unit().equals(unit) && c.name().equals(name)).findFirst();
    }

    @Override
    public String toString() {
        StringBuilder sb = new StringBuilder("TestReport[passed=").append(passed).append(", failed=").append(failed)
                .append(", skipped=").append(skipped).append(", total=").append(total);
        error.ifPresent(e -> sb.append(", error=").append(e));
        for (TestCase c : results) {
            if (c.status() != TestStatus.PASSED) {
                sb.append(", ").append(c);
            }
        }
        if (!messages.isEmpty()) {
            sb.append(", messages=").append(messages);
        }
        return sb.append(']').toString();
    }
}

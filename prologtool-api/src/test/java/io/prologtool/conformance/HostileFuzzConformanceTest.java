package io.prologtool.conformance;

import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The hostile fuzzer's bounded run (see {@link HostileFuzz} and {@link HostileFuzzMain}): {@link #CASES}
 * cases from a fixed seed in one child JVM, so that a case that kills its JVM fails this test with the
 * case's reproduction instead of ending the build. Every case must keep every invariant; the classes
 * listed in {@link HostileFuzz#KNOWN_OPEN} are skipped (run them too with {@code -Dprologtool.fuzz.known=run}).
 * {@code make fuzz} runs the same generator
 * from a random seed for as long as asked.
 */
public abstract class HostileFuzzConformanceTest {

    /** The bounded run's seed: the same cases on every run and every machine. */
    static final long SEED = 271;
    /** Cases of the bounded run per backend: well under a minute each on a 2-core machine. */
    static final int CASES = 50;

    /** {@code jpl} or {@code process}: the backend the child JVM makes (see {@link HostileFuzzMain#backend}). */
    protected abstract String backend();

    @Test
    void fixedSeedCasesKeepEveryInvariant() {
        List<String> failures = new ArrayList<>();
        // -Dprologtool.fuzz.known=run runs the known-open classes too (to see which of them a fix closed).
        boolean runKnown = System.getProperty("prologtool.fuzz.known", "skip").equals("run");
        HostileFuzzMain.ChildRun run = HostileFuzzMain.runChild(backend(), SEED, 0, CASES, 600, runKnown, line -> {
            if (line.startsWith("FAIL ") || line.startsWith("  ") && !failures.isEmpty()) {
                failures.add(line);
            }
        });
        System.out.println("hostile fuzz, " + backend() + ": " + run.cases() + " cases, " + run.failures()
                + " failures, " + run.skipped() + " known-open skipped");
        assertThat(run.crashed()).as("the child JVM lived through every case:%n%s", run.crashed() ? run.crashReport() : "")
                .isFalse();
        assertThat(run.failures()).as("cases that broke an invariant:%n%s", String.join("\n", failures)).isZero();
        assertThat(run.exitCode()).as("the child's exit status; it said:%n%s", run.output()).isZero();
        assertThat(run.cases() + run.skipped()).as("cases run or skipped").isEqualTo(CASES);
    }
}

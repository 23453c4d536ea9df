package io.prologtool.conformance;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.parallel.Execution;
import org.junit.jupiter.api.parallel.ExecutionMode;
import org.junit.jupiter.api.parallel.ResourceAccessMode;
import org.junit.jupiter.api.parallel.ResourceLock;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Hostile and careless session code (see {@link HostileCode}), one attack class per test, each in a
 * child JVM so that an attack that kills its JVM fails the test instead of the build. The test asserts
 * from outside: the child exited normally (it survived), every variant passed (the attacked session and
 * a sibling answered, the sibling saw nothing of the attacker), and the child's resident memory at the
 * end stayed under {@link #MAX_RSS_KB}. The attack classes run two at a time (each waits on its child
 * JVM, and every check is of that JVM alone: its survival, its own CPU time, its own memory), except the
 * writers and readers, whose terms 3,000,000 deep take most of a core for half a minute: they run alone.
 */
@Execution(ExecutionMode.CONCURRENT)
public abstract class HostileCodeConformanceTest {

    /** The lock of the attack classes that share the machine's cores (READ) or need them alone (READ_WRITE). */
    private static final String CPU = "prologtool.hostile.cpu";

    /** Resident memory of the child JVM (heap capped at 256 MiB) at the end of an attack class. */
    static final long MAX_RSS_KB = 1_200_000;
    private static final Pattern RSS = Pattern.compile("SURVIVED rss_kb=(\\d+)");

    /** A public class with a no-argument constructor implementing {@code Supplier<PrologBackend>}. */
    protected abstract Class<?> backendSupplier();

    @Test
    @ResourceLock(value = CPU, mode = ResourceAccessMode.READ)
    void deepTermsAreResourceErrorsNotCrashes() throws Exception {
        survives("deep-terms");
    }

    @Test
    @ResourceLock(value = CPU, mode = ResourceAccessMode.READ)
    void threadsNeverOutliveTheirSession() throws Exception {
        survives("threads");
    }

    @Test
    @ResourceLock(value = CPU, mode = ResourceAccessMode.READ)
    void haltIsRefusedInEveryDisguise() throws Exception {
        survives("halt");
    }

    @Test
    @ResourceLock(value = CPU, mode = ResourceAccessMode.READ)
    void goalsCannotEscapeTheirTimeLimit() throws Exception {
        survives("time-limits");
    }

    @Test
    @ResourceLock(value = CPU, mode = ResourceAccessMode.READ)
    void eightStuckGoalsLeaveTheBackendServing() throws Exception {
        survives("stuck-goals");
    }

    @Test
    @ResourceLock(value = CPU, mode = ResourceAccessMode.READ)
    void globalStateIsRefusedOrConfinedToTheSession() throws Exception {
        survives("global-state");
    }

    @Test
    @ResourceLock(value = CPU, mode = ResourceAccessMode.READ)
    void memoryIsBoundedPerSessionAndComesBackOnClose() throws Exception {
        survives("memory");
    }

    @Test
    @ResourceLock(value = CPU, mode = ResourceAccessMode.READ)
    void repliesNeverCostASession() throws Exception {
        survives("replies");
    }

    @Test
    @ResourceLock(value = CPU, mode = ResourceAccessMode.READ)
    void atomFloodsAreResourceErrorsAndTheSessionKeepsItsProcess() throws Exception {
        survives("atom-flood");
    }

    @Test
    @ResourceLock(value = CPU, mode = ResourceAccessMode.READ_WRITE)
    void everyWayIntoTheWriterAndReaderChecksDepthCyclesIncluded() throws Exception {
        survives("deep-writers");
    }

    @Test
    @ResourceLock(value = CPU, mode = ResourceAccessMode.READ)
    void textTablesEnginesInputAndNestedLimitsStayWithinTheSessionsBudgets() throws Exception {
        survives("budgets");
    }

    @Test
    @ResourceLock(value = CPU, mode = ResourceAccessMode.READ)
    void dagsAreBoundedByTheirSizeUnfoldedOnEveryPathThatWalksThemAsTrees() throws Exception {
        survives("dags");
    }

    @Test
    @ResourceLock(value = CPU, mode = ResourceAccessMode.READ)
    void openAttackCloseCyclesLeaveMemoryAtomsFdsAndThreadsFlat() throws Exception {
        survives("budget-cycles");
    }

    private void survives(String attackClass) throws IOException, InterruptedException {
        Path java = Path.of(System.getProperty("java.home"), "bin", "java");
        // -Dprologtool.cycles=N sets how many open-attack-close cycles budget-cycles runs (default 200)
        String cycles = "-Dprologtool.cycles=" + Integer.getInteger("prologtool.cycles", 200);
        ProcessBuilder pb = new ProcessBuilder(List.of(java.toString(), "-Xmx256m", "-XX:+UseSerialGC", cycles,
                "-cp", System.getProperty("java.class.path"), HostileCode.class.getName(),
                backendSupplier().getName(), attackClass)).redirectErrorStream(true);
        Process p = pb.start();
        // A term on the JVM's standard input: a session that reads it instead of its own empty stream shows it
        try (var stdin = p.getOutputStream()) {
            stdin.write("jvm_standard_input.\n".getBytes(StandardCharsets.UTF_8));
        }
        String out;
        try (var in = p.getInputStream()) {
            out = new String(in.readAllBytes(), StandardCharsets.UTF_8);
        }
        boolean ended = p.waitFor(5, TimeUnit.MINUTES);
        if (!ended) {
            p.destroyForcibly();
        }
        if (attackClass.equals("budget-cycles") || attackClass.equals("budgets")) {
            System.out.println(out);        // the figures they measure
        }
        assertThat(ended).as("the child JVM ended; it said:%n%s", out).isTrue();
        assertThat(out).as("the child JVM survived every variant; it said:%n%s", out).contains("SURVIVED");
        assertThat(out).as("no variant failed").doesNotContain("FAIL ");
        assertThat(p.exitValue()).as("exit status; the child said:%n%s", out).isZero();
        Matcher m = RSS.matcher(out);
        assertThat(m.find()).isTrue();
        assertThat(Long.parseLong(m.group(1))).as("resident memory of the child JVM in kB").isLessThan(MAX_RSS_KB);
        afterAttacks(attackClass, out);
    }

    /**
     * What else a backend checks of an attack class's run, given what the child JVM printed (its
     * supplier may print more, e.g. how many of its Prologs served several sessions). Nothing by default.
     */
    protected void afterAttacks(String attackClass, String childOutput) {
    }
}

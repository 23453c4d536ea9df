package io.prologtool.conformance;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.TestInstance;

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
 * end stayed under {@link #MAX_RSS_KB}. The child JVMs all start when the class does and run two at a
 * time (every check is of a child JVM alone: its survival, its own CPU time, its own memory), except the
 * writers and readers, whose terms 3,000,000 deep take most of a core for half a minute: they run alone.
 * Each test waits for its child's end and asserts; no other test class runs meanwhile.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
public abstract class HostileCodeConformanceTest {

    /** Every attack class a test of this class runs, in the order they start. */
    static final List<String> ATTACK_CLASSES = List.of("deep-writers", "stuck-goals", "atom-flood", "budgets",
            "time-limits", "threads", "memory", "replies", "budget-cycles", "dags", "deep-terms", "halt",
            "global-state");
    /** Attack classes that take most of a core each: they run with no other beside them. */
    private static final java.util.Set<String> ALONE = java.util.Set.of("deep-writers");

    /** Two slots: an attack class takes one, or both when it must run alone. */
    private final java.util.concurrent.Semaphore slots = new java.util.concurrent.Semaphore(2, true);
    private java.util.concurrent.ExecutorService runners;
    private final java.util.Map<String, java.util.concurrent.Future<Ran>> runs = new java.util.concurrent.ConcurrentHashMap<>();

    /** What a child JVM did: whether it ended in time, its exit status, what it printed. */
    private record Ran(boolean ended, int exit, String out) {
    }

    @BeforeAll
    void startEveryAttackClass() {
        runners = java.util.concurrent.Executors.newFixedThreadPool(2);
        for (String attackClass : ATTACK_CLASSES) {
            runs.put(attackClass, runners.submit(() -> {
                int need = ALONE.contains(attackClass) ? 2 : 1;
                slots.acquire(need);
                try {
                    return run(attackClass);
                } finally {
                    slots.release(need);
                }
            }));
        }
    }

    @AfterAll
    void stopRunners() {
        if (runners != null) {
            runners.shutdownNow();
        }
    }

    /** Resident memory of the child JVM (heap capped at 256 MiB) at the end of an attack class. */
    static final long MAX_RSS_KB = 1_200_000;
    private static final Pattern RSS = Pattern.compile("SURVIVED rss_kb=(\\d+)");

    /** A public class with a no-argument constructor implementing {@code Supplier<PrologBackend>}. */
    protected abstract Class<?> backendSupplier();

    @Test
    void deepTermsAreResourceErrorsNotCrashes() throws Exception {
        survives("deep-terms");
    }

    @Test
    void threadsNeverOutliveTheirSession() throws Exception {
        survives("threads");
    }

    @Test
    void haltIsRefusedInEveryDisguise() throws Exception {
        survives("halt");
    }

    @Test
    void goalsCannotEscapeTheirTimeLimit() throws Exception {
        survives("time-limits");
    }

    @Test
    void eightStuckGoalsLeaveTheBackendServing() throws Exception {
        survives("stuck-goals");
    }

    @Test
    void globalStateIsRefusedOrConfinedToTheSession() throws Exception {
        survives("global-state");
    }

    @Test
    void memoryIsBoundedPerSessionAndComesBackOnClose() throws Exception {
        survives("memory");
    }

    @Test
    void repliesNeverCostASession() throws Exception {
        survives("replies");
    }

    @Test
    void atomFloodsAreResourceErrorsAndTheSessionKeepsItsProcess() throws Exception {
        survives("atom-flood");
    }

    @Test
    void everyWayIntoTheWriterAndReaderChecksDepthCyclesIncluded() throws Exception {
        survives("deep-writers");
    }

    @Test
    void textTablesEnginesInputAndNestedLimitsStayWithinTheSessionsBudgets() throws Exception {
        survives("budgets");
    }

    @Test
    void dagsAreBoundedByTheirSizeUnfoldedOnEveryPathThatWalksThemAsTrees() throws Exception {
        survives("dags");
    }

    @Test
    void openAttackCloseCyclesLeaveMemoryAtomsFdsAndThreadsFlat() throws Exception {
        survives("budget-cycles");
    }

    private void survives(String attackClass) throws Exception {
        java.util.concurrent.Future<Ran> run = runs.get(attackClass);
        assertThat(run).as("attack class %s is among ATTACK_CLASSES", attackClass).isNotNull();
        Ran r = run.get(10, TimeUnit.MINUTES);
        String out = r.out();
        if (attackClass.equals("budget-cycles") || attackClass.equals("budgets")) {
            System.out.println(out);        // the figures they measure
        }
        assertThat(r.ended()).as("the child JVM ended; it said:%n%s", out).isTrue();
        assertThat(out).as("the child JVM survived every variant; it said:%n%s", out).contains("SURVIVED");
        assertThat(out).as("no variant failed").doesNotContain("FAIL ");
        assertThat(r.exit()).as("exit status; the child said:%n%s", out).isZero();
        Matcher m = RSS.matcher(out);
        assertThat(m.find()).isTrue();
        assertThat(Long.parseLong(m.group(1))).as("resident memory of the child JVM in kB").isLessThan(MAX_RSS_KB);
        afterAttacks(attackClass, out);
    }

    /** Runs attack class {@code attackClass} in a child JVM of its own, to its end. */
    private Ran run(String attackClass) throws IOException, InterruptedException {
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
            p.waitFor(30, TimeUnit.SECONDS);
        }
        return new Ran(ended, ended ? p.exitValue() : -1, out);
    }

    /**
     * What else a backend checks of an attack class's run, given what the child JVM printed (its
     * supplier may print more, e.g. how many of its Prologs served several sessions). Nothing by default.
     */
    protected void afterAttacks(String attackClass, String childOutput) {
    }
}

package io.prologtool.process;

import io.prologtool.ConsultResult;
import io.prologtool.Diagnostic;
import io.prologtool.GoalResult;
import io.prologtool.Outcome;
import io.prologtool.PrologSession;
import io.prologtool.SessionOptions;
import io.prologtool.Severity;
import org.junit.jupiter.api.Test;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Faults a session's code can cause on the process backend, and what is left afterwards: the JVM's
 * heap, the process table, the journal, {@code /tmp}, and the child's memory.
 */
class ProcessResilienceTest {

    @Test
    void stdoutFloodWithoutNewlineStopsTheChildAndKeepsTheJvmHeapFlat() throws Exception {
        ChildJvm.Result r = ChildJvm.run(FloodMain.class, "256m");
        assertThat(r.output()).as("output of the child JVM (status %d)", r.status())
                .doesNotContain("OutOfMemoryError")
                .contains("outcome=ERROR")
                .contains("error=session_crashed")
                .contains("line of more than " + ProcessBackend.DEFAULT_MAX_REPLY_BYTES + " bytes")
                .contains("after=SUCCESS");
        assertThat(r.status()).as(r.output()).isZero();
        long heap = Long.parseLong(r.output().replaceAll("(?s).*heap_used_mib=(\\d+).*", "$1"));
        assertThat(heap).as("MiB of heap in use after the flood").isLessThan(64);
    }

    @Test
    void aShellCommandOutlivesNeitherItsTimeLimitNorItsCall() throws Exception {
        try (ProcessBackend backend = ProcessBackend.builder().isolation(Isolation.none())
                .timeoutGrace(Duration.ofMillis(500)).build()) {
            PrologSession s = backend.open();
            GoalResult r = s.goal("shell('sleep 613')").timeLimit(Duration.ofSeconds(1)).run();
            assertThat(r.outcome()).isEqualTo(Outcome.TIMEOUT);
            awaitNoProcess("sleep 613");

            // Started in the background: it ends with the shell call that started it.
            assertThat(s.goal("shell('sleep 614 &')").run().outcome()).isEqualTo(Outcome.SUCCESS);
            awaitNoProcess("sleep 614");
            s.close();
        }
    }

    /**
     * A session of a registry on a store has its journal start from its last checkpoint, which every
     * changing call takes: when its child dies it is restored with the facts its goals asserted, not only
     * with what it consulted.
     */
    @Test
    void aSessionOnAStoreIsRestoredAfterItsChildDiesWithTheFactsItsGoalsAsserted() {
        try (ProcessBackend backend = ProcessBackend.builder().isolation(Isolation.none()).build();
             io.prologtool.SessionRegistry registry = io.prologtool.SessionRegistry.builder(backend)
                     .store(io.prologtool.SessionStore.inMemory())
                     .sessionOptions(SessionOptions.builder().sandboxed(false).build()).build()) {
            PrologSession s = registry.consult(":- dynamic fact/1.\nfact(0).\n").session();
            assertThat(s.goal("assertz(fact(1)), assertz(fact(2)), retract(fact(0))").run().succeeded()).isTrue();
            GoalResult killed = s.goal("shell('kill -9 $PPID')").run();
            assertThat(killed.error().orElseThrow().kind()).isEqualTo("session_crashed");

            GoalResult after = s.goal("findall(X, fact(X), L)").run();
            assertThat(after.answers().get(0).get("L")).hasToString("[1,2]");
            assertThat(s.restoreCount()).isEqualTo(1);
        }
        // without a store the journal holds the consults only: the asserted facts are gone
        try (ProcessBackend backend = ProcessBackend.builder().isolation(Isolation.none()).build();
             PrologSession s = backend.open(SessionOptions.builder().sandboxed(false).build())) {
            s.consult(":- dynamic fact/1.\nfact(0).\n");
            s.goal("assertz(fact(1))").run();
            s.goal("shell('kill -9 $PPID')").run();
            assertThat(s.goal("findall(X, fact(X), L)").run().answers().get(0).get("L")).hasToString("[0]");
        }
    }

    @Test
    void aConsultThatKillsItsChildIsDroppedOnReplayAndSaidSo() {
        try (ProcessBackend backend = ProcessBackend.builder().isolation(Isolation.none()).build();
             PrologSession s = backend.open()) {
            s.consult("kept(1).");
            ConsultResult killer = s.consult("killer.\n:- shell('kill -9 $PPID').\n");
            assertThat(killer.messages()).extracting(Diagnostic::message)
                    .anyMatch(m -> m.contains("session_crashed"))
                    .anyMatch(m -> m.contains("Dropped from session") && m.contains("starting \"killer.\"")
                            && m.contains("stopped the Prolog"));

            GoalResult again = s.goal("kept(X)").run();
            assertThat(again.outcome()).isEqualTo(Outcome.SUCCESS);
            assertThat(again.answers().get(0).get("X")).hasToString("1");
            assertThat(s.goal("killer").run().error().orElseThrow().kind()).isEqualTo("existence_error");
            assertThat(s.messages(Severity.INFO)).extracting(Diagnostic::message)
                    .anyMatch(m -> m.contains("Dropped from session") && m.contains("killer."));
            assertThat(s.isOpen()).isTrue();
        }
    }

    @Test
    void aConsultThatLoopsInACleanupHandlerIsDroppedOnReplay() {
        SessionOptions opts = SessionOptions.builder().consultTimeLimit(Duration.ofSeconds(1)).build();
        try (ProcessBackend backend = ProcessBackend.builder().isolation(Isolation.none())
                .timeoutGrace(Duration.ofMillis(500)).build();
             PrologSession s = backend.open(opts)) {
            s.consult("kept(1).");
            s.consult("looper.\n:- setup_call_cleanup(true, true, (repeat, sleep(0.01), fail)).\n");
            GoalResult r = s.goal("kept(X)").run();
            assertThat(r.outcome()).as("%s", r).isEqualTo(Outcome.SUCCESS);
            assertThat(s.goal("kept(1)").run().succeeded()).isTrue();
        }
    }

    @Test
    void aBackendNotClosedBeforeTheJvmExitsLeavesNoFolderBehind() throws Exception {
        ChildJvm.Result r = ChildJvm.run(LeftoverMain.class, "256m");
        assertThat(r.status()).as(r.output()).isZero();
        String dir = r.output().replaceAll("(?s).*workdir=(\\S+).*", "$1");
        assertThat(dir).as(r.output()).startsWith(System.getProperty("java.io.tmpdir").replaceAll("/$", "") + "/prologtool-");
        assertThat(Path.of(dir)).doesNotExist();
    }

    @Test
    void anAssertLoopEndsInAResourceErrorAndTheChildStaysUnderItsAddressSpaceLimit() {
        SessionOptions opts = SessionOptions.builder().clauseSpaceBytes(32L << 20).build();
        try (ProcessBackend backend = ProcessBackend.builder().isolation(Isolation.none()).build();
             PrologSession s = backend.open(opts)) {
            List<Long> pids = backend.childPids();
            assertThat(pids).hasSize(1);
            long pid = pids.get(0);
            assertThat(limitOf(pid)).as("/proc/%d/limits", pid).isEqualTo(ProcessBackend.DEFAULT_ADDRESS_SPACE_LIMIT);

            GoalResult r = s.goal("between(1, inf, N), assertz(fact(N, \"a string to take some room\")), fail")
                    .timeLimit(Duration.ofSeconds(60)).run();
            assertThat(r.outcome()).as("%s", r).isEqualTo(Outcome.ERROR);
            assertThat(r.error().orElseThrow().kind()).isEqualTo("resource_error");
            assertThat(r.error().orElseThrow().message()).contains("program_space");

            // Past the address-space limit: allocation fails inside the child, never in the machine.
            SessionOptions big = SessionOptions.builder().stackLimitBytes(8L << 30).build();
            try (PrologSession hog = backend.open(big)) {
                long hogPid = backend.childPids().stream().filter(p -> p != pid).findFirst().orElseThrow();
                GoalResult h = hog.goal("length(L, 300000000), L = [a|_]").timeLimit(Duration.ofSeconds(60)).run();
                assertThat(h.outcome()).as("%s", h).isEqualTo(Outcome.ERROR);
                assertThat(h.error().orElseThrow().kind()).isIn("resource_error", "session_crashed");
                String peak = ChildJvm.procStatus(hogPid, "VmPeak:");
                if (!peak.isEmpty()) {
                    assertThat(Long.parseLong(peak.replaceAll("\\D", "")) << 10)
                            .isLessThanOrEqualTo(ProcessBackend.DEFAULT_ADDRESS_SPACE_LIMIT);
                }
                assertThat(hog.goal("X = 1").run().succeeded()).isTrue();
            }
            assertThat(s.goal("fact(1, _)").run().succeeded()).isTrue();
        }
    }

    /** The soft "Max address space" limit of a process, in bytes (-1 for unlimited). */
    static long limitOf(long pid) {
        try {
            for (String line : Files.readAllLines(Path.of("/proc", Long.toString(pid), "limits"))) {
                if (line.startsWith("Max address space")) {
                    String soft = line.substring("Max address space".length()).trim().split("\\s+")[0];
                    return soft.equals("unlimited") ? -1 : Long.parseLong(soft);
                }
            }
        } catch (java.io.IOException e) {
            throw new AssertionError("cannot read /proc/" + pid + "/limits", e);
        }
        throw new AssertionError("no address-space line in /proc/" + pid + "/limits");
    }

    static void awaitNoProcess(String text) throws Exception {
        long until = System.nanoTime() + Duration.ofSeconds(10).toNanos();
        List<String> left = ChildJvm.processesMatching(text);
        while (!left.isEmpty() && System.nanoTime() < until) {
            Thread.sleep(50);
            left = ChildJvm.processesMatching(text);
        }
        assertThat(left).as("processes still running '%s' 10 s after their session's child ended", text).isEmpty();
    }
}

package io.prologtool.process;

import io.prologtool.ExecutionResult;
import io.prologtool.PrologBackend;
import io.prologtool.PrologExecutor;
import io.prologtool.conformance.ExecutorConformanceTest;
import org.junit.jupiter.api.Test;

import java.time.Duration;

import static org.assertj.core.api.Assertions.assertThat;

class ProcessExecutorConformanceTest extends ExecutorConformanceTest {
    @Override
    protected PrologBackend createBackend() {
        return ProcessBackend.builder().build();
    }

    private int children() {
        return ((ProcessBackend) backend).liveChildren();
    }

    @Test
    void callsStartNoProcess() {
        executor.execute("p(1).", "p(X)").run(); // the scratch sessions exist now
        executor.execute("p(1).", "p(X)").run();
        int before = children();
        for (int i = 0; i < 50; i++) {
            assertThat(executor.execute("p(" + i + ").", "p(X)").run().output()).isEqualTo("X = " + i + "\n");
        }
        assertThat(children()).isEqualTo(before);
    }

    @Test
    void aScratchSessionIsReplacedAfterRecycleAfterCalls() {
        try (PrologExecutor small = PrologExecutor.builder(backend).scratchSessions(1).recycleAfter(3).build()) {
            java.util.List<String> pids = new java.util.ArrayList<>();
            for (int i = 0; i < 7; i++) {
                ExecutionResult r = small.execute("", "current_prolog_flag(pid, P)").run();
                pids.add(r.answers().get(0).get("P").toString());
            }
            assertThat(pids.subList(0, 3)).containsOnly(pids.get(0));
            assertThat(pids.subList(3, 6)).containsOnly(pids.get(3));
            assertThat(java.util.Set.copyOf(pids)).hasSize(3);
        }
    }

    @Test
    void aRunThatIgnoresItsTimeLimitIsStoppedAndTheNextCallWorks() {
        // a loop inside a cleanup handler runs with signals blocked: only stopping the process ends it
        ExecutionResult r = executor.execute("stuck :- setup_call_cleanup(true, true, (repeat, fail)).", "stuck")
                .timeLimit(Duration.ofMillis(300)).run();
        assertThat(r.success()).isFalse();
        assertThat(r.errorCategory()).contains("timeout");
        for (int i = 0; i < 4; i++) { // whichever scratch session it was, it serves again
            assertThat(executor.execute("p(1).", "p(X)").run().output()).isEqualTo("X = 1\n");
        }
    }
}

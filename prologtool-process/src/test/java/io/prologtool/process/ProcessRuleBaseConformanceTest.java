package io.prologtool.process;

import io.prologtool.GoalResult;
import io.prologtool.Outcome;
import io.prologtool.PrologBackend;
import io.prologtool.PrologSession;
import io.prologtool.SessionOptions;
import io.prologtool.Term;
import io.prologtool.conformance.RuleBaseConformanceTest;
import org.junit.jupiter.api.Test;

import java.time.Duration;

import static org.assertj.core.api.Assertions.assertThat;

class ProcessRuleBaseConformanceTest extends RuleBaseConformanceTest {
    @Override
    protected PrologBackend createBackend() {
        return ProcessBackend.builder().build();
    }

    @Test
    void aRuleBaseIsJournalledAndReplayedWhenTheSessionIsRestored() {
        try (PrologSession s = backend.open(SessionOptions.builder().ruleBases(store).build())) {
            s.useRuleBase("family");
            s.consult("parent(tom, bob). parent(bob, ann).");
            // a goal that kills its own process
            GoalResult killed = s.goal("current_prolog_flag(pid, P), format(atom(C), 'kill -9 ~w', [P]), shell(C)")
                    .timeLimit(Duration.ofSeconds(5)).run();
            assertThat(killed.outcome()).isEqualTo(Outcome.ERROR);
            assertThat(killed.error().orElseThrow().kind()).isEqualTo("session_crashed");
            GoalResult r = s.goal("grandparent(tom, X)").run();
            assertThat(r.answers()).extracting(a -> a.get("X")).containsExactly(Term.atom("ann"));
            assertThat(s.restoreCount()).isEqualTo(1);
        }
    }
}

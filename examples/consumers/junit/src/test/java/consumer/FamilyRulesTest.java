package consumer;

import io.prologtool.ConsultResult;
import io.prologtool.GoalResult;
import io.prologtool.PrologBackend;
import io.prologtool.PrologSession;
import io.prologtool.junit.PlunitTests;
import io.prologtool.process.ProcessBackend;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.DynamicNode;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestFactory;

import java.util.stream.Stream;

import static io.prologtool.junit.PrologAssertions.assertThat;

/** The README's fixture example, as a user writes it: one test-scope dependency, prologtool-junit. */
class FamilyRulesTest {
    static PrologBackend backend = ProcessBackend.builder().build();

    @TestFactory
    Stream<DynamicNode> familyRules() {
        return PlunitTests.resource("prolog/family.pl").backend(backend).dynamicTests();
    }

    @Test
    void grandchildren() {
        try (PrologSession s = backend.open()) {
            ConsultResult c = s.consult("parent(tom, bob). parent(bob, ann). parent(bob, pat).\n"
                    + "grandparent(X, Z) :- parent(X, Y), parent(Y, Z).");
            assertThat(c).hasNoErrors();
            GoalResult r = s.goal("grandparent(tom, X)").run();
            assertThat(r).succeeded().hasAnswers(2).binding("X").isAtom("ann");
            assertThat(r).hasBindings("X", "ann", "pat");
            assertThat(s.goal("grandparent(ann, X)").run()).failed();
            assertThat(s.goal("grandparnt(tom, X)").run()).raised("existence_error");
        }
    }

    @AfterAll
    static void closeBackend() {
        backend.close();
    }
}

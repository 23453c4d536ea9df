package io.prologtool.conformance;

import io.prologtool.Diagnostic;
import io.prologtool.GoalResult;
import io.prologtool.Outcome;
import io.prologtool.PrologSession;
import io.prologtool.SessionOptions;
import io.prologtool.TestCase;
import io.prologtool.TestReport;
import io.prologtool.TestStatus;
import io.prologtool.Term;
import org.junit.jupiter.api.Test;

import java.time.Duration;

import static org.assertj.core.api.Assertions.assertThat;

/** Running plunit tests: tallies, per-test results, replacement on re-run, isolation and bounds. */
public abstract class TestsConformanceTest extends BackendFixture {

    private static final String FAMILY = """
            parent(tom, bob).
            parent(bob, ann).
            """;

    /** Three passing and two failing tests; the failures are on lines 5 and 6. */
    private static final String FAMILY_TESTS = """
            :- begin_tests(family).
            test(tom_bob) :- parent(tom, bob).
            test(bob_ann) :- parent(bob, ann).
            test(child, X == ann) :- parent(bob, X).
            test(ann_tom) :- parent(ann, tom).
            test(arith, X == 3) :- X is 2 + 2.
            :- end_tests(family).
            """;

    private static String unit(String name, String... tests) {
        StringBuilder sb = new StringBuilder(":- begin_tests(" + name + ").\n");
        for (String t : tests) {
            sb.append(t).append('\n');
        }
        return sb.append(":- end_tests(").append(name).append(").\n").toString();
    }

    private static TestCase only(TestReport r, String unit, String name) {
        return r.result(unit, name).orElseThrow(() -> new AssertionError("no result for " + unit + ":" + name
                + " in " + r));
    }

    @Test
    void passesAndFailuresAreCountedWithMessageAndLine() {
        session.consult(FAMILY);
        TestReport r = session.runTests(FAMILY_TESTS);
        assertThat(r.error()).as("%s", r).isEmpty();
        assertThat(r.passed()).as("%s", r).isEqualTo(3);
        assertThat(r.failed()).isEqualTo(2);
        assertThat(r.skipped()).isZero();
        assertThat(r.total()).isEqualTo(5);
        assertThat(r.results()).hasSize(5).allSatisfy(c -> assertThat(c.unit()).isEqualTo("family"));
        assertThat(r.results()).extracting(TestCase::name)
                .containsExactly("tom_bob", "bob_ann", "child", "ann_tom", "arith");

        TestCase annTom = only(r, "family", "ann_tom");
        assertThat(annTom.status()).isEqualTo(TestStatus.FAILED);
        assertThat(annTom.line()).isEqualTo(5);
        assertThat(annTom.message()).contains("ann_tom").contains("failed");

        TestCase arith = only(r, "family", "arith");
        assertThat(arith.status()).isEqualTo(TestStatus.FAILED);
        assertThat(arith.line()).isEqualTo(6);
        assertThat(arith.message()).contains("wrong answer").contains("expected 3").contains("got 4");

        assertThat(only(r, "family", "child").status()).isEqualTo(TestStatus.PASSED);
        assertThat(only(r, "family", "child").line()).isEqualTo(4);
        assertThat(r.allPassed()).isFalse();
        assertThat(r.messages()).isEmpty();
    }

    @Test
    void blockedTestCountsAsSkippedWithItsReason() {
        TestReport r = session.runTests(unit("blocking",
                "test(ok) :- true.",
                "test(x, [blocked(why)]) :- fail."));
        assertThat(r.passed()).as("%s", r).isEqualTo(1);
        assertThat(r.skipped()).isEqualTo(1);
        assertThat(r.failed()).isZero();
        assertThat(r.total()).isEqualTo(2);
        TestCase x = only(r, "blocking", "x");
        assertThat(x.status()).isEqualTo(TestStatus.SKIPPED);
        assertThat(x.message()).contains("why");
        assertThat(x.line()).isEqualTo(3);
        assertThat(r.allPassed()).isTrue();
    }

    @Test
    void testsSeeTheSessionsPredicates() {
        session.consult("""
                double(X, Y) :- Y is 2 * X.
                :- dynamic counter/1.
                counter(7).
                """);
        TestReport r = session.runTests(unit("uses_session",
                "test(double, Y == 10) :- double(5, Y).",
                "test(counter, N == 7) :- counter(N).",
                "test(library, L == 3) :- length([a,b,c], L)."));
        assertThat(r.passed()).as("%s", r).isEqualTo(3);
        assertThat(r.failed()).isZero();
    }

    @Test
    void runningTheSameTextAgainReplacesItsUnits() {
        session.consult(FAMILY);
        String text = "is_parent(X) :- parent(X, _).\n" + FAMILY_TESTS
                + unit("helpers", "test(helper) :- is_parent(tom).");
        TestReport first = session.runTests(text);
        TestReport second = session.runTests(text);
        assertThat(second.total()).as("%s", second).isEqualTo(6);
        assertThat(second.passed()).isEqualTo(first.passed()).isEqualTo(4);
        assertThat(second.failed()).isEqualTo(first.failed()).isEqualTo(2);
        assertThat(second.messages()).as("no redefinition warnings").isEmpty();
        assertThat(second.results()).isEqualTo(first.results());
    }

    /**
     * Messages name a session's texts by number ("consult N"): tests run again are the session's latest
     * text, never a number an earlier consult still has (counting the texts left after the old copy was
     * unloaded gave the re-run the number of the consult before it).
     */
    @Test
    void testsRunAgainAreNumberedAsTheLatestText() {
        String text = "shade(dark).\n" + unit("shades", "test(dark) :- shade(dark).");
        session.consult("a(1).");                               // consult 1
        assertThat(session.runTests(text).passed()).isEqualTo(1);  // consult 2
        session.consult("b(1).");                               // consult 3
        assertThat(session.runTests(text).passed()).isEqualTo(1);  // consult 4, replacing 2
        assertThat(session.consult("shade(light).").messages()).singleElement().satisfies(d -> {
            assertThat(d.kind()).isEqualTo("redefine");
            assertThat(d.message()).contains("consult 4, line 1").doesNotContain("consult 3");
        });
    }

    @Test
    void runningTheSameUnitsAgainGivesTheSameCounts() {
        session.consult(FAMILY);
        TestReport first = session.runTests(FAMILY_TESTS);
        TestReport second = session.runTests(FAMILY_TESTS);
        assertThat(second.total()).as("%s", second).isEqualTo(5);
        assertThat(second.passed()).isEqualTo(first.passed()).isEqualTo(3);
        assertThat(second.failed()).isEqualTo(first.failed()).isEqualTo(2);
        assertThat(second.messages()).as("no redefinition warnings").isEmpty();
        assertThat(second.results()).isEqualTo(first.results());
    }

    @Test
    void aChangedTextReplacesTheUnitOfTheSameName() {
        session.runTests(unit("evolving", "test(a) :- true.", "test(b) :- fail."));
        TestReport r = session.runTests(unit("evolving", "test(c) :- true."));
        assertThat(r.results()).as("%s", r).extracting(TestCase::name).containsExactly("c");
        assertThat(r.messages()).isEmpty();
    }

    @Test
    void twoUnitsInOneText() {
        TestReport r = session.runTests(unit("first", "test(a) :- true.", "test(b) :- true.")
                + unit("second", "test(c) :- fail."));
        assertThat(r.total()).as("%s", r).isEqualTo(3);
        assertThat(r.passed()).isEqualTo(2);
        assertThat(r.failed()).isEqualTo(1);
        assertThat(only(r, "first", "a").passed()).isTrue();
        assertThat(only(r, "second", "c").failed()).isTrue();
        assertThat(only(r, "second", "c").line()).isEqualTo(6);
    }

    @Test
    void unitsOfEarlierTextsRunWithoutNewText() {
        session.consult(FAMILY);
        session.runTests(FAMILY_TESTS);
        session.runTests(unit("more", "test(m) :- parent(tom, _)."));
        TestReport r = session.runTests();
        assertThat(r.total()).as("%s", r).isEqualTo(6);
        assertThat(r.passed()).isEqualTo(4);
        assertThat(r.failed()).isEqualTo(2);
        assertThat(r.results()).extracting(TestCase::unit).containsOnly("family", "more");
    }

    @Test
    void unitsLoadedByConsultAreSessionUnits() {
        session.consult(FAMILY + FAMILY_TESTS);
        TestReport r = session.runTests("");
        assertThat(r.total()).as("%s", r).isEqualTo(5);
        assertThat(r.passed()).isEqualTo(3);
    }

    @Test
    void syntaxErrorIsADiagnosticAndTheRestStillRuns() {
        TestReport r = session.runTests(unit("broken",
                "test(before) :- true.",
                "test(bad :- oops.",
                "test(after) :- true."));
        assertThat(r.messages()).as("%s", r).anySatisfy(d -> {
            assertThat(d.kind()).isEqualTo("syntax_error");
            assertThat(d.line()).isEqualTo(3);
        });
        assertThat(r.passed()).isEqualTo(2);
        assertThat(r.results()).extracting(TestCase::name).containsExactly("before", "after");
    }

    @Test
    void sessionsWithTheSameUnitNameDoNotInterfere() {
        try (PrologSession other = backend.open()) {
            session.runTests(unit("shared", "test(mine) :- true."));
            other.runTests(unit("shared", "test(theirs_a) :- true.", "test(theirs_b) :- fail."));
            TestReport mine = session.runTests();
            TestReport theirs = other.runTests();
            assertThat(mine.results()).as("%s", mine).extracting(TestCase::name).containsExactly("mine");
            assertThat(theirs.results()).as("%s", theirs).extracting(TestCase::name)
                    .containsExactly("theirs_a", "theirs_b");
            assertThat(theirs.failed()).isEqualTo(1);
        }
    }

    @Test
    void closingASessionLeavesNoUnitBehind() {
        PrologSession first = backend.open();
        first.consult(FAMILY);
        assertThat(first.runTests(FAMILY_TESTS).total()).isEqualTo(5);
        first.close();

        TestReport r = session.runTests(unit("family", "test(fresh) :- true."));
        assertThat(r.error()).as("%s", r).isEmpty();
        assertThat(r.results()).extracting(TestCase::name).containsExactly("fresh");
        assertThat(r.messages()).isEmpty();
        assertThat(session.goal("X = alive").run().outcome()).isEqualTo(Outcome.SUCCESS);
    }

    @Test
    void aLoopingTestIsBoundedByTheTimeLimit() {
        try (PrologSession s = backend.open(SessionOptions.builder()
                .consultTimeLimit(Duration.ofSeconds(2)).build())) {
            long start = System.nanoTime();
            TestReport r = s.runTests(unit("loops",
                    "test(quick) :- true.",
                    "test(forever) :- repeat, fail.",
                    "test(also_forever) :- repeat, fail."));
            Duration took = Duration.ofNanos(System.nanoTime() - start);
            assertThat(took).isLessThan(Duration.ofSeconds(4));
            assertThat(r.error()).as("%s", r).hasValueSatisfying(e -> assertThat(e.kind()).isEqualTo("timeout"));
            assertThat(only(r, "loops", "quick").passed()).isTrue();
            assertThat(only(r, "loops", "forever").failed()).isTrue();
            assertThat(only(r, "loops", "forever").message()).contains("time limit");

            GoalResult g = s.goal("X = still_here").run();
            assertThat(g.outcome()).isEqualTo(Outcome.SUCCESS);
            assertThat(g.answers().get(0).get("X")).isEqualTo(Term.atom("still_here"));
        }
    }

    @Test
    void aTestPastItsOwnTimeLimitFailsAndTheRunGoesOn() {
        SessionOptions options = SessionOptions.builder().testTimeLimit(Duration.ofMillis(500)).build();
        assertThat(options.testTimeLimit()).contains(Duration.ofMillis(500));
        assertThat(SessionOptions.defaults().testTimeLimit()).isEmpty();
        try (PrologSession s = backend.open(options)) {
            long start = System.nanoTime();
            TestReport r = s.runTests(unit("slow",
                    "test(spins) :- repeat, fail.",
                    "test(quick) :- true.",
                    "test(sleeps) :- sleep(5).",
                    "test(last) :- X = 1, X == 1."));
            Duration took = Duration.ofNanos(System.nanoTime() - start);
            assertThat(r.error()).as("%s", r).isEmpty();
            assertThat(only(r, "slow", "spins").failed()).isTrue();
            assertThat(only(r, "slow", "spins").message()).contains("time limit exceeded");
            assertThat(only(r, "slow", "sleeps").failed()).isTrue();
            assertThat(only(r, "slow", "sleeps").message()).contains("time limit exceeded");
            assertThat(only(r, "slow", "quick").passed()).isTrue();
            assertThat(only(r, "slow", "last").passed()).isTrue();
            assertThat(took).as("two tests of half a second each, not the 30 s of the run").isLessThan(Duration.ofSeconds(10));
            assertThat(s.goal("X = still_here").run().outcome()).isEqualTo(Outcome.SUCCESS);
            // the limit is for that run's tests only: a goal of the session is not bounded by it
            assertThat(s.goal("sleep(0.8)").run().outcome()).isEqualTo(Outcome.SUCCESS);
        }
    }

    @Test
    void aSandboxedSessionRunsOnlyTheTestsTheSandboxAllows() {
        try (PrologSession s = backend.open(SessionOptions.builder().sandboxed(true).build())) {
            s.consult("p(1).");
            TestReport r = s.runTests(unit("boxed",
                    "test(safe) :- p(1).",
                    "test(shell) :- shell('true').",
                    "test(file, [setup(open('prologtool-sandbox-test', write, _))]) :- true.",
                    "test(also_safe, X == 2) :- X is 1 + 1."));
            assertThat(r.messages()).as("%s", r).isEmpty();
            assertThat(only(r, "boxed", "safe").passed()).isTrue();
            assertThat(only(r, "boxed", "also_safe").passed()).isTrue();
            assertThat(only(r, "boxed", "shell").failed()).isTrue();
            assertThat(only(r, "boxed", "shell").message()).contains("Sandbox").contains("shell");
            assertThat(only(r, "boxed", "file").failed()).isTrue();
            assertThat(only(r, "boxed", "file").message()).contains("Sandbox").contains("open");
            assertThat(r.total()).isEqualTo(4);
        }
    }

    @Test
    void noUnitsMeansNoTests() {
        TestReport r = session.runTests("");
        assertThat(r.total()).isZero();
        assertThat(r.results()).isEmpty();
        assertThat(r.error()).isEmpty();
        assertThat(r.allPassed()).isTrue();
    }

    @Test
    void failureMessagesUseTheUsersNames() {
        TestReport r = session.runTests(unit("named",
                "test(undefined) :- no_such_predicate(1).",
                "test(raises) :- atom_length(_, _)."));
        assertThat(r.failed()).as("%s", r).isEqualTo(2);
        assertThat(r.failures()).extracting(TestCase::message)
                .allSatisfy(m -> assertThat(m).doesNotContain(session.moduleName()).doesNotContain("plunit_"));
        assertThat(only(r, "named", "undefined").message()).contains("no_such_predicate/1");
        assertThat(only(r, "named", "raises").message()).contains("instantiated");
    }

    @Test
    void loadDiagnosticsAreKeptAsSessionMessages() {
        TestReport r = session.runTests(unit("warned", "test(s) :- X = 1."));
        assertThat(r.messages()).extracting(Diagnostic::kind).contains("singleton");
        assertThat(session.messages()).extracting(Diagnostic::kind).contains("singleton");
    }
}

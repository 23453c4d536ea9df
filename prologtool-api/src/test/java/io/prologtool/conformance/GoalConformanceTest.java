package io.prologtool.conformance;

import io.prologtool.Answer;
import io.prologtool.GoalResult;
import io.prologtool.Outcome;
import io.prologtool.PrologError;
import io.prologtool.PrologSession;
import io.prologtool.Term;
import org.junit.jupiter.api.Test;

import java.math.BigInteger;
import java.time.Duration;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/** Running goals: typed answers, bounds as outcomes, errors as data, output captured. */
public abstract class GoalConformanceTest extends BackendFixture {

    private GoalResult run(String goal) {
        return session.goal(goal).run();
    }

    private Term only(String goal, String var) {
        GoalResult r = run(goal);
        assertThat(r.outcome()).as("%s -> %s", goal, r).isEqualTo(Outcome.SUCCESS);
        return r.answers().get(0).get(var);
    }

    private void assertSessionAnswers() {
        assertThat(run("X = still_here").answers().get(0).get("X")).isEqualTo(Term.atom("still_here"));
    }

    @Test
    void aShellCommandsOutputIsTheGoalsOutputAndItsStatusComesBack() {
        // shell/2 runs the command with its output captured like the goal's (never on the process's own
        // standard output: the JVM's, or the process backend's protocol stream) and an empty standard input
        try (PrologSession careless = backend.open(io.prologtool.SessionOptions.builder().sandboxed(false).build())) {
            GoalResult r = careless.goal("shell('echo out; echo err >&2; cat; exit 3', S)").run();
            assertThat(r.outcome()).as("%s", r).isEqualTo(Outcome.SUCCESS);
            assertThat(r.answers().get(0).get("S")).isEqualTo(Term.integer(3));
            assertThat(r.output()).isEqualTo("out\nerr\n");
            assertThat(careless.goal("shell('exit 1')").run().outcome()).isEqualTo(Outcome.FAILURE);
            assertThat(careless.goal("shell(true)").run().outcome()).isEqualTo(Outcome.SUCCESS);
            GoalResult interactive = careless.goal("shell").run();
            assertThat(interactive.error()).as("%s", interactive).map(PrologError::kind).contains("sandbox_violation");
        }
    }

    /**
     * A failed assertion/1 is an error the goal reports, with library(debug)'s report in its output, and
     * never starts SWI-Prolog's tracer (a swipl child serves as the toplevel goal, which library(debug)
     * takes for an interactive thread); the session answers after, with what it held.
     */
    @Test
    void aFailedAssertionIsAnErrorAndTheSessionAnswersAfter() {
        for (boolean sandboxed : new boolean[] {true, false}) {
            try (PrologSession s = backend.open(io.prologtool.SessionOptions.builder().sandboxed(sandboxed).build())) {
                assertThat(s.goal("assertz(kept(1))").run().outcome()).isEqualTo(Outcome.SUCCESS);
                for (String goal : List.of("assertion(1 == 2)", "X = [a, b], assertion(X == [])",
                        "findall(Y, (member(Y, [1, 2]), assertion(Y < 2)), _)")) {
                    GoalResult r = s.goal(goal).timeLimit(Duration.ofSeconds(10)).run();
                    assertThat(r.error()).as("%s (sandboxed: %s) -> %s", goal, sandboxed, r).hasValueSatisfying(e -> {
                        assertThat(e.kind()).isEqualTo("execution_exception");
                        assertThat(e.message()).contains("assertion");
                    });
                    assertThat(r.output()).as("%s", goal).contains("Assertion failed");
                }
                assertThat(s.goal("assertion(1 < 2), kept(X)").run().answers()).as("the fact asserted before").hasSize(1);
            }
        }
    }

    @Test
    void aCyclicAnswerWithADeepPartComesBackFactorised() {
        // its factorisation is linear in the term: with a part nested 5,000 deep it took about 15 s
        GoalResult r = session.goal("length(L, 5000), foldl([_, A, f(A)]>>true, L, z, T), X = g(X, T), Y = h(Y, Y)")
                .timeLimit(Duration.ofSeconds(5)).run();
        assertThat(r.outcome()).as("%s", r.outcome()).isEqualTo(Outcome.SUCCESS);
        Term x = r.answers().get(0).get("X");
        assertThat(x).isInstanceOf(Term.Compound.class);
        assertThat(((Term.Compound) x).functor()).isEqualTo("@");
        assertThat(r.answers().get(0).get("Y").toString()).isEqualTo("'@'(_G5003,['='(_G5003,h(_G5003,_G5003))])");
    }

    @Test
    void aGlobalVariableHoldingACyclicTermKeepsItFromOneGoalToTheNext() {
        // kept between requests in the recorded database: a clause cannot hold a cyclic term, and the
        // store's assert failing at the end of the request left the session busy for good
        GoalResult set = run("X = f(X, kept), nb_setval(cyclic_key, X)");
        assertThat(set.outcome()).as("%s", set).isEqualTo(Outcome.SUCCESS);
        GoalResult get = run("nb_getval(cyclic_key, V), V = f(W, A), W == V");
        assertThat(get.outcome()).as("%s", get).isEqualTo(Outcome.SUCCESS);
        assertThat(get.answers().get(0).get("A")).isEqualTo(Term.atom("kept"));
        assertSessionAnswers();
    }

    @Test
    void answersComeInQueryVariableOrder() {
        GoalResult r = run("Z = 3, A = 1, M = 2");
        assertThat(r.answers().get(0).variables()).containsExactly("Z", "A", "M");
    }

    @Test
    void aDictInAnAnswerComesBackAsItsPrintedForm() {
        GoalResult r = run("D = point{x: 1, y: 2}");
        assertThat(r.outcome()).as("%s", r).isEqualTo(Outcome.SUCCESS);
        assertThat(r.answers().get(0).get("D")).isEqualTo(io.prologtool.Term.atom("point{x:1,y:2}"));
    }

    @Test
    void textWithEveryCharacterJsonEscapesComesBackIntact() {
        // the control characters (NUL included), the quote, the backslash, then plain text and a non-ASCII letter
        StringBuilder expected = new StringBuilder();
        for (char c = 0; c < 32; c++) {
            expected.append(c);
        }
        expected.append("\"\\plain é");
        String codes = "numlist(0, 31, Cs), append(Cs, [0'\", 0'\\\\|`plain é`], L)";
        GoalResult r = run(codes + ", atom_codes(A, L), string_codes(S, L), atom_codes(Shown, L), write(Shown)");
        assertThat(r.outcome()).as("%s", r).isEqualTo(Outcome.SUCCESS);
        assertThat(r.answers().get(0).get("A")).isEqualTo(Term.atom(expected.toString()));
        assertThat(r.answers().get(0).get("S")).isEqualTo(Term.string(expected.toString()));
        assertThat(r.output()).isEqualTo(expected.toString());
    }

    @Test
    void underscoreVariablesAreNotReported() {
        GoalResult r = run("_Hidden = 1, X = 2, _ = 3");
        assertThat(r.answers().get(0).variables()).containsExactly("X");
    }

    @Test
    void goalWithoutVariablesSucceedsWithOneEmptyAnswer() {
        GoalResult r = run("true");
        assertThat(r.outcome()).isEqualTo(Outcome.SUCCESS);
        assertThat(r.answers()).singleElement().satisfies(a -> assertThat(a.variables()).isEmpty());
    }

    @Test
    void failureIsAnOutcomeWithNoAnswers() {
        GoalResult r = run("member(X, [])");
        assertThat(r.outcome()).isEqualTo(Outcome.FAILURE);
        assertThat(r.answers()).isEmpty();
        assertThat(r.error()).isEmpty();
    }

    @Test
    void atomsStringsAndNumbersNeverBlur() {
        assertThat(only("X = abc", "X")).isEqualTo(Term.atom("abc"));
        assertThat(only("X = \"abc\"", "X")).isEqualTo(Term.string("abc"));
        assertThat(only("X = '42'", "X")).isEqualTo(Term.atom("42"));
        assertThat(only("X = 42", "X")).isEqualTo(Term.integer(42));
        assertThat(only("X = 4.5", "X")).isEqualTo(Term.real(4.5));
        assertThat(only("X = \"4.5\"", "X")).isEqualTo(Term.string("4.5"));
    }

    @Test
    void trueFalseAndNullStayAtoms() {
        GoalResult r = run("X = true, Y = false, Z = null");
        Answer a = r.answers().get(0);
        assertThat(List.of(a.get("X"), a.get("Y"), a.get("Z")))
                .containsExactly(Term.atom("true"), Term.atom("false"), Term.atom("null"));
    }

    @Test
    void emptyListIsNotTheAtomBrackets() {
        assertThat(only("X = []", "X")).isEqualTo(Term.NIL);
        assertThat(only("X = '[]'", "X")).isEqualTo(Term.atom("[]"));
        assertThat(only("X = [a, \"b\", 1 | T]", "X")).isEqualTo(
                Term.list(List.of(Term.atom("a"), Term.string("b"), Term.integer(1)), Term.variable("_G1")));
    }

    @Test
    void atomsWithQuotesUnicodeAndNewlinesRoundTrip() {
        for (String name : List.of("it's", "say \"hi\"", "line1\nline2", "tab\there", "back\\slash",
                "caf\u00e9", "\u65e5\u672c\u8a9e", "emoji \uD83D\uDE00", "", "[]", "Upper", "with space")) {
            Term atom = Term.atom(name);
            assertThat(only("X = " + atom, "X")).as(atom.toString()).isEqualTo(atom);
            Term str = Term.string(name);
            assertThat(only("X = " + str, "X")).as(str.toString()).isEqualTo(str);
        }
    }

    @Test
    void bigIntegersAreExact() {
        assertThat(only("X is 2**200", "X")).isEqualTo(Term.integer(BigInteger.TWO.pow(200)));
        assertThat(only("X is -(2**100) - 1", "X"))
                .isEqualTo(Term.integer(BigInteger.TWO.pow(100).negate().subtract(BigInteger.ONE)));
    }

    @Test
    void infinityNanAndFloatsAreExact() {
        assertThat(only("X is inf", "X")).isEqualTo(Term.real(Double.POSITIVE_INFINITY));
        assertThat(only("X is -inf", "X")).isEqualTo(Term.real(Double.NEGATIVE_INFINITY));
        assertThat(only("X is nan", "X")).isEqualTo(Term.real(Double.NaN));
        assertThat(only("X = 1.0Inf", "X")).isEqualTo(Term.real(Double.POSITIVE_INFINITY));
        assertThat(only("X is 0.1 + 0.2", "X")).isEqualTo(Term.real(0.1 + 0.2));
        assertThat(only("X is -0.0", "X")).isEqualTo(Term.real(-0.0));
        assertThat(only("X is 1.0e300 * 10", "X")).isEqualTo(Term.real(1.0e301));
    }

    @Test
    void compoundsAndSharedVariablesAreTyped() {
        Answer a = run("X = point(Y, \"s\", [1, 2], f(Y)), Y = Z").answers().get(0);
        Term y = a.get("Y");
        assertThat(y).isInstanceOf(Term.Var.class);
        assertThat(a.get("Z")).isEqualTo(y);
        assertThat(a.get("X")).isEqualTo(Term.compound("point", y, Term.string("s"),
                Term.list(Term.integer(1), Term.integer(2)), Term.compound("f", y)));
    }

    @Test
    void cyclicTermComesBackAsAFiniteMarkerWithoutHanging() {
        GoalResult r = session.goal("X = f(X)").timeLimit(Duration.ofSeconds(5)).run();
        assertThat(r.outcome()).isEqualTo(Outcome.SUCCESS);
        Term x = r.answers().get(0).get("X");
        assertThat(x).isInstanceOf(Term.Compound.class);
        assertThat(((Term.Compound) x).functor()).isEqualTo("@");
        assertThat(x.toString()).contains("f(");
    }

    @Test
    void maxAnswersCutsTheSearchAndReportsTruncated() {
        GoalResult r = session.goal("between(1, inf, X)").maxAnswers(3).run();
        assertThat(r.outcome()).isEqualTo(Outcome.SUCCESS);
        assertThat(r.truncated()).isTrue();
        assertThat(r.answers()).extracting(a -> a.get("X"))
                .containsExactly(Term.integer(1), Term.integer(2), Term.integer(3));
        GoalResult exact = session.goal("member(X, [a, b, c])").maxAnswers(3).run();
        assertThat(exact.truncated()).isFalse();
        assertThat(exact.answers()).hasSize(3);
    }

    @Test
    void timeoutKeepsTheAnswersFoundBeforeIt() {
        GoalResult r = session.goal("(member(X, [1, 2, 3]) ; repeat, fail)")
                .timeLimit(Duration.ofMillis(500)).run();
        assertThat(r.outcome()).isEqualTo(Outcome.TIMEOUT);
        assertThat(r.answers()).extracting(a -> a.get("X"))
                .containsExactly(Term.integer(1), Term.integer(2), Term.integer(3));
        assertSessionAnswers();
    }

    @Test
    void timeoutOfDeepRecursionKeepsEarlierAnswers() {
        session.consult("nat(0).\nnat(N) :- nat(M), N is M + 1.\n");
        GoalResult r = session.goal("nat(X), (X < 3 ; X > 100000000)").timeLimit(Duration.ofMillis(700))
                .maxDepth(Long.MAX_VALUE / 2).run();
        assertThat(r.outcome()).isIn(Outcome.TIMEOUT, Outcome.ERROR);
        assertThat(r.answers()).extracting(a -> a.get("X"))
                .containsExactly(Term.integer(0), Term.integer(1), Term.integer(2));
        assertSessionAnswers();
    }

    @Test
    void theDefaultBoundsHoldWhenTheRequestLeavesThemToTheHarness() {
        // HarnessSession sends a bound only when it differs from the default: the harness's own defaults
        // must be GoalRequest's
        GoalResult r = session.goal("between(1, inf, X)").run();
        assertThat(r.truncated()).isTrue();
        assertThat(r.answers()).hasSize(io.prologtool.GoalRequest.DEFAULT_MAX_ANSWERS);
        session.consult("down(0) :- !.\ndown(N) :- N1 is N - 1, down(N1), true.\n");
        long deeper = io.prologtool.GoalRequest.DEFAULT_MAX_DEPTH + 1000;
        assertThat(session.goal("down(" + deeper + ")").run().outcome()).isEqualTo(Outcome.DEPTH_EXCEEDED);
        assertThat(session.goal("down(" + deeper + ")").maxDepth(2 * deeper).run().outcome())
                .isEqualTo(Outcome.SUCCESS);
    }

    @Test
    void depthLimitIsAnOutcomeWithTheAnswersFoundSoFar() {
        session.consult("deep(1).\ndeep(X) :- deep(Y), X is Y + 1.\n");
        GoalResult r = session.goal("deep(X)").maxAnswers(100).maxDepth(5).run();
        assertThat(r.outcome()).isEqualTo(Outcome.DEPTH_EXCEEDED);
        assertThat(r.depthExceeded()).isTrue();
        assertThat(r.answers()).extracting(a -> a.get("X")).startsWith(Term.integer(1), Term.integer(2));
    }

    @Test
    void anAnswerThatRestsOnABranchCutByTheDepthLimitIsNotReported() {
        session.consult("p(X) :- \\+ loop(X).\nloop(X) :- loop(X).\n");
        GoalResult r = session.goal("p(a)").maxDepth(1000).run();
        assertThat(r.outcome()).isEqualTo(Outcome.DEPTH_EXCEEDED);
        assertThat(r.answers()).isEmpty();
    }

    @Test
    void inferenceLimitBoundsTheWholeSearch() {
        GoalResult r = session.goal("between(1, inf, X), X < 0").maxInferences(100_000).run();
        assertThat(r.outcome()).isEqualTo(Outcome.INFERENCE_LIMIT);
        assertSessionAnswers();
    }

    @Test
    void runawayRecursionIsAResourceErrorAndTheSessionLives() {
        session.close();
        session = backend.open(io.prologtool.SessionOptions.builder().stackLimitBytes(64L << 20).build());
        session.consult("grow(L) :- grow([x|L]).\n");
        GoalResult r = session.goal("grow([])").maxDepth(Long.MAX_VALUE / 2).run();
        assertThat(r.outcome()).isEqualTo(Outcome.ERROR);
        assertThat(r.error().orElseThrow().kind()).isEqualTo("resource_error");
        assertSessionAnswers();
    }

    @Test
    void unknownPredicateIsAnExistenceErrorNamingSimilarOnes() {
        session.consult("parent(tom, bob).\nancestor(X, Y) :- parent(X, Y).\n");
        GoalResult r = run("ancestr(tom, X)");
        assertThat(r.outcome()).isEqualTo(Outcome.ERROR);
        PrologError e = r.error().orElseThrow();
        assertThat(e.kind()).isEqualTo("existence_error");
        assertThat(e.candidates()).first().isEqualTo("ancestor/2");
        assertThat(e.message()).contains("ancestr/2").contains("ancestor/2");
        assertThat(e.prologTerm()).get().asString().contains("existence_error");
    }

    @Test
    void isoErrorsComeBackWithTheirKinds() {
        assertThat(run("X is foo + 1").error().orElseThrow().kind()).isEqualTo("type_error");
        assertThat(run("X is Y + 1").error().orElseThrow().kind()).isEqualTo("instantiation_error");
        assertThat(run("X is 1 / 0").error().orElseThrow().kind()).isEqualTo("evaluation_error");
        assertThat(run("sort(0, bad, [], X)").error().orElseThrow().kind()).isEqualTo("domain_error");
        assertThat(run("atom_codes(_, [a|b])").error().orElseThrow().kind()).isIn("type_error", "instantiation_error");
    }

    @Test
    void nonIsoThrowIsAnExecutionException() {
        PrologError e = run("throw(my_ball(1))").error().orElseThrow();
        assertThat(e.kind()).isEqualTo("execution_exception");
        assertThat(e.prologTerm()).contains("my_ball(1)");
        assertSessionAnswers();
    }

    @Test
    void answersFoundBeforeAnErrorAreKept() {
        GoalResult r = run("member(X, [1, 2, oops]), Y is X * 2");
        assertThat(r.outcome()).isEqualTo(Outcome.ERROR);
        assertThat(r.answers()).extracting(a -> a.get("Y")).containsExactly(Term.integer(2), Term.integer(4));
    }

    @Test
    void goalTextWithTwoTermsIsASyntaxError() {
        GoalResult r = run("X = 1. Y = 2");
        assertThat(r.outcome()).isEqualTo(Outcome.ERROR);
        assertThat(r.error().orElseThrow().kind()).isEqualTo("syntax_error");
        assertThat(run("X = 1. Y = 2.").error().orElseThrow().kind()).isEqualTo("syntax_error");
    }

    @Test
    void trailingFullStopAndCommentsAreFine() {
        assertThat(only("X = 1.", "X")).isEqualTo(Term.integer(1));
        assertThat(only("X = 1 % the answer", "X")).isEqualTo(Term.integer(1));
        assertThat(only("X = 1. % the answer\n", "X")).isEqualTo(Term.integer(1));
        assertThat(only("  X =\n 1  ", "X")).isEqualTo(Term.integer(1));
    }

    /**
     * A goal text without a full stop is read in one step, one with a full stop (or a float, or a quoted
     * dot) by the general reader: both read with the session's operators and flags, and alike.
     */
    @Test
    void aGoalReadsAlikeWithAndWithoutItsFullStopUnderTheSessionsOperatorsAndFlags() {
        session.consult(":- op(700, xfx, ===>).\n:- set_prolog_flag(double_quotes, atom).\nrule(a ===> b).\n");
        for (String goal : List.of("X = a, Y = b, S = \"text\"", "rule(X ===> Y), S = \"text\"",
                "rule(X ===> Y), S = 'a.b'",
                "rule(X ===> Y), S = /* a comment */ \"text\" % and another")) {
            for (String text : List.of(goal, goal.contains("%") ? goal + "\n." : goal + ".")) {
                GoalResult r = run(text);
                assertThat(r.outcome()).as("%s -> %s", text, r).isEqualTo(Outcome.SUCCESS);
                assertThat(r.answers().get(0).variables()).as(text).containsExactly("X", "Y", "S");
                assertThat(r.answers().get(0).get("X")).as(text).isEqualTo(Term.atom("a"));
                assertThat(r.answers().get(0).get("S")).as(text)
                        .isIn(Term.atom("text"), Term.atom("a.b"));
            }
        }
        assertThat(run("X = 0.5, Y = 1 .").answers().get(0).get("Y")).isEqualTo(Term.integer(1));
        assertSessionAnswers();
    }

    @Test
    void malformedAndEmptyGoalsAreSyntaxErrors() {
        for (String bad : List.of("foo(", "", "   ", "X = = 1", "% only a comment", "1")) {
            GoalResult r = run(bad);
            assertThat(r.outcome()).as(bad).isEqualTo(Outcome.ERROR);
            assertThat(r.error().orElseThrow().kind()).as(bad).isIn("syntax_error", "type_error");
        }
        assertSessionAnswers();
    }

    @Test
    void aSyntaxErrorInAGoalIsSwiPrologsOwnWithItsLineAndColumn() {
        // with or without the full stop, the message is what swipl says of "X = = 1." and where
        for (String bad : List.of("X = = 1", "X = = 1.")) {
            String message = run(bad).error().orElseThrow().message();
            assertThat(message).as(bad).contains("Operator expected").contains("line 1, column 6")
                    .doesNotContain("end of file");
        }
        assertThat(run("foo(a b)").error().orElseThrow().message()).contains("Operator expected")
                .contains("line 1, column 6");
        assertThat(run("X = 1,\n  Y is 2 +* 3").error().orElseThrow().message()).contains("Operator expected")
                .contains("line 2");
        assertSessionAnswers();
    }

    @Test
    void goalReadingStandardInputReadsEndOfFile() {
        assertThat(only("read(X)", "X")).isEqualTo(Term.atom("end_of_file"));
        assertThat(only("read_term(user_input, X, [])", "X")).isEqualTo(Term.atom("end_of_file"));
        assertThat(only("get_char(X)", "X")).isEqualTo(Term.atom("end_of_file"));
    }

    @Test
    void writeOutputIsCapturedAndNeverCorruptsTheNextReply() {
        GoalResult r = run("write('{\"id\":1,\"ok\":true}'), nl, format(user_error, \"err~n\", []), X = 1");
        assertThat(r.output()).isEqualTo("{\"id\":1,\"ok\":true}\nerr\n");
        assertThat(r.outputTruncated()).isFalse();
        assertSessionAnswers();
    }

    @Test
    void outputIsCappedAndFlaggedWhenCut() {
        GoalResult r = run("forall(between(1, 100000, _), write(abcdefghij))");
        assertThat(r.outcome()).isEqualTo(Outcome.SUCCESS);
        assertThat(r.outputTruncated()).isTrue();
        assertThat(r.output()).hasSize(io.prologtool.SessionOptions.DEFAULT_MAX_OUTPUT_CHARS).startsWith("abcdefghij");
    }

    @Test
    void megabytesOfOutputComeBackWholeAndInOrder() {
        StringBuilder expected = new StringBuilder();
        for (int i = 1; i <= 300_000; i++) {
            expected.append(i).append('\n');
        }
        expected.append("é€\uD83D\uDE00");             // Latin-1, the BMP above it, and a pair past it
        try (PrologSession big = backend.open(io.prologtool.SessionOptions.builder()
                .maxOutputChars(expected.length() + 10).build())) {
            GoalResult r = big.goal("forall(between(1, 300000, I), format(\"~d~n\", [I])), "
                    + "atom_codes(A, [0xE9, 0x20AC, 0x1F600]), write(A)").run();
            assertThat(r.outcome()).isEqualTo(Outcome.SUCCESS);
            assertThat(r.outputTruncated()).isFalse();
            assertThat(r.output()).hasSize(expected.length()).isEqualTo(expected.toString());
        }
        assertSessionAnswers();
    }

    @Test
    void haltInAGoalIsAnErrorAndTheSessionLives() {
        session.consult("keep(me).");
        for (String halt : List.of("halt", "halt(0)", "system:halt", "G = halt, call(G)", "atom_concat(ha, lt, H), call(H)")) {
            GoalResult r = run(halt);
            assertThat(r.outcome()).as(halt).isEqualTo(Outcome.ERROR);
            // qualified (system:halt) is refused before it runs, as reaching outside the session
            assertThat(r.error().orElseThrow().kind()).as(halt).isIn("permission_error", "sandbox_violation");
        }
        assertThat(only("keep(X)", "X")).isEqualTo(Term.atom("me"));
    }

    @Test
    void sideEffectsCanBeRefusedPerGoal() {
        GoalResult r = session.goal("shell('touch /tmp/prologtool-should-not-exist')").allowSideEffects(false).run();
        assertThat(r.outcome()).isEqualTo(Outcome.ERROR);
        assertThat(r.error().orElseThrow().kind()).isEqualTo("sandbox_violation");
        assertThat(java.nio.file.Files.exists(java.nio.file.Path.of("/tmp/prologtool-should-not-exist"))).isFalse();
        GoalResult pure = session.goal("X is 6 * 7").allowSideEffects(false).run();
        assertThat(pure.answers().get(0).get("X")).isEqualTo(Term.integer(42));
    }

    @Test
    void withoutSideEffectsAGoalChangesNothingInTheSession() {
        session.consult(":- dynamic counter/1.\ncounter(1).");
        GoalResult r = session.goal("assertz(counter(7)), retract(counter(1)), counter(X)")
                .allowSideEffects(false).run();
        assertThat(r.outcome()).isEqualTo(Outcome.SUCCESS);
        assertThat(r.answers()).hasSize(1);
        assertThat(r.answers().get(0).get("X")).isEqualTo(Term.integer(7));
        GoalResult after = session.goal("counter(X)").run();
        assertThat(after.answers()).hasSize(1);
        assertThat(after.answers().get(0).get("X")).isEqualTo(Term.integer(1));
        // every answer up to max_answers still comes back, in order, with truncated
        GoalResult many = session.goal("assertz(counter(9)), between(1, 5, X)")
                .allowSideEffects(false).maxAnswers(3).run();
        assertThat(many.answers()).extracting(a -> a.get("X"))
                .containsExactly(Term.integer(1), Term.integer(2), Term.integer(3));
        assertThat(many.truncated()).isTrue();
        GoalResult all = session.goal("member(X, [a, b])").allowSideEffects(false).run();
        assertThat(all.answers()).hasSize(2);
        assertThat(all.truncated()).isFalse();
        // a goal stopped by a bound is rolled back too
        GoalResult timedOut = session.goal("assertz(counter(8)), repeat, fail")
                .allowSideEffects(false).timeLimit(Duration.ofMillis(500)).run();
        assertThat(timedOut.outcome()).isEqualTo(Outcome.TIMEOUT);
        assertThat(session.goal("counter(X)").run().answers()).hasSize(1);
        // nor the session's flags, which a snapshot does not roll back: refused
        GoalResult flag = session.goal("set_prolog_flag(double_quotes, codes)").allowSideEffects(false).run();
        assertThat(flag.error().orElseThrow().kind()).as("%s", flag).isEqualTo("sandbox_violation");
        GoalResult caught = session.goal("catch(set_prolog_flag(double_quotes, atom), _, true)")
                .allowSideEffects(false).run();
        assertThat(caught.outcome()).isEqualTo(Outcome.SUCCESS);
        assertThat(session.goal("X = \"ab\"").run().answers().get(0).get("X")).isEqualTo(Term.string("ab"));
        // with side effects allowed, changes stay
        session.goal("assertz(counter(2))").run();
        assertThat(session.goal("counter(X)").run().answers()).hasSize(2);
    }

    @Test
    void aRequestCanRunTwice() {
        session.consult("n(1).");
        var request = session.goal("n(X)");
        assertThat(request.run().answers()).hasSize(1);
        session.consult("m(2).");
        assertThat(request.run().answers()).hasSize(1);
    }
}

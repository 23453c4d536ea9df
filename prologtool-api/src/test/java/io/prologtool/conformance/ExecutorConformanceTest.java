package io.prologtool.conformance;

import com.fasterxml.jackson.databind.JsonNode;
import io.prologtool.ExecutionRequest;
import io.prologtool.ExecutionResult;
import io.prologtool.Outcome;
import io.prologtool.PrologExecutor;
import io.prologtool.ProofTree;
import io.prologtool.RuleBaseStore;
import io.prologtool.Term;
import io.prologtool.TraceResult;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * {@link PrologExecutor}: prolog-reasoner's stateless {@code execute_prolog} on pooled scratch sessions.
 * Every error category is triggered by a real program, and read from the error term.
 */
public abstract class ExecutorConformanceTest extends BackendFixture {

    protected PrologExecutor executor;
    protected Path rulesDir;

    @BeforeAll
    void startExecutor() throws IOException {
        rulesDir = Files.createTempDirectory("prologtool-rules-");
        executor = PrologExecutor.builder(backend).ruleBases(RuleBaseStore.directory(rulesDir)).build();
    }

    @AfterAll
    void stopExecutor() throws IOException {
        if (executor != null) {
            executor.close();
        }
        try (var files = Files.walk(rulesDir)) {
            files.sorted(java.util.Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
        }
    }

    private ExecutionResult run(String code, String query) {
        return executor.execute(code, query).run();
    }

    private static void assertFailed(ExecutionResult r, String category) {
        assertThat(r.success()).as("%s", r).isFalse();
        assertThat(r.error()).as("%s", r).isPresent();
        assertThat(r.errorCategory()).as("%s: %s", r.error().orElse(""), r.metadata()).contains(category);
        assertThat(r.errorExplanation().orElse("")).as("%s", r.metadata()).isNotBlank().endsWith(".");
    }

    // ------------------------------------------------------------------ the 30 problems

    @Test
    void theThirtyProblemsGiveTheirExpectedAnswers() {
        List<String> wrong = new ArrayList<>();
        for (Problems.Problem p : Problems.all()) {
            ExecutionResult r = run(p.code(), p.query());
            if (!r.success() || !Problems.answers(p, r)) {
                wrong.add(p.id() + " -> " + r + " " + r.metadata());
            }
        }
        assertThat(wrong).isEmpty();
    }

    @Test
    void theThirtyProblemsGiveTheirExpectedAnswersWithTrace() {
        List<String> wrong = new ArrayList<>();
        for (Problems.Problem p : Problems.all()) {
            ExecutionResult r = executor.execute(p.code(), p.query()).trace(true).run();
            List<TraceResult> traces = r.proofTrace().orElse(null);
            boolean consistent = traces != null && traces.size() == r.answers().size()
                    && traces.stream().allMatch(t -> t.tree().isPresent() && t.outcome() == Outcome.SUCCESS);
            if (!r.success() || !Problems.answers(p, r) || !consistent) {
                wrong.add(p.id() + " -> " + r + " " + r.metadata());
            }
        }
        assertThat(wrong).isEmpty();
    }

    // ------------------------------------------------------------------ answers and output

    @Test
    void answersComeAsBindingsAndAsOneLinePerSolution() {
        ExecutionResult r = run("human(socrates). human(plato). mortal(X) :- human(X).", "mortal(X)");
        assertThat(r.success()).isTrue();
        assertThat(r.output()).isEqualTo("X = socrates\nX = plato\n");
        assertThat(r.answers()).extracting(a -> a.get("X")).containsExactly(Term.atom("socrates"), Term.atom("plato"));
        assertThat(r.query()).isEqualTo("mortal(X)");
        assertThat(r.error()).isEmpty();
        assertThat(r.resultCount()).isEqualTo(2);
        assertThat(r.truncated()).isFalse();
    }

    @Test
    void aSolutionWithoutVisibleVariablesIsTrue() {
        ExecutionResult r = run("human(socrates). mortal(X) :- human(X).", "mortal(socrates)");
        assertThat(r.success()).isTrue();
        assertThat(r.output()).isEqualTo("true\n");
        assertThat(r.resultCount()).isEqualTo(1);
    }

    @Test
    void aQueryWithoutSolutionsSucceedsWithCountZeroAndOutputFalse() {
        ExecutionResult r = run("human(socrates).", "human(zeus)");
        assertThat(r.success()).isTrue();
        assertThat(r.resultCount()).isZero();
        assertThat(r.output()).isEqualTo("false\n");
        assertThat(r.metadata()).doesNotContainKey("error_category");
    }

    @Test
    void theQueryIsReadAsATermSoAFullStopOrACommentIsFine() {
        String code = "human(socrates). mortal(X) :- human(X).";
        for (String q : List.of("mortal(X).", "mortal(X). % who is mortal?", "mortal(X) % no full stop",
                "  mortal(X)  .  ", "mortal(X), % two lines\n  X \\== plato.")) {
            ExecutionResult r = run(code, q);
            assertThat(r.success()).as(q + " -> " + r).isTrue();
            assertThat(r.output()).as(q).isEqualTo("X = socrates\n");
        }
    }

    @Test
    void theQueryIsNeverPastedIntoTheSource() {
        // pasted into source text this would close the wrapper and run a directive
        ExecutionResult r = run("p(1).", "p(X)), halt. :- (true");
        assertFailed(r, "syntax_error");
        assertThat(run("p(1).", "p(X)").output()).isEqualTo("X = 1\n");
    }

    @Test
    void printedOutputComesBeforeTheSolutionLines() {
        ExecutionResult r = run(":- format(\"loading~n\").\ngreet(N) :- format(\"hello ~w~n\", [N]).",
                "member(N, [ann, bob]), greet(N)");
        assertThat(r.output()).isEqualTo("loading\nhello ann\nhello bob\nN = ann\nN = bob\n");
    }

    @Test
    void residualClpfdConstraintsAreShown() {
        ExecutionResult r = run(":- use_module(library(clpfd)).", "X #> 3, X #< 6");
        assertThat(r.success()).isTrue();
        assertThat(r.output()).isEqualTo("X in 4..5\n");
        assertThat(r.answers().get(0).residualGoals()).containsExactly("X in 4..5");
        ExecutionResult two = run(":- use_module(library(clpfd)).\nsmall(X) :- X in 1..3.", "small(X), Y #= X + 1");
        assertThat(two.output().strip()).contains("X in 1..3").contains("Y").contains("#=");
    }

    @Test
    void sharedAndFreeVariablesReadLikeTheToplevel() {
        ExecutionResult r = run("", "X = f(Y), Z = Y, A = \"text\", B = 'it''s', C = [1, 2|T]");
        assertThat(r.output()).isEqualTo("X = f(Y), Z = Y, A = \"text\", B = 'it\\'s', C = [1, 2|T]\n");
    }

    @Test
    void maxResultsBoundsTheSolutionsAndSaysTruncated() {
        ExecutionResult r = executor.execute("", "between(1, inf, X)").maxResults(3).run();
        assertThat(r.success()).isTrue();
        assertThat(r.resultCount()).isEqualTo(3);
        assertThat(r.truncated()).isTrue();
        assertThat(r.output()).isEqualTo("X = 1\nX = 2\nX = 3\n");
        ExecutionResult all = executor.execute("", "between(1, 3, X)").maxResults(3).run();
        assertThat(all.truncated()).isFalse();
        assertThat(executor.execute("", "between(1, 20000, X)").maxResults(10_000).run().resultCount())
                .isEqualTo(10_000);
        assertThat(executor.execute("", "X = 1").maxResults(1).run().resultCount()).isEqualTo(1);
    }

    @Test
    void maxResultsMustBeOneToTenThousand() {
        ExecutionRequest req = executor.execute("", "true");
        assertThatThrownBy(() -> req.maxResults(0)).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> req.maxResults(10_001)).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> req.timeLimit(Duration.ZERO)).isInstanceOf(IllegalArgumentException.class);
        assertThat(req.maxResults(1).maxResults()).isEqualTo(1);
        assertThat(req.maxResults(10_000).maxResults()).isEqualTo(10_000);
    }

    @Test
    void metadataHasPrologReasonersKeysInOrder() {
        // prolog-reasoner's keys in its order; what the run cost (cpu_time_ms, inferences) comes last
        ExecutionResult r = run("p(1).", "p(X)");
        assertThat(r.metadata().keySet()).containsExactly("execution_time_ms", "result_count", "truncated",
                "rule_bases_used", "warnings", "cpu_time_ms", "inferences");
        assertThat(r.metadata().get("rule_bases_used")).isEqualTo(List.of());
        ExecutionResult failed = run("p(1).", "q(X)");
        assertThat(failed.metadata().keySet()).containsExactly("execution_time_ms", "result_count", "truncated",
                "rule_bases_used", "warnings", "error_category", "error_explanation", "cpu_time_ms", "inferences");
        ExecutionResult traced = executor.execute("p(1).", "p(X)").trace(true).run();
        assertThat(traced.metadata().keySet()).containsExactly("execution_time_ms", "result_count", "truncated",
                "rule_bases_used", "warnings", "proof_trace", "cpu_time_ms", "inferences");
    }

    @Test
    void warningsAreReportedWithoutFailingTheRun() {
        ExecutionResult r = run("p(X, Y) :- q(X).\nq(1).", "p(1, Z)");
        assertThat(r.success()).isTrue();
        assertThat(r.warnings()).singleElement().asString().startsWith("line 1: ").contains("Singleton");
    }

    @Test
    void toJsonHasPrologReasonersReplyShape() {
        JsonNode ok = run("p(1).", "p(X)").toJson();
        assertThat(ok.fieldNames()).toIterable().containsExactly("success", "output", "query", "error", "metadata",
                "answers");
        assertThat(ok.get("success").asBoolean()).isTrue();
        assertThat(ok.get("error").isNull()).isTrue();
        assertThat(ok.get("metadata").get("result_count").asInt()).isEqualTo(1);
        assertThat(ok.get("answers").get(0).get("X").get("value").asInt()).isEqualTo(1);
        JsonNode bad = run("p(1).", "q(X)").toJson();
        assertThat(bad.get("success").asBoolean()).isFalse();
        assertThat(bad.get("error").asText()).contains("q/1");
        assertThat(bad.get("metadata").get("error_category").asText()).isEqualTo("undefined_predicate");
        JsonNode traced = executor.execute("p(1).", "p(X)").trace(true).run().toJson();
        assertThat(traced.get("metadata").get("proof_trace").get(0).get("tree").get("goal").asText()).isEqualTo("p(1)");
    }

    // ------------------------------------------------------------------ errors, one category each

    @Test
    void syntaxErrorInTheCodeIsCategorisedWithItsLine() {
        ExecutionResult r = run("parent(tom, bob).\nancestor(X, Y) :- parent(X, Y.\n", "parent(tom, X)");
        assertFailed(r, "syntax_error");
        assertThat(r.error().get()).startsWith("line 2");
        // what loaded still answers
        assertThat(r.answers()).extracting(a -> a.get("X")).containsExactly(Term.atom("bob"));
    }

    @Test
    void syntaxErrorInTheQueryIsCategorised() {
        ExecutionResult r = run("p(1).", "p(X");
        assertFailed(r, "syntax_error");
        assertThat(r.error().get()).startsWith("query: ");
        assertFailed(run("p(1).", "p(X). p(Y)."), "syntax_error");
    }

    @Test
    void undefinedPredicateNamesThePredicateAndASimilarOne() {
        ExecutionResult r = run("human(socrates).\nmortal(X) :- humam(X).", "mortal(socrates)");
        assertFailed(r, "undefined_predicate");
        assertThat(r.error().get()).contains("humam/1");
        assertThat(r.errorExplanation().get()).contains("humam/1").contains("human/1");
    }

    @Test
    void clpfdConstraintsNeedNoImport() {
        ExecutionResult r = run("solve(Vs) :- Vs ins 1..2, all_different(Vs), label(Vs).", "solve([A, B])");
        assertThat(r.output()).as("%s", r).isEqualTo("A = 1, B = 2\nA = 2, B = 1\n");
        assertThat(r.warnings()).isEmpty();
    }

    @Test
    void unboundVariableInArithmeticIsCategorised() {
        ExecutionResult r = run("area(W, H, A) :- A is W * H.", "area(3, H, A)");
        assertFailed(r, "unbound_variable");
        assertThat(r.errorExplanation().get()).contains("label/1");
    }

    @Test
    void typeErrorIsCategorised() {
        ExecutionResult r = run("price(apple, cheap).\ntotal(T) :- price(apple, P), T is P + 1.", "total(T)");
        assertFailed(r, "type_error");
        assertThat(r.errorExplanation().get()).contains("cheap");
    }

    @Test
    void domainErrorIsCategorised() {
        ExecutionResult r = run("take(N, L, P) :- length(P, N), append(P, _, L).", "take(-1, [a, b], P)");
        assertFailed(r, "domain_error");
    }

    @Test
    void evaluationErrorIsCategorised() {
        ExecutionResult r = run("average(L, A) :- sum_list(L, S), length(L, N), A is S // N.", "average([], A)");
        assertFailed(r, "evaluation_error");
        assertThat(r.errorExplanation().get()).contains("division by zero");
    }

    @Test
    void permissionErrorIsCategorised() {
        ExecutionResult r = run("atom_length(X, 3).", "true");
        assertFailed(r, "permission_error");
        assertThat(r.error().get()).startsWith("line 1");
    }

    @Test
    void haltInTheCodeIsAnErrorNotAnEmptySuccess() {
        ExecutionResult r = run("mortal(socrates).\n:- halt.\n", "mortal(X)");
        assertFailed(r, "permission_error");
        assertThat(r.error().get()).startsWith("line 2").contains("halt");
        assertThat(r.output()).isEqualTo("X = socrates\n");
        ExecutionResult init = run("main :- write(hi), halt.\n:- initialization(main).\n", "true");
        assertThat(init.success()).isFalse();
        ExecutionResult script = run("main :- format(\"hi~n\").\n:- initialization(main, main).\n", "true");
        assertFailed(script, "permission_error"); // main runs, as in a script; its halt is refused
        assertThat(script.output()).isEqualTo("hi\ntrue\n");
        // the scratch session survives
        assertThat(run("p(1).", "p(X)").output()).isEqualTo("X = 1\n");
    }

    @Test
    void timeoutIsCategorised() {
        long t0 = System.nanoTime();
        ExecutionResult r = executor.execute("spin :- repeat, fail.", "spin").timeLimit(Duration.ofMillis(500)).run();
        assertFailed(r, "timeout");
        assertThat(r.error().get()).contains("timed out");
        assertThat((System.nanoTime() - t0) / 1_000_000).isLessThan(5_000);
    }

    @Test
    void statelessExecutionHasNoDepthLimitByDefault() {
        // a finite non-tail recursion that plain swipl finishes, two million calls deep
        ExecutionResult deep = executor.execute(
                        "count(0, 0) :- !.\ncount(N, C) :- N1 is N - 1, count(N1, C1), C is C1 + 1.\n",
                        "count(2000000, C)")
                .timeLimit(Duration.ofSeconds(60)).run();
        assertThat(deep.success()).as("%s", deep).isTrue();
        assertThat(deep.output()).isEqualTo("C = 2000000\n");

        // a runaway query ends at the time limit, as a timeout (a loop with a body: a bare last-call loop
        // runs up to 250 million inferences a second and may meet the inference backstop of 100 million
        // a second of the limit first, which ends it as a timeout before the second is over)
        long t0 = System.nanoTime();
        ExecutionResult loop = executor.execute("loop :- atom_codes(A, \"abcdefgh\"), atom_length(A, _), loop.", "loop")
                .timeLimit(Duration.ofSeconds(1)).run();
        long ms = (System.nanoTime() - t0) / 1_000_000;
        assertFailed(loop, "timeout");
        assertThat(ms).isGreaterThanOrEqualTo(900).isLessThan(10_000);

        // running out of stack has its own explanation
        ExecutionResult stack = executor.execute("deep(N) :- N1 is N + 1, deep(N1), true.", "deep(0)")
                .timeLimit(Duration.ofSeconds(60)).run();
        assertFailed(stack, "unknown");
        assertThat(stack.errorExplanation().orElse("")).contains("stack limit").contains("tail recursive");
    }

    @Test
    void aDirectiveThatLoopsTimesOutWhileLoading() {
        ExecutionResult r = executor.execute("p(1).\n:- repeat, fail.\n", "p(X)")
                .timeLimit(Duration.ofMillis(500)).run();
        assertFailed(r, "timeout");
    }

    @Test
    void traceMechanismErrorWhenTheTracedRunDiffers() {
        String code = ":- dynamic seen/0.\nfirst_time :- \\+ seen, assertz(seen).";
        ExecutionResult plain = run(code, "first_time");
        assertThat(plain.success()).isTrue();
        ExecutionResult traced = executor.execute(code, "first_time").trace(true).run();
        assertFailed(traced, "trace_mechanism_error");
        assertThat(traced.answers()).hasSize(1); // the untraced run's solution is kept
        assertThat(traced.error().get()).startsWith("trace: ");
    }

    @Test
    void anUncaughtThrowIsUnknown() {
        ExecutionResult r = run("check(X) :- ( X > 10 -> true ; throw(too_small(X)) ).", "check(3)");
        assertFailed(r, "unknown");
        assertThat(r.errorExplanation().get()).contains("too_small(3)");
    }

    @Test
    void runawayRecursionIsUnknownWithAHint() {
        ExecutionResult r = run("count(N) :- count(M), N is M + 1.", "count(X)");
        assertFailed(r, "unknown");
        assertThat(r.errorExplanation().get()).contains("base case");
    }

    @Test
    void solutionsFoundBeforeARuntimeErrorAreKept() {
        ExecutionResult r = run("item(1). item(2). item(oops). item(4).", "item(X), Y is X * 2");
        assertFailed(r, "type_error");
        assertThat(r.answers()).hasSize(2);
        assertThat(r.output()).isEqualTo("X = 1, Y = 2\nX = 2, Y = 4\n");
        assertThat(r.resultCount()).isEqualTo(2);
    }

    // ------------------------------------------------------------------ statelessness and the pool

    @Test
    void nothingSurvivesACall() {
        assertThat(run(":- op(700, xfx, ===>).\n:- dynamic fact/1.\na ===> b.\np(1).", "assertz(fact(1)), a ===> X")
                .output()).isEqualTo("X = b\n");
        assertFailed(run("", "p(X)"), "undefined_predicate");
        assertFailed(run("", "fact(X)"), "undefined_predicate");
        assertFailed(run("", "X = (a ===> b)"), "syntax_error");
        assertThat(run(":- use_module(library(clpfd)).", "X #= 1 + 2").output()).isEqualTo("X = 3\n");
        // the preloaded libraries need no declaration, before or after a call that imported one
        assertThat(run("", "X #= 1 + 2").output()).isEqualTo("X = 3\n");
        assertThat(run("", "X in 1..3, X #\\= 2").output()).isEqualTo("X in 1\\/3\n");
        assertThat(run("rows([[1, 2], [3, 4]]).", "rows(R), transpose(R, C)").output())
                .isEqualTo("R = [[1, 2], [3, 4]], C = [[1, 3], [2, 4]]\n");
    }

    @Test
    void executionsDoNotSeeOrChangeSessions() {
        session.consult("secret(42).");
        assertFailed(run("", "secret(X)"), "undefined_predicate");
        run("secret(1).", "true");
        assertThat(session.goal("secret(X)").run().answers()).extracting(a -> a.get("X"))
                .containsExactly(Term.integer(42));
    }

    @Test
    void aSandboxedExecutorRefusesSideEffects() {
        try (PrologExecutor sandboxed = PrologExecutor.builder(backend).scratchSessions(1)
                .sessionOptions(io.prologtool.SessionOptions.builder().sandboxed(true).build()).build()) {
            assertFailed(sandboxed.execute("p(1).", "open('/tmp/prologtool-never', write, S)").run(),
                    "permission_error");
            ExecutionResult directive = sandboxed.execute(":- shell('true').\np(1).", "p(X)").run();
            assertFailed(directive, "permission_error");
            assertThat(directive.output()).isEqualTo("X = 1\n");
            assertThat(sandboxed.execute("p(1).", "p(X)").run().success()).isTrue();
        }
    }

    @Test
    void codeCannotReachAnotherModule() {
        ExecutionResult r = run("p :- user:assertz(hacked).", "p");
        assertThat(r.success()).isFalse();
        assertThat(r.errorCategory()).contains("permission_error");
    }

    @Test
    void concurrentCallsAreServedByThePool() throws Exception {
        ExecutorService pool = Executors.newFixedThreadPool(6);
        try {
            List<Future<ExecutionResult>> fs = new ArrayList<>();
            for (int i = 0; i < 24; i++) {
                int n = i;
                fs.add(pool.submit(() -> run("n(" + n + ").", "n(X)")));
            }
            for (int i = 0; i < fs.size(); i++) {
                assertThat(fs.get(i).get(60, TimeUnit.SECONDS).output()).isEqualTo("X = " + i + "\n");
            }
        } finally {
            pool.shutdownNow();
        }
    }

    // ------------------------------------------------------------------ rule bases

    @Test
    void ruleBasesAreLoadedBeforeTheCodeAndReported() {
        var store = executor.ruleBases();
        assertThat(store.save("kin", "% description: kin\ngrandparent(X, Z) :- parent(X, Y), parent(Y, Z).\n"
                + "parent(adam, cain).\n").isOk()).isTrue();
        ExecutionResult r = executor.execute("parent(cain, enoch).", "grandparent(adam, W)")
                .ruleBases("kin", "kin").run();
        assertThat(r.success()).as("%s", r).isTrue();
        assertThat(r.output()).isEqualTo("W = enoch\n"); // parent/2 has clauses in both, as when prepended
        assertThat(r.metadata().get("rule_bases_used")).isEqualTo(List.of("kin"));
        assertThat(r.metadata()).containsKey("rule_base_load_ms");
        assertThat(r.metadata().keySet()).containsSubsequence("rule_bases_used", "rule_base_load_ms", "warnings");
    }

    @Test
    void anUnknownRuleBaseIsAFailureWithItsCode() {
        ExecutionResult r = executor.execute("p(1).", "p(X)").ruleBases("no_such_rules").run();
        assertThat(r.success()).isFalse();
        assertThat(r.metadata().get("error_code")).isEqualTo("RULEBASE_001");
        assertThat(r.error().get()).contains("no_such_rules");
        ExecutionResult bad = executor.execute("p(1).", "p(X)").ruleBases("Bad Name").run();
        assertThat(bad.metadata().get("error_code")).isEqualTo("RULEBASE_002");
    }

    @Test
    void proofTreeLinesCountFromTheTextTheCallerSentWithRuleBasesLoaded() throws IOException {
        String header = "% description: grandparents\n" + "%\n".repeat(39);           // lines 1-40
        Files.writeString(rulesDir.resolve("grand.pl"), header + "grandparent(G, C) :- parent(G, P), parent(P, C).\n");
        ExecutionResult r = executor.execute("parent(tom, bob).\nparent(bob, ann).\nlonely(X) :- true.\n",
                "grandparent(tom, W)").ruleBases("grand").trace(true).run();
        assertThat(r.output()).as("%s", r).isEqualTo("W = ann\n");
        assertThat(r.warnings()).singleElement().asString().startsWith("line 3: ");
        ProofTree tree = r.proofTrace().orElseThrow().get(0).tree().orElseThrow();
        assertThat(tree.goal()).isEqualTo("grandparent(tom, ann)");
        assertThat(tree.ruleBase()).isEqualTo("grand");
        assertThat(tree.line()).isEqualTo(41);
        assertThat(tree.children()).extracting(ProofTree::goal, ProofTree::line, ProofTree::ruleBase)
                .containsExactly(org.assertj.core.groups.Tuple.tuple("parent(tom, bob)", 1, ""),
                        org.assertj.core.groups.Tuple.tuple("parent(bob, ann)", 2, ""));
        JsonNode json = r.toJson().get("metadata").get("proof_trace").get(0).get("tree");
        assertThat(json.get("rule_base").asText()).isEqualTo("grand");
        assertThat(json.get("children").get(0).has("rule_base")).isFalse();
        assertThat(json.get("children").get(1).get("line").asInt()).isEqualTo(2);
    }

    @Test
    void aRuleBasesDiagnosticsNameItAndUseItsLines() {
        Path file = rulesDir.resolve("broken.pl");
        try {
            Files.writeString(file, "ok(1).\nbroken(X :- .\n"); // written by hand, past save's check
        } catch (IOException e) {
            throw new AssertionError(e);
        }
        ExecutionResult r = executor.execute("q(1).\n", "q(X)").ruleBases("broken").run();
        assertFailed(r, "syntax_error");
        assertThat(r.error().get()).startsWith("rule base 'broken', line 2");
        assertThat(r.output()).isEqualTo("X = 1\n");
    }

    @Test
    void theBundledRuleBasesWork() {
        ExecutionResult family = executor.execute("""
                parent(tom, bob). parent(tom, liz). parent(bob, ann). parent(bob, pat). parent(liz, joe).
                male(tom). male(bob). female(liz). female(ann). female(pat).
                """, "grandparent(tom, X)").ruleBases("family").run();
        assertThat(family.output()).isEqualTo("X = ann\nX = pat\nX = joe\n");
        ExecutionResult more = executor.execute("""
                parent(tom, bob). parent(tom, liz). parent(bob, ann). parent(liz, joe).
                male(tom). male(bob). female(liz). female(ann).
                """, "aunt(A, ann) ; uncle(U, joe) ; cousin(ann, C) ; father(F, liz) ; ancestor(tom, D)")
                .ruleBases("family").run();
        assertThat(more.success()).as("%s", more).isTrue();
        assertThat(more.output()).isEqualTo("A = liz\nU = bob\nC = joe\nF = tom\nD = bob\nD = liz\nD = ann\nD = joe\n");
        ExecutionResult schedule = executor.execute("", "schedule([a-3, b-2, c-1], [a-c, b-c], S, M)")
                .ruleBases("scheduling").run();
        assertThat(schedule.output()).isEqualTo("S = [a-0, b-3, c-5], M = 6\n");
        ExecutionResult shared = executor.execute("", "schedule([a-3-2, b-2-1, c-2-2], [], 3, S, M)")
                .ruleBases("scheduling").run();
        assertThat(shared.output()).isEqualTo("S = [a-0, b-0, c-3], M = 5\n");
        ExecutionResult deadline = executor.execute("tasks([a-3-1, b-2-1, c-1-1]).", """
                tasks(Ts), schedule_with(Ts, [a-c], 1, S, M), deadline(S, Ts, b, 2),
                pairs_values(S, Starts), once(labeling([min(M)], [M|Starts]))""")
                .ruleBases("scheduling").run();
        assertThat(deadline.output()).as("%s", deadline).startsWith("Ts = [a-3-1, b-2-1, c-1-1], S = [a-2, b-0, c-5], M = 6");
    }

    @Test
    void tracedResultsCarryOneProofTreePerSolutionInOrder() {
        String code = "human(socrates). human(plato). human(aristotle). mortal(X) :- human(X).";
        ExecutionResult r = executor.execute(code, "mortal(Who)").trace(true).run();
        List<TraceResult> traces = r.proofTrace().orElseThrow();
        assertThat(traces).hasSize(3).allSatisfy(t -> assertThat(t.outcome()).isEqualTo(Outcome.SUCCESS));
        assertThat(traces).extracting(t -> t.tree().orElseThrow().goal())
                .containsExactly("mortal(socrates)", "mortal(plato)", "mortal(aristotle)");
        ProofTree first = traces.get(0).tree().orElseThrow();
        assertThat(first.children()).extracting(ProofTree::goal).containsExactly("human(socrates)");
        assertThat(first.line()).isEqualTo(1);

        ExecutionResult cut = executor.execute(code, "mortal(Who)").trace(true).maxResults(2).run();
        assertThat(cut.metadata().get("truncated")).isEqualTo(true);
        assertThat(cut.proofTrace().orElseThrow()).extracting(t -> t.tree().orElseThrow().goal())
                .containsExactly("mortal(socrates)", "mortal(plato)");

        ExecutionResult none = executor.execute(code, "mortal(zeus)").trace(true).run();
        assertThat(none.success()).isTrue();
        assertThat(none.proofTrace()).contains(List.of());
        assertThat(none.toJson().get("metadata").get("proof_trace").isArray()).isTrue();
    }

    @Test
    void noProofTraceWhenTheCodeDoesNotLoadOrTheQueryRaisesFirst() {
        ExecutionResult notLoaded = executor.execute("p(1.\n", "p(X)").trace(true).run();
        assertThat(notLoaded.success()).isFalse();
        assertThat(notLoaded.proofTrace()).isEmpty();
        assertThat(notLoaded.metadata()).doesNotContainKey("proof_trace");
        ExecutionResult raises = executor.execute("p(X) :- X is foo + 1.", "p(X)").trace(true).run();
        assertThat(raises.errorCategory()).contains("type_error");
        assertThat(raises.metadata()).doesNotContainKey("proof_trace");
    }

    @Test
    void aTracedRunThatFindsOtherSolutionsIsATraceMechanismError() {
        ExecutionResult r = executor.execute(":- dynamic seen/0.\np(1).\np(2) :- \\+ seen, assertz(seen).",
                "p(X)").trace(true).run();
        assertThat(r.answers()).hasSize(2);
        assertThat(r.errorCategory()).as("%s", r.metadata()).contains("trace_mechanism_error");
        assertThat(r.proofTrace().orElseThrow()).hasSize(1);
    }
}

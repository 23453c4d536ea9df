package io.prologtool.conformance;

import com.fasterxml.jackson.databind.JsonNode;
import io.prologtool.ConsultResult;
import io.prologtool.Diagnostic;
import io.prologtool.PrologSession;
import io.prologtool.ReplaceResult;
import io.prologtool.SessionOptions;
import io.prologtool.Severity;
import io.prologtool.json.TermJson;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Issue 17, part 2: the static check after a consult and a replacement. Every call to a predicate that is
 * neither defined in the session, nor a built-in, nor in a preloaded or autoloadable library is a warning
 * of kind {@code undefined_predicate} with the caller, the line of the calling clause and similar names.
 */
public abstract class StaticCheckConformanceTest extends BackendFixture {

    private static final String KIND = "undefined_predicate";

    /** The undefined_predicate warnings of a result, as "line: message". */
    private static List<String> findings(List<Diagnostic> messages) {
        return messages.stream().filter(d -> d.kind().equals(KIND))
                .map(d -> {
                    assertThat(d.severity()).as(d.toString()).isEqualTo(Severity.WARNING);
                    return d.line() + ": " + d.message();
                })
                .toList();
    }

    @Test
    void undefinedCallIsReportedWithCallerLineAndSimilarPredicates() {
        ConsultResult c = session.consult("solve(_, _, _).\nsolver(_, _).\n\n"
                + "best_move(S, M, V) :-\n    solve(S, M),\n    V = 1.\n");
        assertThat(c.hasErrors()).isFalse();
        assertThat(c.messages()).singleElement().satisfies(d -> {
            assertThat(d.kind()).isEqualTo(KIND);
            assertThat(d.severity()).isEqualTo(Severity.WARNING);
            assertThat(d.line()).isEqualTo(4);
            assertThat(d.message()).isEqualTo(
                    "Undefined procedure solve/2 called from best_move/3 (line 4); similar: solve/3, solver/2");
        });
        // it is one of the session's messages too
        assertThat(findings(session.messages())).containsExactly(
                "4: Undefined procedure solve/2 called from best_move/3 (line 4); similar: solve/3, solver/2");
    }

    @Test
    void eachCallingClauseIsReportedOnceForEachCallee() {
        ConsultResult c = session.consult("p(X) :- q(X), q(X), r(X).\np(X) :- q(X).\n");
        assertThat(findings(c.messages())).containsExactly(
                "1: Undefined procedure q/1 called from p/1 (line 1)",
                "1: Undefined procedure r/1 called from p/1 (line 1)",
                "2: Undefined procedure q/1 called from p/1 (line 2)");
    }

    @Test
    void aCallOfAPredicateDefinedLaterInTheTextIsFine() {
        ConsultResult c = session.consult("a :- b, c(1).\nb.\nc(X) :- X > 0.\n");
        assertThat(c.messages()).isEmpty();
    }

    @Test
    void dynamicAndDiscontiguousDeclarationsDefineAPredicate() {
        ConsultResult c = session.consult(":- dynamic seen/1.\n:- discontiguous step/2.\n"
                + "run(X) :- seen(X), step(X, _), unseen(X).\n");
        assertThat(findings(c.messages())).containsExactly(
                "3: Undefined procedure unseen/1 called from run/1 (line 3); similar: seen/1");
    }

    @Test
    void builtInsPreloadedAndAutoloadableLibraryPredicatesAreNotReported() {
        // transpose/2 (clpfd), sum_list/2, last/2 (lists), partition/4 (apply): preloaded;
        // vertices_edges_to_ugraph/3 (ugraphs): autoloadable; length/2, format/3, succ/2: built-ins
        ConsultResult c = session.consult("p(L, T, S, G) :-\n"
                + "    length(L, N), format(atom(_), '~w', [N]), succ(N, _),\n"
                + "    transpose(L, T), sum_list([1, 2], S), last([1], _),\n"
                + "    partition([X]>>(X > 1), [1, 2], _, _), _ #= 1 + 1,\n"
                + "    vertices_edges_to_ugraph([], [], G),\n"
                + "    succ_or_fail(N).\n");
        assertThat(findings(c.messages())).containsExactly(
                "1: Undefined procedure succ_or_fail/1 called from p/4 (line 1)");
    }

    @Test
    void metaArgumentsAreCheckedButAGoalBuiltAtRunTimeIsNotGuessed() {
        ConsultResult c = session.consult("run(G) :- call(G), G2 = nope_a, call(G2), call(G, 1).\n"
                + "known :- call(nope_b), findall(X, nope_c(X), _), forall(member(Y, [1]), nope_d(Y)),\n"
                + "    catch(nope_e, _, true), \\+ nope_f, aggregate_all(count, nope_g, _),\n"
                + "    maplist(nope_h, [1]), setof(A, B^nope_i(A, B), _), phrase(nope_j, [a]).\n");
        assertThat(findings(c.messages())).containsExactly(
                "2: Undefined procedure nope_b/0 called from known/0 (line 2)",
                "2: Undefined procedure nope_c/1 called from known/0 (line 2)",
                "2: Undefined procedure nope_d/1 called from known/0 (line 2)",
                "2: Undefined procedure nope_e/0 called from known/0 (line 2)",
                "2: Undefined procedure nope_f/0 called from known/0 (line 2)",
                "2: Undefined procedure nope_g/0 called from known/0 (line 2)",
                "2: Undefined procedure nope_h/1 called from known/0 (line 2)",
                "2: Undefined procedure nope_i/2 called from known/0 (line 2)",
                "2: Undefined procedure nope_j/2 called from known/0 (line 2)");
    }

    @Test
    void aCallInsideALambdaIsReportedForTheClauseThatHoldsIt() {
        ConsultResult c = session.consult("w(Xs) :-\n    maplist([X]>>(helper(X, Y), Y > 0), Xs).\n");
        assertThat(findings(c.messages())).containsExactly(
                "1: Undefined procedure helper/2 called from w/1 (line 1)");
    }

    @Test
    void aWarningGoesOnceAnotherConsultDefinesThePredicate() {
        assertThat(findings(session.consult("a :- helper(1).\n").messages())).containsExactly(
                "1: Undefined procedure helper/1 called from a/0 (line 1)");
        assertThat(findings(session.messages())).hasSize(1);
        ConsultResult later = session.consult("helper(_).\n");
        assertThat(later.messages()).isEmpty();
        assertThat(findings(session.messages())).isEmpty();
    }

    @Test
    void replacePredicateChecksTheNewClauses() {
        assertThat(session.consult("p :- q.\nq.\n").messages()).isEmpty();
        ReplaceResult r = session.replacePredicate("p", 0, "p :- q.\np :- r(1).\n");
        assertThat(r.replaced()).isTrue();
        assertThat(findings(r.messages())).containsExactly(
                "2: Undefined procedure r/1 called from p/0 (line 2)");
        // a later replacement without that call takes the warning back
        ReplaceResult fixed = session.replacePredicate("p", 0, "p :- q.\n");
        assertThat(fixed.messages()).isEmpty();
        assertThat(findings(session.messages())).isEmpty();
    }

    @Test
    void staticCheckCanBeTurnedOffForTheSessionOrForOneCall() {
        try (PrologSession off = backend.open(SessionOptions.builder().staticCheck(false).build())) {
            assertThat(off.consult("a :- b.\n").messages()).isEmpty();
            assertThat(off.replacePredicate("a", 0, "a :- c.\n").messages()).isEmpty();
            // the call's own choice wins over the session's
            assertThat(findings(off.consult("d :- e.\n", true).messages())).containsExactly(
                    "1: Undefined procedure e/0 called from d/0 (line 1)");
        }
        assertThat(session.consult("a :- b.\n", false).messages()).isEmpty();
        assertThat(session.replacePredicate("a", 0, "a :- c.\n", false).messages()).isEmpty();
        assertThat(findings(session.replacePredicate("a", 0, "a :- f.\n", true).messages())).containsExactly(
                "1: Undefined procedure f/0 called from a/0 (line 1)");
        assertThat(findings(session.messages())).containsExactly(
                "1: Undefined procedure f/0 called from a/0 (line 1)");
    }

    // ------------------------------------------------------------------ real LLM-written programs

    /** The programs of data/llm-programs/game-rules.jsonl by id. */
    private static Map<String, String> gameRules() {
        Map<String, String> programs = new LinkedHashMap<>();
        for (String line : TestData.lines("llm-programs/game-rules.jsonl")) {
            try {
                JsonNode n = TermJson.mapper().readTree(line);
                programs.put(n.get("id").asText(), n.get("generated_program").asText());
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        }
        return programs;
    }

    private List<String> findingsOf(String program) {
        try (PrologSession s = backend.open()) {
            return findings(s.consult(program).messages());
        }
    }

    @Test
    void gameRulesProgramsCallTheSolversHoldsTwoWithoutDefiningIt() {
        Map<String, String> programs = gameRules();
        assertThat(programs).hasSize(50);
        // every clause of the game description that asks what holds in a state
        assertThat(findingsOf(programs.get("bs_noncanonic_numbersv19_20241014_211911/Fudese"))).containsExactly(
                "36: Undefined procedure holds/2 called from legal/2 (line 36)",
                "39: Undefined procedure holds/2 called from possible/2 (line 39)",
                "40: Undefined procedure holds/2 called from possible/2 (line 40)",
                "55: Undefined procedure holds/2 called from finally/2 (line 55)");
        // final/1 is declared discontiguous and never defined: declared is defined; holds/2 is not
        assertThat(findingsOf(programs.get("hd_noncanonic_numbersv9_20241014_215817/Deliqe"))).containsExactly(
                "41: Undefined procedure holds/2 called from finally/2 (line 41)");
        // this one declares holds/2 discontiguous itself: nothing to report
        assertThat(findingsOf(programs.get("sh_noncanonic_numbersv3_20241014_230609/Liqude"))).isEmpty();
    }

    @Test
    void acrossAllFiftyGameRulesProgramsOnlyHoldsTwoIsMissing() {
        Map<String, Integer> callees = new TreeMap<>();
        int programsWithFindings = 0;
        for (String program : gameRules().values()) {
            try (PrologSession s = backend.open()) {
                List<Diagnostic> found = s.consult(program).messages().stream()
                        .filter(d -> d.kind().equals(KIND)).toList();
                if (!found.isEmpty()) {
                    programsWithFindings++;
                }
                for (Diagnostic d : found) {
                    String callee = d.message().replaceAll("^Undefined procedure (\\S+) called from .*$", "$1");
                    callees.merge(callee, 1, Integer::sum);
                }
            }
        }
        assertThat(callees).containsExactly(Map.entry("holds/2", 181));
        assertThat(programsWithFindings).isEqualTo(49);
    }
}

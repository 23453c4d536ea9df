package io.prologtool.conformance;

import com.fasterxml.jackson.databind.JsonNode;
import io.prologtool.ConsultResult;
import io.prologtool.Diagnostic;
import io.prologtool.GoalResult;
import io.prologtool.Outcome;
import io.prologtool.PrologSession;
import io.prologtool.SessionOptions;
import io.prologtool.Term;
import io.prologtool.json.TermJson;
import io.prologtool.tools.PrologTools;
import org.junit.jupiter.api.Test;

import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Issue 36, "Replies never cost a session" and "Wrong errors": an error whose culprit is huge, an answer
 * larger than a reply may be, text that JSON cannot carry as it is (lone surrogates), and the errors
 * the sandbox gives. Every case keeps the session and what it asserted. The cases with texts of many
 * megabytes run in a JVM of their own (HostileCode's attack class {@code replies}).
 */
public abstract class RepliesConformanceTest extends BackendFixture {

    private static final SessionOptions SANDBOXED = SessionOptions.builder().sandboxed(true).build();


    protected static PrologSession withFact(PrologSession s) {
        assertThat(s.goal("assertz(kept(1))").run().outcome()).isEqualTo(Outcome.SUCCESS);
        return s;
    }

    protected static void assertFactKept(PrologSession s) {
        GoalResult r = s.goal("kept(X)").run();
        assertThat(r.outcome()).as(r.toString()).isEqualTo(Outcome.SUCCESS);
        assertThat(r.answers().get(0).get("X")).isEqualTo(Term.integer(1));
        assertThat(s.crashCount()).as("the Prolog serving the session never stopped").isZero();
    }

    @Test
    void anErrorWithADeepOrLongCulpritIsCutAndMarked() {
        GoalResult r = withFact(session).goal("length(Cs, 100000), maplist(=(0'b), Cs), atom_codes(A, Cs), length(Xs, 200000), "
                + "throw(error(domain_error(small, f(Xs, A)), context(foo/1, Xs)))").run();
        assertThat(r.outcome()).as(r.toString()).isEqualTo(Outcome.ERROR);
        assertThat(r.error().orElseThrow().kind()).isEqualTo("domain_error");
        assertThat(r.error().orElseThrow().prologTerm().orElseThrow()).contains("...").hasSizeLessThan(10_000);
        assertThat(r.error().orElseThrow().message()).hasSizeLessThan(10_000);
        assertFactKept(session);
        GoalResult deep = session.goal("numlist(1, 100, L), foldl([_, A, f(A)]>>true, L, z, T), "
                + "throw(error(type_error(integer, T), _))").run();
        assertThat(deep.error().map(e -> e.kind())).as(deep.toString()).contains("type_error");
        assertThat(deep.error().orElseThrow().prologTerm().orElseThrow()).contains("...").hasSizeLessThan(10_000);
        GoalResult cyclic = session.goal("X = f(X, Y), Y = [X|Y], throw(error(type_error(integer, X), _))").run();
        assertThat(cyclic.error().map(e -> e.kind())).as(cyclic.toString()).contains("type_error");
        assertThat(cyclic.error().orElseThrow().message()).hasSizeLessThan(20_000);
        GoalResult small = session.goal("throw(error(type_error(integer, f(\"abc\", [1, 2, 3])), _))").run();
        assertThat(small.error().orElseThrow().prologTerm().orElseThrow())
                .startsWith("error(type_error(integer,f(\"abc\",[1,2,3])),").doesNotContain("...");
        assertFactKept(session);
    }

    private static final String LONE = "a\uD800b";

    @Test
    void loneSurrogatesComeBackAsTheyAreThroughTheJavaApi() {
        GoalResult r = session.goal("atom_codes(A, [0'a, 0xD800, 0'b]), string_codes(S, [0xDC00]), "
                + "T = f(A, [S])").run();
        assertThat(r.outcome()).as(r.toString()).isEqualTo(Outcome.SUCCESS);
        assertThat(r.answers().get(0).get("A")).isEqualTo(Term.atom(LONE));
        assertThat(r.answers().get(0).get("S")).isEqualTo(Term.string("\uDC00"));
        // wide text with no lone surrogate is as it was: a character above U+FFFF is one code point
        GoalResult wide = session.goal("atom_codes(C, [0x4e2d, 0x1F600]), atom_length(C, N)").run();
        assertThat(wide.answers().get(0).get("C")).isEqualTo(Term.atom("\u4e2d\uD83D\uDE00"));
        assertThat(wide.answers().get(0).get("N")).isEqualTo(Term.integer(2));
        // and the same text given by Java reaches Prolog as those code points
        GoalResult back = session.goal("X = '" + LONE + "', atom_codes(X, Cs)").run();
        assertThat(back.outcome()).as(back.toString()).isEqualTo(Outcome.SUCCESS);
        assertThat(back.answers().get(0).get("X")).isEqualTo(Term.atom(LONE));
        assertThat(back.answers().get(0).get("Cs").toString()).isEqualTo("[97,55296,98]");
        // the wire format itself round-trips it
        Term t = Term.compound("f", Term.atom(LONE), Term.string("\uDFFF\uD800"));
        assertThat(TermJson.fromJson(TermJson.toJson(t))).isEqualTo(t);
        assertThat(TermJson.decode(TermJson.encode(t))).isEqualTo(t);
    }

    @Test
    void loneSurrogatesComeBackAsTheyAreThroughTheToolLayer() throws Exception {
        try (PrologTools tools = PrologTools.over(backend)) {
            String goal = "atom_codes(A, [0'a, 0xD800, 0'b])";
            JsonNode x = TermJson.mapper().readTree(tools.call("execute_prolog",
                    TermJson.mapper().writeValueAsString(Map.of("prolog_code", "p.", "query", goal))));
            assertThat(x.path("success").asBoolean()).as(x.toString()).isTrue();
            assertThat(x.toString()).doesNotContain("internal_error");
            JsonNode c = TermJson.mapper().readTree(tools.call("consult_text",
                    TermJson.mapper().writeValueAsString(Map.of("source_text", "p."))));
            JsonNode g = TermJson.mapper().readTree(tools.call("run_goal", TermJson.mapper().writeValueAsString(
                    Map.of("load_id", c.get("load_id").asText(), "goal", goal))));
            assertThat(g.path("ok").asBoolean()).as(g.toString()).isTrue();
            assertThat(TermJson.decode(g.get("answers").get(0).get("A"))).isEqualTo(Term.atom(LONE));
        }
    }

    @Test
    void aSandboxedSessionHasGlobalVariablesOfItsOwn() {
        try (PrologSession s = backend.open(SANDBOXED); PrologSession other = backend.open(SANDBOXED)) {
            GoalResult set = s.goal("nb_setval(counter, 41), nb_getval(counter, X), b_setval(tmp, 1), b_getval(tmp, Y)")
                    .run();
            assertThat(set.outcome()).as(set.toString()).isEqualTo(Outcome.SUCCESS);
            assertThat(set.answers().get(0).get("X")).isEqualTo(Term.integer(41));
            assertThat(set.answers().get(0).get("Y")).isEqualTo(Term.integer(1));
            GoalResult later = s.goal("nb_getval(counter, X)").run();
            assertThat(later.answers()).as(later.toString()).hasSize(1);
            assertThat(later.answers().get(0).get("X")).isEqualTo(Term.integer(41));
            GoalResult unseen = other.goal("nb_getval(counter, X)").run();
            assertThat(unseen.outcome()).as(unseen.toString()).isEqualTo(Outcome.ERROR);
            assertThat(unseen.error().orElseThrow().kind()).isEqualTo("existence_error");
            assertThat(unseen.error().orElseThrow().message()).doesNotContain("prologtool");
        }
    }

    @Test
    void aSandboxedConsultDeclaresItsOwnOperators() {
        try (PrologSession s = backend.open(SANDBOXED); PrologSession other = backend.open(SANDBOXED)) {
            ConsultResult c = s.consult(":- op(700, xfx, ===>).\nrule(a ===> b).\nfollows(X, Y) :- rule(X ===> Y).\n");
            assertThat(c.errors()).as(c.toString()).isEmpty();
            GoalResult r = s.goal("follows(a, Y)").run();
            assertThat(r.outcome()).as(r.toString()).isEqualTo(Outcome.SUCCESS);
            assertThat(r.answers().get(0).get("Y")).isEqualTo(Term.atom("b"));
            GoalResult inGoal = s.goal("X = (p ===> q), X =.. L").run();
            assertThat(inGoal.outcome()).as(inGoal.toString()).isEqualTo(Outcome.SUCCESS);
            assertThat(inGoal.answers().get(0).get("L").toString()).isEqualTo("['===>',p,q]");
            // the operator is the session's own
            GoalResult elsewhere = other.goal("X = (p ===> q)").run();
            assertThat(elsewhere.error().map(e -> e.kind())).as(elsewhere.toString()).contains("syntax_error");
        }
    }

    @Test
    void everyRefusalOfTheSandboxIsSandboxViolation() {
        try (PrologSession s = backend.open(SANDBOXED)) {
            GoalResult bare = s.goal("G").run();
            assertThat(bare.error().map(e -> e.kind())).as(bare.toString()).contains("sandbox_violation");
            ConsultResult c = s.consult(":- shell(ls).\n:- open('/etc/passwd', read, _).\n:- G = true, G.\np.\n");
            assertThat(c.errors()).as(c.toString()).isNotEmpty();
            for (Diagnostic d : c.errors()) {
                assertThat(d.kind()).as(d.toString()).isEqualTo("sandbox_violation");
            }
            assertThat(s.goal("p").run().outcome()).isEqualTo(Outcome.SUCCESS);
        }
    }

    /** An unknown predicate in a sandboxed session is the existence error it is (it was sandbox_violation). */
    @Test
    void anUnknownPredicateInASandboxedSessionIsAnExistenceError() {
        try (PrologSession s = backend.open(SANDBOXED)) {
            s.consult("fooo(1).\n");
            GoalResult r = s.goal("foo(X)").run();
            assertThat(r.error().map(e -> e.kind())).as(r.toString()).contains("existence_error");
            assertThat(r.error().orElseThrow().candidates()).containsExactly("fooo/1");
            ConsultResult c = s.consult(":- no_such_directive_pred(1).\n");
            assertThat(c.errors()).extracting(d -> d.kind()).containsExactly("existence_error");
        }
    }

    @Test
    void aFormatThatRunsOutOfMemoryIsAResourceError() {
        try (PrologSession s = withFact(backend.open(SessionOptions.builder().maxOutputChars(1024).build()))) {
            GoalResult r = s.goal("format(atom(A), \"~*c\", [100000000000, 0'x])").timeLimit(java.time.Duration.ofSeconds(10))
                    .run();
            assertThat(r.outcome()).as(r.toString()).isEqualTo(Outcome.ERROR);
            assertThat(r.error().orElseThrow().kind()).as(r.toString()).isEqualTo("resource_error");
            assertFactKept(s);
        }
    }
}

package io.prologtool.conformance;

import com.fasterxml.jackson.databind.JsonNode;
import io.prologtool.ConsultResult;
import io.prologtool.Diagnostic;
import io.prologtool.GoalResult;
import io.prologtool.Outcome;
import io.prologtool.Severity;
import io.prologtool.Term;
import io.prologtool.json.TermJson;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.util.List;
import java.util.stream.Collectors;
import java.util.stream.IntStream;

import static org.assertj.core.api.Assertions.assertThat;

/** Loading text into a session: non-fatal, every problem a diagnostic at its line. */
public abstract class ConsultConformanceTest extends BackendFixture {

    private List<Term> xs(String goal) {
        GoalResult r = session.goal(goal).maxAnswers(100).run();
        assertThat(r.outcome()).as("%s -> %s", goal, r).isIn(Outcome.SUCCESS, Outcome.FAILURE);
        return r.answers().stream().map(a -> a.get("X")).toList();
    }

    @Test
    void consultLoadsClausesThatGoalsSee() {
        ConsultResult c = session.consult("parent(tom, bob).\nparent(bob, ann).\n"
                + "ancestor(X, Y) :- parent(X, Y).\nancestor(X, Y) :- parent(X, Z), ancestor(Z, Y).\n");
        assertThat(c.messages()).isEmpty();
        assertThat(xs("ancestor(tom, X)")).containsExactly(Term.atom("bob"), Term.atom("ann"));
    }

    @Test
    void syntaxErrorOnLineOneHasLineAndColumn() {
        ConsultResult c = session.consult("p(a :- .\nq(1).\n");
        Diagnostic d = c.errors().get(0);
        assertThat(d.kind()).isEqualTo("syntax_error");
        assertThat(d.severity()).isEqualTo(Severity.ERROR);
        assertThat(d.line()).isEqualTo(1);
        assertThat(d.column()).isPositive();
        assertThat(d.message()).containsIgnoringCase("syntax error");
        assertThat(xs("q(X)")).containsExactly(Term.integer(1));
    }

    @Test
    void syntaxErrorOnLineFortyIsReportedAtLineForty() {
        String text = IntStream.rangeClosed(1, 39).mapToObj(i -> "fact(" + i + ").")
                .collect(Collectors.joining("\n")) + "\nbroken(X :- foo(.\nfact(41).\n";
        ConsultResult c = session.consult(text);
        assertThat(c.errors()).hasSize(1);
        assertThat(c.errors().get(0).line()).isEqualTo(40);
        assertThat(c.errors().get(0).column()).isEqualTo(17); // the full stop after "foo("
        assertThat(xs("fact(X)")).hasSize(40).contains(Term.integer(41));
    }

    @Test
    void consultIsNonFatalAndKeepsEveryClauseThatCompiles() {
        ConsultResult c = session.consult("a(1).\nb :- (.\na(2).\nc(X) :- X > .\na(3).\n");
        assertThat(c.errors()).extracting(Diagnostic::line).containsExactly(2, 4);
        assertThat(xs("a(X)")).containsExactly(Term.integer(1), Term.integer(2), Term.integer(3));
    }

    @Test
    void singletonIsAWarningAtTheClauseLine() {
        ConsultResult c = session.consult("ok(1).\n\nq(X, Y) :- p(Y).\np(1).\n");
        assertThat(c.hasErrors()).isFalse();
        assertThat(c.messages()).singleElement().satisfies(d -> {
            assertThat(d.kind()).isEqualTo("singleton");
            assertThat(d.severity()).isEqualTo(Severity.WARNING);
            assertThat(d.line()).isEqualTo(3);
            assertThat(d.message()).contains("X");
        });
    }

    @Test
    void discontiguousClausesAreAcceptedWithAWarning() {
        ConsultResult c = session.consult("p(1).\nq(a).\np(2).\n");
        assertThat(c.messages()).extracting(Diagnostic::kind).containsExactly("discontiguous");
        assertThat(c.messages().get(0).line()).isEqualTo(3);
        assertThat(xs("p(X)")).containsExactly(Term.integer(1), Term.integer(2));
    }

    @Test
    void redefinitionInALaterConsultIsReportedAndReplaces() {
        session.consult("colour(red).\ncolour(green).\n");
        ConsultResult c = session.consult("size(big).\ncolour(blue).\n");
        assertThat(c.messages()).extracting(Diagnostic::kind).containsExactly("redefine");
        assertThat(c.messages().get(0).line()).isEqualTo(2);
        assertThat(xs("colour(X)")).containsExactly(Term.atom("blue"));
        assertThat(xs("size(X)")).containsExactly(Term.atom("big"));
    }

    @Test
    void laterConsultsAddToTheSession() {
        session.consult("a(1).");
        session.consult("b(2).");
        assertThat(xs("a(X)")).containsExactly(Term.integer(1));
        assertThat(xs("b(X)")).containsExactly(Term.integer(2));
    }

    @Test
    void failingDirectiveIsADiagnostic() {
        ConsultResult c = session.consult("a(1).\n:- a(2).\nb(1).\n");
        assertThat(c.messages()).singleElement().satisfies(d -> {
            assertThat(d.kind()).isEqualTo("directive_failed");
            assertThat(d.line()).isEqualTo(2);
            assertThat(d.severity()).isEqualTo(Severity.WARNING);
        });
        assertThat(xs("b(X)")).containsExactly(Term.integer(1));
    }

    @Test
    void raisingDirectiveIsOneErrorWithItsKind() {
        ConsultResult c = session.consult("a(1).\n:- atom_length(X, 3).\n:- undefined_thing.\n:- throw(my_ball).\n");
        assertThat(c.errors()).extracting(Diagnostic::kind, Diagnostic::line).containsExactly(
                org.assertj.core.groups.Tuple.tuple("instantiation_error", 2),
                org.assertj.core.groups.Tuple.tuple("existence_error", 3),
                org.assertj.core.groups.Tuple.tuple("directive_error", 4));
        assertThat(c.messages()).noneMatch(d -> d.kind().equals("directive_failed"));
    }

    @Test
    void moduleDeclarationInTextStillLandsInTheSessionModule() {
        ConsultResult c = session.consult(":- module(family, [parent/2]).\nparent(tom, bob).\n");
        assertThat(c.hasErrors()).isFalse();
        assertThat(xs("parent(tom, X)")).containsExactly(Term.atom("bob"));
        GoalResult qualified = session.goal("family:parent(tom, X)").run();
        assertThat(qualified.outcome()).isNotEqualTo(Outcome.SUCCESS);
    }

    @Test
    void directiveOutputIsCapturedAndNeverCorruptsTheNextReply() {
        ConsultResult c = session.consult(":- write('{\"id\": 999, \"ok\": true}'), nl.\n"
                + ":- format(user_error, \"to stderr~n\", []).\n:- print_message(informational, format(\"hi\", [])).\n"
                + "p(1).\n");
        assertThat(c.output()).contains("{\"id\": 999, \"ok\": true}").contains("to stderr");
        GoalResult r = session.goal("p(X)").run();
        assertThat(r.outcome()).isEqualTo(Outcome.SUCCESS);
        assertThat(r.answers()).hasSize(1);
    }

    @Test
    void directiveThatLoopsHitsTheConsultTimeLimit() {
        session.close();
        session = backend.open(io.prologtool.SessionOptions.builder()
                .consultTimeLimit(java.time.Duration.ofMillis(500)).build());
        ConsultResult c = session.consult("a(1).\n:- repeat, fail.\nb(2).\n");
        assertThat(c.errors()).isNotEmpty();
        assertThat(session.goal("a(X)").run().outcome()).isEqualTo(Outcome.SUCCESS);
    }

    @Test
    void initializationHaltDoesNotEndTheSession() {
        ConsultResult c = session.consult("p(1).\n:- initialization(halt).\n:- halt.\n");
        assertThat(c.errors()).isNotEmpty().allSatisfy(d -> assertThat(d.kind()).isEqualTo("permission_error"));
        assertThat(xs("p(X)")).containsExactly(Term.integer(1));
    }

    @Test
    void llmWrittenProgramsLoadWithDiagnosticsInsideTheirText() throws IOException {
        List<String> lines = TestData.lines("llm-programs/game-rules.jsonl");
        assertThat(lines).hasSize(50);
        int withDiagnostics = 0;
        for (String line : lines) {
            JsonNode rec = TermJson.mapper().readTree(line);
            String program = rec.path("generated_program").asText();
            long textLines = program.lines().count() + 1;
            session.close();
            session = backend.open();
            ConsultResult c = session.consult(program);
            for (Diagnostic d : c.messages()) {
                assertThat(d.line()).as("%s: %s", rec.path("id").asText(), d).isBetween(0, (int) textLines);
            }
            if (!c.messages().isEmpty()) {
                withDiagnostics++;
            }
            assertThat(session.goal("true").run().outcome()).isEqualTo(Outcome.SUCCESS);
        }
        assertThat(withDiagnostics).as("the set holds programs with errors and warnings").isPositive();
    }
}

package io.prologtool.examples.formalizer;

import io.prologtool.PrologBackend;
import io.prologtool.PrologSession;
import io.prologtool.examples.pararule.PararuleQuestion;
import io.prologtool.process.ProcessBackend;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;

import static io.prologtool.junit.PrologAssertions.assertThat;
import static org.assertj.core.api.Assertions.assertThat;

class TemplateFormalizerTest {

    static PrologBackend backend;

    @BeforeAll
    static void start() {
        backend = ProcessBackend.builder().poolSize(1).build();
    }

    @AfterAll
    static void stop() {
        if (backend != null) {
            backend.close();
        }
    }

    static final String EVERY_TEMPLATE = String.join(" ",
            "Anne is kind.",
            "The bald eagle chases the rabbit.",
            "If someone is kind then they are nice.",
            "If someone is nice and not big then they are smart.",
            "If something is not round then it is heavy.",
            "If something chases the rabbit then it is big.",
            "If something is big then it visits the dog.",
            "All smart people are quiet.",
            "Quiet animals are furry.");

    @Test
    void translatesEveryTemplateInThePapersReading() {
        Formalization.Parsed f = TemplateFormalizer.paper().translate(new Problem("t", EVERY_TEMPLATE, "Anne is not furry."));
        assertThat(f.goal()).isEqualTo("\\+ furry(anne)");
        assertThat(f.program().lines().filter(l -> !l.startsWith("%") && !l.startsWith(":-")).toList()).containsExactly(
                "kind(anne).",
                "chases(bald_eagle, rabbit).",
                "nice(X) :- kind(X).",
                "smart(X) :- nice(X), \\+ initially(big, X).",
                "heavy(X) :- \\+ initially(round, X).",
                "big(X) :- chases(X, rabbit).",
                "visits(X, dog) :- big(X).",
                "quiet(X) :- smart(X).",
                "furry(X) :- quiet(X).",
                "initially(kind, anne).");
        assertThat(f.program()).contains(":- dynamic kind/1, chases/2, nice/1, smart/1, big/1, heavy/1, round/1, visits/2, quiet/1, furry/1.")
                .contains(":- table kind/1, chases/2,").contains(":- dynamic initially/2.");
    }

    @Test
    void negationAsFailureAndPlainSldnfDifferOnlyInNegationAndTabling() {
        Problem p = new Problem("t", "Bob is big. If someone is not small then they are kind. Kind people are nice. "
                + "If someone is nice then they are small.", "Bob is kind.");
        String naf = TemplateFormalizer.negationAsFailure().translate(p).program();
        String plain = TemplateFormalizer.plainSldnf().translate(p).program();
        assertThat(naf).contains("kind(X) :- tnot(small(X)).").contains(":- table ").doesNotContain("initially");
        assertThat(plain).contains("kind(X) :- \\+ small(X).").doesNotContain(":- table");
        assertThat(TemplateFormalizer.paper().name()).isEqualTo("template(paper, tabled)");
        assertThat(TemplateFormalizer.plainSldnf().name()).isEqualTo("template(naf)");
    }

    @Test
    void theSemanticsGiveTheirOwnAnswersAndPlainSldnfLoops() {
        // kind needs "not small"; small is derived through nice from kind: a cycle through negation
        Problem p = new Problem("t", "Bob is big. If someone is not small then they are kind. All kind people are nice. "
                + "If someone is nice then they are small.", "Bob is kind.");
        try (PrologSession s = backend.open()) {
            String paper = TemplateFormalizer.paper().translate(p).program();
            assertThat(s.consult(paper)).hasNoWarnings();
            assertThat(s.goal("kind(bob)").run()).succeeded();         // small(bob) is not an initial fact
        }
        try (PrologSession s = backend.open()) {
            Formalization.Parsed naf = TemplateFormalizer.negationAsFailure().translate(p);
            assertThat(s.consult(naf.program())).hasNoWarnings();
            // kind :- tnot(small), small :- nice :- kind: undefined under the well-founded semantics, so
            // neither "Bob is kind" nor "Bob is not kind" is true (bare kind(bob) would succeed conditionally)
            assertThat(naf.goal()).isEqualTo("call_delays(kind(bob), true)");
            assertThat(s.goal(naf.goal()).run()).failed();
            Formalization.Parsed negated = TemplateFormalizer.negationAsFailure().translate(
                    new Problem("t", p.context(), "Bob is not kind."));
            assertThat(negated.goal()).isEqualTo("call_delays(tnot(kind(bob)), true)");
            assertThat(s.goal(negated.goal()).run()).failed();
            assertThat(s.goal("kind(bob)").run()).succeeded();
        }
        try (PrologSession s = backend.open()) {
            assertThat(s.consult(TemplateFormalizer.plainSldnf().translate(p).program())).hasNoWarnings();
            assertThat(s.goal("kind(bob)").maxInferences(100_000).run()).hasOutcome(io.prologtool.Outcome.INFERENCE_LIMIT);
        }
    }

    @Test
    void aSentenceOutsideTheTemplatesIsMalformedAndNamesIt() {
        Formalization f = TemplateFormalizer.paper().formalize(
                new Problem("t", "Anne is kind. Anne loves all the cats she sees.", "Anne is kind."), List.of());
        assertThat(f).isInstanceOfSatisfying(Formalization.Malformed.class, m ->
                assertThat(m.message()).contains("\"Anne loves all the cats she sees.\"").contains("no PARARULE-Plus template"));
        assertThat(TemplateFormalizer.paper().formalize(new Problem("t", "Anne is not kind.", "Anne is kind."), List.of()))
                .isInstanceOfSatisfying(Formalization.Malformed.class, m -> assertThat(m.message()).contains("negated fact"));
        assertThat(TemplateFormalizer.paper().formalize(new Problem("t", "Anne is kind.", "Is Anne kind?"), List.of()))
                .isInstanceOfSatisfying(Formalization.Malformed.class, m -> assertThat(m.message()).contains("question"));
    }

    @Test
    void wordsThatNameBuiltInsArePrefixed() {
        Formalization.Parsed f = TemplateFormalizer.paper().translate(
                new Problem("t", "Bob is number. If someone is number then they are ground.", "Bob is ground."));
        assertThat(f.program()).contains("is_number(bob).").contains("is_ground(X) :- is_number(X).");
        assertThat(f.goal()).isEqualTo("is_ground(bob)");
    }

    @Test
    void everyDatasetQuestionTranslatesAndSampleProgramsLoadWithoutWarnings() throws IOException {
        List<PararuleQuestion> all = new ArrayList<>();
        for (String file : List.of("sample.jsonl", "sample-counterfactual.jsonl", "diverging.jsonl")) {
            all.addAll(PararuleQuestion.bundled(file));
        }
        assertThat(all).hasSize(700);
        for (TemplateFormalizer t : List.of(TemplateFormalizer.paper(), TemplateFormalizer.negationAsFailure(),
                TemplateFormalizer.plainSldnf())) {
            for (PararuleQuestion q : all) {
                assertThat(t.formalize(q.problem(), List.of())).as(q.id()).isInstanceOf(Formalization.Parsed.class);
            }
            for (PararuleQuestion q : List.of(all.get(0), all.get(150), all.get(650))) {
                try (PrologSession s = backend.open()) {
                    Formalization.Parsed f = t.translate(q.problem());
                    assertThat(s.consult(f.program())).as(q.id()).hasNoWarnings();
                    assertThat(s.goal(f.goal()).run().error()).as(q.id()).isEmpty();
                }
            }
        }
    }
}

package io.prologtool.examples.pararule;

import io.prologtool.PrologBackend;
import io.prologtool.SessionRegistry;
import io.prologtool.examples.formalizer.FormalizerAgent;
import io.prologtool.examples.formalizer.TemplateFormalizer;
import io.prologtool.examples.formalizer.Verdict;
import io.prologtool.process.ProcessBackend;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.IntStream;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class PararuleEvaluationTest {

    static PrologBackend backend;
    static SessionRegistry registry;
    static List<PararuleQuestion> sample;
    static List<PararuleQuestion> counterfactual;
    static List<PararuleQuestion> diverging;

    @BeforeAll
    static void start() throws IOException {
        backend = ProcessBackend.builder().poolSize(2).build();
        registry = SessionRegistry.builder(backend).build();
        sample = PararuleQuestion.bundled("sample.jsonl");
        counterfactual = PararuleQuestion.bundled("sample-counterfactual.jsonl");
        diverging = PararuleQuestion.bundled("diverging.jsonl");
    }

    @AfterAll
    static void stop() {
        if (registry != null) {
            registry.close();
        }
        if (backend != null) {
            backend.close();
        }
    }

    static FormalizerAgent agent(TemplateFormalizer f) {
        return FormalizerAgent.builder(registry).formalizer(f).maxInferences(100_000).build();
    }

    /** Every n-th question, so that each depth and rule type is in (the files are stratified in blocks). */
    static List<PararuleQuestion> every(List<PararuleQuestion> qs, int n) {
        return IntStream.range(0, qs.size()).filter(i -> i % n == 0).mapToObj(qs::get).toList();
    }

    @Test
    void thePapersReadingReproducesTheGoldLabelsOfTheOriginalQuestions() {
        List<PararuleQuestion> qs = every(sample, 5);
        AtomicInteger progress = new AtomicInteger();
        PararuleEvaluation.Report r = PararuleEvaluation.run(agent(TemplateFormalizer.paper()), qs, 3,
                p -> progress.incrementAndGet());
        assertThat(r.accuracy().correct()).isEqualTo(qs.size());
        assertThat(r.byDepth()).containsOnlyKeys(2, 3, 4, 5).allSatisfy((d, a) -> assertThat(a.rate()).isEqualTo(1.0));
        assertThat(r.byRuleType()).containsOnlyKeys("NegationRule", "NonNegationRule");
        assertThat(progress.get()).isEqualTo(qs.size());
        assertThat(r.results()).extracting(x -> x.question()).containsExactlyElementsOf(qs);
        assertThat(r.formalizer()).isEqualTo("template(paper, tabled)");
        assertThat(r.meanAttempts()).isEqualTo(1.0);
        assertThat(r.tokens()).isEmpty();
    }

    @Test
    void onDivergingQuestionsEachSemanticsGivesItsOwnLabel() {
        List<PararuleQuestion> qs = every(diverging, 5);
        PararuleEvaluation.Report paper = PararuleEvaluation.run(agent(TemplateFormalizer.paper()), qs, 3, p -> { });
        PararuleEvaluation.Report naf = PararuleEvaluation.run(agent(TemplateFormalizer.negationAsFailure()), qs, 3, p -> { });
        assertThat(paper.accuracy().rate()).isEqualTo(1.0);
        assertThat(naf.accuracy().correct()).isZero();
        assertThat(naf.against(PararuleQuestion::nafLabel, x -> true).rate()).isEqualTo(1.0);
        assertThat(naf.against(PararuleQuestion::nafLabel, x -> true).total()).isEqualTo(qs.size());
    }

    @Test
    void plainSldnfLoopsExactlyWhereTheDataSaysItDoes() {
        List<PararuleQuestion> qs = every(diverging, 4);
        assertThat(qs).anyMatch(q -> q.plainSldnfTerminates().equals(Optional.of(false)))
                .anyMatch(q -> q.plainSldnfTerminates().equals(Optional.of(true)));
        PararuleEvaluation.Report plain = PararuleEvaluation.run(agent(TemplateFormalizer.plainSldnf()), qs, 3, p -> { });
        for (PararuleEvaluation.Result r : plain.results()) {
            boolean terminates = r.question().plainSldnfTerminates().orElseThrow();
            assertThat(r.solution().hitBound()).as(r.question().id()).isEqualTo(!terminates);
            if (terminates) {
                assertThat(r.solution().answer()).as(r.question().id())
                        .isEqualTo(Verdict.of(r.question().nafLabel().orElseThrow()));
            }
        }
        assertThat(plain.unknown()).hasSameSizeAs(plain.hitBound());
    }

    /** A question of the file with one more sentence, which no template translates. */
    static PararuleQuestion untranslatable(PararuleQuestion q) {
        return new PararuleQuestion(q.id() + "-moon", q.depth(), q.ruleType(), q.domain(),
                q.context() + " Most people are kind sometimes.", q.question(), q.label(), q.nafLabel(),
                q.plainSldnfTerminates(), q.synthetic());
    }

    @Test
    void anUnansweredQuestionSaysWhichSentenceCouldNotBeTranslated() {
        PararuleQuestion q = untranslatable(sample.get(0));
        PararuleEvaluation.Report r = PararuleEvaluation.run(agent(TemplateFormalizer.paper()), List.of(q), 1, p -> { });
        PararuleEvaluation.Result result = r.results().get(0);
        assertThat(result.solution().answer()).isEqualTo(Verdict.UNKNOWN);
        assertThat(result.whyUnanswered()).hasValueSatisfying(why ->
                assertThat(why).contains("\"Most people are kind sometimes.\""));
        PararuleEvaluation.Report answered = PararuleEvaluation.run(agent(TemplateFormalizer.paper()),
                List.of(sample.get(0)), 1, p -> { });
        assertThat(answered.results().get(0).whyUnanswered()).isEmpty();
    }

    @Test
    void agreementCountsOnlyTheQuestionsBothAnswered() {
        List<PararuleQuestion> qs = new ArrayList<>(every(diverging, 4));
        qs.add(untranslatable(diverging.get(0)));
        PararuleEvaluation.Report plain = PararuleEvaluation.run(agent(TemplateFormalizer.plainSldnf()), qs, 3, p -> { });
        PararuleEvaluation.Report naf = PararuleEvaluation.run(agent(TemplateFormalizer.negationAsFailure()), qs, 3, p -> { });
        long loops = plain.hitBound().size();
        assertThat(loops).isPositive();
        assertThat(naf.unknown()).hasSize(1);                       // the untranslatable one, for both
        PararuleEvaluation.Accuracy agree = plain.agreement(naf, x -> true);
        assertThat(agree.total()).isEqualTo(qs.size() - loops - 1);
        // where plain SLDNF ends it gives the naf label, so both agree on every question both answered
        assertThat(agree.correct()).isEqualTo(agree.total());
        assertThat(plain.agreement(naf, x -> x.question().id().endsWith("-moon")).total()).isZero();
        PararuleEvaluation.Report shorter = PararuleEvaluation.run(agent(TemplateFormalizer.negationAsFailure()),
                qs.subList(0, 2), 1, p -> { });
        assertThatThrownBy(() -> plain.agreement(shorter, x -> true)).isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void counterfactualLabelsFollowTheClosedWorldReading() {
        List<PararuleQuestion> qs = every(counterfactual, 8);
        assertThat(qs).allMatch(PararuleQuestion::synthetic);
        PararuleEvaluation.Report naf = PararuleEvaluation.run(agent(TemplateFormalizer.negationAsFailure()), qs, 3, p -> { });
        assertThat(naf.accuracy().rate()).isEqualTo(1.0);
    }

    @Test
    void questionsOnOneContextShareASession() {
        List<PararuleQuestion> qs = new ArrayList<>(counterfactual.subList(0, 6));
        assertThat(qs.stream().map(PararuleQuestion::context).distinct()).hasSize(3);
        long before = registry.stats().opened();
        PararuleEvaluation.run(agent(TemplateFormalizer.paper()), qs, 2, p -> { });
        assertThat(registry.stats().opened() - before).isEqualTo(3);
    }

    @Test
    void readNamesTheLineThatIsNotAQuestion(@TempDir Path dir) throws IOException {
        Path f = dir.resolve("bad.jsonl");
        Files.writeString(f, "{\"id\":\"a\",\"depth\":2,\"rule_type\":\"X\",\"context\":\"c\",\"question\":\"q\",\"label\":true}\n"
                + "\n{\"id\":\"b\",\"context\":\"c\"}\n");
        assertThatThrownBy(() -> PararuleQuestion.read(f)).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("bad.jsonl:3");
        assertThat(new PararuleEvaluation.Accuracy(197, 200)).hasToString("0.985 (197/200)");
    }
}

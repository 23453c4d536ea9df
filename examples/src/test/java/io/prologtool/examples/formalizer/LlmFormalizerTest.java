package io.prologtool.examples.formalizer;

import dev.langchain4j.data.message.AiMessage;
import dev.langchain4j.data.message.ChatMessage;
import dev.langchain4j.data.message.SystemMessage;
import dev.langchain4j.data.message.UserMessage;
import dev.langchain4j.model.chat.request.ChatRequest;
import io.prologtool.PrologBackend;
import io.prologtool.SessionRegistry;
import io.prologtool.langchain4j.ScriptedChatModel;
import io.prologtool.process.ProcessBackend;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Optional;

import static org.assertj.core.api.Assertions.assertThat;

class LlmFormalizerTest {

    static PrologBackend backend;
    static SessionRegistry registry;

    @BeforeAll
    static void start() {
        backend = ProcessBackend.builder().poolSize(1).build();
        registry = SessionRegistry.builder(backend).build();
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

    /** PARARULE-Plus NegationRule-D2-6305 (the paper's Appendix A), gold label true. */
    static final Problem FIONA = new Problem("NegationRule-D2-6305",
            "Alan is big. Alan is high. Gary is small. Gary is thin. Fiona is smart. Harry is bad. Harry is poor. "
                    + "If someone is not strong then they are bad. If someone is not sad then they are nice. "
                    + "If someone is smart then they are kind. If someone is kind and not rough then they are quiet. "
                    + "If someone is bad and not strong then they are dull. If someone is small and thin then they are rough. "
                    + "If someone is rough and not kind then they are poor. All nice people are wealthy.",
            "Fiona is quiet.");

    static final String BROKEN = """
            <prolog>
            smart(fiona).
            initially(smart, fiona).
            kind(X) :- smart(X).
            quiet(X) :- kind(X), \\+ initially(rough X).
            </prolog>
            <goal_true>quiet(fiona)</goal_true>""";

    static final String FIXED = """
            Here it is again.
            <prolog>
            ```prolog
            :- dynamic initially/2.
            smart(fiona).
            initially(smart, fiona).
            kind(X) :- smart(X).
            quiet(X) :- kind(X), \\+ initially(rough, X).
            ```
            </prolog>
            <goal_true>?- quiet(fiona).</goal_true>""";

    @Test
    void aRepairRoundFixesASyntaxErrorAndTheAnswerIsTrue() {
        ScriptedChatModel model = new ScriptedChatModel(
                req -> AiMessage.from(BROKEN),
                req -> {
                    String feedback = ((UserMessage) last(req)).singleText();
                    assertThat(feedback).contains("did not load").contains("syntax_error").contains("\"line\":4");
                    return AiMessage.from(FIXED);
                });
        Solution s = FormalizerAgent.builder(registry).formalizer(new LlmFormalizer(model)).build().solve(FIONA);

        assertThat(s.answer()).isEqualTo(Verdict.TRUE);
        assertThat(s.attemptCount()).isEqualTo(2);
        assertThat(s.attempts().get(0).error()).hasValueSatisfying(e -> assertThat(e.stage()).isEqualTo(AttemptError.Stage.LOAD));
        assertThat(s.tokens()).contains(new Tokens(200, 40));
        assertThat(s.program()).hasValueSatisfying(p -> assertThat(p).startsWith(":- dynamic initially/2.")
                .doesNotContain("```"));
        assertThat(s.goal()).contains("quiet(fiona)");

        List<ChatMessage> second = model.requests().get(1).messages();
        assertThat(second).hasSize(4);
        assertThat(second.get(0)).isEqualTo(SystemMessage.from(LlmFormalizer.PAPER_PROMPT));
        assertThat(((UserMessage) second.get(1)).singleText()).isEqualTo(LlmFormalizer.userMessage(FIONA))
                .startsWith("CONTEXT:\nAlan is big.").endsWith("QUESTION:\nFiona is quiet.");
        assertThat(((AiMessage) second.get(2)).text()).isEqualTo(BROKEN);
    }

    @Test
    void aReplyWithoutTagsIsAFormatErrorThatGoesBack() {
        ScriptedChatModel model = ScriptedChatModel.replying("The answer is true.",
                "<prolog>kind(fiona).</prolog><goal_true>kind(fiona)</goal_true>");
        Solution s = FormalizerAgent.builder(registry).formalizer(new LlmFormalizer(model)).build().solve(FIONA);
        assertThat(s.answer()).isEqualTo(Verdict.TRUE);
        assertThat(((UserMessage) last(model.requests().get(1))).singleText()).contains("could not be parsed")
                .contains("both <prolog>...</prolog> and <goal_true>...</goal_true> are missing");
    }

    /** A model error such as LangChain4j's RateLimitException (HTTP 429) is a failed attempt; the agent goes on. */
    @Test
    void aModelErrorIsAFailedAttemptAndTheAgentGoesOn() {
        ScriptedChatModel model = new ScriptedChatModel(
                req -> {
                    throw new dev.langchain4j.exception.RateLimitException("HTTP 429: rate limit reached");
                },
                req -> AiMessage.from("<prolog>kind(fiona).</prolog><goal_true>kind(fiona)</goal_true>"));
        Solution s = FormalizerAgent.builder(registry).formalizer(new LlmFormalizer(model)).build().solve(FIONA);

        assertThat(s.answer()).isEqualTo(Verdict.TRUE);
        assertThat(s.attemptCount()).isEqualTo(2);
        AttemptError e = s.attempts().get(0).error().orElseThrow();
        assertThat(e.stage()).isEqualTo(AttemptError.Stage.MODEL);
        assertThat(e.message()).contains("RateLimitException").contains("HTTP 429");
        assertThat(e.detail()).contains("\"stage\":\"model\"");
        assertThat(s.modelErrors()).containsExactly(e);
        // the failed call had no reply: the second request is the first one again, nothing fed back
        assertThat(model.requests().get(1).messages()).hasSize(2);
    }

    /** solveAll goes on past a model that always fails: every problem gets an UNKNOWN solution that says why. */
    @Test
    void solveAllNeverThrowsForAModelError() {
        dev.langchain4j.model.chat.ChatModel down = new dev.langchain4j.model.chat.ChatModel() {
            @Override
            public dev.langchain4j.model.chat.response.ChatResponse doChat(ChatRequest request) {
                throw new RuntimeException("connection refused");
            }
        };
        Problem other = new Problem("other", "Fiona is smart.", "Fiona is smart.");
        List<Solution> all = FormalizerAgent.builder(registry).formalizer(new LlmFormalizer(down)).maxAttempts(2)
                .build().solveAll(List.of(FIONA, other));

        assertThat(all).hasSize(2).allSatisfy(s -> {
            assertThat(s.answer()).isEqualTo(Verdict.UNKNOWN);
            assertThat(s.attemptCount()).isEqualTo(2);
            assertThat(s.modelErrors()).hasSize(2).allSatisfy(e -> assertThat(e.message())
                    .isEqualTo("model error: RuntimeException: connection refused"));
            assertThat(s.program()).isEmpty();
        });
    }

    @Test
    void parseReadsTheTags() {
        assertThat(LlmFormalizer.parse("<prolog>p.</prolog>\n<goal_true> \\+p. </goal_true>", Optional.empty()))
                .isInstanceOfSatisfying(Formalization.Parsed.class, p -> {
                    assertThat(p.program()).isEqualTo("p.\n");
                    assertThat(p.goal()).isEqualTo("\\+p");
                });
        assertThat(LlmFormalizer.parse("<prolog>p.</prolog>", Optional.empty()))
                .isInstanceOfSatisfying(Formalization.Malformed.class,
                        m -> assertThat(m.message()).isEqualTo("format error: <goal_true>...</goal_true> is missing"));
        assertThat(LlmFormalizer.parse("<prolog> </prolog><goal_true>p</goal_true>", Optional.of(new Tokens(1, 2))))
                .isInstanceOfSatisfying(Formalization.Malformed.class, m -> {
                    assertThat(m.message()).contains("<prolog>...</prolog> is empty");
                    assertThat(m.tokens()).contains(new Tokens(1, 2));
                });
    }

    @Test
    void thePromptIsThePapers() {
        assertThat(LlmFormalizer.PAPER_PROMPT)
                .startsWith("You are a mechanical translator from English to SWI-Prolog.")
                .contains("Every `\\+` in a rule body MUST check `initially/2`")
                .contains("dull(X) :- \\+ initially(high, X).   % correct")
                .contains("<goal_true>query_predicate(entity)</goal_true>");
    }

    private static ChatMessage last(ChatRequest req) {
        return req.messages().get(req.messages().size() - 1);
    }

    @Test
    void aModelThatCannotBeReachedStopsTheAgentWithOneMessageNamingTheUrl() {
        ScriptedChatModel model = new ScriptedChatModel(req -> {
            throw new RuntimeException(new java.net.ConnectException("Connection refused"));
        });
        FormalizerAgent agent = FormalizerAgent.builder(registry)
                .formalizer(new LlmFormalizer(model, LlmFormalizer.PAPER_PROMPT, "http://localhost:1/v1")).build();
        org.assertj.core.api.Assertions.assertThatThrownBy(() -> agent.solve(FIONA))
                .isInstanceOf(ModelUnreachableException.class)
                .hasMessageContaining("http://localhost:1/v1").hasMessageContaining("Connection refused");
        assertThat(model.requests()).as("one call, not five attempts").hasSize(1);
    }

    @Test
    void theFormalizersSessionsDeclareDiscontiguousPredicates() {
        String sentenceOrder = """
                <prolog>
                smart(fiona).
                kind(fiona).
                smart(bob).
                kind(bob) :- .
                </prolog>
                <goal_true>?- smart(bob).</goal_true>""";
        ScriptedChatModel model = new ScriptedChatModel(
                req -> AiMessage.from(sentenceOrder),
                req -> {
                    String feedback = ((UserMessage) last(req)).singleText();
                    assertThat(feedback).contains("syntax_error").doesNotContain("not together");
                    return AiMessage.from(sentenceOrder.replace("kind(bob) :- .", "kind(bob)."));
                });
        Solution s = FormalizerAgent.builder(registry).formalizer(new LlmFormalizer(model)).build().solve(FIONA);
        assertThat(s.answer()).isEqualTo(Verdict.TRUE);
        assertThat(s.attemptCount()).isEqualTo(2);
    }
}

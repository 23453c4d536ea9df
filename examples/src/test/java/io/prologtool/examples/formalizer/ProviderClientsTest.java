package io.prologtool.examples.formalizer;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import dev.langchain4j.model.anthropic.AnthropicChatModel;
import dev.langchain4j.model.chat.ChatModel;
import dev.langchain4j.model.openai.OpenAiChatModel;
import io.prologtool.PrologBackend;
import io.prologtool.SessionRegistry;
import io.prologtool.process.ProcessBackend;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * {@link LlmFormalizer} over LangChain4j's real OpenAI and Anthropic clients, against a local server that
 * speaks their HTTP APIs and answers like a model that follows the paper's prompt (it translates with
 * {@link TemplateFormalizer}). Checks the whole path offline: the request the client sends (system prompt,
 * temperature 0), the reply's tags, token counts, and the answer.
 */
class ProviderClientsTest {

    static final ObjectMapper JSON = new ObjectMapper();
    static HttpServer server;
    static String base;
    static final List<JsonNode> requests = new CopyOnWriteArrayList<>();
    static PrologBackend backend;
    static SessionRegistry registry;

    @BeforeAll
    static void start() throws IOException {
        server = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
        server.createContext("/v1/chat/completions", ex -> reply(ex, openAi(read(ex))));
        server.createContext("/v1/messages", ex -> reply(ex, anthropic(read(ex))));
        server.start();
        base = "http://127.0.0.1:" + server.getAddress().getPort() + "/v1";
        backend = ProcessBackend.builder().poolSize(1).build();
        registry = SessionRegistry.builder(backend).build();
    }

    @AfterAll
    static void stop() {
        if (server != null) {
            server.stop(0);
        }
        if (registry != null) {
            registry.close();
        }
        if (backend != null) {
            backend.close();
        }
    }

    static final Problem FIONA = LlmFormalizerTest.FIONA;

    @Test
    void openAiClient() {
        ChatModel model = OpenAiChatModel.builder().baseUrl(base).apiKey("test-key").modelName("gpt-4.1")
                .temperature(0.0).maxTokens(4096).timeout(Duration.ofSeconds(20)).build();
        Solution s = FormalizerAgent.builder(registry).formalizer(new LlmFormalizer(model)).build().solve(FIONA);
        assertThat(s.answer()).isEqualTo(Verdict.TRUE);
        assertThat(s.tokens()).contains(new Tokens(1000, 200));
        assertThat(s.program()).hasValueSatisfying(p -> assertThat(p).contains("\\+ initially(rough, X)"));
        JsonNode req = requests.get(requests.size() - 1);
        assertThat(req.path("model").asText()).isEqualTo("gpt-4.1");
        assertThat(req.path("temperature").asDouble()).isZero();
        assertThat(req.at("/messages/0/role").asText()).isEqualTo("system");
        assertThat(req.at("/messages/0/content").asText()).isEqualTo(LlmFormalizer.PAPER_PROMPT);
    }

    @Test
    void anthropicClient() {
        ChatModel model = AnthropicChatModel.builder().baseUrl(base + "/").apiKey("test-key").modelName("claude-sonnet-4-6")
                .temperature(0.0).maxTokens(4096).timeout(Duration.ofSeconds(20)).build();
        Solution s = FormalizerAgent.builder(registry).formalizer(new LlmFormalizer(model)).build()
                .solve(new Problem("q", FIONA.context(), "Fiona is not quiet."));
        assertThat(s.answer()).isEqualTo(Verdict.FALSE);
        assertThat(s.tokens()).contains(new Tokens(900, 150));
        JsonNode req = requests.get(requests.size() - 1);
        assertThat(req.path("model").asText()).isEqualTo("claude-sonnet-4-6");
        assertThat(req.path("max_tokens").asInt()).isEqualTo(4096);
        assertThat(req.path("system").toString()).contains("You are a mechanical translator");
    }

    // ------------------------------------------------------------------ the fake providers

    static JsonNode read(HttpExchange ex) throws IOException {
        JsonNode body = JSON.readTree(ex.getRequestBody().readAllBytes());
        requests.add(body);
        return body;
    }

    static void reply(HttpExchange ex, ObjectNode body) throws IOException {
        byte[] bytes = body.toString().getBytes(StandardCharsets.UTF_8);
        ex.getResponseHeaders().add("Content-Type", "application/json");
        ex.sendResponseHeaders(200, bytes.length);
        ex.getResponseBody().write(bytes);
        ex.close();
    }

    /** What a model that follows the prompt answers to the last user message ("CONTEXT: ... QUESTION: ..."). */
    static String answer(String userText) {
        String context = userText.substring("CONTEXT:\n".length(), userText.indexOf("\n\nQUESTION:\n"));
        String question = userText.substring(userText.indexOf("\n\nQUESTION:\n") + "\n\nQUESTION:\n".length());
        Formalization.Parsed f = TemplateFormalizer.of(TemplateFormalizer.Negation.INITIAL_FACTS, false)
                .translate(new Problem("x", context, question));
        return "<prolog>\n" + f.program() + "</prolog>\n<goal_true>" + f.goal() + "</goal_true>";
    }

    static ObjectNode openAi(JsonNode req) {
        JsonNode messages = req.path("messages");
        String user = messages.get(messages.size() - 1).path("content").asText();
        ObjectNode r = JSON.createObjectNode();
        r.put("id", "chatcmpl-1").put("object", "chat.completion").put("created", 0).put("model", req.path("model").asText());
        ObjectNode choice = r.putArray("choices").addObject();
        choice.put("index", 0).put("finish_reason", "stop");
        choice.putObject("message").put("role", "assistant").put("content", answer(user));
        r.putObject("usage").put("prompt_tokens", 1000).put("completion_tokens", 200).put("total_tokens", 1200);
        return r;
    }

    static ObjectNode anthropic(JsonNode req) {
        JsonNode messages = req.path("messages");
        JsonNode content = messages.get(messages.size() - 1).path("content");
        String user = content.isTextual() ? content.asText() : content.get(0).path("text").asText();
        ObjectNode r = JSON.createObjectNode();
        r.put("id", "msg_1").put("type", "message").put("role", "assistant").put("model", req.path("model").asText());
        r.putArray("content").addObject().put("type", "text").put("text", answer(user));
        r.put("stop_reason", "end_turn");
        r.putObject("usage").put("input_tokens", 900).put("output_tokens", 150);
        return r;
    }
}

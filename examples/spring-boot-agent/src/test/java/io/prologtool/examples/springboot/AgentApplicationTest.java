package io.prologtool.examples.springboot;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import org.junit.jupiter.api.Test;
import org.springframework.ai.chat.model.ChatModel;
import org.springframework.ai.openai.OpenAiChatModel;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.boot.test.web.server.LocalServerPort;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The example application as it runs: started whole on a random port (no key: the scripted model), asked
 * through its endpoint over HTTP, its health and metrics read through Actuator's.
 */
@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT,
        // Tomcat's scratch folder under target/: in the system's temporary directory it would stay behind
        properties = {"agent.openai.api-key=", "prologtool.process.pool-size=1",
                "server.tomcat.basedir=target/tomcat"})
class AgentApplicationTest {

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final HttpClient HTTP = HttpClient.newHttpClient();

    @LocalServerPort
    int port;

    @Autowired
    ChatModel model;

    private HttpResponse<String> post(String path, String body) throws IOException, InterruptedException {
        return HTTP.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + path))
                .header("Content-Type", "application/json").POST(HttpRequest.BodyPublishers.ofString(body)).build(),
                HttpResponse.BodyHandlers.ofString());
    }

    private JsonNode get(String path) throws IOException, InterruptedException {
        HttpResponse<String> r = HTTP.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + path))
                .build(), HttpResponse.BodyHandlers.ofString());
        assertThat(r.statusCode()).as("GET %s: %s", path, r.body()).isEqualTo(200);
        return JSON.readTree(r.body());
    }

    private JsonNode ask(String question) throws IOException, InterruptedException {
        HttpResponse<String> r = post("/ask", JSON.createObjectNode().put("question", question).toString());
        assertThat(r.statusCode()).as(r.body()).isEqualTo(200);
        return JSON.readTree(r.body());
    }

    @Test
    void theAgentAnswersThroughTheEndpointByConsultingAndRunningProlog() throws Exception {
        assertThat(model).isInstanceOf(FamilyScriptedModel.class);
        JsonNode reply = ask("Tom is a parent of Bob. Bob is a parent of Ann. Sue is a parent of Tom. "
                + "Who are the ancestors of Ann?");
        assertThat(reply.path("answer").asText()).isEqualTo("The ancestors of Ann are Bob, Sue, Tom.");
        assertThat(reply.path("model").asText()).isEqualTo("FamilyScriptedModel");
        assertThat(reply.path("steps").findValuesAsText("tool")).containsExactly("consult_text", "run_goal");
        assertThat(reply.path("steps").findValuesAsText("ok")).containsExactly("true", "true");

        JsonNode no = ask("Tom is a parent of Bob. Is Bob an ancestor of Tom?");
        assertThat(no.path("answer").asText()).isEqualTo("No, Bob is not an ancestor of Tom.");

        JsonNode other = ask("What is the capital of France?");
        assertThat(other.path("answer").asText()).isEqualTo(FamilyScriptedModel.UNDERSTOOD);
        assertThat(other.path("steps")).isEmpty();
    }

    @Test
    void aRequestWithoutAQuestionIsABadRequest() throws Exception {
        assertThat(post("/ask", "{}").statusCode()).isEqualTo(400);
    }

    @Test
    void actuatorShowsPrologtoolsHealthAndMetrics() throws Exception {
        JsonNode health = get("/actuator/health/prologtool");
        assertThat(health.path("status").asText()).as(health.toString()).isEqualTo("UP");
        assertThat(health.at("/details/backend").asText()).isEqualTo("process");
        assertThat(health.at("/details/swiProlog").asText()).matches("9\\.\\d+\\.\\d+");
        ask("Tom is a parent of Bob. Is Tom an ancestor of Bob?");
        JsonNode calls = get("/actuator/metrics/prologtool.calls");
        assertThat(calls.at("/measurements/0/value").asDouble()).as(calls.toString()).isGreaterThanOrEqualTo(1.0);
    }

    @Test
    void withAKeyTheModelIsOpenAis() {
        new ApplicationContextRunner().withUserConfiguration(AgentConfiguration.class)
                .withPropertyValues("agent.openai.api-key=sk-test-not-used").run(ctx ->
                        assertThat(ctx.getBean(ChatModel.class)).isInstanceOf(OpenAiChatModel.class));
    }
}

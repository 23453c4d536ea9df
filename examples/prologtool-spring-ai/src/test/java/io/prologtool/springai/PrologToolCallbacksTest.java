package io.prologtool.springai;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.prologtool.PrologBackend;
import io.prologtool.process.ProcessBackend;
import io.prologtool.tools.PrologTools;
import io.prologtool.tools.ToolSpec;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.springframework.ai.chat.client.ChatClient;
import org.springframework.ai.chat.prompt.Prompt;
import org.springframework.ai.tool.ToolCallback;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * The tools through a real {@link ChatClient}, driven by a {@link ScriptedChatModel} (no network), on the
 * process backend: an agent consults, runs a goal, gets an error back as data, repairs the program and
 * answers; a runaway goal comes back as a timeout the agent can read; a syntax error comes back with its
 * line and is repaired.
 */
class PrologToolCallbacksTest {

    private static final ObjectMapper JSON = new ObjectMapper();
    static PrologBackend backend;
    PrologTools tools;
    PrologToolCallbacks callbacks;

    @BeforeAll
    static void startBackend() {
        backend = ProcessBackend.builder().poolSize(1).build();
    }

    @AfterAll
    static void stopBackend() {
        if (backend != null) {
            backend.close();
        }
    }

    @BeforeEach
    void openTools() {
        tools = PrologTools.over(backend);
        callbacks = PrologToolCallbacks.of(tools);
    }

    @AfterEach
    void closeTools() {
        tools.close();
    }

    static final String FAMILY = """
            parent(tom, bob).
            parent(bob, ann).
            parent(bob, pat).
            grandparent(X, Z) :- parent(X, Y), parnt(Y, Z).
            """;

    private static JsonNode json(String text) {
        try {
            return JSON.readTree(text);
        } catch (java.io.IOException e) {
            throw new AssertionError("not JSON: " + text, e);
        }
    }

    private static JsonNode last(Prompt p) {
        return json(ScriptedChatModel.lastToolResult(p));
    }

    private static String args(Object... kv) {
        var o = JSON.createObjectNode();
        for (int i = 0; i < kv.length; i += 2) {
            o.putPOJO((String) kv[i], kv[i + 1]);
        }
        return o.toString();
    }

    private String ask(ScriptedChatModel model, String question) {
        return ChatClient.create(model).prompt().user(question).toolCallbacks(callbacks).call().content();
    }

    @Test
    void anAgentConsultsHitsAnErrorRepairsAndAnswers() {
        List<String> ids = new ArrayList<>();
        ScriptedChatModel[] model = new ScriptedChatModel[1];
        model[0] = new ScriptedChatModel(
                p -> model[0].call("consult_text", args("source_text", FAMILY)),
                p -> {
                    JsonNode r = last(p);
                    assertThat(r.path("ok").asBoolean()).as(r.toString()).isTrue();
                    ids.add(r.path("load_id").asText());
                    return model[0].call("run_goal", args("load_id", ids.get(0), "goal", "grandparent(tom, Who)"));
                },
                p -> {
                    // the goal raised: the error came back to the model as the tool's result
                    JsonNode r = last(p);
                    assertThat(r.path("ok").asBoolean()).isFalse();
                    assertThat(r.at("/error/kind").asText()).isEqualTo("existence_error");
                    assertThat(r.at("/error/candidates").toString()).contains("parent/2");
                    return model[0].call("replace_predicate", args("load_id", ids.get(0), "name", "grandparent",
                            "arity", 2, "source_text", "grandparent(X, Z) :- parent(X, Y), parent(Y, Z)."));
                },
                p -> {
                    assertThat(last(p).path("predicate").asText()).isEqualTo("grandparent/2");
                    return model[0].call("run_goal", args("load_id", ids.get(0), "goal", "grandparent(tom, Who)"));
                },
                p -> {
                    List<String> who = new ArrayList<>();
                    last(p).path("answers").forEach(a -> who.add(a.at("/Who/value").asText()));
                    return ScriptedChatModel.say("Tom's grandchildren: " + String.join(", ", who) + ".");
                });

        String answer = ask(model[0], "Load the family and tell me Tom's grandchildren.");

        assertThat(answer).isEqualTo("Tom's grandchildren: ann, pat.");
        assertThat(model[0].remaining()).isZero();
        assertThat(model[0].offeredTools()).containsExactlyElementsOf(callbacks.names());
        assertThat(tools.openSessions()).isEqualTo(1);
    }

    @Test
    void aSyntaxErrorComesBackWithItsLineAndIsRepaired() {
        ScriptedChatModel[] model = new ScriptedChatModel[1];
        model[0] = new ScriptedChatModel(
                p -> model[0].call("consult_text", args("source_text", "p(1).\np(2.\n")),
                p -> {
                    JsonNode r = last(p);
                    JsonNode error = null;
                    for (JsonNode m : r.path("messages")) {
                        if (m.path("severity").asText().equals("error")) {
                            error = m;
                        }
                    }
                    assertThat(error).as("a syntax error among %s", r).isNotNull();
                    assertThat(error.path("line").asInt()).isEqualTo(2);
                    return model[0].call("consult_text", args("source_text", "p(1).\np(2).\n"));
                },
                p -> {
                    String id = last(p).path("load_id").asText();
                    return model[0].call("run_goal", args("load_id", id, "goal", "p(X)"));
                },
                p -> ScriptedChatModel.say("count " + last(p).path("count").asInt()));

        assertThat(ask(model[0], "load p")).isEqualTo("count 2");
    }

    @Test
    void aRunawayGoalComesBackAsATimeoutAndTheSessionGoesOn() {
        ScriptedChatModel[] model = new ScriptedChatModel[1];
        String[] id = new String[1];
        model[0] = new ScriptedChatModel(
                p -> model[0].call("consult_text", args("source_text", "spin :- repeat, fail.\nok.\n")),
                p -> {
                    id[0] = last(p).path("load_id").asText();
                    return model[0].call("run_goal", args("load_id", id[0], "goal", "spin", "time_limit", 1));
                },
                p -> {
                    JsonNode r = last(p);
                    assertThat(r.path("outcome").asText()).as(r.toString()).isEqualTo("timeout");
                    return model[0].call("run_goal", args("load_id", id[0], "goal", "ok"));
                },
                p -> ScriptedChatModel.say(last(p).path("outcome").asText()));

        assertThat(ask(model[0], "spin")).isEqualTo("success");
    }

    @Test
    void unknownToolsAndMalformedArgumentsComeBackAsData() {
        ToolCallback runGoal = Arrays.stream(callbacks.getToolCallbacks())
                .filter(c -> c.getToolDefinition().name().equals("run_goal")).findFirst().orElseThrow();
        assertThat(json(runGoal.call("{\"load_id\": ")).at("/error/kind").asText()).isEqualTo("malformed_json");
        assertThat(json(runGoal.call("{\"goal\": \"true\"}")).at("/error/kind").asText())
                .isEqualTo("invalid_arguments");
        assertThat(json(runGoal.call("{\"load_id\": \"nope\", \"goal\": \"true\"}")).at("/error/kind").asText())
                .isEqualTo("session_closed");
        assertThat(json(runGoal.call("{\"load_id\": \"nope\", \"goal\": \"true\"}",
                new org.springframework.ai.chat.model.ToolContext(java.util.Map.of("user", "x"))))
                .at("/error/kind").asText()).as("a tool context is accepted").isEqualTo("session_closed");
    }

    @Test
    void definitionsComeFromTheToolLayersSchemasAndDiskWritesAreAskedFor() {
        List<ToolSpec> specs = tools.specs();
        ToolCallback[] all = callbacks.withRuleBaseWrites().getToolCallbacks();
        assertThat(all).hasSize(specs.size());
        for (int i = 0; i < specs.size(); i++) {
            assertThat(all[i].getToolDefinition().name()).isEqualTo(specs.get(i).name());
            assertThat(all[i].getToolDefinition().description()).isEqualTo(specs.get(i).description());
            assertThat(all[i].getToolDefinition().inputSchema()).isEqualTo(specs.get(i).inputSchemaJson());
        }
        assertThat(callbacks.names()).doesNotContain(PrologToolCallbacks.SAVE_RULE_BASE,
                PrologToolCallbacks.DELETE_RULE_BASE).hasSize(specs.size() - 2);
        assertThat(callbacks.offersRuleBaseWrites()).isFalse();
        assertThat(callbacks.only("consult_text", "save_rule_base").names())
                .containsExactly("consult_text", "save_rule_base");
        assertThatThrownBy(() -> callbacks.only("nope")).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("consult_text");
    }
}

package io.prologtool.langchain4j;

import com.fasterxml.jackson.databind.JsonNode;
import dev.langchain4j.agent.tool.ToolExecutionRequest;
import dev.langchain4j.agent.tool.ToolSpecification;
import dev.langchain4j.data.message.AiMessage;
import dev.langchain4j.data.message.ToolExecutionResultMessage;
import dev.langchain4j.model.chat.request.ChatRequest;
import dev.langchain4j.model.chat.request.json.JsonEnumSchema;
import dev.langchain4j.model.chat.request.json.JsonIntegerSchema;
import dev.langchain4j.model.chat.request.json.JsonObjectSchema;
import dev.langchain4j.model.chat.request.json.JsonStringSchema;
import dev.langchain4j.service.AiServices;
import dev.langchain4j.service.tool.ToolExecutionResult;
import dev.langchain4j.service.tool.ToolExecutor;
import io.prologtool.PrologBackend;
import io.prologtool.process.ProcessBackend;
import io.prologtool.tools.PrologTools;
import io.prologtool.tools.ToolSpec;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import static io.prologtool.langchain4j.ScriptedChatModel.args;
import static io.prologtool.langchain4j.ScriptedChatModel.lastToolJson;
import static io.prologtool.langchain4j.ScriptedChatModel.lastToolResult;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class PrologToolboxTest {

    /** The agent interface AiServices implements. */
    interface PrologAgent {
        String chat(String message);
    }

    static PrologBackend backend;
    PrologTools tools;
    PrologToolbox toolbox;

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
        toolbox = PrologToolbox.of(tools);
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

    @Test
    void agentConsultsRunsHitsAnErrorRepairsAndAnswers() {
        List<String> loadIds = new ArrayList<>();
        ScriptedChatModel script = new ScriptedChatModel(
                req -> call("consult_text", args("source_text", FAMILY)),
                req -> {
                    JsonNode r = lastToolJson(req);
                    assertThat(r.path("ok").asBoolean()).isTrue();
                    loadIds.add(r.path("load_id").asText());
                    return call("run_goal", args("load_id", loadIds.get(0), "goal", "grandparent(tom, Who)"));
                },
                req -> {
                    // the goal raised: the error came back as the tool's result, flagged as an error
                    ToolExecutionResultMessage m = lastToolResult(req);
                    assertThat(m.isError()).isTrue();
                    JsonNode r = lastToolJson(req);
                    assertThat(r.path("ok").asBoolean()).isFalse();
                    assertThat(r.at("/error/kind").asText()).isEqualTo("existence_error");
                    assertThat(r.at("/error/candidates").toString()).contains("parent/2");
                    return call("replace_predicate", args("load_id", loadIds.get(0), "name", "grandparent", "arity", 2,
                            "source_text", "grandparent(X, Z) :- parent(X, Y), parent(Y, Z)."));
                },
                req -> {
                    JsonNode r = lastToolJson(req);
                    assertThat(r.path("predicate").asText()).isEqualTo("grandparent/2");
                    return call("run_goal", args("load_id", loadIds.get(0), "goal", "grandparent(tom, Who)"));
                },
                req -> {
                    JsonNode r = lastToolJson(req);
                    List<String> who = new ArrayList<>();
                    r.path("answers").forEach(a -> who.add(a.at("/Who/value").asText()));
                    return AiMessage.from("Tom's grandchildren: " + String.join(", ", who) + ".");
                });
        PrologAgent agent = toolbox.configure(AiServices.builder(PrologAgent.class)).chatModel(script).build();

        String answer = agent.chat("Load the family and tell me Tom's grandchildren.");

        assertThat(answer).isEqualTo("Tom's grandchildren: ann, pat.");
        assertThat(script.remaining()).isZero();
        ChatRequest first = script.requests().get(0);
        assertThat(first.toolSpecifications()).extracting(ToolSpecification::name)
                .containsExactlyElementsOf(offeredByDefault());
        assertThat(tools.openSessions()).isEqualTo(1);
    }

    @Test
    void unknownToolsAndMalformedArgumentsComeBackAsResults() {
        ScriptedChatModel script = new ScriptedChatModel(
                req -> call("no_such_tool", "{}"),
                req -> {
                    assertThat(lastToolJson(req).path("ok").asBoolean()).isFalse();
                    assertThat(lastToolJson(req).at("/error/kind").asText()).isEqualTo("unknown_tool");
                    return call("run_goal", "{\"load_id\": ");
                },
                req -> {
                    assertThat(lastToolJson(req).at("/error/kind").asText()).isEqualTo("malformed_json");
                    return call("run_goal", args("goal", "true"));
                },
                req -> {
                    JsonNode r = lastToolJson(req);
                    assertThat(r.at("/error/kind").asText()).isEqualTo("invalid_arguments");
                    assertThat(r.at("/error/message").asText()).contains("load_id");
                    return call("run_goal", args("load_id", "nope", "goal", "true"));
                },
                req -> {
                    assertThat(lastToolJson(req).at("/error/kind").asText()).isEqualTo("session_closed");
                    return AiMessage.from("gave up");
                });
        PrologAgent agent = toolbox.configure(AiServices.builder(PrologAgent.class)).chatModel(script).build();

        assertThat(agent.chat("try things")).isEqualTo("gave up");
        assertThat(script.remaining()).isZero();
    }

    @Test
    void specificationsComeFromTheToolLayersSchemas() {
        List<ToolSpec> specs = tools.specs();
        List<ToolSpecification> converted = toolbox.withRuleBaseWrites().specifications();
        assertThat(converted).extracting(ToolSpecification::name)
                .containsExactlyElementsOf(specs.stream().map(ToolSpec::name).toList())
                .startsWith("consult_text", "run_goal", "inspect_predicate", "get_source", "replace_predicate",
                        "list_messages", "run_tests", "trace_goal", "close_session");
        for (int i = 0; i < specs.size(); i++) {
            ToolSpec spec = specs.get(i);
            ToolSpecification s = converted.get(i);
            assertThat(s.description()).isEqualTo(spec.description());
            List<String> names = new ArrayList<>();
            spec.inputSchema().path("properties").fieldNames().forEachRemaining(names::add);
            assertThat(s.parameters().properties().keySet()).containsExactlyElementsOf(names);
            List<String> required = new ArrayList<>();
            spec.inputSchema().path("required").forEach(r -> required.add(r.asText()));
            assertThat(s.parameters().required()).containsExactlyElementsOf(required);
        }
        JsonObjectSchema runGoal = converted.get(1).parameters();
        assertThat(runGoal.properties().get("goal")).isInstanceOf(JsonStringSchema.class);
        assertThat(runGoal.properties().get("max_answers")).isInstanceOfSatisfying(JsonIntegerSchema.class,
                s -> assertThat(s.description()).endsWith("Default: 10."));
        assertThat(converted.get(5).parameters().properties().get("min_severity"))
                .isInstanceOfSatisfying(JsonEnumSchema.class,
                        s -> assertThat(s.enumValues()).containsExactly("info", "warning", "error"));
    }

    /**
     * Issue 15 item 9: the schemas a strict OpenAI model gets (LangChain4j's {@code strictTools(true)}, which
     * makes every property required), and calls such a model makes: every optional argument as null.
     */
    @Test
    void strictToolSpecificationsShowRangesAndNullMeansTheDefault() {
        List<dev.langchain4j.model.openai.internal.chat.Tool> strict =
                dev.langchain4j.model.openai.internal.OpenAiUtils.toTools(toolbox.specifications(), true);
        assertThat(strict).hasSize(tools.specs().size() - 2);
        for (int i = 0; i < strict.size(); i++) {
            var f = strict.get(i).function();
            JsonNode params = ScriptedChatModel.JSON.valueToTree(f.parameters());
            assertThat(f.strict()).isTrue();
            List<String> names = new ArrayList<>();
            params.path("properties").fieldNames().forEachRemaining(names::add);
            List<String> required = new ArrayList<>();
            params.path("required").forEach(r -> required.add(r.asText()));
            assertThat(required).as(f.name() + ": strict mode requires every property").containsExactlyElementsOf(names);
            assertThat(params.path("additionalProperties").asBoolean(true)).as(f.name()).isFalse();
        }
        JsonNode runGoal = ScriptedChatModel.JSON.valueToTree(strict.get(1).function().parameters()).get("properties");
        assertThat(runGoal.get("max_answers").get("description").asText())
                .isEqualTo("Most answers to return. Range: >= 1 and <= 100000. Default: 10.");
        assertThat(runGoal.get("time_limit").get("description").asText()).contains("Range: > 0 and <= 86400.");
        assertThat(runGoal.get("max_depth").get("description").asText()).contains("Range: >= 1.");
        JsonNode exec = ScriptedChatModel.JSON.valueToTree(strict.get(9).function().parameters()).get("properties");
        assertThat(exec.get("max_results").get("description").asText()).contains("Range: >= 1 and <= 10000.");
        JsonNode listMessages = ScriptedChatModel.JSON.valueToTree(strict.get(5).function().parameters()).get("properties");
        assertThat(listMessages.get("min_severity").get("enum")).extracting(JsonNode::asText)
                .containsExactly("info", "warning", "error");

        // a strict model sends every property; null for the optional ones means their defaults
        Map<ToolSpecification, ToolExecutor> map = toolbox.tools("consult_text", "run_goal", "execute_prolog");
        List<ToolSpecification> keys = new ArrayList<>(map.keySet());
        String ok = map.get(keys.get(0)).execute(request("consult_text",
                "{\"source_text\": \"p(1). p(2).\", \"dialect\": null, \"module_name\": null, "
                        + "\"include_predicates\": null}"), null);
        assertThat(ok).startsWith("{\"ok\":true");
        String id = ok.replaceAll(".*\"load_id\":\"([^\"]+)\".*", "$1");
        ToolExecutionResult run = map.get(keys.get(1)).executeWithContext(request("run_goal",
                "{\"load_id\": \"" + id + "\", \"goal\": \"p(X)\", \"max_answers\": null, \"time_limit\": null, "
                        + "\"max_depth\": null, \"allow_side_effects\": null, \"max_inferences\": null}"), null);
        assertThat(run.isError()).as(run.resultText()).isFalse();
        assertThat(run.resultText()).contains("\"count\":2");
        ToolExecutionResult exec2 = map.get(keys.get(2)).executeWithContext(request("execute_prolog",
                "{\"prolog_code\": \"p(1).\", \"query\": \"p(X)\", \"rule_bases\": null, \"max_results\": null, "
                        + "\"trace\": null, \"time_limit\": null}"), null);
        assertThat(exec2.resultText()).contains("\"success\":true").contains("X = 1");
        assertThat(exec2.isError()).as("a successful execute_prolog is not an error").isFalse();
        ToolExecutionResult exec3 = map.get(keys.get(2)).executeWithContext(request("execute_prolog",
                "{\"prolog_code\": \"p(1).\", \"query\": \"q(X)\"}"), null);
        assertThat(exec3.resultText()).contains("\"success\":false");
        assertThat(exec3.isError()).as("a failed execute_prolog is an error").isTrue();
        // out of range: the error names the tool's argument
        ToolExecutionResult bad = map.get(keys.get(1)).executeWithContext(request("run_goal",
                "{\"load_id\": \"" + id + "\", \"goal\": \"p(X)\", \"max_answers\": 0}"), null);
        assertThat(bad.isError()).isTrue();
        assertThat(bad.resultText()).contains("max_answers must be 1 to 100000, got 0").doesNotContain("maxAnswers");
    }

    @Test
    void executorsReturnJsonAndFlagFailures() {
        Map<ToolSpecification, ToolExecutor> map = toolbox.tools("consult_text", "run_goal");
        assertThat(map.keySet()).extracting(ToolSpecification::name).containsExactly("consult_text", "run_goal");
        ToolExecutor consult = map.get(toolbox.specifications().get(0));
        ToolExecutor run = map.get(toolbox.specifications().get(1));

        String ok = consult.execute(request("consult_text", args("source_text", "p(1). p(2).")), null);
        assertThat(ok).startsWith("{\"ok\":true");
        String id = ok.replaceAll(".*\"load_id\":\"([^\"]+)\".*", "$1");
        ToolExecutionResult good = run.executeWithContext(request("run_goal", args("load_id", id, "goal", "p(X)")), null);
        assertThat(good.isError()).isFalse();
        assertThat(good.resultText()).contains("\"count\":2");
        ToolExecutionResult bad = run.executeWithContext(request("run_goal", args("load_id", id, "goal", "atom_length(X, Y)")), null);
        assertThat(bad.isError()).isTrue();
        assertThat(bad.resultText()).contains("instantiation_error");
        // list_rule_bases answers with neither "ok" nor "success": not an error
        ToolExecutionResult list = toolbox.tools("list_rule_bases").values().iterator().next()
                .executeWithContext(request("list_rule_bases", "{}"), null);
        assertThat(list.resultText()).contains("\"rule_bases\"");
        assertThat(list.isError()).as(list.resultText()).isFalse();

        assertThatThrownBy(() -> toolbox.tools("run_goal", "rm_rf")).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("rm_rf");
    }

    @Test
    void aSubsetAnswersToolsLeftOutAsUnknown() {
        ScriptedChatModel script = new ScriptedChatModel(
                req -> {
                    assertThat(req.toolSpecifications()).extracting(ToolSpecification::name)
                            .containsExactly("consult_text", "run_goal");
                    return call("get_source", args("load_id", "x"));
                },
                req -> {
                    assertThat(lastToolJson(req).at("/error/message").asText())
                            .contains("get_source").contains("[consult_text, run_goal]");
                    return AiMessage.from("ok");
                });
        PrologAgent agent = toolbox.configure(AiServices.builder(PrologAgent.class),
                toolbox.tools("consult_text", "run_goal")).chatModel(script).build();
        assertThat(agent.chat("go")).isEqualTo("ok");
    }

    private static int ids;

    private static AiMessage call(String tool, String arguments) {
        return AiMessage.from(request(tool, arguments));
    }

    private static ToolExecutionRequest request(String tool, String arguments) {
        return ToolExecutionRequest.builder().id("call-" + (++ids)).name(tool).arguments(arguments).build();
    }

    private List<String> offeredByDefault() {
        return tools.specs().stream().map(ToolSpec::name)
                .filter(n -> !n.equals("save_rule_base") && !n.equals("delete_rule_base")).toList();
    }

    @Test
    void theToolsThatWriteToDiskAreOfferedOnlyWhenAsked() {
        assertThat(toolbox.offersRuleBaseWrites()).isFalse();
        assertThat(toolbox.specifications()).extracting(ToolSpecification::name)
                .containsExactlyElementsOf(offeredByDefault())
                .doesNotContain("save_rule_base", "delete_rule_base").contains("list_rule_bases", "get_rule_base");
        assertThat(toolbox.tools().keySet()).extracting(ToolSpecification::name).doesNotContain("save_rule_base");
        PrologToolbox writing = toolbox.withRuleBaseWrites();
        assertThat(writing.offersRuleBaseWrites()).isTrue();
        assertThat(writing.tools().keySet()).extracting(ToolSpecification::name)
                .containsExactlyElementsOf(tools.specs().stream().map(ToolSpec::name).toList());
        assertThat(toolbox.tools("run_goal", "save_rule_base").keySet()).extracting(ToolSpecification::name)
                .containsExactly("run_goal", "save_rule_base");
    }
}

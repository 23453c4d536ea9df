package consumer;

import dev.langchain4j.agent.tool.ToolExecutionRequest;
import dev.langchain4j.data.message.AiMessage;
import dev.langchain4j.data.message.ChatMessage;
import dev.langchain4j.data.message.ToolExecutionResultMessage;
import dev.langchain4j.model.chat.ChatModel;
import dev.langchain4j.model.chat.request.ChatRequest;
import dev.langchain4j.model.chat.response.ChatResponse;
import io.prologtool.PrologBackend;
import io.prologtool.process.ProcessBackend;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;
import java.util.function.Function;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

class LangChain4jConsumerTest {

    /** A chat model that plays a script: each call runs the next step on the request. */
    static final class ScriptedChatModel implements ChatModel {
        private final List<Function<ChatRequest, AiMessage>> steps;
        final List<String> toolResults = new ArrayList<>();

        @SafeVarargs
        ScriptedChatModel(Function<ChatRequest, AiMessage>... steps) {
            this.steps = new ArrayList<>(List.of(steps));
        }

        @Override
        public ChatResponse doChat(ChatRequest request) {
            ChatMessage last = request.messages().get(request.messages().size() - 1);
            if (last instanceof ToolExecutionResultMessage t) {
                toolResults.add(t.text());
            }
            return ChatResponse.builder().aiMessage(steps.remove(0).apply(request)).build();
        }

        String lastToolResult() {
            return toolResults.get(toolResults.size() - 1);
        }
    }

    static AiMessage call(String tool, String arguments) {
        return AiMessage.from(ToolExecutionRequest.builder().id(tool).name(tool).arguments(arguments).build());
    }

    @Test
    void anAgentConsultsAndRunsAGoalThroughTheToolbox() {
        ScriptedChatModel[] self = new ScriptedChatModel[1];
        ScriptedChatModel model = new ScriptedChatModel(
                request -> call("consult_text", "{\"source_text\": \"parent(tom, bob). parent(bob, ann). parent(bob, pat).\"}"),
                request -> {
                    Matcher m = Pattern.compile("\"load_id\"\\s*:\\s*\"([^\"]+)\"").matcher(self[0].lastToolResult());
                    assertTrue(m.find(), self[0].lastToolResult());
                    return call("run_goal", "{\"load_id\": \"" + m.group(1) + "\", \"goal\": \"parent(bob, X)\"}");
                },
                request -> AiMessage.from("Bob's children: " + self[0].lastToolResult()));
        self[0] = model;
        try (PrologBackend backend = ProcessBackend.builder().build();
             FamilyAgent agent = new FamilyAgent(backend, model)) {
            String answer = agent.ask("Who are Bob's children?");
            assertEquals(2, model.toolResults.size());
            assertTrue(model.toolResults.get(0).contains("\"ok\":true"), model.toolResults.get(0));
            assertTrue(answer.contains("\"outcome\":\"success\"") && answer.contains("\"ann\"") && answer.contains("\"pat\""),
                    answer);
        }
    }

    @Test
    void theBindingBringsLangChain4jCoreButNoProviderNoLoggerBindingAndNoTestLibrary() {
        Classpath.lacks("org.springframework.ai.tool.ToolCallback", "org.springframework.context.ApplicationContext", "dev.langchain4j.model.anthropic.AnthropicChatModel", "dev.langchain4j.model.openai.OpenAiChatModel",
                "org.slf4j.nop.NOPServiceProvider", "org.slf4j.simple.SimpleServiceProvider",
                "org.assertj.core.api.Assertions", "io.prologtool.jpl.JplBackend", "org.jpl7.JPL", "com.sun.jna.Native");
        assertEquals(com.fasterxml.jackson.core.json.PackageVersion.VERSION.toString(),
                com.fasterxml.jackson.databind.cfg.PackageVersion.VERSION.toString(), "Jackson core and databind aligned");
    }
}

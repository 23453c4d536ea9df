package consumer;

import io.prologtool.PrologBackend;
import io.prologtool.process.ProcessBackend;
import io.prologtool.springai.PrologToolCallbacks;
import io.prologtool.tools.PrologTools;
import org.junit.jupiter.api.Test;
import org.springframework.ai.chat.client.ChatClient;
import org.springframework.ai.chat.messages.AssistantMessage;
import org.springframework.ai.chat.messages.ToolResponseMessage;
import org.springframework.ai.chat.model.ChatModel;
import org.springframework.ai.chat.model.ChatResponse;
import org.springframework.ai.chat.model.Generation;
import org.springframework.ai.chat.prompt.ChatOptions;
import org.springframework.ai.chat.prompt.Prompt;
import org.springframework.ai.model.tool.ToolCallingChatOptions;
import org.springframework.ai.model.tool.ToolCallingManager;

import java.util.ArrayList;
import java.util.List;
import java.util.function.Function;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

class SpringAiConsumerTest {

    /** A chat model that plays a script, running tool calls through Spring AI's ToolCallingManager. */
    static final class ScriptedChatModel implements ChatModel {
        private final List<Function<String, AssistantMessage>> steps;
        private final ToolCallingManager manager = ToolCallingManager.builder().build();

        @SafeVarargs
        ScriptedChatModel(Function<String, AssistantMessage>... steps) {
            this.steps = new ArrayList<>(List.of(steps));
        }

        @Override
        public ChatOptions getDefaultOptions() {
            return ToolCallingChatOptions.builder().build();
        }

        @Override
        public ChatResponse call(Prompt prompt) {
            while (true) {
                var messages = prompt.getInstructions();
                String last = messages.get(messages.size() - 1) instanceof ToolResponseMessage t
                        ? t.getResponses().get(0).responseData() : "";
                ChatResponse r = new ChatResponse(List.of(new Generation(steps.remove(0).apply(last))));
                if (!r.hasToolCalls()) {
                    return r;
                }
                prompt = new Prompt(manager.executeToolCalls(prompt, r).conversationHistory(), prompt.getOptions());
            }
        }
    }

    static AssistantMessage call(String tool, String arguments) {
        return AssistantMessage.builder().content("")
                .toolCalls(List.of(new AssistantMessage.ToolCall(tool, "function", tool, arguments))).build();
    }

    @Test
    void anAgentConsultsAndRunsAGoalThroughTheToolCallbacks() {
        ScriptedChatModel model = new ScriptedChatModel(
                result -> call("consult_text", "{\"source_text\": \"parent(tom, bob). parent(bob, ann). parent(bob, pat).\"}"),
                result -> {
                    Matcher m = Pattern.compile("\"load_id\"\\s*:\\s*\"([^\"]+)\"").matcher(result);
                    assertTrue(m.find(), result);
                    return call("run_goal", "{\"load_id\": \"" + m.group(1) + "\", \"goal\": \"parent(bob, X)\"}");
                },
                result -> new AssistantMessage(result.contains("\"count\":2") ? "two children" : result));
        try (PrologBackend backend = ProcessBackend.builder().build(); PrologTools tools = PrologTools.over(backend)) {
            String answer = ChatClient.create(model).prompt().user("Bob's children?")
                    .toolCallbacks(PrologToolCallbacks.of(tools)).call().content();
            assertEquals("two children", answer);
        }
    }

    @Test
    void theBindingBringsNoModelProviderNoSpringBootAndNoTestLibrary() {
        assertEquals(com.fasterxml.jackson.core.json.PackageVersion.VERSION.toString(),
                com.fasterxml.jackson.databind.cfg.PackageVersion.VERSION.toString());
        Classpath.lacks("org.springframework.ai.openai.OpenAiChatModel", "org.springframework.boot.SpringApplication",
                "org.jpl7.JPL", "dev.langchain4j.service.AiServices", "org.assertj.core.api.Assertions",
                "org.slf4j.nop.NOPServiceProvider");
    }
}

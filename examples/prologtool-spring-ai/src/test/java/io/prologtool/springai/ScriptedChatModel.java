package io.prologtool.springai;

import org.springframework.ai.chat.messages.AssistantMessage;
import org.springframework.ai.chat.messages.Message;
import org.springframework.ai.chat.messages.ToolResponseMessage;
import org.springframework.ai.chat.model.ChatModel;
import org.springframework.ai.chat.model.ChatResponse;
import org.springframework.ai.chat.model.Generation;
import org.springframework.ai.chat.prompt.ChatOptions;
import org.springframework.ai.chat.prompt.Prompt;
import org.springframework.ai.model.tool.ToolCallingChatOptions;
import org.springframework.ai.model.tool.ToolCallingManager;
import org.springframework.ai.model.tool.ToolExecutionResult;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Deque;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Function;

/**
 * A {@link ChatModel} that plays a script instead of calling a provider: each step sees the prompt so far
 * (the tool results included) and answers with tool calls or with text. Tool calls are run the way Spring
 * AI's own models run them, through a {@link ToolCallingManager} over the tools of the prompt's options, and
 * the step after them sees their results; text ends the turn. No network.
 */
public final class ScriptedChatModel implements ChatModel {

    private final Deque<Function<Prompt, AssistantMessage>> steps;
    private final List<Prompt> prompts = Collections.synchronizedList(new ArrayList<>());
    private final ToolCallingManager tools = ToolCallingManager.builder().build();
    private final AtomicInteger ids = new AtomicInteger();

    @SafeVarargs
    public ScriptedChatModel(Function<Prompt, AssistantMessage>... steps) {
        this.steps = new ArrayDeque<>(List.of(steps));
    }

    /** A step's answer: a call of {@code tool} with {@code argumentsJson}. */
    public AssistantMessage call(String tool, String argumentsJson) {
        return AssistantMessage.builder().content("")
                .toolCalls(List.of(new AssistantMessage.ToolCall("call-" + ids.incrementAndGet(), "function", tool,
                        argumentsJson)))
                .build();
    }

    /** A step's answer: text, which ends the turn. */
    public static AssistantMessage say(String text) {
        return new AssistantMessage(text);
    }

    /** The last tool result of {@code prompt}, as text. */
    public static String lastToolResult(Prompt prompt) {
        List<Message> messages = prompt.getInstructions();
        for (int i = messages.size() - 1; i >= 0; i--) {
            if (messages.get(i) instanceof ToolResponseMessage m && !m.getResponses().isEmpty()) {
                return m.getResponses().get(m.getResponses().size() - 1).responseData();
            }
        }
        throw new AssertionError("no tool result in the prompt");
    }

    @Override
    public ChatOptions getDefaultOptions() {
        return ToolCallingChatOptions.builder().build();
    }

    @Override
    public synchronized ChatResponse call(Prompt prompt) {
        while (true) {
            prompts.add(prompt);
            Function<Prompt, AssistantMessage> step = steps.pollFirst();
            if (step == null) {
                throw new AssertionError("the script has no step left for " + prompt.getInstructions());
            }
            ChatResponse response = new ChatResponse(List.of(new Generation(step.apply(prompt))));
            if (!response.hasToolCalls()) {
                return response;
            }
            ToolExecutionResult result = tools.executeToolCalls(prompt, response);
            prompt = new Prompt(result.conversationHistory(), prompt.getOptions());
        }
    }

    /** The prompts the steps saw, in order. */
    public List<Prompt> prompts() {
        return List.copyOf(prompts);
    }

    /** Steps not played yet. */
    public int remaining() {
        return steps.size();
    }

    /** The tool names the first prompt offered the model. */
    public List<String> offeredTools() {
        if (prompts.isEmpty() || !(prompts.get(0).getOptions() instanceof ToolCallingChatOptions o)) {
            return List.of();
        }
        return o.getToolCallbacks().stream().map(c -> c.getToolDefinition().name()).toList();
    }

    @Override
    public String toString() {
        return "ScriptedChatModel[" + steps.size() + " steps left]";
    }
}

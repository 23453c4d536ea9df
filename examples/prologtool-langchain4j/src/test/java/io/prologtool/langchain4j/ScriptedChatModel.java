package io.prologtool.langchain4j;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.langchain4j.agent.tool.ToolExecutionRequest;
import dev.langchain4j.data.message.AiMessage;
import dev.langchain4j.data.message.ChatMessage;
import dev.langchain4j.data.message.ToolExecutionResultMessage;
import dev.langchain4j.model.chat.ChatModel;
import dev.langchain4j.model.chat.request.ChatRequest;
import dev.langchain4j.model.chat.response.ChatResponse;
import dev.langchain4j.model.output.TokenUsage;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Function;

/**
 * A {@link ChatModel} that plays a script: each call to the model runs the next step, a function of
 * the request (so a step can read the last tool result, e.g. a {@code load_id}). Every request is
 * recorded. LangChain4j publishes no mock model for these versions (FACTS.md).
 */
public final class ScriptedChatModel implements ChatModel {

    static final ObjectMapper JSON = new ObjectMapper();

    /** One turn of the model: the reply to a request. */
    @FunctionalInterface
    public interface Step extends Function<ChatRequest, AiMessage> {
    }

    private final Deque<Step> steps;
    private final List<ChatRequest> requests = new CopyOnWriteArrayList<>();
    private final TokenUsage usage;
    private final AtomicInteger ids = new AtomicInteger();

    /** A model that plays {@code steps}, reporting 100 input and 20 output tokens per call. */
    public ScriptedChatModel(Step... steps) {
        this(new TokenUsage(100, 20), steps);
    }

    /** A model that plays {@code steps}, reporting {@code usage} per call. */
    public ScriptedChatModel(TokenUsage usage, Step... steps) {
        this.steps = new ArrayDeque<>(List.of(steps));
        this.usage = usage;
    }

    /** A model that answers each call with the next of {@code replies}. */
    public static ScriptedChatModel replying(String... replies) {
        Step[] steps = new Step[replies.length];
        for (int i = 0; i < replies.length; i++) {
            String r = replies[i];
            steps[i] = req -> AiMessage.from(r);
        }
        return new ScriptedChatModel(steps);
    }

    @Override
    public ChatResponse doChat(ChatRequest request) {
        requests.add(request);
        Step step;
        synchronized (steps) {
            step = steps.poll();
        }
        if (step == null) {
            throw new AssertionError("the script has no step left for request #" + requests.size() + ": "
                    + request.messages().get(request.messages().size() - 1));
        }
        return ChatResponse.builder().aiMessage(step.apply(request)).tokenUsage(usage).build();
    }

    /** Every request the model got, in order. */
    public List<ChatRequest> requests() {
        return List.copyOf(requests);
    }

    /** Steps not played yet. */
    public int remaining() {
        return steps.size();
    }

    /** An AI message that calls one tool with JSON arguments. */
    public AiMessage call(String tool, String argumentsJson) {
        return AiMessage.from(ToolExecutionRequest.builder().id("call-" + ids.incrementAndGet()).name(tool)
                .arguments(argumentsJson).build());
    }

    /** The request's last message, which must be a tool result. */
    public static ToolExecutionResultMessage lastToolResult(ChatRequest request) {
        ChatMessage last = request.messages().get(request.messages().size() - 1);
        if (!(last instanceof ToolExecutionResultMessage t)) {
            throw new AssertionError("the last message is not a tool result: " + last);
        }
        return t;
    }

    /** The last tool result as JSON. */
    public static JsonNode lastToolJson(ChatRequest request) {
        try {
            return JSON.readTree(lastToolResult(request).text());
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** A JSON object text from alternating keys and values. */
    public static String args(Object... keysAndValues) {
        var o = JSON.createObjectNode();
        for (int i = 0; i < keysAndValues.length; i += 2) {
            o.set((String) keysAndValues[i], JSON.valueToTree(keysAndValues[i + 1]));
        }
        return o.toString();
    }
}

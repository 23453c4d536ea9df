package io.prologtool.examples.springboot;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import org.springframework.ai.chat.messages.AssistantMessage;
import org.springframework.ai.chat.messages.Message;
import org.springframework.ai.chat.messages.ToolResponseMessage;
import org.springframework.ai.chat.messages.UserMessage;
import org.springframework.ai.chat.model.ChatModel;
import org.springframework.ai.chat.model.ChatResponse;
import org.springframework.ai.chat.model.Generation;
import org.springframework.ai.chat.prompt.ChatOptions;
import org.springframework.ai.chat.prompt.Prompt;
import org.springframework.ai.model.tool.ToolCallingChatOptions;
import org.springframework.ai.model.tool.ToolCallingManager;
import org.springframework.ai.model.tool.ToolExecutionResult;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.UUID;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A stand-in for a language model, so that the application runs with no key and no network: it plays one
 * fixed plan, for one kind of question, through the real tools. It reads facts "X is a parent of Y." and one
 * question, "Who are the ancestors of Z?" or "Is X an ancestor of Y?"; it writes the program (the facts and the
 * two clauses of {@code ancestor/2}), loads it with {@code consult_text}, runs the goal with {@code run_goal},
 * and answers from the goal's answers. Anything else gets an answer that says what it understands. It executes
 * the tool calls itself, as Spring AI's models do (through a {@link ToolCallingManager}).
 */
public final class FamilyScriptedModel implements ChatModel {

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final Pattern PARENT = Pattern.compile("(\\w+) is (?:a |the )?parent of (\\w+)",
            Pattern.CASE_INSENSITIVE);
    private static final Pattern WHO = Pattern.compile("who are the ancestors of (\\w+)", Pattern.CASE_INSENSITIVE);
    private static final Pattern IS = Pattern.compile("is (\\w+) an ancestor of (\\w+)", Pattern.CASE_INSENSITIVE);
    /** What this model understands, said when a question is not of that kind. */
    static final String UNDERSTOOD = "The scripted model understands facts \"X is a parent of Y.\" and one "
            + "question, \"Who are the ancestors of Z?\" or \"Is X an ancestor of Y?\". Set OPENAI_API_KEY for a "
            + "real model.";

    private final ToolCallingManager tools = ToolCallingManager.builder().build();

    @Override
    public ChatOptions getDefaultOptions() {
        return ToolCallingChatOptions.builder().build();
    }

    @Override
    public ChatResponse call(Prompt prompt) {
        while (true) {
            ChatResponse response = new ChatResponse(List.of(new Generation(next(prompt.getInstructions()))));
            if (!response.hasToolCalls()) {
                return response;
            }
            ToolExecutionResult result = tools.executeToolCalls(prompt, response);
            prompt = new Prompt(result.conversationHistory(), prompt.getOptions());
        }
    }

    /** The next message of the plan, from the conversation so far. */
    private AssistantMessage next(List<Message> messages) {
        String question = "";
        ToolResponseMessage.ToolResponse last = null;
        for (Message m : messages) {
            if (m instanceof UserMessage u) {
                question = u.getText();
                last = null;
            } else if (m instanceof ToolResponseMessage t && !t.getResponses().isEmpty()) {
                last = t.getResponses().get(t.getResponses().size() - 1);
            }
        }
        Plan plan = Plan.of(question);
        if (plan == null) {
            return new AssistantMessage(UNDERSTOOD);
        }
        if (last == null) {
            return call("consult_text", JSON.createObjectNode().put("source_text", plan.program()).toString());
        }
        JsonNode reply = read(last.responseData());
        if (last.name().equals("consult_text")) {
            if (!reply.path("ok").asBoolean()) {
                return new AssistantMessage("The program did not load: " + reply.at("/error/message").asText());
            }
            return call("run_goal", JSON.createObjectNode().put("load_id", reply.path("load_id").asText())
                    .put("goal", plan.goal()).toString());
        }
        if (!reply.path("ok").asBoolean()) {
            return new AssistantMessage("The goal " + plan.goal() + " raised " + reply.at("/error/kind").asText()
                    + ": " + reply.at("/error/message").asText());
        }
        return new AssistantMessage(plan.answer(reply));
    }

    private static AssistantMessage call(String tool, String arguments) {
        return AssistantMessage.builder().content("").toolCalls(List.of(new AssistantMessage.ToolCall(
                "call-" + UUID.randomUUID(), "function", tool, arguments))).build();
    }

    private static JsonNode read(String text) {
        try {
            return JSON.readTree(text);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static String name(String atom) {
        return atom.substring(0, 1).toUpperCase(Locale.ROOT) + atom.substring(1);
    }

    /** The program, goal and answer for one question; {@code who} is null for a yes/no question. */
    private record Plan(String program, String goal, String who, String ancestor) {

        static Plan of(String question) {
            StringBuilder program = new StringBuilder();
            Matcher m = PARENT.matcher(question);
            while (m.find()) {
                program.append("parent(").append(m.group(1).toLowerCase(Locale.ROOT)).append(", ")
                        .append(m.group(2).toLowerCase(Locale.ROOT)).append(").\n");
            }
            if (program.isEmpty()) {
                return null;
            }
            program.append("ancestor(X, Y) :- parent(X, Y).\nancestor(X, Z) :- parent(X, Y), ancestor(Y, Z).\n");
            Matcher who = WHO.matcher(question);
            if (who.find()) {
                String z = who.group(1).toLowerCase(Locale.ROOT);
                return new Plan(program.toString(), "setof(A, ancestor(A, " + z + "), As)", z, null);
            }
            Matcher is = IS.matcher(question);
            if (is.find()) {
                String x = is.group(1).toLowerCase(Locale.ROOT);
                String y = is.group(2).toLowerCase(Locale.ROOT);
                return new Plan(program.toString(), "ancestor(" + x + ", " + y + ")", y, x);
            }
            return null;
        }

        String answer(JsonNode reply) {
            int count = reply.path("count").asInt();
            if (ancestor != null) {
                return (count > 0 ? "Yes, " : "No, ") + name(ancestor) + (count > 0 ? " is" : " is not")
                        + " an ancestor of " + name(who) + ".";
            }
            if (count == 0) {
                return name(who) + " has no ancestors in these facts.";
            }
            List<String> names = new ArrayList<>();
            for (JsonNode e : reply.at("/answers/0/As/elements")) {
                names.add(name(e.path("value").asText()));
            }
            return "The ancestors of " + name(who) + " are " + String.join(", ", names) + ".";
        }
    }
}

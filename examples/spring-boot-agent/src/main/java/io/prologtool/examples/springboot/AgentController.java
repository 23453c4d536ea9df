package io.prologtool.examples.springboot;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.prologtool.springai.PrologToolCallbacks;
import io.prologtool.tools.PrologTools;
import org.springframework.ai.chat.client.ChatClient;
import org.springframework.ai.chat.model.ChatModel;
import org.springframework.ai.tool.ToolCallback;
import org.springframework.ai.tool.definition.ToolDefinition;
import org.springframework.http.HttpStatus;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestBody;
import org.springframework.web.bind.annotation.RestController;
import org.springframework.web.server.ResponseStatusException;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.List;

/**
 * {@code POST /ask} with {@code {"question": "..."}}: the agent's answer, the model that gave it, and each tool
 * call it made on the way (tool, arguments, whether the tool reported success), so that the
 * translate–run–inspect–repair loop can be read from the reply.
 */
@RestController
public class AgentController {

    /** The request body. */
    public record Question(String question) {
    }

    /** One tool call of the agent's. */
    public record Step(String tool, String arguments, boolean ok) {
    }

    /** The reply. */
    public record Reply(String answer, String model, List<Step> steps) {
    }

    private static final ObjectMapper JSON = new ObjectMapper();

    private final ChatClient agent;
    private final ChatModel model;
    private final PrologToolCallbacks tools;

    AgentController(ChatClient agent, ChatModel model, PrologToolCallbacks tools) {
        this.agent = agent;
        this.model = model;
        this.tools = tools;
    }

    /** Asks the agent; 400 when there is no question. */
    @PostMapping("/ask")
    public Reply ask(@RequestBody Question q) {
        if (q == null || q.question() == null || q.question().isBlank()) {
            throw new ResponseStatusException(HttpStatus.BAD_REQUEST, "give {\"question\": \"...\"}");
        }
        List<Step> steps = Collections.synchronizedList(new ArrayList<>());
        ToolCallback[] recorded = Arrays.stream(tools.getToolCallbacks())
                .map(c -> (ToolCallback) new Recorded(c, steps)).toArray(ToolCallback[]::new);
        String answer = agent.prompt().user(q.question()).toolCallbacks(recorded).call().content();
        return new Reply(answer, model.getClass().getSimpleName(), List.copyOf(steps));
    }

    /** A tool callback that notes each call in {@code steps} before it answers. */
    private record Recorded(ToolCallback tool, List<Step> steps) implements ToolCallback {

        @Override
        public ToolDefinition getToolDefinition() {
            return tool.getToolDefinition();
        }

        @Override
        public String call(String arguments) {
            String result = tool.call(arguments);
            boolean ok;
            try {
                ok = !PrologTools.isFailure(JSON.readTree(result));
            } catch (JsonProcessingException e) {
                ok = false;
            }
            steps.add(new Step(tool.getToolDefinition().name(), arguments, ok));
            return result;
        }
    }
}

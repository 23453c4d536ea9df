package consumer;

import dev.langchain4j.model.chat.ChatModel;
import dev.langchain4j.service.AiServices;
import io.prologtool.PrologBackend;
import io.prologtool.langchain4j.PrologToolbox;
import io.prologtool.tools.PrologTools;

/** A user's agent: LangChain4j's AiServices with prologtool's tools, on any chat model. */
public final class FamilyAgent implements AutoCloseable {

    /** What AiServices implements. */
    public interface Assistant {
        String chat(String message);
    }

    private final PrologTools tools;
    private final Assistant assistant;

    public FamilyAgent(PrologBackend backend, ChatModel model) {
        this.tools = PrologTools.over(backend);
        this.assistant = PrologToolbox.of(tools).configure(AiServices.builder(Assistant.class)).chatModel(model).build();
    }

    public String ask(String message) {
        return assistant.chat(message);
    }

    @Override
    public void close() {
        tools.close();
    }
}

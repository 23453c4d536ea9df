package io.prologtool.examples.springboot;

import org.springframework.ai.chat.client.ChatClient;
import org.springframework.ai.chat.model.ChatModel;
import org.springframework.ai.openai.OpenAiChatModel;
import org.springframework.ai.openai.OpenAiChatOptions;
import org.springframework.ai.openai.api.OpenAiApi;
import org.springframework.beans.factory.annotation.Value;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/**
 * The agent: a chat model and a {@code ChatClient} that offers it the prologtool tools. With
 * {@code agent.openai.api-key} (from {@code OPENAI_API_KEY}) the model is OpenAI's {@code agent.openai.model};
 * without it, the {@link FamilyScriptedModel}, so that the application runs and answers with no key and no
 * network.
 */
@Configuration(proxyBeanMethods = false)
public class AgentConfiguration {

    /** What the agent is told before each question. */
    static final String SYSTEM = """
            You answer questions by translating them into Prolog and running it. Write the facts and rules the
            question gives as a Prolog program and load it with consult_text; run the goal that answers the question
            with run_goal in that session. When a tool reports an error, read it, repair the program (consult_text
            again, or replace_predicate) and run the goal again. Answer from what the goals returned, in one or two
            sentences.""";

    /** OpenAI when a key is given, the scripted model otherwise. */
    @Bean
    ChatModel chatModel(@Value("${agent.openai.api-key:}") String apiKey,
                        @Value("${agent.openai.model:gpt-4o-mini}") String model) {
        if (apiKey.isBlank()) {
            return new FamilyScriptedModel();
        }
        return OpenAiChatModel.builder().openAiApi(OpenAiApi.builder().apiKey(apiKey).build())
                .defaultOptions(OpenAiChatOptions.builder().model(model).build()).build();
    }

    /** The client the controller asks: the model and the instructions (the controller gives the tools). */
    @Bean
    ChatClient agent(ChatModel model) {
        return ChatClient.builder(model).defaultSystem(SYSTEM).build();
    }
}

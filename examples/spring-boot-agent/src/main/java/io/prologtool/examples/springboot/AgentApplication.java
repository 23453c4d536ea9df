package io.prologtool.examples.springboot;

import org.springframework.boot.SpringApplication;
import org.springframework.boot.autoconfigure.SpringBootApplication;

/**
 * A Spring Boot application with a Prolog-using agent behind {@code POST /ask}: the prologtool starter makes the
 * backend, the sessions and the tools from {@code application.properties}; {@link AgentConfiguration} picks the
 * chat model (OpenAI when {@code OPENAI_API_KEY} is set, {@link FamilyScriptedModel} otherwise) and builds the
 * {@code ChatClient} over the tool callbacks; {@link AgentController} serves the questions. Health
 * ({@code /actuator/health/prologtool}) and metrics ({@code /actuator/metrics/prologtool.calls}) come from
 * Actuator. {@code make agent} starts it on port 8080.
 */
@SpringBootApplication
public class AgentApplication {

    /** Starts the application; Spring Boot's options apply ({@code --server.port=9090}, ...). */
    public static void main(String[] args) {
        SpringApplication.run(AgentApplication.class, args);
    }
}

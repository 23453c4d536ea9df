package consumer;

import io.prologtool.PrologBackend;
import io.prologtool.SessionRegistry;
import io.prologtool.process.ProcessBackend;
import io.prologtool.tools.PrologTools;
import org.junit.jupiter.api.Test;
import org.springframework.boot.WebApplicationType;
import org.springframework.boot.autoconfigure.SpringBootApplication;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.context.ConfigurableApplicationContext;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;

class SpringBootConsumerTest {

    @SpringBootApplication
    static class App {
    }

    @Test
    void theStarterAloneGivesAnApplicationTheToolsOnTheProcessBackend() {
        ProcessBackend backend;
        try (ConfigurableApplicationContext ctx = new SpringApplicationBuilder(App.class)
                .web(WebApplicationType.NONE).run("--prologtool.process.pool-size=0")) {
            backend = assertInstanceOf(ProcessBackend.class, ctx.getBean(PrologBackend.class));
            PrologTools tools = ctx.getBean(PrologTools.class);
            String consulted = tools.call("consult_text", "{\"source_text\": \"p(41).\"}");
            assertTrue(consulted.contains("\"ok\":true"), consulted);
            String id = consulted.replaceAll(".*\"load_id\":\"([^\"]+)\".*", "$1");
            String ran = tools.call("run_goal", "{\"load_id\": \"" + id + "\", \"goal\": \"p(X), Y is X + 1\"}");
            assertTrue(ran.contains("\"value\":42"), ran);
            assertEquals(1, ctx.getBean(SessionRegistry.class).size());
        }
        assertEquals(0, backend.liveChildren(), "every child ended with the context");
    }

    @Test
    void theStarterBringsNoJplNoSpringAiNoMicrometerBindingNoActuatorAndNoTestLibrary() {
        Classpath.lacks("org.jpl7.JPL", "io.prologtool.jpl.JplBackend", "org.springframework.ai.tool.ToolCallback",
                "io.prologtool.springai.PrologToolCallbacks", "io.prologtool.micrometer.MicrometerPrologListener",
                "org.springframework.boot.actuate.health.HealthIndicator", "dev.langchain4j.service.AiServices",
                "org.assertj.core.api.Assertions", "org.springframework.boot.test.context.SpringBootTest",
                "org.postgresql.Driver");
    }
}

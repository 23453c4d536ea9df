package consumer;

import io.prologtool.GoalResult;
import io.prologtool.Outcome;
import io.prologtool.PrologBackend;
import io.prologtool.PrologSession;
import io.prologtool.jpl.JplBackend;
import org.junit.jupiter.api.Test;

import java.io.File;
import java.util.Arrays;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

class JplConsumerTest {

    @Test
    void jplIsNeitherADependencyNorOnTheClasspath() {
        Classpath.lacks("org.springframework.ai.tool.ToolCallback", "org.springframework.context.ApplicationContext", "io.micrometer.core.instrument.MeterRegistry", "org.jpl7.JPL", "dev.langchain4j.service.AiServices", "org.assertj.core.api.Assertions");
        assertTrue(Arrays.stream(System.getProperty("java.class.path").split(File.pathSeparator))
                .noneMatch(e -> new File(e).getName().startsWith("jpl")), System.getProperty("java.class.path"));
    }

    @Test
    void aSessionOnTheJplBackendRunsWithJplFromTheInstallation() {
        try (PrologBackend backend = JplBackend.get();
             PrologSession s = backend.open()) {
            s.consult("likes(mary, wine). likes(mary, cheese).");
            GoalResult r = s.goal("likes(mary, X)").run();
            assertEquals(Outcome.SUCCESS, r.outcome());
            assertEquals(List.of("wine", "cheese"), r.answers().stream().map(a -> a.get("X").toString()).toList());
            // a foreign library of SWI-Prolog, reached with nothing set in the environment
            GoalResult t = s.goal("catch(call_with_time_limit(0.2, (repeat, fail)), time_limit_exceeded, T = stopped)").run();
            assertEquals("stopped", t.answers().get(0).get("T").toString());
        }
    }
}

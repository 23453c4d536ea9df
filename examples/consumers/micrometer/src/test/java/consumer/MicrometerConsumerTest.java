package consumer;

import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.prologtool.PrologBackend;
import io.prologtool.PrologSession;
import io.prologtool.micrometer.MicrometerPrologListener;
import io.prologtool.process.ProcessBackend;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;

class MicrometerConsumerTest {

    @Test
    void theBindingCountsAGoalOnTheProcessBackend() {
        SimpleMeterRegistry meters = new SimpleMeterRegistry();
        try (PrologBackend backend = ProcessBackend.builder().listener(MicrometerPrologListener.of(meters)).build();
             PrologSession s = backend.open()) {
            s.goal("X = 1").run();
            assertEquals(1.0, meters.get("prologtool.calls").tags("kind", "goal", "outcome", "success").counter().count());
            assertEquals(1.0, meters.get("prologtool.sessions.open").gauge().value());
        }
    }

    @Test
    void theBindingBringsNoJplNoLoggerBindingAndNoTestLibrary() {
        Classpath.lacks("org.springframework.ai.tool.ToolCallback", "org.springframework.context.ApplicationContext", "org.jpl7.JPL", "io.prologtool.jpl.JplBackend", "dev.langchain4j.service.AiServices",
                "org.assertj.core.api.Assertions", "org.slf4j.nop.NOPServiceProvider",
                "io.micrometer.observation.tck.TestObservationRegistry");
    }
}

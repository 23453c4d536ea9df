package consumer;

import io.prologtool.ConsultResult;
import io.prologtool.GoalResult;
import io.prologtool.Outcome;
import io.prologtool.PrologBackend;
import io.prologtool.PrologSession;
import io.prologtool.process.ProcessBackend;
import org.junit.jupiter.api.Test;

import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;

class ProcessConsumerTest {

    @Test
    void aSessionOnTheProcessBackendConsultsAndAnswers() {
        try (PrologBackend backend = ProcessBackend.builder().build();
             PrologSession s = backend.open()) {
            ConsultResult c = s.consult("""
                    parent(tom, bob).  parent(bob, ann).
                    ancestor(X, Y) :- parent(X, Y).
                    ancestor(X, Y) :- parent(X, Z), ancestor(Z, Y).
                    """);
            assertEquals(List.of(), c.messages());
            GoalResult r = s.goal("ancestor(tom, Who)").maxAnswers(10).run();
            assertEquals(Outcome.SUCCESS, r.outcome());
            assertEquals(List.of("bob", "ann"), r.answers().stream().map(a -> a.get("Who").toString()).toList());
        }
    }

    @Test
    void theBackendBringsNoJplNoLangChain4jAndNoTestLibrary() {
        Classpath.lacks("org.springframework.ai.tool.ToolCallback", "org.springframework.context.ApplicationContext", "io.micrometer.core.instrument.MeterRegistry", "org.jpl7.JPL", "io.prologtool.jpl.JplBackend", "dev.langchain4j.service.AiServices",
                "org.assertj.core.api.Assertions", "org.slf4j.nop.NOPServiceProvider");
    }
}

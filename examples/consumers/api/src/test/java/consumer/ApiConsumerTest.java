package consumer;

import io.prologtool.Term;
import org.junit.jupiter.api.Test;

import java.math.BigInteger;

import static org.junit.jupiter.api.Assertions.assertEquals;

class ApiConsumerTest {

    @Test
    void termsPrintAsPrologAndRoundTripThroughJson() {
        Term t = Term.compound("point", Term.atom("it's"), Term.integer(BigInteger.TWO.pow(70)));
        assertEquals("point('it\\'s',1180591620717411303424)", t.toString());
        assertEquals(t, Term.fromJson(t.toJson()));
    }

    @Test
    void theApiBringsJacksonAlignedAndNoBackendOrTestLibrary() {
        assertEquals(com.fasterxml.jackson.core.json.PackageVersion.VERSION.toString(),
                com.fasterxml.jackson.databind.cfg.PackageVersion.VERSION.toString());
        Classpath.lacks("org.springframework.ai.tool.ToolCallback", "org.springframework.context.ApplicationContext", "io.micrometer.core.instrument.MeterRegistry", "org.jpl7.JPL", "io.prologtool.process.ProcessBackend", "io.prologtool.jpl.JplBackend",
                "org.assertj.core.api.Assertions", "org.slf4j.nop.NOPServiceProvider", "com.sun.jna.Native");
    }
}

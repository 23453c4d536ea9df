package io.prologtool.junit;

import io.prologtool.PrologBackend;
import io.prologtool.PrologSession;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;

import java.util.ArrayList;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/** {@link Prolog} and {@link PrologExtension}: sessions injected, loaded as configured, closed by the extension. */
@Prolog(resources = "prolog/extension_family.pl")
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class PrologExtensionTest {

    /** The sessions the tests of this class were given, to check after them that they are closed. */
    static final List<PrologSession> SEEN = new ArrayList<>();

    @AfterAll
    static void everySessionWasClosed() {
        assertThat(SEEN).isNotEmpty().allSatisfy(s -> assertThat(s.isOpen()).as("%s", s).isFalse());
    }

    @Test
    @Order(1)
    void theSessionHoldsTheResource(PrologSession s) {
        SEEN.add(s);
        assertThat(s.goal("grandparent(tom, X)").run().answers().get(0).getText("X")).isEqualTo("ann");
        s.consult("extra(1).");
    }

    @Test
    @Order(2)
    void eachTestHasAFreshSession(PrologSession s, PrologBackend backend) {
        SEEN.add(s);
        assertThat(SEEN.get(0).isOpen()).as("the first test's session is closed after it").isFalse();
        assertThat(s.goal("catch(extra(_), _, fail)").run().succeeded()).isFalse();
        assertThat(backend.name()).isEqualTo("process");
    }

    @Test
    @Order(3)
    @Prolog(sandboxed = true)
    void aMethodsAnnotationReplacesTheClasss(PrologSession s) {
        SEEN.add(s);
        assertThat(s.goal("catch(parent(_, _), _, fail)").run().succeeded()).as("no resource loaded").isFalse();
        assertThat(s.goal("shell(ls)").run().error().orElseThrow().kind()).as("sandboxed").isEqualTo("sandbox_violation");
    }

    @Nested
    @Prolog(scope = Prolog.Scope.CLASS, resources = "prolog/extension_family.pl", timeLimitSeconds = 5)
    @TestMethodOrder(MethodOrderer.OrderAnnotation.class)
    class SharedSession {

        @Test
        @Order(1)
        void theFirstTestAddsAFact(PrologSession s) {
            SEEN.add(s);
            s.consult("added(1).");
        }

        @Test
        @Order(2)
        void theNextTestSeesIt(PrologSession s) {
            assertThat(SEEN.get(SEEN.size() - 1)).isSameAs(s);
            assertThat(s.isOpen()).isTrue();
            assertThat(s.goal("added(X)").run().answers().get(0).getInt("X")).isEqualTo(1);
        }
    }
}

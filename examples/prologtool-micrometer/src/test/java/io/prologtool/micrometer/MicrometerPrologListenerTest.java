package io.prologtool.micrometer;

import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.micrometer.observation.tck.TestObservationRegistry;
import io.micrometer.observation.tck.TestObservationRegistryAssert;
import io.prologtool.GoalResult;
import io.prologtool.PrologSession;
import io.prologtool.SessionOptions;
import io.prologtool.SessionRegistry;
import io.prologtool.Term;
import io.prologtool.jpl.JplBackend;
import io.prologtool.process.Isolation;
import io.prologtool.process.ProcessBackend;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;

/** The binding on real backends, read through a SimpleMeterRegistry and a TestObservationRegistry. */
class MicrometerPrologListenerTest {

    private static final String LOOP = "loop(0) :- !.\nloop(N) :- N1 is N - 1, loop(N1).\n";

    @Test
    void callsSessionsAndRefusalsBecomeMetersAndEachCallAnObservation() throws Exception {
        SimpleMeterRegistry meters = new SimpleMeterRegistry();
        TestObservationRegistry observations = TestObservationRegistry.create();
        try (ProcessBackend backend = ProcessBackend.builder().isolation(Isolation.none())
                .listener(MicrometerPrologListener.of(meters, observations)).build()) {
            PrologSession s = backend.open();
            s.consult(LOOP);
            s.goal("loop(1200000)").maxDepth(Integer.MAX_VALUE).run();
            s.goal("fail").run();
            assertThat(meters.get("prologtool.sessions.open").tag("backend", "process").gauge().value()).isEqualTo(1);
            try (PrologSession sandboxed = backend.open(SessionOptions.builder().sandboxed(true).build())) {
                GoalResult refused = sandboxed.goal("shell('true')").run();
                assertThat(refused.error().orElseThrow().kind()).isEqualTo("sandbox_violation");
                assertThat(meters.get("prologtool.sessions.open").gauge().value()).isEqualTo(2);
            }
            s.close();

            assertThat(meters.get("prologtool.sessions.open").gauge().value()).isZero();
            assertThat(meters.get("prologtool.calls").tags("kind", "goal", "outcome", "success").counter().count())
                    .isEqualTo(1);
            assertThat(meters.get("prologtool.calls").tags("kind", "goal", "outcome", "failure").counter().count())
                    .isEqualTo(1);
            assertThat(meters.get("prologtool.calls").tags("kind", "goal", "outcome", "error").counter().count())
                    .isEqualTo(1);
            assertThat(meters.get("prologtool.calls").tags("kind", "consult", "outcome", "ok").counter().count())
                    .isEqualTo(1);
            assertThat(meters.get("prologtool.refusals").tags("kind", "goal").counter().count()).isEqualTo(1);
            assertThat(meters.get("prologtool.goal").tags("kind", "goal", "outcome", "success").timer().count())
                    .isEqualTo(1);
            assertThat(meters.get("prologtool.goal").tags("outcome", "success").timer().totalTime(TimeUnit.NANOSECONDS))
                    .isPositive();
            assertThat(meters.get("prologtool.consult").timer().count()).isEqualTo(1);
            assertThat(meters.get("prologtool.inferences").tags("kind", "goal").summary().max()).isGreaterThan(1_000_000);
            assertThat(meters.get("prologtool.cpu").tags("kind", "goal").counter().count()).isPositive();
            assertThat(meters.get("prologtool.session.cycle").tags("reason", "closed").timer().count()).isEqualTo(2);
            assertThat(meters.get("prologtool.sessions.closed").tags("reason", "closed").counter().count()).isEqualTo(2);

            TestObservationRegistryAssert.assertThat(observations)
                    .hasNumberOfObservationsWithNameEqualTo(MicrometerPrologListener.OBSERVATION, 4)
                    .forAllObservationsWithNameEqualTo(MicrometerPrologListener.OBSERVATION, o -> o
                            .hasLowCardinalityKeyValue("prologtool.backend", "process")
                            .hasLowCardinalityKeyValueWithKey("prologtool.outcome"))
                    .hasAnObservation(o -> o.hasContextualNameEqualTo("prolog goal")
                            .hasLowCardinalityKeyValue("prologtool.outcome", "error")
                            .hasLowCardinalityKeyValue("prologtool.error", "sandbox_violation"))
                    .hasAnObservation(o -> o.hasContextualNameEqualTo("prolog consult")
                            .hasLowCardinalityKeyValue("prologtool.outcome", "ok")
                            .hasHighCardinalityKeyValue("prologtool.session", s.id()))
                    .hasObservationWithNameEqualTo(MicrometerPrologListener.OBSERVATION).that()
                    .hasBeenStarted().hasBeenStopped();
            assertDocumented(meters);
        }
    }

    @Test
    void crashesRestoresEvictionsAndThePoolAreCounted() throws Exception {
        SimpleMeterRegistry meters = new SimpleMeterRegistry();
        try (ProcessBackend backend = ProcessBackend.builder().isolation(Isolation.none()).poolSize(1)
                .listener(MicrometerPrologListener.of(meters)).build();
             SessionRegistry registry = SessionRegistry.builder(backend).maxSessions(1).build()) {
            PrologSession first = registry.open();
            first.consult("kept(1).");
            Term pid = first.goal("current_prolog_flag(pid, P)").run().answers().get(0).get("P");
            ProcessHandle child = ProcessHandle.of(((Term.Int) pid).value().longValueExact()).orElseThrow();
            child.destroyForcibly();
            child.onExit().get(30, TimeUnit.SECONDS);
            assertThat(first.goal("kept(1)").run().succeeded()).isTrue();
            assertThat(meters.get("prologtool.crashes").counter().count()).isEqualTo(1);
            assertThat(meters.get("prologtool.restores").counter().count()).isEqualTo(1);

            registry.open();
            assertThat(meters.get("prologtool.evictions").counter().count()).isEqualTo(1);
            assertThat(meters.get("prologtool.sessions.closed").tags("reason", "evicted").counter().count()).isEqualTo(1);

            long deadline = System.nanoTime() + Duration.ofSeconds(30).toNanos();
            while (backend.idleChildren() < 1 && System.nanoTime() < deadline) {
                Thread.sleep(10);
            }
            while (meters.find("prologtool.pool.idle").gauge() == null && System.nanoTime() < deadline) {
                Thread.sleep(10);
            }
            assertThat(meters.get("prologtool.pool.idle").tag("backend", "process").gauge().value())
                    .isEqualTo(backend.idleChildren());
            assertDocumented(meters);
        }
    }

    /** Every meter the binding made is named in the meter table of docs/observability.md. */
    private static void assertDocumented(SimpleMeterRegistry meters) throws java.io.IOException {
        java.nio.file.Path guide = java.nio.file.Path.of("..", "..", "docs", "observability.md");
        String table = java.nio.file.Files.readAllLines(guide).stream()
                .filter(l -> l.startsWith("| `prologtool.")).collect(java.util.stream.Collectors.joining("\n"));
        assertThat(meters.getMeters()).extracting(m -> m.getId().getName()).isNotEmpty()
                .allSatisfy(name -> assertThat(table).as("the meter table of %s", guide).contains("`" + name + "`"));
    }

    @Test
    void theInProcessBackendIsObservedTheSameWay() {
        SimpleMeterRegistry meters = new SimpleMeterRegistry();
        TestObservationRegistry observations = TestObservationRegistry.create();
        try (JplBackend backend = JplBackend.builder().listener(MicrometerPrologListener.of(meters, observations)).build();
             PrologSession s = backend.open()) {
            s.goal("X = 1").run();
            assertThat(meters.get("prologtool.calls").tags("backend", "jpl", "kind", "goal", "outcome", "success")
                    .counter().count()).isEqualTo(1);
            TestObservationRegistryAssert.assertThat(observations)
                    .hasSingleObservationThat().hasNameEqualTo(MicrometerPrologListener.OBSERVATION)
                    .hasBeenStopped().hasLowCardinalityKeyValue("prologtool.backend", "jpl");
        }
    }
}

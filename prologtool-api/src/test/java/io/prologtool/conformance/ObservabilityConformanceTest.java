package io.prologtool.conformance;

import com.fasterxml.jackson.databind.JsonNode;
import io.prologtool.ConsultResult;
import io.prologtool.Cost;
import io.prologtool.ExecutionResult;
import io.prologtool.GoalResult;
import io.prologtool.Outcome;
import io.prologtool.PrologBackend;
import io.prologtool.PrologExecutor;
import io.prologtool.PrologListener;
import io.prologtool.PrologSession;
import io.prologtool.SessionOptions;
import io.prologtool.SessionRegistry;
import io.prologtool.TestReport;
import io.prologtool.json.TermJson;
import io.prologtool.tools.PrologTools;
import io.prologtool.tools.ToolSpec;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Optional;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * What results cost ({@link Cost}), the listener's events and the log events, on a real backend. The
 * backend module registers {@link CapturingLoggerFinder} as its test JVM's {@link System.LoggerFinder}.
 */
public abstract class ObservabilityConformanceTest extends BackendFixture {

    /** A loop of one inference a step (its arithmetic compiles inline): {@code loop(1200000)} counts more than 10^6. */
    protected static final String LOOP = "loop(0) :- !.\nloop(N) :- N1 is N - 1, loop(N1).\n";
    protected static final long MILLION = 1_000_000;

    /** Every event the backend's listener heard, as text, in order. */
    protected final List<String> heard = Collections.synchronizedList(new ArrayList<>());
    protected final List<PrologListener.Call> calls = Collections.synchronizedList(new ArrayList<>());

    /** A listener that records into {@link #heard} and {@link #calls}. */
    protected final PrologListener recorder = new PrologListener() {
        @Override
        public void sessionOpened(String backend, String sessionId) {
            heard.add("opened " + sessionId);
        }

        @Override
        public void sessionClosed(String backend, String sessionId, CloseReason reason) {
            heard.add("closed " + sessionId + " " + reason.wireName());
        }

        @Override
        public Object callStarted(String backend, String sessionId, String kind) {
            return "context of " + kind + " " + sessionId;
        }

        @Override
        public void callFinished(Call call) {
            calls.add(call);
            heard.add("call " + call.sessionId() + " " + call.kind() + " " + call.outcome());
        }

        @Override
        public void sessionCrashed(String backend, String sessionId) {
            heard.add("crashed " + sessionId);
        }

        @Override
        public void sessionRestored(String backend, String sessionId, int droppedEntries) {
            heard.add("restored " + sessionId + " " + droppedEntries);
        }

        @Override
        public void sandboxRefused(String backend, String sessionId, String kind, String message) {
            heard.add("refused " + sessionId + " " + kind);
        }
    };

    /** The backend under test with {@code listener} registered on its builder. */
    protected abstract PrologBackend createBackend(PrologListener listener);

    @Override
    protected final PrologBackend createBackend() {
        return createBackend(recorder);
    }

    @BeforeEach
    void forgetEarlierEvents() {
        heard.clear();
        calls.clear();
    }

    // ---------------------------------------------------------------- cost fields

    @Test
    void aGoalsCostMovesWithItsWork() {
        session.consult(LOOP);
        GoalResult trivial = session.goal("true").run();
        GoalResult busy = session.goal("loop(1200000)").timeLimit(Duration.ofSeconds(60)).maxDepth(Integer.MAX_VALUE).run();
        assertThat(busy.outcome()).as("%s", busy).isEqualTo(Outcome.SUCCESS);
        assertThat(busy.inferences()).as("%s", busy.cost()).isGreaterThan(MILLION);
        assertThat(trivial.inferences()).as("%s", trivial.cost()).isPositive().isLessThan(10_000);
        assertThat(busy.cpuTime()).as("%s against %s", busy.cost(), trivial.cost()).isGreaterThan(trivial.cpuTime());
        assertThat(busy.wallTime()).isGreaterThan(trivial.wallTime());
        for (GoalResult r : List.of(trivial, busy)) {
            assertThat(r.wallTime()).isPositive();
            // one Prolog thread's CPU time fits in the wall time of the call that waited for it
            assertThat(r.cpuTime()).as("%s", r.cost()).isLessThanOrEqualTo(r.wallTime());
        }
    }

    @Test
    void aGoalThatRaisesOrHitsALimitStillSaysWhatItCost() {
        session.consult(LOOP);
        GoalResult raised = session.goal("loop(300000), X is foo + 1").timeLimit(Duration.ofSeconds(60))
                .maxDepth(Integer.MAX_VALUE).run();
        assertThat(raised.outcome()).isEqualTo(Outcome.ERROR);
        assertThat(raised.inferences()).as("%s", raised.cost()).isGreaterThan(300_000);
        GoalResult limited = session.goal("loop(10000000)").maxInferences(200_000).maxDepth(Integer.MAX_VALUE).run();
        assertThat(limited.outcome()).as("%s", limited).isEqualTo(Outcome.INFERENCE_LIMIT);
        assertThat(limited.inferences()).as("%s", limited.cost()).isGreaterThan(200_000).isLessThan(MILLION);
    }

    @Test
    void aQuerysFetchCountsItsOwnWork() {
        session.consult(LOOP);
        // A fetch looks one answer ahead: the first finds 10 and 20, the second gives 20 and finds 1,200,000.
        try (io.prologtool.Query q = session.goal("member(N, [10, 20, 1200000]), loop(N)").maxDepth(Integer.MAX_VALUE)
                .timeLimit(Duration.ofSeconds(60)).query()) {
            GoalResult small = q.fetch(1);
            GoalResult busy = q.fetch(1);
            assertThat(small.answers()).hasSize(1);
            assertThat(busy.answers()).hasSize(1);
            assertThat(small.wallTime()).isPositive();
            assertThat(small.inferences()).as("%s", small.cost()).isLessThan(10_000);
            assertThat(busy.inferences()).as("%s", busy.cost()).isGreaterThan(MILLION);
            assertThat(busy.cpuTime()).isGreaterThan(small.cpuTime()).isLessThanOrEqualTo(busy.wallTime());
        }
    }

    @Test
    void consultAndTestsSayWhatTheyCost() {
        ConsultResult small = session.consult("p(1).");
        ConsultResult busy = session.consult(LOOP + ":- initialization(loop(1200000)).\n");
        assertThat(busy.hasErrors()).as("%s", busy.messages()).isFalse();
        assertThat(small.wallTime()).isPositive();
        assertThat(busy.inferences()).as("%s", busy.cost()).isGreaterThan(MILLION);
        assertThat(small.inferences()).as("%s", small.cost()).isLessThan(busy.inferences());
        assertThat(busy.cpuTime()).isGreaterThan(small.cpuTime());

        TestReport t = session.runTests("""
                :- begin_tests(costly).
                test(loop) :- loop(1200000).
                :- end_tests(costly).
                """);
        assertThat(t.allPassed()).as("%s", t).isTrue();
        assertThat(t.inferences()).as("%s", t.cost()).isGreaterThan(MILLION);
        assertThat(t.wallTime()).isPositive();
        assertThat(t.cpuTime()).isPositive().isLessThanOrEqualTo(t.wallTime());
    }

    @Test
    void anExecutionSaysWhatItCostInItsResultAndMetadata() {
        try (PrologExecutor executor = PrologExecutor.builder(backend).scratchSessions(1).build()) {
            ExecutionResult r = executor.execute(LOOP, "loop(1200000).").run();
            ExecutionResult trivial = executor.execute("p(1).", "p(X).").run();
            assertThat(r.success()).as("%s", r).isTrue();
            assertThat(r.inferences()).as("%s", r.cost()).isGreaterThan(MILLION);
            assertThat(r.cpuTime()).isGreaterThan(trivial.cpuTime());
            assertThat(r.wallTime()).isPositive();
            assertThat(r.metadata()).containsEntry("inferences", r.inferences())
                    .containsEntry("cpu_time_ms", r.cost().cpuTimeMillis());
            assertThat(r.toJson().path("metadata").path("inferences").asLong()).isEqualTo(r.inferences());
        }
    }

    @Test
    void toolRepliesCarryTheCostKeysTheirSpecsName() throws Exception {
        try (PrologTools tools = PrologTools.over(backend)) {
            JsonNode c = TermJson.mapper().readTree(tools.call("consult_text",
                    "{\"source_text\": \"loop(0) :- !. loop(N) :- N1 is N - 1, loop(N1).\"}"));
            String id = c.path("load_id").asText();
            JsonNode g = TermJson.mapper().readTree(tools.call("run_goal",
                    "{\"load_id\": \"" + id + "\", \"goal\": \"loop(1200000)\"}"));
            JsonNode t = TermJson.mapper().readTree(tools.call("run_tests",
                    "{\"load_id\": \"" + id + "\", \"test_source_text\": "
                            + "\":- begin_tests(u). test(a) :- loop(10). :- end_tests(u).\"}"));
            JsonNode e = TermJson.mapper().readTree(tools.call("execute_prolog",
                    "{\"prolog_code\": \"p(1).\", \"query\": \"p(X)\"}"));
            for (JsonNode r : List.of(c, g, t)) {
                assertThat(r.path("ok").asBoolean()).as("%s", r).isTrue();
                assertThat(r.path("wall_time_ms").isNumber()).as("%s", r).isTrue();
                assertThat(r.path("cpu_time_ms").isNumber()).as("%s", r).isTrue();
                assertThat(r.path("inferences").isIntegralNumber()).as("%s", r).isTrue();
            }
            assertThat(g.path("inferences").asLong()).isGreaterThan(MILLION);
            assertThat(g.path("wall_time_ms").asDouble()).isPositive();
            assertThat(e.path("metadata").path("inferences").isIntegralNumber()).as("%s", e).isTrue();
            assertThat(e.path("metadata").path("cpu_time_ms").isNumber()).as("%s", e).isTrue();
            Map<String, String> descriptions = new java.util.HashMap<>();
            for (ToolSpec s : tools.specs()) {
                descriptions.put(s.name(), s.description());
            }
            for (String tool : List.of("consult_text", "run_goal", "run_tests")) {
                assertThat(descriptions.get(tool)).contains("wall_time_ms", "cpu_time_ms", "inferences");
            }
            assertThat(descriptions.get("execute_prolog")).contains("cpu_time_ms", "inferences");
        }
    }

    // ---------------------------------------------------------------- listener

    @Test
    void theListenerHearsASessionsLifeAndEachCall() {
        PrologSession s = backend.open();
        String id = s.id();
        s.consult(LOOP);
        s.goal("loop(1200000)").maxDepth(Integer.MAX_VALUE).run();
        s.goal("fail").run();
        s.runTests(":- begin_tests(u).\ntest(a).\n:- end_tests(u).\n");
        s.close();
        s.close();
        assertThat(heard).containsSubsequence("opened " + id, "call " + id + " consult ok",
                "call " + id + " goal success", "call " + id + " goal failure", "call " + id + " run_tests passed",
                "closed " + id + " closed");
        assertThat(heard).filteredOn(e -> e.startsWith("closed " + id)).hasSize(1);
        PrologListener.Call loop = calls.stream().filter(c -> c.sessionId().equals(id) && c.kind().equals("goal"))
                .findFirst().orElseThrow();
        assertThat(loop.backend()).isEqualTo(backend.name());
        assertThat(loop.cost().inferences()).isGreaterThan(MILLION);
        assertThat(loop.cost().wallTime()).isPositive();
        assertThat(loop.context()).isEqualTo("context of goal " + id);
        assertThat(loop.errorKind()).isEmpty();
    }

    @Test
    void theListenerHearsSandboxRefusalsAndErrorKinds() {
        try (PrologSession s = backend.open(SessionOptions.builder().sandboxed(true).build())) {
            GoalResult r = s.goal("shell('true')").run();
            assertThat(r.error().orElseThrow().kind()).isEqualTo("sandbox_violation");
            assertThat(heard).contains("refused " + s.id() + " goal", "call " + s.id() + " goal error");
            assertThat(calls).filteredOn(c -> c.sessionId().equals(s.id()))
                    .extracting(PrologListener.Call::errorKind).contains(Optional.of("sandbox_violation"));
        }
    }

    @Test
    void theListenerHearsEvictionAndExpiryAsClosesWithTheirReason() {
        RegistryConformanceTest.FakeClock clock = new RegistryConformanceTest.FakeClock();
        try (SessionRegistry registry = SessionRegistry.builder(backend).maxSessions(1)
                .idleTtl(Duration.ofMinutes(10)).clock(clock).build()) {
            PrologSession first = registry.open();
            PrologSession second = registry.open();
            assertThat(heard).contains("closed " + first.id() + " evicted");
            clock.advance(Duration.ofMinutes(11));
            assertThat(registry.reapExpired()).isEqualTo(1);
            assertThat(heard).contains("closed " + second.id() + " expired");
        }
    }

    @Test
    void aListenerThatThrowsBreaksNothing() {
        PrologListener bad = new PrologListener() {
            @Override
            public void callFinished(Call call) {
                throw new IllegalStateException("listener bug");
            }

            @Override
            public void sessionOpened(String backend, String sessionId) {
                throw new IllegalStateException("listener bug");
            }
        };
        try (PrologBackend other = createBackend(bad); PrologSession s = other.open()) {
            assertThat(s.goal("X = 1").run().outcome()).isEqualTo(Outcome.SUCCESS);
        }
    }

    @Test
    void withoutAListenerTheBackendHasNone() {
        try (PrologBackend plain = createBackend(PrologListener.NONE)) {
            assertThat(plain.listener()).isSameAs(PrologListener.NONE);
        }
        assertThat(backend.listener()).isSameAs(recorder);
    }

    // ---------------------------------------------------------------- logs

    @Test
    void sessionsLogOpenAndCloseAtDebugAndEachCallAtTrace() {
        assertThat(CapturingLoggerFinder.installed()).as("the test LoggerFinder is registered").isTrue();
        try (CapturingLoggerFinder.Capture log = CapturingLoggerFinder.capture()) {
            PrologSession s = backend.open();
            s.goal("X = 1").run();
            s.close();
            assertThat(log.events("io.prologtool.session", System.Logger.Level.DEBUG, "session " + s.id() + " opened"))
                    .hasSize(1);
            assertThat(log.events("io.prologtool.session", System.Logger.Level.TRACE, "session " + s.id() + " goal: success"))
                    .hasSize(1);
            assertThat(log.events("io.prologtool.session", System.Logger.Level.DEBUG,
                    "session " + s.id() + " closed (closed)")).hasSize(1);
            assertThat(log.events()).filteredOn(e -> e.message().contains(s.id()))
                    .allMatch(e -> e.level().getSeverity() <= System.Logger.Level.DEBUG.getSeverity(),
                            "nothing about an ordinary session above DEBUG");
        }
    }

    @Test
    void theRegistryLogsEvictionAndExpiryAtDebug() {
        RegistryConformanceTest.FakeClock clock = new RegistryConformanceTest.FakeClock();
        try (CapturingLoggerFinder.Capture log = CapturingLoggerFinder.capture();
             SessionRegistry registry = SessionRegistry.builder(backend).maxSessions(1)
                     .idleTtl(Duration.ofMinutes(10)).clock(clock).build()) {
            PrologSession first = registry.open();
            PrologSession second = registry.open();
            clock.advance(Duration.ofMinutes(11));
            registry.reapExpired();
            assertThat(log.events("io.prologtool.registry", System.Logger.Level.DEBUG, "session " + first.id() + " evicted"))
                    .hasSize(1);
            assertThat(log.events("io.prologtool.registry", System.Logger.Level.DEBUG, "session " + second.id() + " expired"))
                    .hasSize(1);
        }
    }

    @Test
    void aBackendLogsItsStartAndStopAtInfo() {
        try (CapturingLoggerFinder.Capture log = CapturingLoggerFinder.capture()) {
            createBackend(PrologListener.NONE).close();
            List<CapturingLoggerFinder.Event> started = log.events("io.prologtool.backend", System.Logger.Level.INFO,
                    backend.name() + " backend started");
            assertThat(started).hasSize(1);
            assertThat(started.get(0).message()).contains("SWI-Prolog version", "isolation");
            assertThat(log.events("io.prologtool.backend", System.Logger.Level.INFO, backend.name() + " backend closed"))
                    .hasSize(1);
        }
    }
}

package io.prologtool.spring.boot;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.prologtool.PrologBackend;
import io.prologtool.PrologExecutor;
import io.prologtool.PrologSession;
import io.prologtool.SessionRegistry;
import io.prologtool.SessionStore;
import io.prologtool.jpl.JplBackend;
import io.prologtool.micrometer.MicrometerPrologListener;
import io.prologtool.process.ProcessBackend;
import io.prologtool.springai.PrologToolCallbacks;
import io.prologtool.store.PostgresServer;
import io.prologtool.tools.PrologTools;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.springframework.boot.actuate.health.Health;
import org.springframework.boot.actuate.health.HealthIndicator;
import org.springframework.boot.actuate.health.Status;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.test.context.FilteredClassLoader;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

import javax.sql.DataSource;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.concurrent.atomic.AtomicReference;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * The auto-configuration in application contexts of its own (Spring Boot's {@link ApplicationContextRunner}),
 * on real SWI-Prolog: the beans and what the properties change in them, each optional part with what it
 * needs on the class path and without it, the application's own beans winning, and everything closed with the
 * context.
 */
class PrologToolAutoConfigurationTest {

    private static final ObjectMapper JSON = new ObjectMapper();

    /** Every auto-configuration of the module, as the imports file lists them; pools kept small. */
    private final ApplicationContextRunner runner = new ApplicationContextRunner()
            .withConfiguration(AutoConfigurations.of(PrologToolAutoConfiguration.class,
                    PrologToolSpringAiAutoConfiguration.class, PrologToolMicrometerAutoConfiguration.class,
                    PrologToolHealthAutoConfiguration.class))
            .withPropertyValues("prologtool.process.pool-size=0");

    private static JsonNode call(PrologTools tools, String tool, String... kv) {
        var args = JSON.createObjectNode();
        for (int i = 0; i < kv.length; i += 2) {
            args.put(kv[i], kv[i + 1]);
        }
        return tools.call(tool, args);
    }

    /** Consults {@code text} through the tools, runs {@code goal} in the new session; the run_goal reply. */
    private static JsonNode consultAndRun(PrologTools tools, String text, String goal) {
        JsonNode consulted = call(tools, "consult_text", "source_text", text);
        assertThat(consulted.path("ok").asBoolean()).as(consulted.toString()).isTrue();
        return call(tools, "run_goal", "load_id", consulted.path("load_id").asText(), "goal", goal);
    }

    @Test
    void byDefaultTheProcessBackendServesSandboxedSessionsThroughTheTools() {
        runner.run(ctx -> {
            assertThat(ctx).hasNotFailed();
            assertThat(ctx.getBean(PrologBackend.class)).isInstanceOf(ProcessBackend.class);
            assertThat(ctx).hasSingleBean(SessionRegistry.class).hasSingleBean(PrologExecutor.class)
                    .hasSingleBean(PrologTools.class);
            PrologTools tools = ctx.getBean(PrologTools.class);
            JsonNode r = consultAndRun(tools, "p(1). p(2).", "findall(X, p(X), L)");
            assertThat(r.path("ok").asBoolean()).as(r.toString()).isTrue();
            assertThat(r.at("/answers/0/L/elements").findValuesAsText("value")).containsExactly("1", "2");
            JsonNode refused = consultAndRun(tools, "q.", "shell('true')");
            assertThat(refused.at("/error/kind").asText()).as(refused.toString()).isEqualTo("sandbox_violation");
            JsonNode executed = call(tools, "execute_prolog", "prolog_code", "r(7).", "query", "r(X)");
            assertThat(executed.path("success").asBoolean()).as(executed.toString()).isTrue();
            assertThat(executed.toString()).contains("\"value\":7");
        });
    }

    @Test
    void thePropertiesSetTheSessionsTheRegistryAndThePool() {
        runner.withPropertyValues("prologtool.session.sandboxed=false", "prologtool.session.max-source-chars=50",
                "prologtool.session.stack-limit=64MB", "prologtool.registry.max-sessions=1",
                "prologtool.registry.replica-name=replica-a", "prologtool.process.pool-size=1",
                "prologtool.process.isolation=none").run(ctx -> {
            assertThat(ctx).hasNotFailed();
            PrologTools tools = ctx.getBean(PrologTools.class);
            SessionRegistry registry = ctx.getBean(SessionRegistry.class);
            assertThat(registry.replicaName()).isEqualTo("replica-a");
            JsonNode r = consultAndRun(tools, "q.", "current_prolog_flag(stack_limit, L)");
            assertThat(r.toString()).as(r.toString()).contains(String.valueOf(64L << 20));
            // unsandboxed: the same goal the default refuses runs
            assertThat(consultAndRun(tools, "q.", "shell('true')").path("ok").asBoolean()).isTrue();
            // max-sessions=1: the two consults above left one session open
            assertThat(registry.size()).isEqualTo(1);
            JsonNode tooLong = call(tools, "consult_text", "source_text", "p(" + "a".repeat(60) + ").");
            assertThat(tooLong.at("/messages/0/kind").asText()).as(tooLong.toString()).isEqualTo("resource_error");
            assertThat(tooLong.at("/messages/0/message").asText()).contains("at most 50");
            ProcessBackend backend = (ProcessBackend) ctx.getBean(PrologBackend.class);
            assertThat(backend.isolationInEffect()).isEmpty();
            waitFor(() -> backend.idleChildren() == 1, "the pool of one filled");
        });
    }

    @Test
    void prologtoolEnabledFalseMakesNoBean() {
        runner.withPropertyValues("prologtool.enabled=false").run(ctx -> {
            assertThat(ctx).hasNotFailed().doesNotHaveBean(PrologBackend.class).doesNotHaveBean(PrologTools.class)
                    .doesNotHaveBean(PrologToolCallbacks.class).doesNotHaveBean("prologtoolHealthIndicator");
        });
    }

    @Test
    void theApplicationsOwnBackendWinsAndEveryBeanIsClosedWithTheContext() {
        AtomicReference<ProcessBackend> own = new AtomicReference<>();
        AtomicReference<PrologSession> session = new AtomicReference<>();
        runner.withBean(PrologBackend.class, () -> {
            own.set(ProcessBackend.builder().build());
            return own.get();
        }).run(ctx -> {
            assertThat(ctx).hasNotFailed().hasSingleBean(PrologBackend.class);
            assertThat(ctx.getBean(PrologBackend.class)).isSameAs(own.get());
            session.set(ctx.getBean(SessionRegistry.class).open());
            session.get().consult("p(1).");
        });
        assertThat(session.get().isOpen()).as("the registry's session, closed with the context").isFalse();
        assertThatThrownBy(() -> own.get().open()).as("the backend, closed with the context")
                .isInstanceOf(IllegalStateException.class);
        assertThat(own.get().liveChildren()).isZero();
    }

    @Test
    void theJplBackendWhenChosenAndAClearErrorWhenItsModuleIsMissing() {
        runner.withPropertyValues("prologtool.backend=jpl").run(ctx -> {
            assertThat(ctx).hasNotFailed();
            assertThat(ctx.getBean(PrologBackend.class)).isInstanceOf(JplBackend.class);
            JsonNode r = consultAndRun(ctx.getBean(PrologTools.class), "p(3).", "p(X)");
            assertThat(r.toString()).as(r.toString()).contains("3");
        });
        runner.withPropertyValues("prologtool.backend=jpl").withClassLoader(new FilteredClassLoader(JplBackend.class))
                .run(ctx -> assertThat(ctx).hasFailed().getFailure().rootCause()
                        .hasMessageContaining("io.prologtool:prologtool-jpl"));
    }

    @Test
    void springAiCallbacksWithTheBindingNoneWithoutItAndTheDiskWritingToolsOnlyWhenAsked() {
        runner.run(ctx -> {
            assertThat(ctx).hasSingleBean(PrologToolCallbacks.class);
            assertThat(ctx.getBean(PrologToolCallbacks.class).names()).contains("consult_text", "run_goal")
                    .doesNotContain(PrologToolCallbacks.SAVE_RULE_BASE);
        });
        runner.withPropertyValues("prologtool.rule-bases.model-writes=true").run(ctx ->
                assertThat(ctx.getBean(PrologToolCallbacks.class).names())
                        .contains(PrologToolCallbacks.SAVE_RULE_BASE, PrologToolCallbacks.DELETE_RULE_BASE));
        // Spring AI without the binding: no callbacks, and the configuration that logs the missing dependency
        runner.withClassLoader(new FilteredClassLoader(PrologToolCallbacks.class)).run(ctx ->
                assertThat(ctx).hasNotFailed().hasSingleBean(PrologTools.class)
                        .doesNotHaveBean(PrologToolCallbacks.class)
                        .hasSingleBean(PrologToolSpringAiAutoConfiguration.BindingMissing.class));
        runner.run(ctx -> assertThat(ctx).doesNotHaveBean(PrologToolSpringAiAutoConfiguration.BindingMissing.class));
    }

    @Test
    void micrometerMetersEveryCallWhenAMeterRegistryIsThereAndOnlyThen() {
        runner.withBean(MeterRegistry.class, SimpleMeterRegistry::new).run(ctx -> {
            assertThat(ctx).hasSingleBean(MicrometerPrologListener.class);
            consultAndRun(ctx.getBean(PrologTools.class), "p(1).", "p(X)");
            MeterRegistry meters = ctx.getBean(MeterRegistry.class);
            assertThat(meters.find("prologtool.calls").tag("kind", "goal").counter())
                    .as("the goal counted in the application's registry").isNotNull()
                    .satisfies(c -> assertThat(c.count()).isGreaterThanOrEqualTo(1.0));
        });
        runner.run(ctx -> assertThat(ctx).hasNotFailed().doesNotHaveBean(MicrometerPrologListener.class));
        runner.withBean(MeterRegistry.class, SimpleMeterRegistry::new)
                .withClassLoader(new FilteredClassLoader(MicrometerPrologListener.class))
                .run(ctx -> assertThat(ctx).hasNotFailed().doesNotHaveBean(MicrometerPrologListener.class));
        runner.withBean(MeterRegistry.class, SimpleMeterRegistry::new).withPropertyValues("prologtool.metrics.enabled=false")
                .run(ctx -> assertThat(ctx).hasNotFailed().doesNotHaveBean(MicrometerPrologListener.class));
    }

    @Test
    void theHealthIndicatorSaysUpWithTheVersionAndDownWhenTheBackendIsGone() {
        runner.run(ctx -> {
            assertThat(ctx).hasBean("prologtoolHealthIndicator");
            Health h = ctx.getBean("prologtoolHealthIndicator", HealthIndicator.class).health();
            assertThat(h.getStatus()).as(h.toString()).isEqualTo(Status.UP);
            assertThat(h.getDetails()).containsEntry("backend", "process").containsKeys("isolation", "pool.live",
                    "pool.idle", "sessions");
            assertThat((String) h.getDetails().get("swiProlog")).matches("9\\.\\d+\\.\\d+");
            ctx.getBean(PrologBackend.class).close();
            Health down = ctx.getBean("prologtoolHealthIndicator", HealthIndicator.class).health();
            assertThat(down.getStatus()).as(down.toString()).isEqualTo(Status.DOWN);
            assertThat(down.getDetails()).containsKey("error");
        });
        runner.withPropertyValues("management.health.prologtool.enabled=false").run(ctx ->
                assertThat(ctx).hasNotFailed().doesNotHaveBean("prologtoolHealthIndicator"));
        runner.withClassLoader(new FilteredClassLoader(HealthIndicator.class)).run(ctx ->
                assertThat(ctx).hasNotFailed().hasSingleBean(PrologTools.class)
                        .doesNotHaveBean("prologtoolHealthIndicator"));
    }

    @Test
    void aFolderStoreKeepsTheSessionsForTheNextContext(@TempDir Path dir) {
        String[] id = new String[1];
        ApplicationContextRunner stored = runner.withPropertyValues("prologtool.store.type=folder",
                "prologtool.store.folder=" + dir);
        stored.run(ctx -> {
            assertThat(ctx).hasNotFailed();
            assertThat(ctx.getBean(SessionRegistry.class).store()).isPresent();
            JsonNode consulted = call(ctx.getBean(PrologTools.class), "consult_text", "source_text", "kept(42).");
            id[0] = consulted.path("load_id").asText();
        });
        assertThat(Files.exists(dir)).isTrue();
        stored.run(ctx -> {
            JsonNode r = call(ctx.getBean(PrologTools.class), "run_goal", "load_id", id[0], "goal", "kept(X)");
            assertThat(r.toString()).as("a session of the context before, restored from the folder: %s", r)
                    .contains("42");
        });
        runner.withPropertyValues("prologtool.store.type=folder").run(ctx -> assertThat(ctx).hasFailed()
                .getFailure().rootCause().hasMessageContaining("prologtool.store.folder"));
    }

    @Test
    void aJdbcStoreOnItsUrlOrOnTheApplicationsDataSource() {
        PostgresServer server = PostgresServer.shared();
        String url = server.url(server.newDatabaseName());
        String[] id = new String[1];
        runner.withPropertyValues("prologtool.store.type=jdbc", "prologtool.store.url=" + url).run(ctx -> {
            assertThat(ctx).hasNotFailed();
            id[0] = call(ctx.getBean(PrologTools.class), "consult_text", "source_text", "row(7).")
                    .path("load_id").asText();
        });
        runner.withPropertyValues("prologtool.store.type=jdbc").withUserConfiguration(OneDataSource.class)
                .withPropertyValues("test.url=" + url).run(ctx -> {
                    assertThat(ctx).hasNotFailed();
                    SessionStore store = ctx.getBean(SessionStore.class);
                    assertThat(store.load(id[0])).as("the checkpoint the other context saved").isPresent();
                    JsonNode r = call(ctx.getBean(PrologTools.class), "run_goal", "load_id", id[0], "goal", "row(X)");
                    assertThat(r.toString()).as(r.toString()).contains("7");
                });
        runner.withPropertyValues("prologtool.store.type=jdbc").run(ctx -> assertThat(ctx).hasFailed()
                .getFailure().rootCause().hasMessageContaining("prologtool.store.url"));
    }

    @Test
    void everyPropertyHasMetadataWithADescriptionForTheIde() throws Exception {
        JsonNode metadata;
        try (var in = getClass().getClassLoader().getResourceAsStream("META-INF/spring-configuration-metadata.json")) {
            assertThat(in).as("the metadata the configuration processor writes").isNotNull();
            metadata = JSON.readTree(in);
        }
        var names = new java.util.ArrayList<String>();
        for (JsonNode p : metadata.path("properties")) {
            names.add(p.path("name").asText());
            assertThat(p.path("description").asText()).as("description of %s", p.path("name")).isNotBlank();
        }
        assertThat(names).contains("prologtool.enabled", "prologtool.backend", "prologtool.process.pool-size",
                "prologtool.process.isolation", "prologtool.session.sandboxed", "prologtool.session.stack-limit",
                "prologtool.registry.max-sessions", "prologtool.registry.idle-ttl", "prologtool.rule-bases.folder",
                "prologtool.store.type", "prologtool.store.url", "prologtool.metrics.enabled",
                "management.health.prologtool.enabled");
        JsonNode sandboxed = null;
        for (JsonNode p : metadata.path("properties")) {
            if (p.path("name").asText().equals("prologtool.session.sandboxed")) {
                sandboxed = p;
            }
        }
        assertThat(sandboxed).isNotNull();
        assertThat(sandboxed.path("defaultValue").asBoolean()).as("sandboxed by default").isTrue();
    }

    /** The application's DataSource, on the URL of property {@code test.url}. */
    @Configuration(proxyBeanMethods = false)
    static class OneDataSource {
        @Bean
        DataSource dataSource(org.springframework.core.env.Environment env) {
            return PostgresServer.dataSource(env.getRequiredProperty("test.url"));
        }
    }

    private static void waitFor(java.util.function.BooleanSupplier condition, String what) throws InterruptedException {
        long end = System.nanoTime() + Duration.ofSeconds(20).toNanos();
        while (!condition.getAsBoolean()) {
            assertThat(System.nanoTime()).as("waited 20 s for: %s", what).isLessThan(end);
            Thread.sleep(20);
        }
    }
}

package io.prologtool.mcp;

import com.fasterxml.jackson.databind.JsonNode;
import io.modelcontextprotocol.json.schema.JsonSchemaValidator;
import io.modelcontextprotocol.json.schema.jackson2.DefaultJsonSchemaValidator;
import io.modelcontextprotocol.spec.McpSchema;
import io.prologtool.tools.ToolSpec;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The server as a child process with the SDK's own client over stdio: initialize, the tool list and its
 * schemas, a consult and run_goal round trip, error replies, a runaway goal under its limit, two clients
 * at once, and the command-line options that shape the sessions. Real swipl throughout.
 */
class McpServerTest {

    static final String FAMILY = """
            parent(tom, bob).
            parent(bob, ann).
            parent(bob, pat).
            grandparent(X, Z) :- parent(X, Y), parent(Y, Z).
            """;

    /** A server with the default options (process backend, sandboxed), shared by the tests that only call it. */
    static Servers.Connected server;
    /** The specs the server must serve: those of a tool layer in this JVM. */
    static List<ToolSpec> specs;

    @BeforeAll
    static void start() {
        server = Servers.connect();
        try (ToolStack stack = ToolStack.open(ServerOptions.parse("--isolation", "none"))) {
            specs = stack.tools().specs();
        }
    }

    @AfterAll
    static void stop() {
        if (server != null) {
            server.close();
        }
    }

    @Test
    void initializeNamesTheServerAndOffersTools() {
        McpSchema.InitializeResult init = server.client().getCurrentInitializationResult();
        assertThat(init.serverInfo().name()).isEqualTo("prologtool");
        assertThat(init.serverInfo().version()).isNotBlank().isNotEqualTo("unknown");
        assertThat(init.protocolVersion()).isNotBlank();
        assertThat(init.capabilities().tools()).isNotNull();
        assertThat(init.instructions()).contains("consult_text").contains("load_id");
    }

    @Test
    void toolsListIsEveryToolWithItsSpecAndAValidSchema() {
        List<McpSchema.Tool> tools = server.client().listTools().tools();
        assertThat(tools).hasSizeGreaterThanOrEqualTo(14).hasSameSizeAs(specs);
        assertThat(tools).extracting(McpSchema.Tool::name)
                .containsExactlyElementsOf(specs.stream().map(ToolSpec::name).toList())
                .contains("consult_text", "run_goal", "close_session", "execute_prolog", "delete_rule_base");
        JsonSchemaValidator validator = new DefaultJsonSchemaValidator(Servers.JSON);
        for (int i = 0; i < specs.size(); i++) {
            McpSchema.Tool tool = tools.get(i);
            ToolSpec spec = specs.get(i);
            assertThat(tool.description()).as(tool.name()).isEqualTo(spec.description());
            JsonNode schema = Servers.JSON.valueToTree(tool.inputSchema());
            assertThat(schema.toString()).as(tool.name()).isEqualTo(spec.inputSchemaJson());
            assertThat(schema.get("type").asText()).as(tool.name()).isEqualTo("object");
            JsonSchemaValidator.ValidationResponse valid = validator.validateSchema(tool.inputSchema());
            assertThat(valid.valid()).as(tool.name() + ": " + valid.errorMessage()).isTrue();
        }
        // the schemas hold arguments as the tools check them
        assertThat(tools.get(1).name()).isEqualTo("run_goal");
        Map<String, Object> runGoal = tools.get(1).inputSchema();
        assertThat(validator.validate(runGoal, Map.of("load_id", "x", "goal", "true")).valid()).isTrue();
        assertThat(validator.validate(runGoal, Map.of("load_id", "x")).valid()).as("goal is required").isFalse();
        assertThat(validator.validate(runGoal, Map.of("load_id", "x", "goal", "true", "max_answers", 0)).valid())
                .as("max_answers below its minimum").isFalse();
    }

    @Test
    void consultThenRunGoalRoundTrip() {
        String id = server.consult(FAMILY);
        JsonNode r = server.ok("run_goal", "load_id", id, "goal", "grandparent(tom, X)");
        assertThat(r.get("ok").asBoolean()).isTrue();
        assertThat(r.get("outcome").asText()).isEqualTo("success");
        assertThat(r.get("count").asInt()).isEqualTo(2);
        assertThat(r.get("answers").findValuesAsText("value")).containsExactly("ann", "pat");
        // the session keeps its state between calls: a repair, then the same goal again
        server.ok("replace_predicate", "load_id", id, "name", "parent", "arity", 2,
                "source_text", "parent(tom, bob). parent(bob, ann).");
        assertThat(server.ok("run_goal", "load_id", id, "goal", "grandparent(tom, X)").get("count").asInt())
                .isEqualTo(1);
        // the stateless tool and a reply with neither ok nor success are results, not errors
        JsonNode exec = server.ok("execute_prolog", "prolog_code", FAMILY, "query", "grandparent(tom, X)");
        assertThat(exec.get("success").asBoolean()).isTrue();
        assertThat(exec.get("output").asText()).contains("X = ann").contains("X = pat");
        assertThat(server.ok("list_rule_bases").has("rule_bases")).isTrue();
        assertThat(server.ok("close_session", "load_id", id).get("closed").asBoolean()).isTrue();
    }

    @Test
    void clausesApartAreDeclaredDiscontiguousAsThePrologMcpContractSays() {
        JsonNode r = server.ok("consult_text", "source_text", "likes(ann, tea).\nperson(ann).\nlikes(bob, tea).\n");
        assertThat(r.toString()).doesNotContain("not together");
        assertThat(r.get("messages")).anySatisfy(m -> {
            assertThat(m.get("kind").asText()).isEqualTo("discontiguous");
            assertThat(m.get("severity").asText()).isEqualTo("info");
            assertThat(m.get("message").asText()).contains("likes/2");
        });
        server.ok("close_session", "load_id", r.get("load_id").asText());
    }

    @Test
    void noDiscontiguousLeavesTheTextAsWritten() {
        try (Servers.Connected s = Servers.connect("--no-discontiguous")) {
            JsonNode r = s.ok("consult_text", "source_text", "likes(ann, tea).\nperson(ann).\nlikes(bob, tea).\n");
            // no declaration (the info message of kind discontiguous), and SWI-Prolog's own warning
            assertThat(r.get("messages")).noneSatisfy(m -> assertThat(m.get("severity").asText()).isEqualTo("info"));
            assertThat(r.get("messages")).anySatisfy(m -> {
                assertThat(m.get("severity").asText()).isEqualTo("warning");
                assertThat(m.get("kind").asText()).isEqualTo("discontiguous");
                assertThat(m.get("message").asText()).contains("not together").contains("likes/2");
            });
        }
    }

    @Test
    void failuresAreErrorResultsHoldingTheToolsJson() {
        JsonNode unknown = server.failure("run_goal", "load_id", "no-such-session", "goal", "true");
        assertThat(unknown.get("ok").asBoolean()).isFalse();
        assertThat(unknown.at("/error/kind").asText()).isEqualTo("session_closed");
        assertThat(unknown.at("/error/message").asText()).contains("no-such-session");

        String id = server.consult("p(1).");
        assertThat(server.failure("run_goal", "load_id", id, "goal", "p(").at("/error/kind").asText())
                .isEqualTo("syntax_error");
        assertThat(server.failure("run_goal", "load_id", id, "goal", "atom_length(X, Y)").at("/error/kind").asText())
                .isEqualTo("instantiation_error");
        // the tool layer checks the arguments, and says so in its own reply
        JsonNode missing = server.failure("run_goal", "load_id", id);
        assertThat(missing.at("/error/kind").asText()).isEqualTo("invalid_arguments");
        assertThat(missing.at("/error/message").asText()).contains("goal");
        // prolog-reasoner's shape: success false
        JsonNode exec = server.failure("execute_prolog", "prolog_code", "p(1).", "query", "q(X)");
        assertThat(exec.get("success").asBoolean()).isFalse();
        // a goal that simply fails is an answer, not an error
        assertThat(server.ok("run_goal", "load_id", id, "goal", "p(2)").get("outcome").asText()).isEqualTo("failure");
    }

    @Test
    void sessionsAreSandboxedByDefault() {
        String id = server.consult("p(1).");
        JsonNode refused = server.failure("run_goal", "load_id", id, "goal", "read_file_to_string('/etc/hostname', _, [])");
        assertThat(refused.at("/error/kind").asText()).isEqualTo("sandbox_violation");
        JsonNode exec = server.failure("execute_prolog", "prolog_code", "p(1).", "query", "shell('true')");
        assertThat(exec.get("success").asBoolean()).isFalse();
        assertThat(exec.get("error").asText()).containsIgnoringCase("sandbox");
    }

    @Test
    void aRunawayGoalEndsAtItsLimitAndTheServerGoesOn() throws Exception {
        String looping = server.consult("spin :- repeat, fail.\nloop :- loop.");
        String other = server.consult("q(7).");
        long t0 = System.nanoTime();
        CompletableFuture<McpSchema.CallToolResult> runaway = CompletableFuture.supplyAsync(
                () -> server.call("run_goal", "load_id", looping, "goal", "spin", "time_limit", 4));
        Thread.sleep(300);
        // other calls are served while the runaway goal runs
        JsonNode meanwhile = server.ok("run_goal", "load_id", other, "goal", "q(X)");
        assertThat(meanwhile.get("answers").findValuesAsText("value")).containsExactly("7");
        assertThat(runaway).as("answered while the runaway goal still ran").isNotDone();

        McpSchema.CallToolResult result = runaway.get(30, TimeUnit.SECONDS);
        double seconds = (System.nanoTime() - t0) / 1e9;
        JsonNode r = Servers.reply(result);
        assertThat(result.isError()).as(r.toString()).isFalse();
        assertThat(r.get("outcome").asText()).isEqualTo("timeout");
        assertThat(seconds).as("ended at its limit, not later").isBetween(3.5, 15.0);
        // endless recursion ends at the depth limit
        JsonNode deep = server.ok("run_goal", "load_id", looping, "goal", "loop", "max_depth", 10_000, "time_limit", 20);
        assertThat(deep.get("outcome").asText()).isEqualTo("depth_exceeded");
        // the session that looped still answers
        assertThat(server.ok("run_goal", "load_id", looping, "goal", "true").get("outcome").asText()).isEqualTo("success");
    }

    @Test
    void twoClientsAtOnceHaveSeparateSessions() throws Exception {
        CompletableFuture<Servers.Connected> startA = CompletableFuture.supplyAsync(Servers::connect);
        CompletableFuture<Servers.Connected> startB = CompletableFuture.supplyAsync(Servers::connect);
        try (Servers.Connected a = startA.get(90, TimeUnit.SECONDS);
             Servers.Connected b = startB.get(90, TimeUnit.SECONDS)) {
            assertThat(a.server().pid()).isNotEqualTo(b.server().pid());
            CompletableFuture<String> idA = CompletableFuture.supplyAsync(() -> a.consult("secret(a)."));
            CompletableFuture<String> idB = CompletableFuture.supplyAsync(() -> b.consult("secret(b)."));
            String sa = idA.get(60, TimeUnit.SECONDS);
            String sb = idB.get(60, TimeUnit.SECONDS);
            CompletableFuture<JsonNode> ra = CompletableFuture.supplyAsync(
                    () -> a.ok("run_goal", "load_id", sa, "goal", "secret(X)"));
            CompletableFuture<JsonNode> rb = CompletableFuture.supplyAsync(
                    () -> b.ok("run_goal", "load_id", sb, "goal", "secret(X)"));
            assertThat(ra.get(60, TimeUnit.SECONDS).get("answers").findValuesAsText("value")).containsExactly("a");
            assertThat(rb.get(60, TimeUnit.SECONDS).get("answers").findValuesAsText("value")).containsExactly("b");
            // a client cannot reach the other's session, not even with its load_id
            assertThat(b.failure("run_goal", "load_id", sa, "goal", "secret(X)").at("/error/kind").asText())
                    .isEqualTo("session_closed");
            assertThat(a.failure("get_source", "load_id", sb).at("/error/kind").asText()).isEqualTo("session_closed");
        }
    }

    @Test
    void optionsSetTheSessionCapTheTtlAndTheSandbox() throws Exception {
        try (Servers.Connected s = Servers.connect("--max-sessions", "1", "--ttl", "2", "--no-sandbox")) {
            String first = s.consult("p(1).");
            String second = s.consult("p(2).");
            assertThat(s.failure("run_goal", "load_id", first, "goal", "p(X)").at("/error/message").asText())
                    .as(s.log()).contains("evicted");
            JsonNode unsafe = s.ok("run_goal", "load_id", second, "goal", "read_file_to_string('/etc/hostname', _, [])");
            assertThat(unsafe.get("outcome").asText()).as("--no-sandbox").isEqualTo("success");
            Thread.sleep(4_500); // idle past the 2 s TTL; the reaper looks every second
            assertThat(s.failure("run_goal", "load_id", second, "goal", "p(X)").at("/error/message").asText())
                    .contains("expired");
        }
    }

    @Test
    void aServerStartedAgainOnItsStoreServesTheSessionByItsLoadId(@org.junit.jupiter.api.io.TempDir java.nio.file.Path dir) {
        String id;
        try (Servers.Connected s = Servers.connect("--store", dir.toString())) {
            id = s.consult(":- dynamic p/1.\np(1).\n");
            assertThat(s.ok("run_goal", "load_id", id, "goal", "assertz(p(2))").get("outcome").asText())
                    .isEqualTo("success");
        } // the client goes, the server exits: its sessions stay in the folder
        try (Servers.Connected s = Servers.connect("--store", dir.toString())) {
            JsonNode r = s.ok("run_goal", "load_id", id, "goal", "p(X)");
            assertThat(r.get("answers").findValuesAsText("value")).as(s.log()).containsExactly("1", "2");
            s.ok("close_session", "load_id", id);
        }
        assertThat(dir.resolve(id + ".json")).as("closed: gone from the store").doesNotExist();
    }

    /**
     * Two servers on one PostgreSQL store at once: the one that does not hold a session refuses it, naming
     * the one that does; once that one ends, the other serves the session by its load_id, facts included.
     */
    @Test
    void twoServersOnAPostgresStoreHandASessionOverWhenTheOneHoldingItEnds() {
        var pg = io.prologtool.store.PostgresServer.shared();
        String url = pg.url(pg.newDatabaseName());
        try (Servers.Connected b = Servers.connect("--store", url)) {
            String id;
            try (Servers.Connected a = Servers.connect("--store", url)) {
                id = a.consult(":- dynamic p/1.\np(1).\n");
                a.ok("run_goal", "load_id", id, "goal", "assertz(p(2))");
                JsonNode refused = b.failure("run_goal", "load_id", id, "goal", "p(X)").get("error");
                assertThat(refused.get("kind").asText()).as(b.log()).isEqualTo("session_held");
                assertThat(refused.get("holder").asText()).as("names the server that holds it")
                        .matches(".+/[0-9]+#1");
            }
            JsonNode r = b.ok("run_goal", "load_id", id, "goal", "p(X)");
            assertThat(r.get("answers").findValuesAsText("value")).as(b.log()).containsExactly("1", "2");
        }
    }

    @Test
    void theJplBackendServesTheSameTools() {
        try (Servers.Connected s = Servers.connect("--backend", "jpl")) {
            assertThat(s.client().listTools().tools()).hasSameSizeAs(specs);
            String id = s.consult(FAMILY);
            JsonNode r = s.ok("run_goal", "load_id", id, "goal", "grandparent(tom, X)");
            assertThat(r.get("answers").findValuesAsText("value")).containsExactly("ann", "pat");
            assertThat(s.failure("run_goal", "load_id", id, "goal", "read_file_to_string('/etc/hostname', _, [])")
                    .at("/error/kind").asText()).isEqualTo("sandbox_violation");
            assertThat(Servers.swiplBelow(s.server())).as("JPL runs in the server's JVM").isEmpty();
        }
    }
}

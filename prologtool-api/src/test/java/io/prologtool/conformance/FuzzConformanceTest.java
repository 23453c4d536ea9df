package io.prologtool.conformance;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.prologtool.json.TermJson;
import io.prologtool.tools.PrologTools;
import io.prologtool.tools.ToolSpec;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * 2,000 random and malformed calls to every {@link PrologTools} tool: no hang, no exception out of
 * {@code call}, every reply well-formed JSON with {@code ok} (and a complete error object when not ok).
 */
public abstract class FuzzConformanceTest extends BackendFixture {

    private static final int CALLS = 2_000;
    private static final JsonNodeFactory F = JsonNodeFactory.instance;
    private static final String[] TOKENS = {"X", "Y", "_", "a", "b", "'q q'", "\"s\"", "1", "-2", "3.5", "2**70",
        "[", "]", "(", ")", ",", ";", "->", "\\+", "=", "is", "+", "member(X, [1,2])", "p(X)", "append(X, Y, [1,2])",
        "atom_length(A, L)", "halt", "throw(x)", "X is 1/0", "foo(", ".", "%", "'", "\"", "{", "}", "|", "f(f(f(f(a))))",
        "length(L, 3)", "between(1, 5, X)", "write(hi)", "nl", "\u00e9", "\uD83D\uDE00", "\\", "0'a", "0x1F", "@", ":-"};

    private final Random random = new Random(20261130);

    private String randomText(int maxTokens) {
        StringBuilder sb = new StringBuilder();
        int n = random.nextInt(maxTokens + 1);
        for (int i = 0; i < n; i++) {
            sb.append(TOKENS[random.nextInt(TOKENS.length)]).append(random.nextBoolean() ? " " : "");
        }
        return sb.toString();
    }

    private JsonNode randomValue(int depth) {
        return switch (random.nextInt(depth > 3 ? 7 : 9)) {
            case 0 -> F.textNode(randomText(6));
            case 1 -> F.numberNode(random.nextInt(2001) - 1000);
            case 2 -> F.numberNode(random.nextDouble() * 100 - 50);
            case 3 -> F.booleanNode(random.nextBoolean());
            case 4 -> F.nullNode();
            case 5 -> F.numberNode(new java.math.BigInteger(80, random));
            case 6 -> F.textNode("");
            case 7 -> {
                var a = F.arrayNode();
                for (int i = random.nextInt(3); i > 0; i--) {
                    a.add(randomValue(depth + 1));
                }
                yield a;
            }
            default -> {
                var o = F.objectNode();
                for (int i = random.nextInt(3); i > 0; i--) {
                    o.set(randomText(1), randomValue(depth + 1));
                }
                yield o;
            }
        };
    }

    private String randomArguments(ToolSpec spec, List<String> ids) {
        int shape = random.nextInt(10);
        if (shape == 0) {
            // not JSON at all, or not an object
            String[] bad = {"{", "}", "[1,2]", "\"text\"", "42", "null", "{\"load_id\": }", "{'a': 1}", "", "   ",
                "{\"goal\": \"p\"", "\u0000", "[[[[[[[[[[[[[[[[[[[[]]]]]]]]]]]]]]]]]]]]", "{\"a\":1}{\"b\":2}"};
            return bad[random.nextInt(bad.length)];
        }
        ObjectNode args = F.objectNode();
        JsonNode props = spec.inputSchema().get("properties");
        boolean corrupt = random.nextBoolean(); // half the calls are well-typed, to reach the Prolog side
        props.fieldNames().forEachRemaining(name -> {
            int r = random.nextInt(10);
            if (corrupt && r < 2) {
                return; // missing
            }
            if (corrupt && r < 4) {
                args.set(name, randomValue(0)); // any type
                return;
            }
            switch (name) {
                // close_session gets a real id rarely, so that sessions stay to be called
                case "load_id" -> args.put(name, ids.isEmpty() || random.nextInt(5) == 0
                        || (spec.name().equals("close_session") && random.nextInt(20) != 0)
                        ? randomText(1) : ids.get(random.nextInt(ids.size())));
                case "goal", "source_text", "test_source_text", "prolog_code", "query", "content" ->
                        args.put(name, randomText(8));
                case "time_limit" -> args.put(name, corrupt && random.nextInt(4) == 0 ? -1.0
                        : 0.2 + random.nextDouble() * 0.3);
                case "max_answers", "max_depth", "max_nodes", "arity", "max_inferences" ->
                        args.put(name, corrupt ? random.nextInt(60) - 5 : 1 + random.nextInt(50));
                case "min_severity" -> args.put(name, new String[] {"info", "warning", "error", "loud"}[random.nextInt(4)]);
                case "dialect" -> args.put(name, random.nextBoolean() ? "swi" : "gnu");
                case "name" -> args.put(name, new String[] {"p", "member", "foo", "", "'"}[random.nextInt(5)]);
                default -> args.set(name, randomValue(0));
            }
        });
        if ((spec.name().equals("run_goal") || spec.name().equals("execute_prolog")) && !args.has("time_limit")) {
            args.put("time_limit", 0.5); // random text may loop; keep the run short
        }
        return args.toString();
    }

    /** prolog-reasoner's tools keep its reply shapes (contract reading 11): {@code success}, not {@code ok}. */
    private static final java.util.Set<String> REASONER_TOOLS = java.util.Set.of("execute_prolog", "list_rule_bases",
            "get_rule_base", "save_rule_base", "delete_rule_base");

    @Test
    void randomAndMalformedCallsNeverHangThrowOrReplyMalformed() throws Exception {
        ExecutorService caller = Executors.newSingleThreadExecutor();
        java.nio.file.Path rules = java.nio.file.Files.createTempDirectory("prologtool-fuzz-rules-");
        try (PrologTools tools = PrologTools.builder(backend)
                .ruleBases(io.prologtool.RuleBaseStore.directory(rules)).build()) {
            List<ToolSpec> specs = tools.specs();
            List<String> ids = new ArrayList<>();
            for (int i = 0; i < 3; i++) {
                JsonNode r = TermJson.mapper().readTree(tools.call("consult_text",
                        "{\"source_text\": \"p(1).\\np(2).\\nq(X) :- p(X).\\n\"}"));
                ids.add(r.get("load_id").asText());
            }
            int okReplies = 0;
            java.util.Map<String, Integer> kinds = new java.util.TreeMap<>();
            for (int i = 0; i < CALLS; i++) {
                String picked = random.nextInt(25) == 0 ? randomText(1) : specs.get(random.nextInt(specs.size())).name();
                // opening sessions is the slow call; do it less often
                String name = picked.equals("consult_text") && random.nextInt(2) != 0 ? "get_source" : picked;
                ToolSpec spec = specs.stream().filter(s -> s.name().equals(name)).findFirst().orElse(specs.get(0));
                String args = randomArguments(spec, ids);
                String toolName = name;
                Future<String> reply = caller.submit(() -> tools.call(toolName, args));
                String text = reply.get(60, TimeUnit.SECONDS); // a hang fails here
                JsonNode r = TermJson.mapper().readTree(text);
                assertThat(r.isObject()).as("%s %s -> %s", name, args, text).isTrue();
                if (REASONER_TOOLS.contains(name) && !r.has("ok")) {
                    boolean listed = name.equals("list_rule_bases") && r.path("rule_bases").isArray();
                    assertThat(listed || r.path("success").isBoolean()).as("%s %s -> %s", name, args, text).isTrue();
                    if (!listed && !r.get("success").asBoolean()) {
                        assertThat(r.path("error").isTextual()).as(text).isTrue();
                    }
                    okReplies++;
                    continue;
                }
                assertThat(r.path("ok").isBoolean()).as("%s %s -> %s", name, args, text).isTrue();
                if (r.get("ok").asBoolean()) {
                    okReplies++;
                    if (r.has("load_id")) {
                        ids.add(r.get("load_id").asText());
                    }
                } else {
                    JsonNode e = r.get("error");
                    assertThat(e.path("kind").isTextual() && e.path("message").isTextual() && e.has("prolog_term"))
                            .as("%s %s -> %s", name, args, text).isTrue();
                    assertThat(e.get("kind").asText()).as(text).isNotIn("internal_error");
                    kinds.merge(name + ":" + e.get("kind").asText(), 1, Integer::sum);
                }
            }
            assertThat(okReplies).as("some calls were valid; failures: %s", kinds).isGreaterThan(CALLS / 20);
            // every session that is still open answers
            for (String id : ids) {
                JsonNode r = TermJson.mapper().readTree(tools.call("run_goal",
                        "{\"load_id\": \"" + id + "\", \"goal\": \"true\"}"));
                if (!r.get("ok").asBoolean()) {
                    assertThat(r.get("error").get("kind").asText()).isEqualTo("session_closed");
                }
            }
        } finally {
            caller.shutdownNow();
            try (var files = java.nio.file.Files.walk(rules)) {
                files.sorted(java.util.Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
            }
        }
    }
}

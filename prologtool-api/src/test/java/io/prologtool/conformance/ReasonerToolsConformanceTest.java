package io.prologtool.conformance;

import com.fasterxml.jackson.databind.JsonNode;
import io.prologtool.RuleBaseStore;
import io.prologtool.json.TermJson;
import io.prologtool.tools.PrologTools;
import io.prologtool.tools.ToolSpec;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * prolog-reasoner's five tools ({@code execute_prolog} and the rule base tools) through
 * {@link PrologTools#call(String, String)}, JSON in and JSON out, with prolog-reasoner's argument
 * names, defaults and reply shapes.
 */
public abstract class ReasonerToolsConformanceTest extends BackendFixture {

    private PrologTools tools;
    private Path dir;

    @BeforeEach
    void openTools() throws IOException {
        dir = Files.createTempDirectory("prologtool-tool-rules-");
        tools = PrologTools.builder(backend).ruleBases(RuleBaseStore.directory(dir)).build();
    }

    @AfterEach
    void closeTools() throws IOException {
        tools.close();
        try (var files = Files.walk(dir)) {
            files.sorted(java.util.Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
        }
    }

    private JsonNode call(String tool, Map<String, ?> args) {
        String reply = tools.call(tool, TermJson.mapper().valueToTree(args).toString());
        try {
            return TermJson.mapper().readTree(reply);
        } catch (IOException e) {
            throw new AssertionError("not JSON: " + reply, e);
        }
    }

    private static Map<String, Object> args(Object... kv) {
        Map<String, Object> m = new LinkedHashMap<>();
        for (int i = 0; i < kv.length; i += 2) {
            m.put((String) kv[i], kv[i + 1]);
        }
        return m;
    }

    private ToolSpec spec(String name) {
        return tools.specs().stream().filter(s -> s.name().equals(name)).findFirst().orElseThrow();
    }

    @Test
    void specsHavePrologReasonersNamesArgumentsAndDefaults() {
        JsonNode exec = spec("execute_prolog").inputSchema();
        JsonNode props = exec.get("properties");
        assertThat(props.fieldNames()).toIterable().containsExactly("prolog_code", "query", "rule_bases",
                "max_results", "trace", "time_limit");
        assertThat(exec.get("required")).extracting(JsonNode::asText).containsExactly("prolog_code", "query");
        assertThat(props.get("rule_bases").get("type").asText()).isEqualTo("array");
        assertThat(props.get("rule_bases").get("items").get("type").asText()).isEqualTo("string");
        assertThat(props.get("rule_bases").has("default")).isFalse();
        assertThat(props.get("max_results").get("default").asInt()).isEqualTo(100);
        assertThat(props.get("trace").get("default").asBoolean()).isFalse();
        assertThat(spec("list_rule_bases").inputSchema().get("properties").size()).isZero();
        for (String t : List.of("get_rule_base", "delete_rule_base")) {
            assertThat(spec(t).inputSchema().get("required")).extracting(JsonNode::asText).containsExactly("name");
        }
        assertThat(spec("save_rule_base").inputSchema().get("required")).extracting(JsonNode::asText)
                .containsExactly("name", "content");
    }

    @Test
    void executePrologRepliesWithPrologReasonersShape() {
        JsonNode r = call("execute_prolog", args("prolog_code", "human(socrates). mortal(X) :- human(X).",
                "query", "mortal(X)."));
        assertThat(r.fieldNames()).toIterable().containsExactly("success", "output", "query", "error", "metadata",
                "answers");
        assertThat(r.get("success").asBoolean()).isTrue();
        assertThat(r.get("output").asText()).isEqualTo("X = socrates\n");
        assertThat(r.get("query").asText()).isEqualTo("mortal(X).");
        assertThat(r.get("error").isNull()).isTrue();
        JsonNode m = r.get("metadata");
        assertThat(m.fieldNames()).toIterable().containsExactly("execution_time_ms", "result_count", "truncated",
                "rule_bases_used", "warnings", "cpu_time_ms", "inferences");
        assertThat(m.get("result_count").asInt()).isEqualTo(1);
        assertThat(m.get("truncated").asBoolean()).isFalse();
        assertThat(r.get("answers").get(0).get("X")).isEqualTo(TermJson.mapper().valueToTree(
                Map.of("type", "atom", "value", "socrates")));
    }

    @Test
    void executePrologFailuresCarryCategoryAndExplanation() {
        JsonNode r = call("execute_prolog", args("prolog_code", "p(1).", "query", "q(X)"));
        assertThat(r.get("success").asBoolean()).isFalse();
        assertThat(r.get("error").asText()).contains("q/1");
        assertThat(r.get("metadata").get("error_category").asText()).isEqualTo("undefined_predicate");
        assertThat(r.get("metadata").get("error_explanation").asText()).isNotBlank();
        JsonNode slow = call("execute_prolog", args("prolog_code", "spin :- repeat, fail.", "query", "spin",
                "time_limit", 0.3));
        assertThat(slow.get("metadata").get("error_category").asText()).isEqualTo("timeout");
    }

    @Test
    void executePrologHonoursMaxResultsAndTrace() {
        JsonNode r = call("execute_prolog", args("prolog_code", "", "query", "between(1, 10, X)", "max_results", 2,
                "trace", true));
        assertThat(r.get("output").asText()).isEqualTo("X = 1\nX = 2\n");
        assertThat(r.get("metadata").get("truncated").asBoolean()).isTrue();
        JsonNode traces = r.get("metadata").get("proof_trace");
        assertThat(traces.size()).isEqualTo(2);
        assertThat(traces.get(0).get("outcome").asText()).isEqualTo("success");
        assertThat(traces.get(0).get("tree").get("goal").asText()).isEqualTo("between(1, 10, 1)");
        assertThat(traces.get(1).get("tree").get("goal").asText()).isEqualTo("between(1, 10, 2)");
        for (int bad : List.of(0, 10_001, -5)) {
            JsonNode b = call("execute_prolog", args("prolog_code", "", "query", "true", "max_results", bad));
            assertThat(b.get("ok").asBoolean()).isFalse();
            assertThat(b.get("error").get("kind").asText()).isEqualTo("invalid_arguments");
        }
        JsonNode missing = call("execute_prolog", args("query", "true"));
        assertThat(missing.get("ok").asBoolean()).isFalse();
        JsonNode notList = call("execute_prolog", args("prolog_code", "", "query", "true", "rule_bases", "family"));
        assertThat(notList.get("error").get("message").asText()).contains("array of strings");
    }

    @Test
    void executePrologLoadsRuleBasesByName() {
        call("save_rule_base", args("name", "kin", "content",
                "% description: kin\ngrandparent(X, Z) :- parent(X, Y), parent(Y, Z).\n"));
        JsonNode r = call("execute_prolog", args("prolog_code", "parent(a, b). parent(b, c).",
                "query", "grandparent(a, W)", "rule_bases", List.of("kin")));
        assertThat(r.get("success").asBoolean()).as(r.toString()).isTrue();
        assertThat(r.get("output").asText()).isEqualTo("W = c\n");
        assertThat(r.get("metadata").get("rule_bases_used")).extracting(JsonNode::asText).containsExactly("kin");
        assertThat(r.get("metadata").has("rule_base_load_ms")).isTrue();
        JsonNode bundled = call("execute_prolog", args("prolog_code", "parent(a, b). parent(b, c). male(a).",
                "query", "grandfather(G, c)", "rule_bases", List.of("family")));
        assertThat(bundled.get("output").asText()).isEqualTo("G = a\n");
        JsonNode unknown = call("execute_prolog", args("prolog_code", "", "query", "true",
                "rule_bases", List.of("kinn")));
        assertThat(unknown.get("success").asBoolean()).isFalse();
        assertThat(unknown.get("output").asText()).isEmpty();
        assertThat(unknown.get("error").asText()).contains("Did you mean 'kin'?");
        assertThat(unknown.get("metadata").get("error_code").asText()).isEqualTo("RULEBASE_001");
    }

    @Test
    void saveGetListAndDeleteARuleBase() {
        String content = "% description: Chess moves of the king\n% tags: chess, games\nking_move(1, 0).\n";
        JsonNode created = call("save_rule_base", args("name", "chess", "content", content));
        assertThat(created.fieldNames()).toIterable().containsExactly("success", "name", "created");
        assertThat(created.get("success").asBoolean()).isTrue();
        assertThat(created.get("name").asText()).isEqualTo("chess");
        assertThat(created.get("created").asBoolean()).isTrue();
        assertThat(call("save_rule_base", args("name", "chess", "content", content)).get("created").asBoolean())
                .isFalse();

        JsonNode got = call("get_rule_base", args("name", "chess"));
        assertThat(got.fieldNames()).toIterable().containsExactly("success", "name", "content");
        assertThat(got.get("content").asText()).isEqualTo(content);

        JsonNode list = call("list_rule_bases", args());
        assertThat(list.fieldNames()).toIterable().containsExactly("rule_bases");
        JsonNode chess = null;
        for (JsonNode i : list.get("rule_bases")) {
            if (i.get("name").asText().equals("chess")) {
                chess = i;
            }
        }
        assertThat(chess).isNotNull();
        assertThat(chess.get("description").asText()).isEqualTo("Chess moves of the king");
        assertThat(chess.get("tags")).extracting(JsonNode::asText).containsExactly("chess", "games");
        List<String> names = new ArrayList<>();
        list.get("rule_bases").forEach(i -> names.add(i.get("name").asText()));
        assertThat(names).isSorted().contains("family", "scheduling");

        JsonNode deleted = call("delete_rule_base", args("name", "chess"));
        assertThat(deleted.fieldNames()).toIterable().containsExactly("success", "name");
        assertThat(deleted.get("success").asBoolean()).isTrue();
        JsonNode gone = call("get_rule_base", args("name", "chess"));
        assertThat(gone.fieldNames()).toIterable().containsExactly("success", "error", "error_code");
        assertThat(gone.get("error_code").asText()).isEqualTo("RULEBASE_001");
    }

    @Test
    void businessErrorsHavePrologReasonersShape() {
        JsonNode badName = call("save_rule_base", args("name", "Bad/Name", "content", "p."));
        assertThat(badName.get("success").asBoolean()).isFalse();
        assertThat(badName.get("error_code").asText()).isEqualTo("RULEBASE_002");
        assertThat(badName.get("error").asText()).isNotBlank();
        JsonNode syntax = call("save_rule_base", args("name", "broken", "content", "p(1).\nq(X :- .\n"));
        assertThat(syntax.get("error_code").asText()).isEqualTo("RULEBASE_003");
        assertThat(syntax.get("line").asInt()).isEqualTo(2);
        assertThat(call("delete_rule_base", args("name", "nothing_here")).get("error_code").asText())
                .isEqualTo("RULEBASE_001");
        assertThat(call("get_rule_base", args("name", "")).get("error_code").asText()).isEqualTo("RULEBASE_002");
        try (PrologTools small = PrologTools.builder(backend)
                .ruleBases(RuleBaseStore.directory(dir).maxSize(64)).build()) {
            JsonNode big = TermJson.mapper().readTree(small.call("save_rule_base",
                    TermJson.mapper().valueToTree(args("name", "big", "content", "p(" + "a".repeat(100) + ").")).toString()));
            assertThat(big.get("error_code").asText()).isEqualTo("RULEBASE_005");
        } catch (IOException e) {
            throw new AssertionError(e);
        }
        JsonNode bundled = call("delete_rule_base", args("name", "family"));
        assertThat(bundled.get("error_code").asText()).isEqualTo("RULEBASE_004");
    }

    @Test
    void concurrentSaveAndGetOfOneNameFromEightThreadsNeverTear() throws Exception {
        int threads = 8;
        List<String> versions = new ArrayList<>();
        for (int t = 0; t < threads; t++) {
            versions.add("% description: version " + t + "\n" + ("v" + t + "(" + "x".repeat(200) + ").\n").repeat(200));
        }
        Set<String> known = new HashSet<>(versions);
        call("save_rule_base", args("name", "shared", "content", versions.get(0)));
        ExecutorService pool = Executors.newFixedThreadPool(threads);
        CountDownLatch go = new CountDownLatch(1);
        try {
            List<Future<Integer>> fs = new ArrayList<>();
            for (int t = 0; t < threads; t++) {
                int me = t;
                fs.add(pool.submit(() -> {
                    go.await();
                    int reads = 0;
                    for (int i = 0; i < 16; i++) {
                        if ((i + me) % 2 == 0) {
                            JsonNode s = call("save_rule_base", args("name", "shared", "content", versions.get(me)));
                            assertThat(s.get("success").asBoolean()).as(s.toString()).isTrue();
                        } else {
                            JsonNode g = call("get_rule_base", args("name", "shared"));
                            assertThat(known.contains(g.get("content").asText())).as("a torn read").isTrue();
                            reads++;
                        }
                    }
                    return reads;
                }));
            }
            go.countDown();
            int reads = 0;
            for (Future<Integer> f : fs) {
                reads += f.get(120, TimeUnit.SECONDS);
            }
            assertThat(reads).isEqualTo(threads * 8);
        } finally {
            pool.shutdownNow();
        }
    }
}

package io.prologtool.conformance;

import com.fasterxml.jackson.databind.JsonNode;
import io.prologtool.json.TermJson;
import io.prologtool.tools.PrologTools;
import io.prologtool.tools.ToolSpec;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/** The PrologMCP tool surface, driven through {@link PrologTools#call(String, String)} with JSON only. */
public abstract class ToolsConformanceTest extends BackendFixture {

    private PrologTools tools;

    @BeforeEach
    void openTools() {
        tools = PrologTools.over(backend);
    }

    @AfterEach
    void closeTools() {
        tools.close();
    }

    private JsonNode call(String tool, String json) {
        String reply = tools.call(tool, json);
        try {
            JsonNode r = TermJson.mapper().readTree(reply);
            assertThat(r.has("ok")).as("reply of %s has ok: %s", tool, reply).isTrue();
            if (!r.get("ok").asBoolean()) {
                JsonNode e = r.get("error");
                assertThat(e).as(reply).isNotNull();
                assertThat(e.has("kind") && e.has("message") && e.has("prolog_term")).as(reply).isTrue();
            }
            return r;
        } catch (Exception e) {
            throw new AssertionError("not JSON: " + reply, e);
        }
    }

    private static String json(String single) {
        return single.replace('\'', '"');
    }

    private String consult(String source) {
        JsonNode r = call("consult_text", TermJson.mapper().createObjectNode().put("source_text", source).toString());
        assertThat(r.get("ok").asBoolean()).as(r.toString()).isTrue();
        return r.get("load_id").asText();
    }

    private JsonNode callWith(String tool, Map<String, Object> args) {
        return call(tool, TermJson.mapper().valueToTree(args).toString());
    }

    @Test
    void specsNameTheNineToolsWithThePapersArguments() {
        List<ToolSpec> specs = tools.specs();
        assertThat(specs).extracting(ToolSpec::name).containsExactly("consult_text", "run_goal",
                "inspect_predicate", "get_source", "replace_predicate", "list_messages", "run_tests",
                "trace_goal", "close_session",
                // then prolog-reasoner's five (ReasonerToolsConformanceTest)
                "execute_prolog", "list_rule_bases", "get_rule_base", "save_rule_base", "delete_rule_base",
                // then the extensions: answers on demand
                "next_answers", "fork_session", "close_cursor");
        ToolSpec runGoal = specs.get(1);
        JsonNode props = runGoal.inputSchema().get("properties");
        assertThat(props.get("max_answers").get("default").asInt()).isEqualTo(10);
        assertThat(props.get("time_limit").get("default").asDouble()).isEqualTo(30.0);
        assertThat(props.get("max_depth").get("default").asInt()).isEqualTo(1_000_000);
        assertThat(props.get("allow_side_effects").get("default").asBoolean()).isTrue();
        assertThat(runGoal.inputSchema().get("required")).extracting(JsonNode::asText)
                .containsExactly("load_id", "goal");
        JsonNode consult = specs.get(0).inputSchema();
        assertThat(consult.get("required")).extracting(JsonNode::asText).containsExactly("source_text");
        assertThat(consult.get("properties").get("dialect").get("enum")).extracting(JsonNode::asText)
                .containsExactly("swi");
        JsonNode trace = specs.get(7).inputSchema().get("properties");
        assertThat(trace.get("max_depth").get("default").asInt()).isEqualTo(10);
        assertThat(trace.get("max_nodes").get("default").asInt()).isEqualTo(200);
        assertThat(specs.get(5).inputSchema().get("properties").get("min_severity").get("default").asText())
                .isEqualTo("info");
    }

    @Test
    void consultTextOpensASessionAndReportsDiagnostics() {
        JsonNode r = call("consult_text", json("{'source_text': 'p(1).\\nq(X) :- r.\\nbad :- (.\\n', "
                + "'include_predicates': true}"));
        assertThat(r.get("ok").asBoolean()).isTrue();
        assertThat(r.get("load_id").asText()).isNotBlank();
        assertThat(r.get("module_name").asText()).isEqualTo("m_" + r.get("load_id").asText());
        assertThat(r.get("dialect").asText()).isEqualTo("swi");
        assertThat(r.get("messages")).extracting(m -> m.get("kind").asText())
                .containsExactly("singleton", "syntax_error", "undefined_predicate");
        assertThat(r.get("messages").get(1).get("line").asInt()).isEqualTo(3);
        assertThat(r.get("messages").get(1).get("severity").asText()).isEqualTo("error");
        assertThat(r.get("messages").get(2).get("line").asInt()).isEqualTo(2);
        assertThat(r.get("messages").get(2).get("message").asText())
                .isEqualTo("Undefined procedure r/0 called from q/1 (line 2)");
        assertThat(r.get("predicates")).extracting(p -> p.get("name").asText() + "/" + p.get("arity").asInt())
                .containsExactly("p/1", "q/1");
    }

    @Test
    void runGoalReturnsTypedAnswersInQueryOrder() {
        String id = consult("parent(tom, bob).\nparent(bob, ann).\n");
        JsonNode r = callWith("run_goal", Map.of("load_id", id, "goal", "parent(P, C), S = \"s\", N is 2**70"));
        assertThat(r.get("ok").asBoolean()).isTrue();
        assertThat(r.get("outcome").asText()).isEqualTo("success");
        assertThat(r.get("count").asInt()).isEqualTo(2);
        assertThat(r.get("truncated").asBoolean()).isFalse();
        assertThat(r.get("depth_exceeded").asBoolean()).isFalse();
        JsonNode first = r.get("answers").get(0);
        assertThat(first.fieldNames()).toIterable().containsExactly("P", "C", "S", "N");
        assertThat(first.get("P").toString()).isEqualTo("{\"type\":\"atom\",\"value\":\"tom\"}");
        assertThat(first.get("S").toString()).isEqualTo("{\"type\":\"string\",\"value\":\"s\"}");
        assertThat(first.get("N").get("value").bigIntegerValue().toString()).isEqualTo("1180591620717411303424");
    }

    @Test
    void runGoalBoundsAreOutcomesAndErrorsAreFailureReplies() {
        String id = consult("p(1).\n");
        JsonNode many = callWith("run_goal", Map.of("load_id", id, "goal", "between(1, inf, X)", "max_answers", 2));
        assertThat(many.get("truncated").asBoolean()).isTrue();
        assertThat(many.get("count").asInt()).isEqualTo(2);
        JsonNode slow = callWith("run_goal", Map.of("load_id", id, "goal", "repeat, fail", "time_limit", 0.3));
        assertThat(slow.get("ok").asBoolean()).isTrue();
        assertThat(slow.get("outcome").asText()).isEqualTo("timeout");
        JsonNode deep = callWith("run_goal", Map.of("load_id", id, "goal", "length(L, N), N > 100", "max_depth", 50));
        assertThat(deep.get("outcome").asText()).isEqualTo("depth_exceeded");
        assertThat(deep.get("depth_exceeded").asBoolean()).isTrue();
        JsonNode err = callWith("run_goal", Map.of("load_id", id, "goal", "X is foo + 1"));
        assertThat(err.get("ok").asBoolean()).isFalse();
        assertThat(err.get("error").get("kind").asText()).isEqualTo("type_error");
        assertThat(err.get("error").get("prolog_term").asText()).contains("type_error");
        JsonNode thrown = callWith("run_goal", Map.of("load_id", id, "goal", "throw(oops)"));
        assertThat(thrown.get("error").get("kind").asText()).isEqualTo("execution_exception");
        JsonNode unsafe = callWith("run_goal", Map.of("load_id", id, "goal", "shell(ls)", "allow_side_effects", false));
        assertThat(unsafe.get("error").get("kind").asText()).isEqualTo("sandbox_violation");
    }

    @Test
    void inspectPredicateFindsAndSuggests() {
        String id = consult("parent(tom, bob).\nancestor(X, Y) :- parent(X, Y).\n");
        JsonNode hit = callWith("inspect_predicate", Map.of("load_id", id, "name", "ancestor", "arity", 2));
        assertThat(hit.get("found").asBoolean()).isTrue();
        assertThat(hit.get("type").asText()).isEqualTo("static");
        assertThat(hit.get("exported").asBoolean()).isFalse();
        assertThat(hit.get("clause_count").asInt()).isEqualTo(1);
        assertThat(hit.get("clauses").get(0).asText()).isEqualTo("ancestor(A, B) :-\n    parent(A, B).");
        JsonNode miss = callWith("inspect_predicate", Map.of("load_id", id, "name", "ancestr", "arity", 2));
        assertThat(miss.get("found").asBoolean()).isFalse();
        assertThat(miss.get("type").asText()).isEqualTo("undefined");
        assertThat(miss.get("candidates").get(0).asText()).isEqualTo("ancestor/2");
        JsonNode unknownPred = callWith("run_goal", Map.of("load_id", id, "goal", "ancestr(tom, X)"));
        assertThat(unknownPred.get("error").get("kind").asText()).isEqualTo("existence_error");
        assertThat(unknownPred.get("error").get("candidates").get(0).asText()).isEqualTo("ancestor/2");
    }

    @Test
    void replacePredicateIsAtomicAndGetSourceReflectsIt() {
        String id = consult("parent(tom, bob).\nancestor(X, Y) :- parent(X, Y).\n");
        String before = callWith("get_source", Map.of("load_id", id)).get("source").asText();
        JsonNode bad = callWith("replace_predicate", Map.of("load_id", id, "name", "ancestor", "arity", 2,
                "source_text", "ancestor(X, Y) :- parent(X, Y.\n"));
        assertThat(bad.get("ok").asBoolean()).isFalse();
        assertThat(bad.get("error").get("kind").asText()).isEqualTo("syntax_error");
        JsonNode other = callWith("replace_predicate", Map.of("load_id", id, "name", "ancestor", "arity", 2,
                "source_text", "ancestor(X, Y) :- parent(X, Y).\nextra(1).\n"));
        assertThat(other.get("error").get("kind").asText()).isEqualTo("invalid_patch");
        assertThat(callWith("get_source", Map.of("load_id", id)).get("source").asText()).isEqualTo(before);
        JsonNode good = callWith("replace_predicate", Map.of("load_id", id, "name", "ancestor", "arity", 2,
                "source_text", "ancestor(X, Y) :- parent(Y, X).\n"));
        assertThat(good.get("ok").asBoolean()).isTrue();
        assertThat(good.get("predicate").asText()).isEqualTo("ancestor/2");
        assertThat(good.get("messages")).isEmpty();
        assertThat(callWith("get_source", Map.of("load_id", id)).get("source").asText())
                .contains("parent(B, A)").doesNotContain("parent(A, B).");
        JsonNode r = callWith("run_goal", Map.of("load_id", id, "goal", "ancestor(bob, X)"));
        assertThat(r.get("answers").get(0).get("X").get("value").asText()).isEqualTo("tom");
    }

    @Test
    void listMessagesAccumulatesAndFilters() {
        String id = consult("q(X) :- r.\n");
        callWith("replace_predicate", Map.of("load_id", id, "name", "q", "arity", 1, "source_text", "q(1) :- ."));
        JsonNode all = callWith("list_messages", Map.of("load_id", id));
        assertThat(all.get("messages")).extracting(m -> m.get("kind").asText())
                .containsExactly("singleton", "undefined_predicate", "syntax_error");
        JsonNode errors = callWith("list_messages", Map.of("load_id", id, "min_severity", "error"));
        assertThat(errors.get("messages")).hasSize(1);
    }

    /** Issue 17: consult_text and replace_predicate take check; false skips the static check. */
    @Test
    void checkFalseSkipsTheStaticCheckOfConsultTextAndReplacePredicate() {
        for (int i : new int[] {0, 4}) {
            JsonNode check = tools.specs().get(i).inputSchema().get("properties").get("check");
            assertThat(check.get("type").asText()).as(tools.specs().get(i).name()).isEqualTo("boolean");
            assertThat(tools.specs().get(i).inputSchema().get("required")).extracting(JsonNode::asText)
                    .doesNotContain("check");
        }
        JsonNode checked = callWith("consult_text", Map.of("source_text", "best(X) :- solve(X, 2).\n"));
        assertThat(checked.get("messages")).singleElement().satisfies(m -> {
            assertThat(m.get("kind").asText()).isEqualTo("undefined_predicate");
            assertThat(m.get("severity").asText()).isEqualTo("warning");
            assertThat(m.get("line").asInt()).isEqualTo(1);
            assertThat(m.get("message").asText()).isEqualTo("Undefined procedure solve/2 called from best/1 (line 1)");
        });
        JsonNode unchecked = callWith("consult_text", Map.of("source_text", "best(X) :- solve(X, 2).\n",
                "check", false));
        assertThat(unchecked.get("messages")).isEmpty();
        String id = unchecked.get("load_id").asText();
        JsonNode replaced = callWith("replace_predicate", Map.of("load_id", id, "name", "best", "arity", 1,
                "source_text", "best(X) :- solve(X, 3).", "check", false));
        assertThat(replaced.get("ok").asBoolean()).isTrue();
        assertThat(replaced.get("messages")).isEmpty();
        JsonNode again = callWith("replace_predicate", Map.of("load_id", id, "name", "best", "arity", 1,
                "source_text", "best(X) :- solve(X, 3)."));
        assertThat(again.get("messages")).extracting(m -> m.get("kind").asText())
                .containsExactly("undefined_predicate");
        assertThat(call("consult_text", "{\"source_text\": \"p.\", \"check\": \"no\"}").get("error")
                .get("message").asText()).isEqualTo("argument 'check' must be a JSON boolean, got string \"no\"");
    }

    @Test
    void runTestsReportsTalliesAndResults() {
        String id = consult("double(X, Y) :- Y is X * 2.\n");
        String tests = """
                :- begin_tests(arith).
                test(one) :- double(1, 2).
                test(two) :- double(2, 4).
                test(three, [true(Y =:= 6)]) :- double(3, Y).
                test(wrong) :- double(2, 5).
                test(wrong_value, [true(Y =:= 7)]) :- double(3, Y).
                :- end_tests(arith).
                """;
        JsonNode r = callWith("run_tests", Map.of("load_id", id, "test_source_text", tests));
        assertThat(r.get("ok").asBoolean()).as(r.toString()).isTrue();
        assertThat(r.get("passed").asInt()).isEqualTo(3);
        assertThat(r.get("failed").asInt()).isEqualTo(2);
        assertThat(r.get("skipped").asInt()).isZero();
        assertThat(r.get("total").asInt()).isEqualTo(5);
        assertThat(r.get("results")).hasSize(5).allSatisfy(t -> {
            assertThat(t.get("unit").asText()).isEqualTo("arith");
            assertThat(t.get("status").asText()).isIn("passed", "failed");
        });
    }

    @Test
    void traceGoalReturnsAProofTree() {
        String id = consult("parent(a, b).\nparent(b, c).\nparent(c, d).\n"
                + "ancestor(X, Y) :- parent(X, Y).\nancestor(X, Y) :- parent(X, Z), ancestor(Z, Y).\n");
        JsonNode r = callWith("trace_goal", Map.of("load_id", id, "goal", "ancestor(a, d)"));
        assertThat(r.get("ok").asBoolean()).as(r.toString()).isTrue();
        assertThat(r.get("outcome").asText()).isEqualTo("success");
        assertThat(r.get("node_count").asInt()).isGreaterThan(3);
        assertThat(r.get("truncated").asBoolean()).isFalse();
        JsonNode tree = r.get("tree");
        assertThat(tree.get("goal").asText()).isEqualTo("ancestor(a, d)");
        assertThat(tree.has("rule") && tree.has("kind") && tree.has("children")).isTrue();
    }

    @Test
    void closeSessionClosesAndLaterCallsSayClosed() {
        String id = consult("p(1).\n");
        JsonNode r = callWith("close_session", Map.of("load_id", id));
        assertThat(r.get("ok").asBoolean()).isTrue();
        assertThat(r.get("closed").asBoolean()).isTrue();
        JsonNode after = callWith("run_goal", Map.of("load_id", id, "goal", "p(X)"));
        assertThat(after.get("ok").asBoolean()).isFalse();
        assertThat(after.get("error").get("kind").asText()).isEqualTo("session_closed");
        assertThat(after.get("error").get("message").asText()).contains("closed");
        JsonNode again = callWith("close_session", Map.of("load_id", id));
        assertThat(again.get("error").get("kind").asText()).isEqualTo("session_closed");
        JsonNode unknown = callWith("get_source", Map.of("load_id", "nosuchsession"));
        assertThat(unknown.get("error").get("kind").asText()).isEqualTo("session_closed");
        assertThat(unknown.get("error").get("message").asText()).contains("unknown");
        assertThat(tools.openSessions()).isZero();
    }

    @Test
    void everyBadCallIsAFailureReplyNeverAnException() {
        String id = consult("p(1).\n");
        assertThat(call("no_such_tool", "{}").get("error").get("kind").asText()).isEqualTo("unknown_tool");
        assertThat(call("run_goal", "{not json").get("error").get("kind").asText()).isEqualTo("malformed_json");
        assertThat(call("run_goal", "[1, 2]").get("error").get("kind").asText()).isEqualTo("invalid_arguments");
        assertThat(call("run_goal", "{\"load_id\": \"" + id + "\"}").get("error").get("message").asText())
                .contains("goal");
        assertThat(call("run_goal", "{\"load_id\": \"" + id + "\", \"goal\": 42}").get("error").get("kind").asText())
                .isEqualTo("invalid_arguments");
        assertThat(call("run_goal", "{\"load_id\": \"" + id + "\", \"goal\": \"p(X)\", \"max_answers\": \"ten\"}")
                .get("error").get("kind").asText()).isEqualTo("invalid_arguments");
        assertThat(call("run_goal", "{\"load_id\": \"" + id + "\", \"goal\": \"p(X)\", \"max_answers\": 0}")
                .get("error").get("kind").asText()).isEqualTo("invalid_arguments");
        assertThat(call("run_goal", "{\"load_id\": \"" + id + "\", \"goal\": \"p(X)\", \"time_limit\": -1}")
                .get("error").get("kind").asText()).isEqualTo("invalid_arguments");
        assertThat(call("inspect_predicate", "{\"load_id\": \"" + id + "\", \"name\": \"p\", \"arity\": -1}")
                .get("error").get("kind").asText()).isEqualTo("invalid_arguments");
        assertThat(call("consult_text", "{\"source_text\": \"p.\", \"dialect\": \"gnu\"}")
                .get("error").get("kind").asText()).isEqualTo("invalid_arguments");
        assertThat(call("list_messages", "{\"load_id\": \"" + id + "\", \"min_severity\": \"loud\"}")
                .get("error").get("kind").asText()).isEqualTo("invalid_arguments");
        assertThat(call("run_goal", "{\"load_id\": \"" + id + "\", \"goal\": \"X = 1. Y = 2\"}")
                .get("error").get("kind").asText()).isEqualTo("syntax_error");
        assertThat(call("run_goal", null).get("ok").asBoolean()).isFalse();
        assertThat(call(null, "{}").get("error").get("kind").asText()).isEqualTo("unknown_tool");
        // the session is still usable
        assertThat(callWith("run_goal", Map.of("load_id", id, "goal", "p(X)")).get("count").asInt()).isEqualTo(1);
    }

    @Test
    void runGoalWithACursorKeepsTheSearchOpenForNextAnswers() {
        String id = consult("n(X) :- between(1, inf, X).\n");
        JsonNode first = callWith("run_goal", Map.of("load_id", id, "goal", "n(X)", "max_answers", 3, "cursor", true));
        assertThat(first.get("ok").asBoolean()).as(first.toString()).isTrue();
        assertThat(first.get("count").asInt()).isEqualTo(3);
        assertThat(first.get("truncated").asBoolean()).isTrue();
        String cursor = first.get("cursor_id").asText();
        JsonNode next = callWith("next_answers", Map.of("load_id", id, "cursor_id", cursor, "max_answers", 2));
        assertThat(next.get("answers")).extracting(a -> a.get("X").get("value").asInt()).containsExactly(4, 5);
        assertThat(next.get("cursor_id").asText()).isEqualTo(cursor);
        JsonNode closed = callWith("close_cursor", Map.of("load_id", id, "cursor_id", cursor));
        assertThat(closed.get("closed").asBoolean()).isTrue();
        JsonNode gone = callWith("next_answers", Map.of("load_id", id, "cursor_id", cursor));
        assertThat(gone.get("error").get("kind").asText()).isEqualTo("cursor_closed");
        assertThat(callWith("close_cursor", Map.of("load_id", id, "cursor_id", "c999")).get("error").get("kind")
                .asText()).isEqualTo("cursor_closed");
        // a search whose answers run out has no cursor left to call
        JsonNode all = callWith("run_goal", Map.of("load_id", id, "goal", "member(X, [a, b])", "max_answers", 5,
                "cursor", true));
        assertThat(all.get("count").asInt()).isEqualTo(2);
        assertThat(all.has("cursor_id")).isFalse();
        // exactly max_answers answers: not truncated, as run_goal without a cursor says (one answer of look-ahead)
        String qid = consult("q(1). q(2). q(3). q(_) :- fail.\n");
        JsonNode three = callWith("run_goal", Map.of("load_id", qid, "goal", "q(X)", "max_answers", 3, "cursor", true));
        assertThat(three.get("count").asInt()).as(three.toString()).isEqualTo(3);
        assertThat(three.get("truncated").asBoolean()).isFalse();
        assertThat(three.has("cursor_id")).isFalse();
        // an unknown load_id is session_closed, as for every tool
        assertThat(callWith("next_answers", Map.of("load_id", "nope", "cursor_id", cursor)).get("error").get("kind")
                .asText()).isEqualTo("session_closed");
        JsonNode schema = tools.specs().stream().filter(t -> t.name().equals("next_answers")).findFirst()
                .orElseThrow().inputSchema();
        assertThat(schema.get("required")).extracting(JsonNode::asText).containsExactly("load_id", "cursor_id");
    }

    @Test
    void forkSessionCopiesASessionUnderANewLoadId() {
        String id = consult(":- dynamic seen/1.\nseen(1).\n");
        callWith("run_goal", Map.of("load_id", id, "goal", "assertz(seen(2))"));
        JsonNode fork = callWith("fork_session", Map.of("load_id", id));
        assertThat(fork.get("ok").asBoolean()).as(fork.toString()).isTrue();
        String copy = fork.get("load_id").asText();
        assertThat(copy).isNotEqualTo(id);
        callWith("run_goal", Map.of("load_id", copy, "goal", "assertz(seen(3))"));
        JsonNode inCopy = callWith("run_goal", Map.of("load_id", copy, "goal", "seen(X)"));
        assertThat(inCopy.get("answers")).extracting(a -> a.get("X").get("value").asInt()).containsExactly(1, 2, 3);
        JsonNode inOriginal = callWith("run_goal", Map.of("load_id", id, "goal", "seen(X)"));
        assertThat(inOriginal.get("answers")).extracting(a -> a.get("X").get("value").asInt()).containsExactly(1, 2);
        assertThat(callWith("fork_session", Map.of("load_id", "nope")).get("error").get("kind").asText())
                .isEqualTo("session_closed");
    }

    /** Issue 15 item 9: ranges and enums are in the schemas, and an error names the tool's argument. */
    @Test
    void rangesAreInTheSchemasAndErrorsNameTheToolsArgument() {
        for (ToolSpec spec : tools.specs()) {
            spec.inputSchema().get("properties").fields().forEachRemaining(e -> {
                String name = e.getKey();
                JsonNode p = e.getValue();
                if (name.equals("time_limit")) {
                    assertThat(p.get("exclusiveMinimum").asInt()).as(spec.name()).isZero();
                    assertThat(p.get("maximum").asInt()).as(spec.name()).isEqualTo(86_400);
                } else if (p.get("type").asText().equals("integer")) {
                    assertThat(p.has("minimum")).as(spec.name() + "." + name + " has a minimum").isTrue();
                }
            });
        }
        JsonNode runGoal = tools.specs().get(1).inputSchema().get("properties");
        assertThat(runGoal.get("max_answers").get("minimum").asInt()).isEqualTo(1);
        assertThat(runGoal.get("max_answers").get("maximum").asInt()).isEqualTo(100_000);
        assertThat(runGoal.get("max_depth").get("minimum").asInt()).isEqualTo(1);
        assertThat(runGoal.get("max_inferences").get("minimum").asInt()).isEqualTo(1);
        JsonNode exec = tools.specs().get(9).inputSchema().get("properties");
        assertThat(exec.get("max_results").get("minimum").asInt()).isEqualTo(1);
        assertThat(exec.get("max_results").get("maximum").asInt()).isEqualTo(10_000);
        assertThat(tools.specs().get(5).inputSchema().get("properties").get("min_severity").get("enum"))
                .extracting(JsonNode::asText).containsExactly("info", "warning", "error");

        String id = consult("p(1).\n");
        String head = "{\"load_id\": \"" + id + "\", \"goal\": \"p(X)\", ";
        JsonNode zero = call("run_goal", head + "\"max_answers\": 0}").get("error");
        assertThat(zero.get("kind").asText()).isEqualTo("invalid_arguments");
        assertThat(zero.get("message").asText()).isEqualTo("max_answers must be 1 to 100000, got 0")
                .doesNotContain("maxAnswers");
        assertThat(call("run_goal", head + "\"max_depth\": 0}").get("error").get("message").asText())
                .isEqualTo("max_depth must be at least 1, got 0");
        assertThat(call("run_goal", head + "\"max_inferences\": 0}").get("error").get("message").asText())
                .isEqualTo("max_inferences must be at least 1, got 0");
        // time_limit 0 is refused, as the schema's exclusiveMinimum says; a tiny positive one is accepted
        assertThat(call("run_goal", head + "\"time_limit\": 0}").get("error").get("message").asText())
                .isEqualTo("time_limit must be more than 0 and at most 86400, got 0");
        assertThat(call("run_goal", head + "\"time_limit\": 0.0001}").get("ok").asBoolean()).isTrue();
        assertThat(call("execute_prolog", "{\"prolog_code\": \"p.\", \"query\": \"p\", \"time_limit\": 0}")
                .get("error").get("message").asText()).startsWith("time_limit must be more than 0");
        assertThat(call("trace_goal", head + "\"max_nodes\": 0}").get("error").get("message").asText())
                .startsWith("max_nodes must be 1 to");
        assertThat(call("inspect_predicate", "{\"load_id\": \"" + id + "\", \"name\": \"p\", \"arity\": -1}")
                .get("error").get("message").asText()).isEqualTo("arity must be at least 0, got -1");
    }

    private JsonNode raw(String tool, String json) {
        try {
            return TermJson.mapper().readTree(tools.call(tool, json));
        } catch (Exception e) {
            throw new AssertionError(e);
        }
    }

    /** Issue 15 item 9: OpenAI's strict mode sends every property; null for an optional one means its default. */
    @Test
    void nullForAnOptionalArgumentMeansItsDefault() {
        String id = consult("p(1).\np(2).\n");
        JsonNode r = call("run_goal", "{\"load_id\": \"" + id + "\", \"goal\": \"p(X)\", \"max_answers\": null, "
                + "\"time_limit\": null, \"max_depth\": null, \"allow_side_effects\": null, \"max_inferences\": null}");
        assertThat(r.get("ok").asBoolean()).as(r.toString()).isTrue();
        assertThat(r.get("count").asInt()).isEqualTo(2);
        JsonNode c = call("consult_text", "{\"source_text\": \"q.\", \"dialect\": null, \"module_name\": null, "
                + "\"include_predicates\": null}");
        assertThat(c.get("ok").asBoolean()).as(c.toString()).isTrue();
        assertThat(c.get("dialect").asText()).isEqualTo("swi");
        JsonNode x = raw("execute_prolog", "{\"prolog_code\": \"p(1).\", \"query\": \"p(X)\", \"rule_bases\": null, "
                + "\"max_results\": null, \"trace\": null, \"time_limit\": null}");
        assertThat(x.get("success").asBoolean()).as(x.toString()).isTrue();
        // a required argument given as null is still missing
        assertThat(call("run_goal", "{\"load_id\": \"" + id + "\", \"goal\": null}").get("error").get("message")
                .asText()).contains("missing required argument 'goal'");
    }
}

package io.prologtool;

import com.fasterxml.jackson.databind.JsonNode;
import io.prologtool.json.TermJson;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Optional;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** Rendering of proof trees: text, JSON (both ways) and Graphviz DOT. */
class ProofTreeTest {

    private static final String CLAUSE2 = "ancestor(A, B) :- parent(A, C), ancestor(C, B).";
    private static final String CLAUSE1 = "ancestor(A, B) :- parent(A, B).";

    /** ancestor(a, c) through two parent facts. */
    private static ProofTree ancestor() {
        return new ProofTree("ancestor(a, c)", CLAUSE2, 4, "clause", List.of(
                ProofTree.leaf("parent(a, b)", "parent(a, b).", 1, "clause"),
                new ProofTree("ancestor(b, c)", CLAUSE1, 3, "clause", List.of(
                        ProofTree.leaf("parent(b, c)", "parent(b, c).", 2, "clause")))));
    }

    @Test
    void countsDepthAndPreOrder() {
        ProofTree t = ancestor();
        assertThat(t.nodeCount()).isEqualTo(4);
        assertThat(t.depth()).isEqualTo(3);
        assertThat(t.nodes()).extracting(ProofTree::goal)
                .containsExactly("ancestor(a, c)", "parent(a, b)", "ancestor(b, c)", "parent(b, c)");
        assertThat(t.find(n -> n.rule().equals(CLAUSE1))).extracting(ProofTree::goal)
                .containsExactly("ancestor(b, c)");
        assertThat(t.children().get(0).isLeaf()).isTrue();
    }

    @Test
    void childrenAreCopiedAndUnmodifiable() {
        List<ProofTree> kids = new java.util.ArrayList<>(List.of(ProofTree.leaf("true", "", 0, "builtin")));
        ProofTree t = new ProofTree("p", "p :- true.", 1, "clause", kids);
        kids.clear();
        assertThat(t.children()).hasSize(1);
        assertThatThrownBy(() -> t.children().add(t)).isInstanceOf(UnsupportedOperationException.class);
    }

    @Test
    void textIsIndentedTwoSpacesPerLevel() {
        assertThat(ancestor().toText()).isEqualTo("""
                ancestor(a, c)  [clause, line 4] ancestor(A, B) :- parent(A, C), ancestor(C, B).
                  parent(a, b)  [clause, line 1] parent(a, b).
                  ancestor(b, c)  [clause, line 3] ancestor(A, B) :- parent(A, B).
                    parent(b, c)  [clause, line 2] parent(b, c).
                """);
    }

    @Test
    void textOfNodesWithoutRuleOrLine() {
        ProofTree t = new ProofTree("can_fly(tweety)", "can_fly(A) :- bird(A), \\+penguin(A).", 0, "clause",
                List.of(ProofTree.leaf("bird(tweety)", "", 0, "builtin"),
                        new ProofTree("\\+penguin(tweety)", "", 0, "negation",
                                List.of(ProofTree.leaf("penguin(tweety)", "", 0, "failure")))));
        assertThat(t.toText()).isEqualTo("""
                can_fly(tweety)  [clause] can_fly(A) :- bird(A), \\+penguin(A).
                  bird(tweety)  [builtin]
                  \\+penguin(tweety)  [negation]
                    penguin(tweety)  [failure]
                """);
    }

    @Test
    void textNeverBreaksALine() {
        ProofTree t = ProofTree.leaf("odd\ngoal", "", 0, "builtin");
        assertThat(t.toText()).isEqualTo("odd goal  [builtin]\n");
    }

    @Test
    void jsonHasTheWireKeysInOrderAndLeavesHaveEmptyChildren() throws Exception {
        ProofTree leaf = ProofTree.leaf("X is 1+2", "", 0, "builtin");
        assertThat(leaf.toJson())
                .isEqualTo("{\"goal\":\"X is 1+2\",\"rule\":\"\",\"line\":0,\"kind\":\"builtin\",\"children\":[]}");
        JsonNode json = TermJson.mapper().readTree(ancestor().toJson());
        assertThat(json.fieldNames()).toIterable().containsExactly("goal", "rule", "line", "kind", "children");
        assertThat(json.path("children").get(1).path("children").get(0).path("children").isArray()).isTrue();
        assertThat(json.path("children").get(1).path("line").asInt()).isEqualTo(3);
    }

    @Test
    void jsonRoundTrips() {
        ProofTree t = new ProofTree("q('it''s', \"str\", [1, 2], 'A\\\\B')", "q(_) :- \\+fail, \"x\"==\"x\".", 7,
                "clause", List.of(ancestor(), ProofTree.leaf("é — ∀x", "", 0, "failure")));
        assertThat(ProofTree.fromJson(t.toJson())).isEqualTo(t);
        assertThat(ProofTree.fromJson(ancestor().toJsonNode())).isEqualTo(ancestor());
    }

    @Test
    void jsonDefaultsAndErrors() {
        assertThat(ProofTree.fromJson("{\"goal\":\"true\",\"kind\":\"builtin\"}"))
                .isEqualTo(ProofTree.leaf("true", "", 0, "builtin"));
        assertThat(ProofTree.fromJson("{\"goal\":\"p\",\"rule\":null,\"line\":null,\"kind\":\"clause\",\"children\":null}"))
                .isEqualTo(ProofTree.leaf("p", "", 0, "clause"));
        assertThatThrownBy(() -> ProofTree.fromJson("{\"kind\":\"clause\"}"))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("goal");
        assertThatThrownBy(() -> ProofTree.fromJson("{\"goal\":\"p\"}"))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("kind");
        assertThatThrownBy(() -> ProofTree.fromJson("{\"goal\":\"p\",\"kind\":\"clause\",\"children\":{}}"))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("children");
        assertThatThrownBy(() -> ProofTree.fromJson("[1]")).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> ProofTree.fromJson("{oops")).isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void dotHasOneNodePerProofNodeAndEdgesToChildren() {
        String dot = ancestor().toDot();
        assertThat(dot).startsWith("digraph proof {\n").endsWith("}\n");
        assertThat(dot).contains("n0 -> n1;", "n0 -> n2;", "n2 -> n3;");
        assertThat(dot.lines().filter(l -> l.matches("\\s*n\\d+ \\[label=.*"))).hasSize(4);
        assertThat(dot).contains("n0 [label=\"ancestor(a, c)\\n[clause, line 4]\\n" + CLAUSE2 + "\"]");
    }

    @Test
    void dotLabelsAreEscaped() {
        ProofTree t = new ProofTree("\\+p(\"a\\\"b\")", "", 0, "negation",
                List.of(ProofTree.leaf("p(\"a\\\"b\")", "p(\"a\\\"b\").", 1, "failure")));
        String dot = t.toDot();
        // the goal text \+p("a\"b") becomes \\+p(\"a\\\"b\") inside the DOT string
        assertThat(dot).contains("n0 [label=\"\\\\+p(\\\"a\\\\\\\"b\\\")\\n[negation]\", peripheries=2];");
        assertThat(dot).contains("color=red");
        assertThat(ProofTree.dotString("a\"b\\c\nd\re")).isEqualTo("\"a\\\"b\\\\c\\nde\"");
        // every double quote inside a label is escaped: labels are balanced
        for (String line : dot.lines().filter(l -> l.contains("label=")).toList()) {
            String label = line.substring(line.indexOf("label=") + 6);
            int quotes = 0;
            for (int i = 0; i < label.length(); i++) {
                if (label.charAt(i) == '\\') {
                    i++;
                } else if (label.charAt(i) == '"') {
                    quotes++;
                }
            }
            assertThat(quotes).as(line).isEqualTo(2);
        }
    }

    @Test
    void dotStylesByKind() {
        ProofTree t = new ProofTree("p", "", 0, "clause", List.of(
                ProofTree.leaf("q", "", 0, "truncated"), ProofTree.leaf("r", "", 0, "builtin")));
        String dot = t.toDot();
        assertThat(dot).contains("style=dashed", "style=rounded");
    }

    @Test
    void traceResultText() {
        TraceResult r = new TraceResult(Outcome.SUCCESS, Optional.of(ancestor()), 4, false, Optional.empty());
        assertThat(r.succeeded()).isTrue();
        assertThat(r.toText()).startsWith("success (4 nodes)\nancestor(a, c)  [clause, line 4]");
        TraceResult e = TraceResult.failedWith(PrologError.of("syntax_error", "Syntax error: bad"));
        assertThat(e.tree()).isEmpty();
        assertThat(e.toText()).isEqualTo("error (0 nodes): syntax_error: Syntax error: bad\n");
        assertThatThrownBy(() -> new TraceResult(Outcome.FAILURE, Optional.empty(), 0, false,
                Optional.of(PrologError.of("x", "y")))).isInstanceOf(IllegalArgumentException.class);
    }
}

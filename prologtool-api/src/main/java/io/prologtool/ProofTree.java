package io.prologtool;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.prologtool.json.TermJson;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.List;
import java.util.Objects;
import java.util.function.Predicate;

/**
 * One node of a proof tree: a goal as it was instantiated, how it was proved, and the proofs of its
 * subgoals. A trace ({@link PrologSession#trace(String)}) returns the root.
 *
 * <p>Kinds used by the harness:
 * <ul>
 *   <li>{@code clause}: a predicate of the session proved by the clause in {@link #rule()}; the
 *       children prove the clause's body (none for a fact);</li>
 *   <li>{@code builtin}: a built-in or library predicate (e.g. {@code member/2}, {@code is/2},
 *       {@code #=/2}, {@code findall/3}), run as one step;</li>
 *   <li>{@code tabled}: a tabled predicate of the session, run as one step;</li>
 *   <li>{@code negation}: {@code \+ G} that succeeded; the children are the failed attempt at
 *       {@code G};</li>
 *   <li>{@code truncated}: the depth bound stopped the expansion here; the goal was still proved,
 *       but its subtree is not shown;</li>
 *   <li>{@code query}: a root that stands for a compound query (a conjunction, a disjunction, ...);</li>
 *   <li>{@code failure}: a goal or clause attempt that failed (in the tree of a failing goal, or under
 *       a negation);</li>
 *   <li>{@code error}, {@code timeout}: a goal that was running when an exception or the time limit
 *       ended the search.</li>
 * </ul>
 *
 * <p>Renderings: {@link #toText()} (indented text for people and language models), {@link #toJson()}
 * (the wire form, read back by {@link #fromJson(String)}) and {@link #toDot()} (Graphviz).
 *
 * @param goal     the goal as quoted Prolog text, instantiated as the proof left it
 * @param rule     the clause used, as text ({@code "head :- body."} or a fact {@code "head."}), or
 *                 empty for nodes that no clause proved (built-ins, library predicates, negations)
 * @param line     the clause's line in the text that defined it, or 0 when unknown
 * @param ruleBase the rule base whose text holds the clause (then {@code line} counts from that rule
 *                 base's first line), or empty when the clause is in the code the caller sent
 * @param kind     what the node is: {@code clause}, {@code builtin}, {@code negation}, {@code failure}, ...
 * @param children the proofs of the subgoals, in order
 */
public record ProofTree(String goal, String rule, int line, String ruleBase, String kind,
                        List<ProofTree> children) {

    public ProofTree {
        Objects.requireNonNull(goal, "goal");
        Objects.requireNonNull(rule, "rule");
        Objects.requireNonNull(ruleBase, "ruleBase");
        Objects.requireNonNull(kind, "kind");
        children = List.copyOf(children);
    }

    /** A node whose clause (if any) is in the caller's own text: no rule base. */
    public ProofTree(String goal, String rule, int line, String kind, List<ProofTree> children) {
        this(goal, rule, line, "", kind, children);
    }

    /** A node without children. */
    public static ProofTree leaf(String goal, String rule, int line, String kind) {
        return new ProofTree(goal, rule, line, kind, List.of());
    }

    /** True when the node has no children. */
    public boolean isLeaf() {
        return children.isEmpty();
    }

    /** Number of nodes in this tree, this node included. */
    public int nodeCount() {
        int n = 0;
        Deque<ProofTree> todo = new ArrayDeque<>();
        todo.push(this);
        while (!todo.isEmpty()) {
            ProofTree t = todo.pop();
            n++;
            t.children.forEach(todo::push);
        }
        return n;
    }

    /** Number of levels of this tree: 1 for a leaf. */
    public int depth() {
        int max = 0;
        for (ProofTree c : children) {
            max = Math.max(max, c.depth());
        }
        return max + 1;
    }

    /** Every node of the tree in pre-order (a node before its children, children in order). */
    public List<ProofTree> nodes() {
        List<ProofTree> out = new ArrayList<>();
        Deque<ProofTree> todo = new ArrayDeque<>();
        todo.push(this);
        while (!todo.isEmpty()) {
            ProofTree t = todo.pop();
            out.add(t);
            for (int i = t.children.size() - 1; i >= 0; i--) {
                todo.push(t.children.get(i));
            }
        }
        return out;
    }

    /** The nodes that satisfy {@code test}, in pre-order. */
    public List<ProofTree> find(Predicate<ProofTree> test) {
        return nodes().stream().filter(test).toList();
    }

    // ---------------------------------------------------------------- text

    /**
     * The tree as indented text, one node per line, two spaces per level:
     *
     * <pre>
     * ancestor(a, c)  [clause, line 4] ancestor(A, B) :- parent(A, C), ancestor(C, B).
     *   parent(a, b)  [clause, line 1] parent(a, b).
     *   ancestor(b, c)  [clause, line 3] ancestor(A, B) :- parent(A, B).
     *     parent(b, c)  [clause, line 1] parent(b, c).
     * </pre>
     *
     * Each line is the goal, then the kind and line in brackets, then the clause used (if any).
     * Every line, the last included, ends with {@code \n}.
     */
    public String toText() {
        StringBuilder out = new StringBuilder();
        appendText(out, 0);
        return out.toString();
    }

    private void appendText(StringBuilder out, int level) {
        out.append("  ".repeat(level)).append(oneLine(goal)).append("  [").append(kind);
        if (!ruleBase.isEmpty()) {
            out.append(", rule base ").append(ruleBase);
        }
        if (line > 0) {
            out.append(", line ").append(line);
        }
        out.append(']');
        if (!rule.isEmpty()) {
            out.append(' ').append(oneLine(rule));
        }
        out.append('\n');
        for (ProofTree c : children) {
            c.appendText(out, level + 1);
        }
    }

    /** Prolog's quoted text never holds a raw line break; this guards against one from elsewhere. */
    private static String oneLine(String s) {
        return s.indexOf('\n') < 0 && s.indexOf('\r') < 0 ? s : s.replace("\r", "").replace('\n', ' ');
    }

    @Override
    public String toString() {
        return toText();
    }

    // ---------------------------------------------------------------- JSON

    /**
     * The tree as one line of JSON, the harness's wire form: {@code {"goal": .., "rule": ..,
     * "line": .., "rule_base": .., "kind": .., "children": [..]}}, {@code rule_base} only when not
     * empty; a leaf has {@code "children": []}.
     */
    public String toJson() {
        try {
            return TermJson.mapper().writeValueAsString(toJsonNode());
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("cannot serialise a proof tree", e);
        }
    }

    /** The tree as a Jackson object with the keys of {@link #toJson()}, in that order. */
    public ObjectNode toJsonNode() {
        ObjectNode n = TermJson.mapper().createObjectNode();
        n.put("goal", goal);
        n.put("rule", rule);
        n.put("line", line);
        if (!ruleBase.isEmpty()) {
            n.put("rule_base", ruleBase);
        }
        n.put("kind", kind);
        ArrayNode cs = n.putArray("children");
        for (ProofTree c : children) {
            cs.add(c.toJsonNode());
        }
        return n;
    }

    /**
     * Reads the JSON of {@link #toJson()}. {@code rule}, {@code line}, {@code rule_base} and
     * {@code children} may be missing (or null): they default to {@code ""}, 0, {@code ""} and no
     * children.
     *
     * @throws IllegalArgumentException when the text is not such JSON
     */
    public static ProofTree fromJson(String json) {
        Objects.requireNonNull(json, "json");
        JsonNode node;
        try {
            node = TermJson.mapper().readTree(json);
        } catch (JsonProcessingException e) {
            throw new IllegalArgumentException("not JSON: " + e.getOriginalMessage(), e);
        }
        return fromJson(node);
    }

    /**
     * Reads a proof tree from a Jackson node (see {@link #fromJson(String)}).
     *
     * @throws IllegalArgumentException when the node is not a proof tree
     */
    public static ProofTree fromJson(JsonNode node) {
        if (node == null || !node.isObject()) {
            throw new IllegalArgumentException("a proof tree node must be a JSON object, was " + node);
        }
        JsonNode goal = node.get("goal");
        JsonNode kind = node.get("kind");
        if (goal == null || !goal.isTextual()) {
            throw new IllegalArgumentException("proof tree node without a text \"goal\": " + node);
        }
        if (kind == null || !kind.isTextual()) {
            throw new IllegalArgumentException("proof tree node without a text \"kind\": " + node);
        }
        JsonNode rule = node.path("rule");
        JsonNode line = node.path("line");
        JsonNode ruleBase = node.path("rule_base");
        JsonNode children = node.path("children");
        if (!children.isMissingNode() && !children.isNull() && !children.isArray()) {
            throw new IllegalArgumentException("\"children\" must be an array: " + node);
        }
        List<ProofTree> cs = new ArrayList<>();
        for (JsonNode c : children) {
            cs.add(fromJson(c));
        }
        return new ProofTree(goal.asText(), rule.isTextual() ? rule.asText() : "",
                line.canConvertToInt() ? line.asInt() : 0, ruleBase.isTextual() ? ruleBase.asText() : "",
                kind.asText(), cs);
    }

    // ---------------------------------------------------------------- Graphviz

    /**
     * The tree as a Graphviz DOT digraph ({@code dot -Tsvg}). Each node's label holds the goal, the
     * kind (and line) and the clause used; failed, erroneous and timed-out nodes are red, truncated
     * nodes dashed, negations double-bordered, built-ins rounded. Labels are escaped, so any goal
     * text is safe.
     */
    public String toDot() {
        StringBuilder out = new StringBuilder();
        out.append("digraph proof {\n");
        out.append("  node [shape=box, fontname=\"monospace\"];\n");
        int[] next = {0};
        appendDot(out, next);
        out.append("}\n");
        return out.toString();
    }

    private int appendDot(StringBuilder out, int[] next) {
        int id = next[0]++;
        StringBuilder label = new StringBuilder(goal).append('\n').append('[').append(kind);
        if (!ruleBase.isEmpty()) {
            label.append(", rule base ").append(ruleBase);
        }
        if (line > 0) {
            label.append(", line ").append(line);
        }
        label.append(']');
        if (!rule.isEmpty()) {
            label.append('\n').append(rule);
        }
        out.append("  n").append(id).append(" [label=").append(dotString(label.toString()));
        String style = dotStyle(kind);
        if (!style.isEmpty()) {
            out.append(", ").append(style);
        }
        out.append("];\n");
        for (ProofTree c : children) {
            int child = c.appendDot(out, next);
            out.append("  n").append(id).append(" -> n").append(child).append(";\n");
        }
        return id;
    }

    private static String dotStyle(String kind) {
        return switch (kind) {
            case "failure", "error", "timeout" -> "color=red, fontcolor=red";
            case "truncated" -> "style=dashed";
            case "negation" -> "peripheries=2";
            case "builtin", "tabled" -> "style=rounded";
            default -> "";
        };
    }

    /**
     * A DOT quoted string: backslashes and double quotes are escaped (so Prolog's {@code \+} stays
     * literal instead of being read as a DOT escape), and line breaks become centred-line escapes.
     */
    static String dotString(String text) {
        StringBuilder out = new StringBuilder(text.length() + 2).append('"');
        for (int i = 0; i < text.length(); i++) {
            char c = text.charAt(i);
            switch (c) {
                case '\\' -> out.append("\\\\");
                case '"' -> out.append("\\\"");
                case '\n' -> out.append("\\n");
                case '\r' -> { }
                default -> out.append(c);
            }
        }
        return out.append('"').toString();
    }
}

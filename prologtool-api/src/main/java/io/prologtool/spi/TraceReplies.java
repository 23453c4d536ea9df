package io.prologtool.spi;

import com.fasterxml.jackson.databind.JsonNode;
import io.prologtool.Outcome;
import io.prologtool.PrologError;
import io.prologtool.ProofTree;
import io.prologtool.TraceResult;

import java.util.Optional;
import java.util.Set;

/**
 * Decodes the harness's {@code trace} replies:
 *
 * <pre>{@code
 * {"ok": true, "outcome": "success"|"failure"|"timeout"|"error",
 *  "tree": {"goal", "rule", "line", "kind", "children": [...]} or null,
 *  "node_count": N, "truncated": bool, "error": {"kind", "message", "prolog_term"}, "output": text}
 * }</pre>
 *
 * An {@code ok: false} reply (e.g. an unknown session) is an ERROR result without a tree; a reply that
 * does not have this shape is an ERROR of kind {@code protocol_error}.
 */
final class TraceReplies {

    private static final Set<String> OUTCOMES = Set.of("success", "failure", "timeout", "error");

    private TraceReplies() {
    }

    static TraceResult traceResult(JsonNode reply) {
        if (!reply.path("ok").asBoolean(false)) {
            return TraceResult.failedWith(HarnessSession.error(reply.path("error")));
        }
        String wire = reply.path("outcome").asText("");
        if (!OUTCOMES.contains(wire)) {
            return protocolError("a trace reply with the outcome \"" + wire + "\"");
        }
        Outcome outcome = Outcome.fromWireName(wire);
        JsonNode treeNode = reply.path("tree");
        Optional<ProofTree> tree;
        try {
            tree = treeNode.isObject() ? Optional.of(ProofTree.fromJson(treeNode)) : Optional.empty();
        } catch (IllegalArgumentException e) {
            return protocolError("a malformed proof tree (" + e.getMessage() + ")");
        }
        int nodeCount = reply.path("node_count").asInt(tree.map(ProofTree::nodeCount).orElse(0));
        boolean truncated = reply.path("truncated").asBoolean(false);
        Optional<PrologError> error = Optional.empty();
        if (outcome == Outcome.ERROR) {
            JsonNode e = reply.path("error");
            error = Optional.of(e.isObject() ? HarnessSession.error(e)
                    : PrologError.of("protocol_error", "the harness reported an error without saying which"));
        }
        return new TraceResult(outcome, tree, nodeCount, truncated, error);
    }

    private static TraceResult protocolError(String what) {
        return TraceResult.failedWith(PrologError.of("protocol_error", "The harness sent " + what + "."));
    }
}

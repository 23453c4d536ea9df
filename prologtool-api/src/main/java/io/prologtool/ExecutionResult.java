package io.prologtool;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.prologtool.json.TermJson;

import java.math.BigDecimal;
import java.math.BigInteger;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;

/**
 * The result of one {@link PrologExecutor} run, shaped like prolog-reasoner's reply (see
 * {@link #toJson()}): a value, never a live handle.
 *
 * <ul>
 *   <li>{@code success} is false on any error: an error-severity diagnostic while loading a rule base or
 *       the code (a syntax error, {@code :- halt.}, a raising directive), a query that cannot be read,
 *       a goal that raises, the time limit, the depth limit, or a trace that did not reproduce the run.
 *       A query without solutions is a success with {@code result_count} 0 and output {@code false}.</li>
 *   <li>{@code output} is what the code printed, then one line per solution as the toplevel shows it
 *       ({@code X = a, Y = b}; {@code true} for a solution without visible variables; residual
 *       constraints such as {@code X in 1..3}), or {@code false} when there is none. Solutions found
 *       before an error are kept.</li>
 *   <li>{@code metadata}, in this order: {@code execution_time_ms}, {@code result_count},
 *       {@code truncated}, {@code rule_bases_used}, {@code rule_base_load_ms} (when rule bases were asked
 *       for: the time to read them from the store, prolog-reasoner's disk I/O timing; they load with the
 *       code, prepended to it), {@code warnings} (warning diagnostics as
 *       text), {@code proof_trace} (with trace: a list of {@link TraceResult}s, one proof tree per
 *       returned solution, see {@link #proofTrace()}); on failure also
 *       {@code error_category} (syntax_error, undefined_predicate, unbound_variable, type_error,
 *       domain_error, evaluation_error, permission_error, timeout, trace_mechanism_error, unknown) and
 *       {@code error_explanation}, one sentence on what to do; for an unknown rule base,
 *       {@code error_code}; last, {@code cpu_time_ms} and {@code inferences} (see {@link #cost()}).</li>
 * </ul>
 *
 * @param success  true when nothing went wrong
 * @param output   printed output and one line per solution
 * @param query    the query as given
 * @param error    what went wrong, as text (one line per problem), present exactly when not successful
 * @param metadata see above; insertion-ordered and unmodifiable
 * @param answers  the solutions as typed bindings (with residual goals), at most {@code maxResults}
 * @param cost     what the run cost (wall time, CPU time, inferences); {@code execution_time_ms} is its
 *                 wall time in whole milliseconds
 */
public record ExecutionResult(boolean success, String output, String query, Optional<String> error,
                              Map<String, Object> metadata, List<Answer> answers, Cost cost) {

    public ExecutionResult {
        Objects.requireNonNull(output, "output");
        Objects.requireNonNull(query, "query");
        Objects.requireNonNull(error, "error");
        Objects.requireNonNull(metadata, "metadata");
        if (success == error.isPresent()) {
            throw new IllegalArgumentException("an error is present exactly when the run did not succeed");
        }
        metadata = Collections.unmodifiableMap(new LinkedHashMap<>(metadata));
        answers = List.copyOf(answers);
        Objects.requireNonNull(cost, "cost");
    }

    /** A result that cost nothing measured ({@link Cost#NONE}). */
    public ExecutionResult(boolean success, String output, String query, Optional<String> error,
                           Map<String, Object> metadata, List<Answer> answers) {
        this(success, output, query, error, metadata, answers, Cost.NONE);
    }

    /** {@link Cost#wallTime()}: how long the call took, as the caller saw it. */
    public java.time.Duration wallTime() {
        return cost.wallTime();
    }

    /** {@link Cost#cpuTime()}: the CPU time of the Prolog thread that served the call. */
    public java.time.Duration cpuTime() {
        return cost.cpuTime();
    }

    /** {@link Cost#inferences()}: the inferences counted while the call was served. */
    public long inferences() {
        return cost.inferences();
    }

    /** {@code metadata.result_count}: the number of solutions returned. */
    public int resultCount() {
        return metadata.get("result_count") instanceof Number n ? n.intValue() : answers.size();
    }

    /** {@code metadata.truncated}: true when more solutions existed than {@code maxResults}. */
    public boolean truncated() {
        return Boolean.TRUE.equals(metadata.get("truncated"));
    }

    /** {@code metadata.execution_time_ms}. */
    public long executionTimeMs() {
        return metadata.get("execution_time_ms") instanceof Number n ? n.longValue() : 0;
    }

    /** {@code metadata.error_category}, present when the run failed. */
    public Optional<String> errorCategory() {
        return Optional.ofNullable((String) metadata.get("error_category"));
    }

    /** {@code metadata.error_explanation}, present when the run failed. */
    public Optional<String> errorExplanation() {
        return Optional.ofNullable((String) metadata.get("error_explanation"));
    }

    /** {@code metadata.warnings}: the warnings of loading, as text. */
    @SuppressWarnings("unchecked")
    public List<String> warnings() {
        return metadata.get("warnings") instanceof List<?> l ? (List<String>) l : List.of();
    }

    /**
     * {@code metadata.proof_trace}: with a trace asked for, one proof tree per returned solution, in the
     * order of {@link #answers()} (each a {@link TraceResult} with outcome SUCCESS); an empty list when the
     * query has no solution. Absent when no trace was asked for, when the code did not load, or when the
     * query ended in an error or a bound before its first solution ({@link #error()} says why).
     */
    @SuppressWarnings("unchecked")
    public Optional<List<TraceResult>> proofTrace() {
        return metadata.get("proof_trace") instanceof List<?> l ? Optional.of((List<TraceResult>) l)
                : Optional.empty();
    }

    /**
     * prolog-reasoner's reply: {@code {"success", "output", "query", "error" (null on success),
     * "metadata"}}, plus {@code "answers"}: the solutions as typed bindings, each an object from
     * variable name to term (the JSON encoding of {@link Term}).
     */
    public ObjectNode toJson() {
        JsonNodeFactory f = JsonNodeFactory.instance;
        ObjectNode r = f.objectNode();
        r.put("success", success);
        r.put("output", output);
        r.put("query", query);
        if (error.isPresent()) {
            r.put("error", error.get());
        } else {
            r.putNull("error");
        }
        r.set("metadata", json(metadata));
        ArrayNode as = r.putArray("answers");
        for (Answer a : answers) {
            ObjectNode o = as.addObject();
            a.asMap().forEach((k, v) -> o.set(k, TermJson.encode(v)));
        }
        return r;
    }

    @Override
    public String toString() {
        return (success ? "success" : "failure: " + error.orElse("")) + " " + answers;
    }

    private static JsonNode json(Object v) {
        JsonNodeFactory f = JsonNodeFactory.instance;
        if (v == null) {
            return f.nullNode();
        } else if (v instanceof JsonNode j) {
            return j.deepCopy();
        } else if (v instanceof String s) {
            return f.textNode(s);
        } else if (v instanceof Boolean b) {
            return f.booleanNode(b);
        } else if (v instanceof Integer i) {
            return f.numberNode(i);
        } else if (v instanceof Long l) {
            return f.numberNode(l);
        } else if (v instanceof Double d) {
            return f.numberNode(d);
        } else if (v instanceof BigInteger b) {
            return f.numberNode(b);
        } else if (v instanceof BigDecimal b) {
            return f.numberNode(b);
        } else if (v instanceof Number n) {
            return f.numberNode(n.doubleValue());
        } else if (v instanceof TraceResult t) {
            ObjectNode o = f.objectNode();
            o.put("outcome", t.outcome().wireName());
            o.set("tree", t.tree().<JsonNode>map(ProofTree::toJsonNode).orElse(f.nullNode()));
            o.put("node_count", t.nodeCount());
            o.put("truncated", t.truncated());
            t.error().ifPresent(e -> {
                ObjectNode eo = o.putObject("error");
                eo.put("kind", e.kind());
                eo.put("message", e.message());
            });
            return o;
        } else if (v instanceof Map<?, ?> m) {
            ObjectNode o = f.objectNode();
            m.forEach((k, x) -> o.set(String.valueOf(k), json(x)));
            return o;
        } else if (v instanceof Iterable<?> it) {
            ArrayNode a = f.arrayNode();
            it.forEach(x -> a.add(json(x)));
            return a;
        }
        return f.textNode(String.valueOf(v));
    }
}

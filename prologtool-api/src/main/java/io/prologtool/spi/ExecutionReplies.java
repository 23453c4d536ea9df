package io.prologtool.spi;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.prologtool.Answer;
import io.prologtool.ExecutionResult;
import io.prologtool.TraceResult;

import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalDouble;

/**
 * Turns the harness's {@code execute} replies into {@link ExecutionResult}s (see
 * {@code harness_execute.pl} for the reply's keys): the error text, the category of the first error,
 * the output with one line per solution, and the metadata in prolog-reasoner's order.
 */
public final class ExecutionReplies {

    private ExecutionReplies() {
    }

    /** What the caller knows about the call beyond the reply. */
    public record Call(String query, List<String> ruleBasesUsed, OptionalDouble ruleBaseReadMs, Duration timeLimit,
                       long startNanos) {
    }

    /** The result of an {@code ok: true} execute reply. */
    public static ExecutionResult result(JsonNode reply, Call call) {
        List<String> errors = new ArrayList<>();
        List<String> warnings = new ArrayList<>();
        String[] category = new String[2]; // category, explanation of the first error

        diagnostics(reply.path("messages"), errors, warnings, category);

        String outcome = reply.path("outcome").asText("error");
        String phase = reply.path("phase").asText("run");
        switch (outcome) {
            case "success", "failure" -> {
                // no error of the run itself
            }
            case "error" -> {
                JsonNode e = reply.path("error");
                errors.add(("query".equals(phase) ? "query: " : "") + e.path("message").asText("error"));
                first(category, e.path("category").asText("unknown"), e.path("explanation").asText(""));
            }
            case "timeout" -> {
                errors.add("Prolog execution timed out after " + seconds(call.timeLimit()) + "s"
                        + ("load".equals(phase) ? " while loading" : ""));
                first(category, "timeout", reply.path("explanation").asText(""));
            }
            case "cancelled" -> {
                errors.add("The execution was cancelled");
                first(category, "cancelled", "");
            }
            case "depth_exceeded" -> {
                errors.add("The search exceeded the depth limit (runaway recursion)");
                first(category, reply.path("category").asText("unknown"), reply.path("explanation").asText(""));
            }
            case "inference_limit" -> {
                errors.add("The search exceeded its inference limit");
                first(category, reply.path("category").asText("unknown"), reply.path("explanation").asText(""));
            }
            default -> {
                errors.add("The harness reported the outcome \"" + outcome + "\"");
                first(category, "unknown", "");
            }
        }
        JsonNode problem = reply.path("trace_problem");
        if (problem.isObject()) {
            errors.add("trace: " + problem.path("message").asText());
            first(category, problem.path("category").asText("trace_mechanism_error"),
                    problem.path("explanation").asText(""));
        }

        List<Answer> answers = HarnessSession.answers(reply);
        StringBuilder output = new StringBuilder(reply.path("output").asText(""));
        if (output.length() > 0 && output.charAt(output.length() - 1) != '\n') {
            output.append('\n');
        }
        for (JsonNode line : reply.path("lines")) {
            output.append(line.asText()).append('\n');
        }
        if (answers.isEmpty() && "failure".equals(outcome)) {
            output.append("false\n");
        }

        Map<String, Object> metadata = new LinkedHashMap<>();
        long wall = Math.max(0, System.nanoTime() - call.startNanos());
        io.prologtool.Cost cost = HarnessSession.cost(reply).withWallTime(java.time.Duration.ofNanos(wall));
        metadata.put("execution_time_ms", wall / 1_000_000);
        metadata.put("result_count", answers.size());
        metadata.put("truncated", reply.path("truncated").asBoolean(false));
        metadata.put("rule_bases_used", call.ruleBasesUsed());
        if (call.ruleBaseReadMs().isPresent()) {
            metadata.put("rule_base_load_ms", Math.round(call.ruleBaseReadMs().getAsDouble()));
        }
        metadata.put("warnings", List.copyOf(warnings));
        if (reply.path("traces").isArray()) {
            List<TraceResult> traces = new ArrayList<>();
            for (JsonNode tree : reply.path("traces")) {
                ObjectNode t = tree.deepCopy();
                t.put("ok", true);
                traces.add(TraceReplies.traceResult(t));
            }
            metadata.put("proof_trace", List.copyOf(traces));
        }
        boolean success = errors.isEmpty();
        if (!success) {
            metadata.put("error_category", category[0] == null ? "unknown" : category[0]);
            metadata.put("error_explanation", category[1] == null || category[1].isEmpty()
                    ? "See the error for what went wrong and where." : category[1]);
        }
        metadata.put("cpu_time_ms", cost.cpuTimeMillis());
        metadata.put("inferences", cost.inferences());
        return new ExecutionResult(success, output.toString(), call.query(),
                success ? Optional.empty() : Optional.of(String.join("\n", errors)), metadata, answers, cost);
    }

    /** A run that produced no reply (a time limit enforced by stopping the Prolog, a crash, ...). */
    public static ExecutionResult failure(Call call, String error, String category, String explanation,
                                          Map<String, Object> extra) {
        Map<String, Object> metadata = new LinkedHashMap<>(extra);
        long wall = Math.max(0, System.nanoTime() - call.startNanos());
        io.prologtool.Cost cost = io.prologtool.Cost.NONE.withWallTime(java.time.Duration.ofNanos(wall));
        metadata.put("execution_time_ms", wall / 1_000_000);
        metadata.put("result_count", 0);
        metadata.put("truncated", false);
        metadata.put("rule_bases_used", call.ruleBasesUsed());
        metadata.put("warnings", List.of());
        metadata.put("error_category", category);
        metadata.put("error_explanation", explanation);
        metadata.put("cpu_time_ms", cost.cpuTimeMillis());
        metadata.put("inferences", cost.inferences());
        return new ExecutionResult(false, "", call.query(), Optional.of(error), metadata, List.of(), cost);
    }

    private static void diagnostics(JsonNode messages, List<String> errors, List<String> warnings,
                                    String[] category) {
        for (JsonNode d : messages) {
            String severity = d.path("severity").asText("error");
            String prefix = d.path("rule_base").isTextual() ? "rule base '" + d.path("rule_base").asText() + "', " : "";
            StringBuilder text = new StringBuilder(prefix);
            int line = d.path("line").asInt(0);
            if (line > 0) {
                text.append("line ").append(line);
                int column = d.path("column").asInt(0);
                if (column > 0) {
                    text.append(", column ").append(column);
                }
                text.append(": ");
            } else if (!prefix.isEmpty()) {
                text.setLength(text.length() - 2);
                text.append(": ");
            }
            text.append(d.path("message").asText(""));
            if ("error".equals(severity)) {
                errors.add(text.toString());
                first(category, d.path("category").asText("unknown"), d.path("explanation").asText(""));
            } else if ("warning".equals(severity)) {
                warnings.add(text.toString());
            }
        }
    }

    private static void first(String[] category, String name, String explanation) {
        if (category[0] == null) {
            category[0] = name;
            category[1] = explanation;
        }
    }

    private static String seconds(Duration d) {
        double s = d.toNanos() / 1e9;
        return s == Math.rint(s) ? String.valueOf((long) s) : String.valueOf(s);
    }
}

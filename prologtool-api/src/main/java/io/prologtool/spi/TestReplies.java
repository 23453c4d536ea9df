package io.prologtool.spi;

import com.fasterxml.jackson.databind.JsonNode;
import io.prologtool.PrologError;
import io.prologtool.TestCase;
import io.prologtool.TestReport;
import io.prologtool.TestStatus;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * Decodes the harness's {@code run_tests} replies:
 * <pre>{@code
 * {"ok": true, "passed": 3, "failed": 2, "skipped": 1, "total": 6,
 *  "results": [{"unit": "family", "name": "a", "status": "passed", "message": "", "line": 2}, ...],
 *  "messages": [<diagnostics of loading the text>], "output": "...", "output_truncated": false,
 *  "error": {"kind": "timeout", "message": "...", "prolog_term": "..."}}      // only when the run did not finish
 * }</pre>
 * A failure reply ({@code "ok": false}) becomes an empty report whose {@link TestReport#error()} says why.
 */
final class TestReplies {

    private TestReplies() {
    }

    static TestReport testReport(JsonNode reply) {
        if (!reply.path("ok").asBoolean(false)) {
            return new TestReport(0, 0, 0, 0, List.of(), List.of(),
                    Optional.of(HarnessSession.error(reply.path("error"))));
        }
        List<TestCase> results = new ArrayList<>();
        for (JsonNode r : reply.path("results")) {
            results.add(testCase(r));
        }
        int passed = count(reply, "passed", results, TestStatus.PASSED);
        int failed = count(reply, "failed", results, TestStatus.FAILED);
        int skipped = count(reply, "skipped", results, TestStatus.SKIPPED);
        int total = reply.path("total").isInt() ? reply.path("total").asInt() : passed + failed + skipped;
        JsonNode error = reply.path("error");
        Optional<PrologError> err = error.isObject() ? Optional.of(HarnessSession.error(error)) : Optional.empty();
        return new TestReport(passed, failed, skipped, total, results,
                HarnessSession.diagnostics(reply.path("messages")), err);
    }

    private static TestCase testCase(JsonNode r) {
        return new TestCase(r.path("unit").asText(""), r.path("name").asText(""), status(r.path("status").asText()),
                r.path("message").asText(""), Math.max(0, r.path("line").asInt(0)));
    }

    private static TestStatus status(String wire) {
        try {
            return TestStatus.fromWireName(wire);
        } catch (IllegalArgumentException e) {
            return TestStatus.SKIPPED; // a status this version does not know did not pass or fail
        }
    }

    /** The reply's tally, or the count of results with that status when the reply lacks it. */
    private static int count(JsonNode reply, String key, List<TestCase> results, TestStatus status) {
        JsonNode n = reply.path(key);
        if (n.isInt()) {
            return n.asInt();
        }
        return (int) results.stream().filter(c -> c.status() == status).count();
    }
}

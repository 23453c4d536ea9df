package io.prologtool.spi;

import com.fasterxml.jackson.databind.JsonNode;
import io.prologtool.TestReport;

/** Decodes the harness's {@code run_tests} replies. */
final class TestReplies {

    private TestReplies() {
    }

    static TestReport testReport(JsonNode reply) {
        throw new UnsupportedOperationException("run_tests is not implemented yet");
    }
}

package io.prologtool.spi;

import com.fasterxml.jackson.databind.JsonNode;
import io.prologtool.TraceResult;

/** Decodes the harness's {@code trace} replies. */
final class TraceReplies {

    private TraceReplies() {
    }

    static TraceResult traceResult(JsonNode reply) {
        throw new UnsupportedOperationException("trace is not implemented yet");
    }
}

package io.prologtool.mcp;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.prologtool.json.TermJson;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.function.Consumer;

/**
 * Reads the client's JSON-RPC messages, one a line, on their way to the SDK, for cancellation (which the
 * SDK does not surface to tool handlers): each {@code tools/call} request gets its JSON-RPC id as
 * {@code params._meta["io.prologtool/requestId"]}, which the tool handler reads and runs the call under
 * ({@link io.prologtool.tools.PrologTools#call(String, com.fasterxml.jackson.databind.JsonNode, String)}),
 * and each {@code notifications/cancelled} hands its {@code requestId} to {@code onCancel}. Every other
 * line passes unchanged; only lines that name one of the two methods are parsed.
 */
final class CancelWatchingInputStream extends InputStream {

    /** Where a {@code tools/call} request carries its JSON-RPC id. */
    static final String REQUEST_ID_KEY = "io.prologtool/requestId";

    private final InputStream in;
    private final Consumer<String> onCancel;
    private final ByteArrayOutputStream line = new ByteArrayOutputStream(256);
    private byte[] buffer = new byte[0];
    private int position;
    private boolean ended;

    CancelWatchingInputStream(InputStream in, Consumer<String> onCancel) {
        this.in = in;
        this.onCancel = onCancel;
    }

    @Override
    public int read() throws IOException {
        if (!fill()) {
            return -1;
        }
        return buffer[position++] & 0xff;
    }

    @Override
    public int read(byte[] b, int off, int len) throws IOException {
        if (len == 0) {
            return 0;
        }
        if (!fill()) {
            return -1;
        }
        int n = Math.min(len, buffer.length - position);
        System.arraycopy(buffer, position, b, off, n);
        position += n;
        return n;
    }

    @Override
    public int available() {
        return buffer.length - position;
    }

    @Override
    public void close() throws IOException {
        in.close();
    }

    /** Makes the next line (as passed on) the buffer; false at the end of the input. */
    private boolean fill() throws IOException {
        if (position < buffer.length) {
            return true;
        }
        if (ended) {
            return false;
        }
        line.reset();
        int c;
        while ((c = in.read()) >= 0) {
            line.write(c);
            if (c == '\n') {
                break;
            }
        }
        if (c < 0) {
            ended = true;
            if (line.size() == 0) {
                return false;
            }
        }
        buffer = passOn(line.toByteArray());
        position = 0;
        return buffer.length > 0 || fill();
    }

    private byte[] passOn(byte[] bytes) {
        String text = new String(bytes, StandardCharsets.UTF_8);
        boolean call = text.contains("\"tools/call\"");
        if (!call && !text.contains("\"notifications/cancelled\"")) {
            return bytes;
        }
        JsonNode message;
        try {
            message = TermJson.mapper().readTree(text);
        } catch (IOException | RuntimeException notJson) {
            return bytes; // the SDK answers it
        }
        if (message == null || !message.isObject()) {
            return bytes;
        }
        String method = message.path("method").asText("");
        if ("notifications/cancelled".equals(method)) {
            JsonNode id = message.path("params").path("requestId");
            if (!id.isMissingNode() && !id.isNull()) {
                onCancel.accept(id.asText());
            }
            return bytes;
        }
        JsonNode id = message.path("id");
        if (!"tools/call".equals(method) || id.isMissingNode() || id.isNull()
                || !message.path("params").isObject()) {
            return bytes;
        }
        ObjectNode params = (ObjectNode) message.get("params");
        JsonNode meta = params.path("_meta");
        ObjectNode m = meta.isObject() ? (ObjectNode) meta : params.putObject("_meta");
        m.put(REQUEST_ID_KEY, id.asText());
        return (message + "\n").getBytes(StandardCharsets.UTF_8);
    }
}

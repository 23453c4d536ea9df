package io.prologtool.mcp;

import io.modelcontextprotocol.json.McpJsonMapper;
import io.modelcontextprotocol.json.TypeRef;
import io.modelcontextprotocol.spec.McpSchema;
import io.modelcontextprotocol.spec.McpServerSession;
import io.modelcontextprotocol.spec.McpServerTransport;
import io.modelcontextprotocol.spec.McpServerTransportProvider;
import reactor.core.publisher.Mono;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.SynchronousQueue;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Consumer;

/**
 * The MCP server's transport on standard input and output: one JSON-RPC message a line each way, the
 * SDK's {@link McpServerTransportProvider} extension point, with no thread hand-off on a call's path.
 *
 * <p>The thread that reads a message handles it. A {@code tools/call} may run for as long as its time
 * limit, so before handling one the thread hands reading over to another (leader and followers: the
 * next reader wakes while the call runs, off the call's path) and, once the reply is written, goes back
 * to the pool. Everything else ({@code initialize}, {@code ping}, {@code tools/list}, notifications) is
 * answered at once by the reader, in order: a {@code ping} is answered while goals run. At most
 * {@link #MAX_CALLS} calls run at once; past that the reader runs the call itself and reads on when it
 * ends.
 *
 * <p>Each reply is written, as one line, by the thread that made it, under a lock on the output: replies
 * never interleave, and none waits for an outbound thread. {@code notifications/cancelled} is handed to
 * {@code onCancel} with its {@code requestId} as soon as it is read; a {@code tools/call} carries its
 * JSON-RPC id to the tool handler as {@code params._meta[}{@value #REQUEST_ID_KEY}{@code ]}, so that the
 * handler runs the call under that id ({@link io.prologtool.tools.PrologTools#cancel(String)}). When the
 * input ends or fails, {@code onEnd} runs once.
 */
final class StdioTransport implements McpServerTransportProvider {

    /** Where a {@code tools/call} request carries its JSON-RPC id. */
    static final String REQUEST_ID_KEY = "io.prologtool/requestId";
    /** The most calls that run at once, each on a thread of its own. */
    static final int MAX_CALLS = 256;
    /** The longest line read, in bytes; a longer one ends the connection (as the SDK's own transport does). */
    static final int MAX_LINE_BYTES = 16 * 1024 * 1024;

    /** MCP's cancellation of a request (the SDK names no constant for it). */
    static final String METHOD_CANCELLED = "notifications/cancelled";

    private final McpJsonMapper json;
    private final InputStream in;
    private final OutputStream out;
    private final Consumer<String> onCancel;
    private final Runnable onEnd;
    private final PrintStream log;
    private final ThreadPoolExecutor threads;
    private final AtomicBoolean closing = new AtomicBoolean();
    private final AtomicBoolean ended = new AtomicBoolean();
    private final byte[] buffer = new byte[64 * 1024];
    private int position;
    private int limit;
    private volatile McpServerSession session;

    /**
     * @param json     the SDK's JSON mapper
     * @param in       the client's messages (the process's standard input)
     * @param out      where replies go (the process's standard output)
     * @param onCancel given the {@code requestId} of each {@code notifications/cancelled}
     * @param onEnd    run once, when the input ends or fails
     * @param log      where a message that cannot be read or written is reported (standard error)
     */
    StdioTransport(McpJsonMapper json, InputStream in, OutputStream out, Consumer<String> onCancel,
                   Runnable onEnd, PrintStream log) {
        this.json = Objects.requireNonNull(json, "json");
        this.in = Objects.requireNonNull(in, "in");
        this.out = Objects.requireNonNull(out, "out");
        this.onCancel = Objects.requireNonNull(onCancel, "onCancel");
        this.onEnd = Objects.requireNonNull(onEnd, "onEnd");
        this.log = Objects.requireNonNull(log, "log");
        AtomicInteger n = new AtomicInteger();
        this.threads = new ThreadPoolExecutor(0, MAX_CALLS + 1, 60, TimeUnit.SECONDS, new SynchronousQueue<>(), r -> {
            Thread t = new Thread(r, "prologtool-mcp-" + n.incrementAndGet());
            t.setDaemon(true);
            return t;
        });
    }

    @Override
    public void setSessionFactory(McpServerSession.Factory factory) {
        session = factory.create(new SessionTransport());
        threads.execute(this::read);
    }

    @Override
    public Mono<Void> notifyClients(String method, Object params) {
        McpServerSession s = session;
        return s == null ? Mono.error(new IllegalStateException("no client yet")) : s.sendNotification(method, params);
    }

    @Override
    public Mono<Void> closeGracefully() {
        return Mono.fromRunnable(this::close);
    }

    @Override
    public void close() {
        closing.set(true);
        threads.shutdown();
    }

    // ---------------------------------------------------------------- reading

    /**
     * The reader's loop: reads and handles messages until it hands reading over (then it runs the call it
     * read, and ends) or the input ends.
     */
    private void read() {
        McpSchema.JSONRPCMessage call = null;
        try {
            while (call == null && !closing.get()) {
                byte[] line = nextLine();
                if (line == null) {
                    break;
                }
                McpSchema.JSONRPCMessage message = parse(line);
                if (message == null) {
                    continue;
                }
                if (isCall(message) && handOver()) {
                    call = message;  // another thread reads on meanwhile
                } else {
                    handle(message);
                }
            }
        } catch (IOException | RuntimeException e) {
            if (!closing.get()) {
                log.println("prologtool-mcp-server: reading the client's messages failed: " + e);
            }
        }
        if (call != null) {
            handle(call);
        } else {
            end();
        }
    }

    /** Starts another reader; false when {@link #MAX_CALLS} calls run already. */
    private boolean handOver() {
        try {
            threads.execute(this::read);
            return true;
        } catch (RejectedExecutionException e) {
            return false;
        }
    }

    private static boolean isCall(McpSchema.JSONRPCMessage message) {
        return message instanceof McpSchema.JSONRPCRequest r && McpSchema.METHOD_TOOLS_CALL.equals(r.method());
    }

    /** Handles {@code message} on this thread; what goes wrong is logged, and the reading goes on. */
    private void handle(McpSchema.JSONRPCMessage message) {
        // synchronous all the way (the tools answer on the calling thread): the reply is written here
        try {
            session.handle(message).subscribe(null, e -> log.println("prologtool-mcp-server: " + e));
        } catch (RuntimeException e) {
            log.println("prologtool-mcp-server: handling a message failed: " + e);
        }
    }

    /**
     * The message on {@code line}, with a {@code tools/call}'s id put in its {@code _meta} and a
     * {@code notifications/cancelled} passed to {@code onCancel}; null for a line that is not a message
     * (the SDK's transport skips such a line too, after a log line).
     */
    private McpSchema.JSONRPCMessage parse(byte[] line) {
        String text = new String(line, StandardCharsets.UTF_8);
        if (text.isBlank()) {
            return null;
        }
        McpSchema.JSONRPCMessage message;
        try {
            message = McpSchema.deserializeJsonRpcMessage(json, text);
        } catch (IOException | RuntimeException e) {
            log.println("prologtool-mcp-server: not a JSON-RPC message, skipped: " + e.getMessage());
            return null;
        }
        if (message instanceof McpSchema.JSONRPCNotification n
                && METHOD_CANCELLED.equals(n.method())
                && n.params() instanceof Map<?, ?> params && params.get("requestId") != null) {
            onCancel.accept(params.get("requestId").toString());
        } else if (message instanceof McpSchema.JSONRPCRequest r && McpSchema.METHOD_TOOLS_CALL.equals(r.method())
                && r.id() != null && r.params() instanceof Map<?, ?> params) {
            Map<String, Object> withId = new LinkedHashMap<>();
            params.forEach((k, v) -> withId.put(k.toString(), v));
            Map<String, Object> meta = new LinkedHashMap<>();
            if (params.get("_meta") instanceof Map<?, ?> m) {
                m.forEach((k, v) -> meta.put(k.toString(), v));
            }
            meta.put(REQUEST_ID_KEY, r.id().toString());
            withId.put("_meta", meta);
            message = new McpSchema.JSONRPCRequest(r.jsonrpc(), r.method(), r.id(), withId);
        }
        return message;
    }

    /** The next line without its end ({@code \n}, or {@code \r\n}); null at the end of the input. */
    private synchronized byte[] nextLine() throws IOException {
        ByteArrayOutputStream line = null;
        while (true) {
            if (position == limit) {
                limit = in.read(buffer, 0, buffer.length);
                position = 0;
                if (limit <= 0) {
                    limit = 0;
                    return line == null || line.size() == 0 ? null : line.toByteArray();
                }
            }
            int start = position;
            while (position < limit && buffer[position] != '\n') {
                position++;
            }
            int end = position;
            boolean complete = position < limit;
            if (complete) {
                position++;  // past the newline
            }
            if (line == null && complete) {
                return trimmed(buffer, start, end);
            }
            if (line == null) {
                line = new ByteArrayOutputStream(Math.max(256, 2 * (end - start)));
            }
            line.write(buffer, start, end - start);
            if (line.size() > MAX_LINE_BYTES) {
                throw new IOException("a message longer than " + MAX_LINE_BYTES + " bytes");
            }
            if (complete) {
                byte[] all = line.toByteArray();
                return trimmed(all, 0, all.length);
            }
        }
    }

    private static byte[] trimmed(byte[] bytes, int from, int to) {
        if (to > from && bytes[to - 1] == '\r') {
            to--;
        }
        byte[] copy = new byte[to - from];
        System.arraycopy(bytes, from, copy, 0, copy.length);
        return copy;
    }

    private void end() {
        if (ended.compareAndSet(false, true)) {
            closing.set(true);
            McpServerSession s = session;
            if (s != null) {
                s.close();
            }
            onEnd.run();
        }
    }

    // ---------------------------------------------------------------- writing

    /** Writes {@code message} as one line, now, on the calling thread. */
    private void write(McpSchema.JSONRPCMessage message) throws IOException {
        String text = json.writeValueAsString(message);
        if (text.indexOf('\n') >= 0 || text.indexOf('\r') >= 0) {
            // a line per message: a raw line end would split it (compact JSON escapes them; be sure)
            text = text.replace("\r\n", "\\n").replace("\n", "\\n").replace("\r", "\\n");
        }
        byte[] bytes = text.getBytes(StandardCharsets.UTF_8);
        byte[] line = java.util.Arrays.copyOf(bytes, bytes.length + 1);  // one write: the client wakes once
        line[bytes.length] = '\n';
        synchronized (out) {
            out.write(line);
            out.flush();
        }
    }

    /** The one session of a stdio connection. */
    private final class SessionTransport implements McpServerTransport {

        @Override
        public Mono<Void> sendMessage(McpSchema.JSONRPCMessage message) {
            return Mono.fromCallable(() -> {
                write(message);
                return null;
            });
        }

        @Override
        public <T> T unmarshalFrom(Object data, TypeRef<T> type) {
            return json.convertValue(data, type);
        }

        @Override
        public Mono<Void> closeGracefully() {
            return Mono.fromRunnable(StdioTransport.this::close);
        }

        @Override
        public void close() {
            StdioTransport.this.close();
        }
    }
}

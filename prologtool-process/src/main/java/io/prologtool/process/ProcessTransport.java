package io.prologtool.process;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.prologtool.json.TermJson;
import io.prologtool.spi.HarnessCrashedException;
import io.prologtool.spi.HarnessTimeoutException;
import io.prologtool.spi.HarnessTransport;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.Writer;
import java.io.OutputStreamWriter;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;

/**
 * One {@code swipl} child running the harness line protocol. A reader thread takes reply lines off
 * the child's stdout and completes the pending call whose id they echo; lines that are not a reply
 * to the pending call (late replies, garbage) are dropped. A second thread drains stderr into a small
 * ring so that the child can never block on a full pipe.
 */
final class ProcessTransport implements HarnessTransport {

    private static final int STDERR_KEEP = 8 * 1024;
    private static final long POLL_NANOS = 150_000;

    private final Process process;
    private final Writer stdin;
    /** Request ids start at a random number, so that a goal cannot forge the reply to its own call. */
    private final AtomicLong nextId = new AtomicLong(ThreadLocalRandom.current().nextLong(1, 1L << 52));
    private final AtomicReference<Pending> pending = new AtomicReference<>();
    private final StringBuilder stderrTail = new StringBuilder();
    private volatile boolean closed;

    private record Pending(long id, CompletableFuture<JsonNode> reply) {
    }

    ProcessTransport(Process process) {
        this.process = process;
        this.stdin = new OutputStreamWriter(process.getOutputStream(), StandardCharsets.UTF_8);
        long pid = process.pid();
        daemon("prologtool-swipl-" + pid + "-out", () -> readReplies(process.getInputStream()));
        daemon("prologtool-swipl-" + pid + "-err", () -> drainErrors(process.getErrorStream()));
    }

    long pid() {
        return process.pid();
    }

    @Override
    public JsonNode call(ObjectNode request, Duration timeout) {
        if (!isAlive()) {
            throw new HarnessCrashedException(exitDescription());
        }
        long id = nextId.getAndIncrement();
        request.put("id", id);
        Pending p = new Pending(id, new CompletableFuture<>());
        pending.set(p);
        try {
            String line = TermJson.mapper().writeValueAsString(request);
            stdin.write(line);
            stdin.write('\n');
            stdin.flush();
            pollBriefly(p.reply());
            return p.reply().get(timeout.toNanos(), TimeUnit.NANOSECONDS);
        } catch (TimeoutException e) {
            kill();
            throw new HarnessTimeoutException("no reply within " + timeout.toMillis() + " ms; the swipl child was stopped");
        } catch (ExecutionException e) {
            throw new HarnessCrashedException(exitDescription(), e.getCause());
        } catch (IOException e) {
            kill();
            throw new HarnessCrashedException("cannot write to the swipl child: " + e.getMessage(), e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            kill(); // the child is mid-call: it cannot serve the next call in step
            throw new HarnessCrashedException("interrupted while waiting for the swipl child", e);
        } finally {
            pending.compareAndSet(p, null);
        }
    }

    /**
     * Polls for the reply for up to {@link #POLL_NANOS}, yielding the core to any runnable thread (the
     * reader, the child) each time, before the caller parks: waking a parked thread costs 30-60 us on
     * two cores, a third of a whole round trip.
     */
    private static void pollBriefly(CompletableFuture<JsonNode> reply) {
        long until = System.nanoTime() + POLL_NANOS;
        while (!reply.isDone() && System.nanoTime() < until) {
            Thread.yield();
        }
    }

    @Override
    public boolean closingEndsProlog() {
        return true;
    }

    @Override
    public boolean isAlive() {
        return !closed && process.isAlive();
    }

    @Override
    public String recentErrorOutput() {
        synchronized (stderrTail) {
            return stderrTail.toString();
        }
    }

    /**
     * Ends the child: EOF on stdin asks the harness to halt; a child still alive two seconds later is
     * killed. Returns at once: the waiting happens on a shared daemon thread.
     */
    @Override
    public void close() {
        if (closed) {
            return;
        }
        closed = true;
        try {
            stdin.close();
        } catch (IOException ignored) {
            // the child is gone already
        }
        process.onExit().orTimeout(2, TimeUnit.SECONDS).whenComplete((p, timeout) -> {
            if (timeout != null) {
                kill();
            }
        });
    }

    void kill() {
        process.destroyForcibly();
        try {
            process.waitFor(5, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    private String exitDescription() {
        String how = process.isAlive() ? "the swipl child is not answering"
                : "the swipl child exited with status " + process.exitValue();
        String err = recentErrorOutput().strip();
        return err.isEmpty() ? how : how + "; its last error output: " + lastLines(err, 5);
    }

    private void readReplies(InputStream out) {
        try (BufferedReader r = new BufferedReader(new InputStreamReader(out, StandardCharsets.UTF_8))) {
            String line;
            while ((line = r.readLine()) != null) {
                Pending p = pending.get();
                if (p == null || line.isEmpty()) {
                    continue;
                }
                JsonNode reply;
                try {
                    reply = TermJson.mapper().readTree(line);
                } catch (IOException | RuntimeException e) {
                    continue; // not a reply: garbage on the protocol stream is dropped
                }
                if (reply != null && reply.path("id").asLong(-1) == p.id()) {
                    p.reply().complete(reply);
                }
            }
        } catch (IOException ignored) {
            // the stream broke: treated like EOF
        }
        try {
            process.waitFor(2, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        Pending p = pending.get();
        if (p != null) {
            p.reply().completeExceptionally(new HarnessCrashedException(exitDescription()));
        }
    }

    private void drainErrors(InputStream err) {
        byte[] buf = new byte[4096];
        try (err) {
            int n;
            while ((n = err.read(buf)) >= 0) {
                String s = new String(buf, 0, n, StandardCharsets.UTF_8);
                synchronized (stderrTail) {
                    stderrTail.append(s);
                    if (stderrTail.length() > STDERR_KEEP) {
                        stderrTail.delete(0, stderrTail.length() - STDERR_KEEP);
                    }
                }
            }
        } catch (IOException ignored) {
            // the child is gone
        }
    }

    private static String lastLines(String s, int n) {
        String[] lines = s.split("\n");
        int from = Math.max(0, lines.length - n);
        return String.join(" | ", java.util.Arrays.copyOfRange(lines, from, lines.length));
    }

    private static void daemon(String name, Runnable body) {
        Thread t = new Thread(body, name);
        t.setDaemon(true);
        t.start();
    }

}

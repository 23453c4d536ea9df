package io.prologtool.jpl;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.prologtool.PrologToolException;
import io.prologtool.json.TermJson;
import io.prologtool.spi.HarnessCrashedException;
import io.prologtool.spi.HarnessTimeoutException;
import io.prologtool.spi.HarnessTransport;
import io.prologtool.jpl.internal.JplCallException;

import java.time.Duration;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;

/**
 * A session's way into the embedded Prolog: each request is one call of the harness entry
 * {@code prologtool_jpl:request/3} on a worker engine of the {@link JplRuntime}.
 *
 * <p>There is no process to kill, so the transport never dies: a call that outlives its bound reports
 * a timeout while the runtime keeps interrupting the goal, and the session goes on answering. Closing a
 * session whose last goal still runs (one that loops inside a cleanup handler, where Prolog blocks
 * signals) is deferred until that goal ends, because its module must not be destroyed under it.
 */
final class JplTransport implements HarnessTransport {

    /** How long past its caller's bound a request may run before the runtime abandons its worker. */
    private static final Duration ABANDON_MARGIN = Duration.ofMillis(500);
    /** Interrupts come this long after a Prolog-side time limit at the earliest and at the latest. */
    private static final Duration MIN_INTERRUPT_MARGIN = Duration.ofMillis(100);
    private static final Duration MAX_INTERRUPT_MARGIN = Duration.ofSeconds(1);

    private final JplRuntime runtime;
    private final Duration queueTimeout;
    private final AtomicLong nextId = new AtomicLong(1);
    /** Calls of this session still running in Prolog, including any whose caller gave up on them. */
    private final Set<JplRuntime.Call> unfinished = ConcurrentHashMap.newKeySet();
    private volatile boolean closed;
    /** The timed call in flight (one at a time per session), for {@link #cancel()}; null when none is. */
    private volatile JplRuntime.Call current;
    /** A {@link #cancel()} that also stops the next timed call, until {@link #clearCancel()}. */
    private volatile boolean cancelling;

    JplTransport(JplRuntime runtime, Duration queueTimeout) {
        this.runtime = runtime;
        this.queueTimeout = queueTimeout;
    }

    @Override
    public JsonNode call(ObjectNode request, Duration timeout) {
        if (closed) {
            throw new HarnessCrashedException("this session's connection to the embedded SWI-Prolog is closed");
        }
        long id = nextId.getAndIncrement();
        request.put("id", id);
        String text = bmpOnly(write(request));
        String op = request.path("op").asText();
        boolean close = "close".equals(op);
        if (close && !unfinished.isEmpty()) {
            closeWhenAllFinished(text, List.copyOf(unfinished));
            return deferredClose(id);
        }
        if (!close) {
            awaitEarlierCalls(timeout);
        }
        // open and close run no user code and end by themselves: never interrupted or abandoned
        JplRuntime.Call call = close || "open".equals(op) ? runtime.submitUntimed(text)
                : runtime.submit(text, firstInterrupt(request, timeout), timeout.plus(ABANDON_MARGIN));
        unfinished.add(call);
        call.whenFinished(() -> unfinished.remove(call));
        boolean cancellable = !close && !"open".equals(op);
        if (cancellable) {
            current = call;
            if (cancelling) { // a cancel that came while the call was being made
                runtime.cancel(call);
            }
        }
        long deadline = System.nanoTime() + queueTimeout.plus(timeout).toNanos();
        try {
            if (close) {
                // never withdrawn: a close that finds every engine busy runs as soon as one is free
                try {
                    return reply(id, call.await(queueTimeout.plus(timeout)));
                } catch (TimeoutException e) {
                    return deferredClose(id);
                }
            }
            if (!call.awaitStart(queueTimeout)) {
                throw new PrologToolException("all " + runtime.workers() + " engines of the embedded SWI-Prolog "
                        + "stayed busy for " + queueTimeout.toMillis() + " ms; the call was withdrawn");
            }
            // the reply's bound counts from the start (the wait for a worker has its own)
            long replyBy = call.startedAt() + timeout.toNanos();
            return reply(id, cancellable ? awaitCancellable(call, replyBy)
                    : call.await(Duration.ofNanos(Math.max(0, replyBy - System.nanoTime()))));
        } catch (TimeoutException e) {
            throw new HarnessTimeoutException("no reply within " + timeout.toMillis() + " ms; the goal is "
                    + "being interrupted and the session goes on");
        } catch (ExecutionException e) {
            if (isAbort(e.getCause())) {
                return abortedReply(id);
            }
            throw failure(e.getCause());
        } catch (InterruptedException e) {
            if (!cancellable) {
                Thread.currentThread().interrupt();
                throw new HarnessCrashedException("interrupted while waiting for the embedded SWI-Prolog", e);
            }
            // an interrupt cancels the call: it stops, and its reply says so
            runtime.cancel(call);
            try {
                return reply(id, awaitCancelled(call, deadline));
            } finally {
                Thread.currentThread().interrupt();
            }
        } finally {
            if (cancellable) {
                current = null;
            }
        }
    }

    /**
     * The reply of a running call that can be cancelled. A cancel is delivered again every
     * {@link #CANCEL_AGAIN} for as long as the call runs after it: the one delivery the harness could
     * miss (a cancel meeting the request as it starts) is then never what decides whether it stops.
     *
     * @param end when to give up waiting ({@link System#nanoTime()})
     */
    private String awaitCancellable(JplRuntime.Call call, long end)
            throws InterruptedException, TimeoutException, ExecutionException {
        while (true) {
            long left = end - System.nanoTime();
            if (left <= 0) {
                return call.await(Duration.ZERO); // a reply that is there is taken; else TimeoutException
            }
            try {
                return call.await(Duration.ofNanos(Math.min(left, CANCEL_AGAIN.toNanos())));
            } catch (TimeoutException slice) {
                if (cancelling) {
                    runtime.cancel(call);
                }
            }
        }
    }

    /** How often a cancel is delivered again to a call that still runs after it. */
    private static final Duration CANCEL_AGAIN = Duration.ofMillis(100);

    /** The reply of a call that was cancelled, waited for up to {@code deadline} whatever interrupts come. */
    private static String awaitCancelled(JplRuntime.Call call, long deadline) {
        while (true) {
            try {
                return call.await(Duration.ofNanos(Math.max(0, deadline - System.nanoTime())));
            } catch (InterruptedException again) {
                // the caller is interrupted when this returns
            } catch (TimeoutException e) {
                throw new HarnessTimeoutException("the cancelled call did not stop within its bound; it is "
                        + "being interrupted and the session goes on");
            } catch (ExecutionException e) {
                throw failure(e.getCause());
            }
        }
    }

    @Override
    public void cancel() {
        cancelling = true;
        JplRuntime.Call c = current;
        if (c != null) {
            runtime.cancel(c);
        }
    }

    @Override
    public void clearCancel() {
        cancelling = false;
    }

    @Override
    public boolean isAlive() {
        return !closed;
    }

    @Override
    public void close() {
        closed = true;
    }

    /** Sends the close request once every one of {@code running} has ended. */
    private void closeWhenAllFinished(String closeText, List<JplRuntime.Call> running) {
        AtomicInteger left = new AtomicInteger(running.size());
        for (JplRuntime.Call c : running) {
            c.whenFinished(() -> {
                if (left.decrementAndGet() == 0) {
                    runtime.submitUntimed(closeText);
                }
            });
        }
    }

    /** When the runtime should interrupt this request if it still runs: a little after its own limit. */
    private static Duration firstInterrupt(ObjectNode request, Duration timeout) {
        JsonNode limit = request.path("time_limit");
        if (!limit.isNumber()) {
            return timeout;
        }
        Duration prologLimit = Duration.ofNanos((long) (limit.asDouble() * 1e9));
        Duration margin = timeout.minus(prologLimit).dividedBy(2);
        if (margin.compareTo(MIN_INTERRUPT_MARGIN) < 0) {
            margin = MIN_INTERRUPT_MARGIN;
        } else if (margin.compareTo(MAX_INTERRUPT_MARGIN) > 0) {
            margin = MAX_INTERRUPT_MARGIN;
        }
        return prologLimit.plus(margin);
    }

    /**
     * Waits until the calls of this session that still run (one whose caller gave up at its bound) have
     * ended: a session's calls never run at once. The runtime abandons them soon after their own bound,
     * so the wait is short; past {@code timeout} the new call fails as a timeout.
     */
    private void awaitEarlierCalls(Duration timeout) {
        if (unfinished.isEmpty()) {
            return;
        }
        long until = System.nanoTime() + timeout.toNanos();
        while (!unfinished.isEmpty()) {
            if (System.nanoTime() - until >= 0) {
                throw new HarnessTimeoutException("the previous call of this session still runs past its limit");
            }
            try {
                Thread.sleep(5);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt(); // an interrupt cancels the call, which has not started
                throw new io.prologtool.spi.HarnessCancelledException("interrupted while waiting for the previous "
                        + "call of this session to end; nothing of the call ran");
            }
        }
    }

    private static JsonNode reply(long id, String text) {
        JsonNode reply;
        try {
            reply = TermJson.mapper().readTree(text);
        } catch (JsonProcessingException e) {
            throw new HarnessCrashedException("the harness replied with malformed JSON: " + e.getOriginalMessage(), e);
        }
        if (reply == null || reply.path("id").asLong(-1) != id) {
            throw new HarnessCrashedException("the harness replied to another request (id "
                    + (reply == null ? "none" : reply.path("id")) + ", expected " + id + ")");
        }
        return reply;
    }

    private static JsonNode deferredClose(long id) {
        ObjectNode reply = TermJson.mapper().createObjectNode();
        reply.put("id", id);
        reply.put("ok", true);
        reply.put("closed", false);
        reply.put("deferred", true);
        return reply;
    }

    /**
     * Whether the request ended with {@code '$aborted'}. Session code cannot abort (abort/0 is refused in
     * every disguise) and the harness never aborts a request's thread; SWI-Prolog raises it in place of
     * an error it could not copy for lack of stack (copy_exception() in pl-fli.c: "mapped exception to
     * abort due to stack overflow"), as when a built-in's error names a culprit as large as the stacks
     * left to it. An abort goes on through every catch/3 to the end of the query, so only here can it be
     * turned into an answer.
     */
    private static boolean isAbort(Throwable cause) {
        return cause instanceof JplCallException je && je.ball().isPresent()
                && ("'$aborted'".equals(je.ball().get()) || "$aborted".equals(je.ball().get()));
    }

    /**
     * The reply to a request that SWI-Prolog aborted ({@link #isAbort}): an error of kind
     * {@code resource_error}. The abort unwound the request as an exception does, running its cleanup
     * handlers: the session and its program are kept, as after any error.
     */
    private static JsonNode abortedReply(long id) {
        ObjectNode reply = TermJson.mapper().createObjectNode();
        reply.put("id", id);
        reply.put("ok", false);
        ObjectNode error = reply.putObject("error");
        error.put("kind", "resource_error");
        error.put("message", "The goal raised an error whose term did not fit in the stacks left to it, "
                + "so SWI-Prolog aborted the goal instead (raise the session's stack limit to see the error)");
        error.putNull("prolog_term");
        return reply;
    }

    private static RuntimeException failure(Throwable cause) {
        if (cause instanceof JplCallException je && je.ball().isPresent()) {
            String ball = je.ball().get();
            if ("time_limit_exceeded".equals(ball)) {
                return new HarnessTimeoutException("the request was stopped at its time limit");
            }
            return new HarnessCrashedException("the embedded SWI-Prolog raised " + ball
                    + " outside the harness; the session is kept", je);
        }
        if (cause instanceof JplCallException je) {
            return new HarnessCrashedException(je.getMessage(), je);
        }
        if (cause instanceof RuntimeException re) {
            return re;
        }
        return new HarnessCrashedException("the embedded SWI-Prolog failed: " + cause, cause);
    }

    private static String write(ObjectNode request) {
        try {
            return TermJson.mapper().writeValueAsString(request);
        } catch (JsonProcessingException e) {
            throw new PrologToolException("cannot serialise a harness request: " + e.getOriginalMessage(), e);
        }
    }

    /**
     * JPL carries only characters of the Basic Multilingual Plane. A character above U+FFFF becomes
     * the JSON escape of its surrogate pair (the harness entry joins it again); a lone surrogate (an
     * atom or string may hold one) becomes its own escape, which the harness reads as that code point.
     * Surrogates occur only inside JSON strings, where an escape means the same character.
     */
    static String bmpOnly(String json) {
        int i = 0;
        int n = json.length();
        while (i < n && !Character.isSurrogate(json.charAt(i))) {
            i++;
        }
        if (i == n) {
            return json;
        }
        StringBuilder sb = new StringBuilder(n + 16).append(json, 0, i);
        for (; i < n; i++) {
            char c = json.charAt(i);
            if (!Character.isSurrogate(c)) {
                sb.append(c);
            } else if (Character.isHighSurrogate(c) && i + 1 < n && Character.isLowSurrogate(json.charAt(i + 1))) {
                escape(sb, c);
                escape(sb, json.charAt(++i));
            } else {
                escape(sb, c); // a lone surrogate: the harness reads the escape as that code point
            }
        }
        return sb.toString();
    }

    private static void escape(StringBuilder sb, char c) {
        sb.append("\\u");
        String hex = Integer.toHexString(c).toUpperCase(java.util.Locale.ROOT);
        sb.append("0".repeat(4 - hex.length())).append(hex);
    }
}

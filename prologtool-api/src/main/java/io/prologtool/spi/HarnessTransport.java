package io.prologtool.spi;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;

import java.time.Duration;
import java.util.function.Consumer;

/**
 * How a backend reaches one running harness. Implementations assign the request {@code id}, send the
 * request, and return the reply whose {@code id} matches; replies with other ids are discarded.
 * A transport serves one call at a time ({@link HarnessSession} serialises them).
 */
public interface HarnessTransport extends AutoCloseable {

    /**
     * Sends {@code request} and waits at most {@code timeout} for its reply.
     *
     * @throws HarnessTimeoutException when no reply came in time; the transport has stopped the
     *                                 Prolog that was serving the call, and is now dead
     * @throws HarnessCrashedException when the Prolog behind the transport died or is gone
     */
    JsonNode call(ObjectNode request, Duration timeout);

    /**
     * Sends {@code request} and returns without waiting for its reply: the transport's next
     * {@link #call} waits for that reply first and hands it to {@code check}, which may throw to fail
     * that call. For a request whose reply the session needs only by its next request (its open), so
     * that the Prolog works on it while the caller goes on. This default is a {@link #call} whose reply
     * {@code check} sees at once.
     *
     * @throws HarnessCrashedException when the Prolog behind the transport is gone
     */
    default void callAhead(ObjectNode request, Duration timeout, Consumer<JsonNode> check) {
        check.accept(call(request, timeout));
    }

    /**
     * Sends {@code request}, whose reply nobody needs (a session's close), and returns as soon as the
     * transport may; the reply is dropped. This default is a {@link #call} whose reply is ignored.
     *
     * @throws HarnessCrashedException when the Prolog behind the transport is gone
     */
    default void post(ObjectNode request, Duration timeout) {
        call(request, timeout);
    }

    /**
     * Stops the call in flight, or the call about to start when none is in flight yet, until
     * {@link #clearCancel()}: the harness ends it as cancelled (a goal's reply has outcome
     * {@code cancelled}, a consult's a diagnostic, other requests an error of kind {@code cancelled}),
     * or, when the Prolog had not started on it, {@link #call} throws {@link HarnessCancelledException}.
     * Called from any thread; the transport and its Prolog stay usable. A cancel reaches only the call
     * it was meant for: one that ended before it arrived leaves the next call alone. This default does
     * nothing.
     */
    default void cancel() {
    }

    /**
     * Forgets a {@link #cancel()} that found no call to stop; the session calls it when its call has
     * ended, before its next one.
     */
    default void clearCancel() {
    }

    /** False once the Prolog behind this transport is gone. */
    boolean isAlive();

    /**
     * True when closing this transport ends its Prolog and all it holds (a child process per
     * session): a closing session then skips the harness's close request.
     */
    default boolean closingEndsProlog() {
        return false;
    }

    /** What the Prolog wrote to its error stream lately, for error messages; may be empty. */
    default String recentErrorOutput() {
        return "";
    }

    /** Releases the transport (and stops its Prolog where it owns one). Idempotent. */
    @Override
    void close();
}

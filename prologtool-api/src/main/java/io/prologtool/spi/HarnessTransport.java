package io.prologtool.spi;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;

import java.time.Duration;

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

package io.prologtool.jpl.internal;

import java.nio.file.Path;

/**
 * Everything the JPL backend asks of JPL's Java API ({@code org.jpl7}), behind an interface that names no
 * JPL type. Internal: not part of prologtool's API, and may change in any release.
 *
 * <p>Why: JPL's classes must match the native {@code libjpl} of the SWI-Prolog installation, so the backend
 * takes them from that installation at run time (its {@code jpl.jar}) rather than from a Maven
 * repository. The one implementation, {@code io.prologtool.jpl.internal.jpl7.Jpl7Bridge}, is the only class
 * that touches {@code org.jpl7}; the backend loads it through a class loader that sees that jar, so no
 * user needs JPL on the classpath. Every method must be called on a thread that may use JPL (see
 * {@code JplRuntime}).
 */
public interface JplBridge {

    /**
     * Loads {@code libjpl} and starts the embedded Prolog with {@code initArgs}.
     *
     * @throws UnsatisfiedLinkError when the native library does not load
     * @throws RuntimeException     when Prolog does not start
     */
    void init(Path libjpl, String[] initArgs);

    /** Whether {@code goal} (Prolog text) has a solution; the query is closed before this returns. */
    boolean hasSolution(String goal);

    /**
     * {@code load_files(File, [silent(true)])}.
     *
     * @return false when loading failed
     * @throws JplCallException when it raised
     */
    boolean loadFile(Path file);

    /**
     * Attaches a Prolog engine of its own to this thread ({@code PL_thread_attach_engine}), not one of
     * JPL's pool: every later query of this thread runs on it, and it never runs on another thread. The
     * returned action destroys it; call it on this thread, with no query open.
     *
     * @throws JplCallException when Prolog cannot create the engine
     */
    Runnable attachEngine();

    /**
     * {@code Module:request(Ticket, RequestText, Reply)}: the reply text.
     *
     * @throws JplCallException when Prolog raised or JPL failed
     */
    String request(String module, long ticket, String requestText);

    /** {@code Module:Predicate(Ticket)}, ignoring failure and errors. */
    void callQuietly(String module, String predicate, long ticket);

    /** {@code Module:Predicate(Count)}: the count. */
    int count(String module, String predicate);
}

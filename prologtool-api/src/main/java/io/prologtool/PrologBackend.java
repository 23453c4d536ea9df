package io.prologtool;

/**
 * Where sessions run: out of process ({@code io.prologtool.process.ProcessBackend}) or inside the JVM
 * ({@code io.prologtool.jpl.JplBackend}). Both run the same Prolog harness, so sessions behave the
 * same on either. Thread-safe.
 */
public interface PrologBackend extends AutoCloseable {

    /** Opens a session with {@link SessionOptions#defaults()}. */
    default PrologSession open() {
        return open(SessionOptions.defaults());
    }

    /**
     * Opens a session.
     *
     * @throws PrologUnavailableException when SWI-Prolog cannot be started
     * @throws IllegalStateException      when the backend is closed
     */
    PrologSession open(SessionOptions options);

    /** A short name for logs and reports, e.g. {@code "process"} or {@code "jpl"}. */
    String name();

    /**
     * The listener registered on this backend's builder (several are combined into one), which hears
     * every session it opens; {@link PrologListener#NONE} when there is none (the default).
     */
    default PrologListener listener() {
        return PrologListener.NONE;
    }

    /** Closes every session this backend opened and releases the backend. Idempotent. */
    @Override
    void close();
}

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

    /**
     * Opens a session from a checkpoint ({@link PrologSession#checkpoint()}, perhaps read back from a
     * {@link SessionStore}): with the checkpoint's options, its program loaded and its plunit units loaded
     * (not run), so that it answers every goal as the session it was taken of did then. The checkpoint may
     * come from another JVM (through a {@link SessionStore}). The new session has an id of its own.
     *
     * @throws PrologToolException        when the program or a unit does not load (the session opened for
     *                                    it is closed again)
     * @throws PrologUnavailableException when SWI-Prolog cannot be started
     * @throws IllegalStateException      when the backend is closed
     */
    default PrologSession restore(SessionCheckpoint checkpoint) {
        java.util.Objects.requireNonNull(checkpoint, "checkpoint");
        PrologSession s = open(checkpoint.options());
        try {
            if (!(s instanceof io.prologtool.spi.HarnessSession h)) {
                throw new UnsupportedOperationException("backend " + name() + " cannot restore checkpoints");
            }
            h.load(checkpoint);
            return s;
        } catch (RuntimeException e) {
            s.close();
            throw e;
        }
    }

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

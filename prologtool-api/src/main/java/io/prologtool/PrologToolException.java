package io.prologtool;

/**
 * Root of prologtool's exceptions. Exceptions are for misuse and for an environment that cannot run
 * Prolog; what Prolog itself does wrong is data ({@link PrologError}, {@link Outcome}).
 */
public class PrologToolException extends RuntimeException {

    private static final long serialVersionUID = 1L;

    public PrologToolException(String message) {
        super(message);
    }

    public PrologToolException(String message, Throwable cause) {
        super(message, cause);
    }
}

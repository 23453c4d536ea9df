package io.prologtool;

/** SWI-Prolog (or a part of it, such as JPL) is not installed or cannot be started here. */
public class PrologUnavailableException extends PrologToolException {

    private static final long serialVersionUID = 1L;

    public PrologUnavailableException(String message) {
        super(message);
    }

    public PrologUnavailableException(String message, Throwable cause) {
        super(message, cause);
    }
}

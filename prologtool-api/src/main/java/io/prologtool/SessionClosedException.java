package io.prologtool;

/** A call on a session that has been closed. */
public class SessionClosedException extends PrologToolException {

    private static final long serialVersionUID = 1L;

    public SessionClosedException(String message) {
        super(message);
    }
}

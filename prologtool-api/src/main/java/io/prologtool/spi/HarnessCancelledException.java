package io.prologtool.spi;

import io.prologtool.PrologToolException;

/**
 * The call was cancelled before the Prolog started on it ({@link HarnessTransport#cancel()}); nothing of
 * it ran. A call cancelled while it runs ends with a reply that says so instead.
 */
public class HarnessCancelledException extends PrologToolException {

    private static final long serialVersionUID = 1L;

    public HarnessCancelledException(String message) {
        super(message);
    }
}

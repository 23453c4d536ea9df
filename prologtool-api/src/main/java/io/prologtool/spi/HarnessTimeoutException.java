package io.prologtool.spi;

import io.prologtool.PrologToolException;

/** No reply came within the call's bound; the transport stopped the Prolog serving it. */
public class HarnessTimeoutException extends PrologToolException {

    private static final long serialVersionUID = 1L;

    public HarnessTimeoutException(String message) {
        super(message);
    }
}

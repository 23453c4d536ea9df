package io.prologtool.spi;

import io.prologtool.PrologToolException;

/** The Prolog behind a transport died (a crash, a kill, an exit) or could not be reached. */
public class HarnessCrashedException extends PrologToolException {

    private static final long serialVersionUID = 1L;

    public HarnessCrashedException(String message) {
        super(message);
    }

    public HarnessCrashedException(String message, Throwable cause) {
        super(message, cause);
    }
}

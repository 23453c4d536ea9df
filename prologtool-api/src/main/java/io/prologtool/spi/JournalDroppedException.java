package io.prologtool.spi;

/**
 * A session was restored into a fresh Prolog without some of its journal: replaying those entries
 * stopped the Prolog again. The message names each dropped text and why; nothing of the call that
 * met it was run.
 */
public class JournalDroppedException extends HarnessCrashedException {

    private static final long serialVersionUID = 1L;

    public JournalDroppedException(String message) {
        super(message);
    }
}

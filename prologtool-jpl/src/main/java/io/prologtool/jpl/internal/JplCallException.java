package io.prologtool.jpl.internal;

import java.util.Optional;

/**
 * A JPL call that did not end normally: Prolog raised (the ball as text), or JPL itself failed.
 * Internal (see {@link JplBridge}): it carries no JPL type, so the backend never needs JPL's classes.
 */
public final class JplCallException extends RuntimeException {

    private static final long serialVersionUID = 1L;

    private final String ball;

    /**
     * @param ball    the exception term Prolog raised, as text; null when JPL failed otherwise
     * @param message what happened
     */
    public JplCallException(String ball, String message, Throwable cause) {
        super(message, cause);
        this.ball = ball;
    }

    /** The term Prolog raised, as text; empty when JPL itself failed. */
    public Optional<String> ball() {
        return Optional.ofNullable(ball);
    }
}

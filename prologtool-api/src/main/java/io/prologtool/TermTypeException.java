package io.prologtool;

/**
 * A term asked for as a Java value it does not hold: {@code getInt("X")} when {@code X} is an atom, an
 * integer too large for an {@code int}, a partial list asked for as a list. The message names the
 * variable (for {@link Answer}'s getters), the term it holds, its type and what was asked for.
 */
public class TermTypeException extends PrologToolException {

    private static final long serialVersionUID = 1L;

    public TermTypeException(String message) {
        super(message);
    }
}

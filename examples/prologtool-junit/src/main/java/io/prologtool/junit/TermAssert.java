package io.prologtool.junit;

import io.prologtool.Term;
import org.assertj.core.api.AbstractAssert;

import java.math.BigInteger;

/**
 * Assertions on a {@link Term}: its type and value, checked together so that an atom never passes for
 * a string. From {@link PrologAssertions#assertThat(Term)} or {@link GoalResultAssert#binding(String)}.
 */
public final class TermAssert extends AbstractAssert<TermAssert, Term> {

    TermAssert(Term actual) {
        super(actual, TermAssert.class);
    }

    /** The term is the atom {@code name}. */
    public TermAssert isAtom(String name) {
        return is(new Term.Atom(name));
    }

    /** The term is the integer {@code value}. */
    public TermAssert isInteger(long value) {
        return is(new Term.Int(BigInteger.valueOf(value)));
    }

    /** The term is the float {@code value}. */
    public TermAssert isFloat(double value) {
        return is(new Term.Float(value));
    }

    /** The term is the SWI-Prolog string {@code text}. */
    public TermAssert isString(String text) {
        return is(new Term.Str(text));
    }

    /** The term is a compound {@code functor/arity} (a list cell counts as {@code '[|]'/2}). */
    public TermAssert isCompound(String functor, int arity) {
        isNotNull();
        if (!(actual instanceof Term.Compound c) || !c.functor().equals(functor) || c.arity() != arity) {
            String want = "a compound " + functor + "/" + arity;
            failWithActualExpectedAndMessage(describe(actual), want, "Expecting %s but was %s", want, describe(actual));
        }
        return this;
    }

    /** The term is an unbound variable. */
    public TermAssert isVariable() {
        isNotNull();
        if (!(actual instanceof Term.Var)) {
            failWithActualExpectedAndMessage(describe(actual), "a variable", "Expecting a variable but was %s", describe(actual));
        }
        return this;
    }

    /** The term's quoted Prolog text is {@code text}, e.g. {@code hasText("[1,2,f(a)]")}. */
    public TermAssert hasText(String text) {
        isNotNull();
        if (!actual.toString().equals(text)) {
            failWithActualExpectedAndMessage(actual.toString(), text, "Expecting the term %s but was %s", text, actual);
        }
        return this;
    }

    private TermAssert is(Term expected) {
        isNotNull();
        if (!actual.equals(expected)) {
            failWithActualExpectedAndMessage(describe(actual), describe(expected), "Expecting %s but was %s",
                    describe(expected), describe(actual));
        }
        return this;
    }

    /** {@code the atom bob}, {@code the string "bob"}: type and text, so that look-alikes differ. */
    static String describe(Term t) {
        if (t == null) {
            return "null";
        }
        String kind;
        if (t instanceof Term.Atom) {
            kind = "the atom";
        } else if (t instanceof Term.Int) {
            kind = "the integer";
        } else if (t instanceof Term.Float) {
            kind = "the float";
        } else if (t instanceof Term.Str) {
            kind = "the string";
        } else if (t instanceof Term.Nil) {
            kind = "the empty list";
        } else if (t instanceof Term.Compound c) {
            kind = c.isListCell() ? "the list" : "the compound";
        } else {
            kind = "the variable";
        }
        return t instanceof Term.Nil ? kind + " []" : kind + " " + t;
    }
}

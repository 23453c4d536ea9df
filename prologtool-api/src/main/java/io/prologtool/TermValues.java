package io.prologtool;

import java.math.BigInteger;
import java.util.List;

/** The conversions of {@link Term} and {@link Answer} to Java values, with errors naming what was held. */
final class TermValues {

    private static final BigInteger INT_MIN = BigInteger.valueOf(Integer.MIN_VALUE);
    private static final BigInteger INT_MAX = BigInteger.valueOf(Integer.MAX_VALUE);
    private static final BigInteger LONG_MIN = BigInteger.valueOf(Long.MIN_VALUE);
    private static final BigInteger LONG_MAX = BigInteger.valueOf(Long.MAX_VALUE);
    /** How much of a term an error message shows. */
    private static final int SHOWN = 80;

    private TermValues() {
    }

    static BigInteger bigInteger(Term t, String subject) {
        if (t instanceof Term.Int i) {
            return i.value();
        }
        throw mismatch(t, subject, "an integer");
    }

    static int intValue(Term t, String subject) {
        BigInteger v = bigInteger(t, subject);
        if (v.compareTo(INT_MIN) < 0 || v.compareTo(INT_MAX) > 0) {
            throw new TermTypeException(subject + " is the integer " + shown(t)
                    + ", which does not fit in an int: use getLong or getBigInteger");
        }
        return v.intValue();
    }

    static long longValue(Term t, String subject) {
        BigInteger v = bigInteger(t, subject);
        if (v.compareTo(LONG_MIN) < 0 || v.compareTo(LONG_MAX) > 0) {
            throw new TermTypeException(subject + " is the integer " + shown(t)
                    + ", which does not fit in a long: use getBigInteger");
        }
        return v.longValue();
    }

    static double doubleValue(Term t, String subject) {
        if (t instanceof Term.Float f) {
            return f.value();
        }
        if (t instanceof Term.Int i) {
            return i.value().doubleValue();
        }
        throw mismatch(t, subject, "a number");
    }

    static String text(Term t, String subject) {
        if (t instanceof Term.Atom a) {
            return a.name();
        }
        if (t instanceof Term.Str s) {
            return s.value();
        }
        throw mismatch(t, subject, "an atom or a string");
    }

    static List<Term> list(Term t, String subject) {
        return t.asList().orElseThrow(() -> mismatch(t, subject, "a proper list"));
    }

    private static TermTypeException mismatch(Term t, String subject, String wanted) {
        return new TermTypeException(subject + " is " + shown(t) + " (" + typeOf(t) + "), not " + wanted);
    }

    /** What kind of term {@code t} is, with an article: "an atom", "a partial list", ... */
    static String typeOf(Term t) {
        if (t instanceof Term.Atom) {
            return "an atom";
        } else if (t instanceof Term.Int) {
            return "an integer";
        } else if (t instanceof Term.Float) {
            return "a float";
        } else if (t instanceof Term.Str) {
            return "a string";
        } else if (t instanceof Term.Nil) {
            return "the empty list";
        } else if (t instanceof Term.Var) {
            return "an unbound variable";
        }
        Term.Compound c = (Term.Compound) t;
        if (c.isListCell()) {
            return t.isList() ? "a list" : "a partial list";
        }
        return "a compound " + c.functor() + "/" + c.arity();
    }

    private static String shown(Term t) {
        String s = t.toString();
        return s.length() <= SHOWN ? s : s.substring(0, SHOWN) + "...";
    }
}

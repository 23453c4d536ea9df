package io.prologtool;

import static io.prologtool.Term.NIL;
import static io.prologtool.Term.atom;
import static io.prologtool.Term.compound;
import static io.prologtool.Term.integer;
import static io.prologtool.Term.list;
import static io.prologtool.Term.real;
import static io.prologtool.Term.string;
import static io.prologtool.Term.variable;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.prologtool.json.TermJson;
import java.math.BigInteger;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Random;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

class TermTest {

    // ---------------------------------------------------------------------------------------------
    // Printing
    // ---------------------------------------------------------------------------------------------

    static Stream<Arguments> representativeTerms() {
        return Stream.of(
                // atoms: unquoted only for [a-z][A-Za-z0-9_]*, !, ; and {}
                Arguments.of(atom("bob"), "bob"),
                Arguments.of(atom("aB_9"), "aB_9"),
                Arguments.of(atom("true"), "true"),
                Arguments.of(atom("Bob"), "'Bob'"),
                Arguments.of(atom("_x"), "'_x'"),
                Arguments.of(atom("hello world"), "'hello world'"),
                Arguments.of(atom(""), "''"),
                Arguments.of(atom("!"), "!"),
                Arguments.of(atom(";"), ";"),
                Arguments.of(atom("{}"), "{}"),
                Arguments.of(atom("|"), "'|'"),
                Arguments.of(atom("[]"), "'[]'"),
                Arguments.of(NIL, "[]"),
                Arguments.of(atom("it's"), "'it\\'s'"),
                Arguments.of(atom("a\\b"), "'a\\\\b'"),
                Arguments.of(atom("say \"hi\""), "'say \"hi\"'"),
                Arguments.of(atom("x\ny\tz\u0000\u0001\u007f\u0085"), "'x\\ny\\tz\\x00\\\\x01\\\\x7F\\\\x85\\'"),
                Arguments.of(atom("é"), "'é'"),
                Arguments.of(atom("e\u0301"), "'e\u0301'"),
                Arguments.of(atom("😀"), "'😀'"),
                // numbers
                Arguments.of(integer(-5), "-5"),
                Arguments.of(integer(BigInteger.TWO.pow(200)),
                        "1606938044258990275541962092341162602522202993782792835301376"),
                Arguments.of(real(1.0), "1.0"),
                Arguments.of(real(-0.0), "-0.0"),
                Arguments.of(real(0.1), "0.1"),
                Arguments.of(real(1e10), "1.0E10"),
                Arguments.of(real(1e300), "1.0E300"),
                Arguments.of(real(Double.MIN_VALUE), "4.9E-324"),
                Arguments.of(real(Double.POSITIVE_INFINITY), "1.0Inf"),
                Arguments.of(real(Double.NEGATIVE_INFINITY), "-1.0Inf"),
                Arguments.of(real(Double.NaN), "1.5NaN"),
                // strings
                Arguments.of(string("hi"), "\"hi\""),
                Arguments.of(string(""), "\"\""),
                Arguments.of(string("say \"hi\"\\ 'x'\n\t\u0000😀"), "\"say \\\"hi\\\"\\\\ 'x'\\n\\t\\x00\\😀\""),
                // compounds
                Arguments.of(compound("f"), "f()"),
                Arguments.of(compound("f", atom("a"), compound("g", string("s"), real(-1.5))), "f(a,g(\"s\",-1.5))"),
                Arguments.of(compound("+", integer(1), integer(2)), "'+'(1,2)"),
                Arguments.of(compound(",", atom("a"), atom("b")), "','(a,b)"),
                Arguments.of(compound("-", integer(1)), "'-'(1)"),
                Arguments.of(compound("f", atom("-"), real(-1.0), integer(-1)), "f('-',-1.0,-1)"),
                Arguments.of(compound("Foo", atom("a")), "'Foo'(a)"),
                Arguments.of(compound("[]", atom("a")), "'[]'(a)"),
                Arguments.of(compound(";", atom(";"), atom("!")), ";(;,!)"),
                // curly terms
                Arguments.of(compound("{}", variable("X")), "{X}"),
                Arguments.of(compound("{}", compound(",", atom("a"), atom("b"))), "{','(a,b)}"),
                Arguments.of(compound("{}", atom("a"), atom("b")), "{}(a,b)"),
                Arguments.of(compound("{}"), "{}()"),
                // lists
                Arguments.of(list(atom("a"), atom("b")), "[a,b]"),
                Arguments.of(list(List.of(atom("a")), variable("T")), "[a|T]"),
                Arguments.of(list(List.of(atom("a"), atom("b")), atom("c")), "[a,b|c]"),
                Arguments.of(list(List.of(atom("a")), atom("[]")), "[a|'[]']"),
                Arguments.of(list(list(), NIL, atom("[]"), list(integer(1))), "[[],[],'[]',[1]]"),
                Arguments.of(compound("[|]", atom("a")), "'[|]'(a)"),
                Arguments.of(compound("[|]", atom("a"), atom("b"), atom("c")), "'[|]'(a,b,c)"),
                // variables: a name that is not Prolog variable syntax prints as _
                Arguments.of(variable("X"), "X"),
                Arguments.of(variable("_G123"), "_G123"),
                Arguments.of(variable("_"), "_"),
                Arguments.of(variable("lower"), "_"),
                Arguments.of(variable("Ü"), "_"));
    }

    @ParameterizedTest(name = "{1}")
    @MethodSource("representativeTerms")
    void printsQuotedCanonicalProlog(Term term, String expected) {
        assertThat(term.toString()).isEqualTo(expected);
    }

    @Test
    void finiteFloatsPrintAsFloatSyntaxThatReadsBackToTheSameDouble() {
        List<Double> values = new ArrayList<>(List.of(
                0.0, -0.0, 1.0, -1.0, 0.1, 1.0 / 3, 2e-3, 1e22, 1e23, 123456789012345678.0,
                Double.MIN_VALUE, -Double.MIN_VALUE, Double.MIN_NORMAL, Double.MAX_VALUE, 9007199254740993.0));
        Random random = new Random(42);
        for (int i = 0; i < 10_000; i++) {
            double value = Double.longBitsToDouble(random.nextLong());
            if (Double.isFinite(value)) {
                values.add(value);
            }
        }
        for (double value : values) {
            String text = real(value).toString();
            // Prolog reads digits without '.' or an exponent as an integer.
            assertThat(text).as("float text of %s", value).containsAnyOf(".", "E", "e");
            assertThat(Double.doubleToRawLongBits(Double.parseDouble(text)))
                    .as("%s reads back", text)
                    .isEqualTo(Double.doubleToRawLongBits(value));
        }
    }

    @Test
    void printsAMillionElementListWithoutOverflowingTheStack() {
        Term element = atom("a");
        Term big = list(Collections.nCopies(1_000_000, element));

        String text = big.toString();

        // Compared in pieces, because a failure would otherwise print megabytes.
        assertThat(text.length()).isEqualTo(2 * 1_000_000 + 1);
        assertThat(text.substring(0, 5)).isEqualTo("[a,a,");
        assertThat(text.substring(text.length() - 5)).isEqualTo(",a,a]");
    }

    @Test
    void printsAMillionElementPartialListWithItsTail() {
        Term big = list(Collections.nCopies(1_000_000, integer(7)), variable("Rest"));

        String text = big.toString();

        assertThat(text.length()).isEqualTo(2 * 1_000_000 + "|Rest]".length());
        assertThat(text.substring(0, 5)).isEqualTo("[7,7,");
        assertThat(text.substring(text.length() - 8)).isEqualTo(",7|Rest]");
    }

    @Test
    void printsDeeplyNestedCompoundsWithoutOverflowingTheStack() {
        Term term = atom("x");
        for (int i = 0; i < 100_000; i++) {
            term = compound("f", term);
        }

        String text = term.toString();

        // Not isEqualTo: a failure would print megabytes.
        assertThat(text.equals("f(".repeat(100_000) + "x" + ")".repeat(100_000)))
                .as("prints f(f(...f(x)...))")
                .isTrue();
    }

    // ---------------------------------------------------------------------------------------------
    // Construction and validation
    // ---------------------------------------------------------------------------------------------

    @Test
    void nilIsNotTheAtomNamedEmptyBrackets() {
        assertThat((Term) NIL).isNotEqualTo(atom("[]"));
        assertThat(new Term.Nil()).isEqualTo(NIL);
        assertThat(NIL.isList()).isTrue();
        assertThat(atom("[]").isList()).isFalse();
    }

    @Test
    void zeroArityCompoundIsNotTheAtomOfTheSameName() {
        Term.Compound empty = compound("f");

        assertThat((Term) empty).isNotEqualTo(atom("f"));
        assertThat(empty.arity()).isZero();
        assertThat(empty.args()).isEmpty();
    }

    @Test
    void atomsStringsAndNumbersWithTheSameTextAreDifferentTerms() {
        assertThat((Term) atom("1")).isNotEqualTo(string("1")).isNotEqualTo(integer(1));
        assertThat((Term) integer(1)).isNotEqualTo(real(1.0));
        assertThat((Term) atom("X")).isNotEqualTo(variable("X"));
    }

    @Test
    void integerFactoriesAgree() {
        assertThat(integer(42)).isEqualTo(Term.Int.of(42)).isEqualTo(integer(BigInteger.valueOf(42)));
        assertThat(integer(Long.MIN_VALUE).longValueExact()).isEqualTo(Long.MIN_VALUE);
        assertThatThrownBy(() -> integer(BigInteger.TWO.pow(64)).longValueExact())
                .isInstanceOf(ArithmeticException.class);
    }

    @Test
    void floatEqualityTellsNegativeZeroApartAndMatchesNaN() {
        assertThat(real(-0.0)).isNotEqualTo(real(0.0));
        assertThat(real(Double.NaN)).isEqualTo(real(Double.NaN)).hasSameHashCodeAs(real(Double.NaN));
    }

    @Test
    void compoundCopiesItsArgumentsAndExposesThemUnmodifiable() {
        List<Term> args = new ArrayList<>(List.of(atom("a"), atom("b")));
        Term.Compound term = new Term.Compound("f", args);

        args.set(0, atom("changed"));

        assertThat(term.args()).containsExactly(atom("a"), atom("b"));
        assertThat(term.arg(0)).isEqualTo(atom("a"));
        assertThat(term.arg(1)).isEqualTo(atom("b"));
        assertThat(term.arity()).isEqualTo(2);
        assertThatThrownBy(() -> term.args().add(atom("c"))).isInstanceOf(UnsupportedOperationException.class);
        assertThatThrownBy(() -> term.arg(2)).isInstanceOf(IndexOutOfBoundsException.class);
    }

    @Test
    void compoundFromAListOfArgumentsEqualsTheVarargsForm() {
        List<Term.Atom> args = List.of(atom("a"), atom("b"));

        assertThat(compound("f", args)).isEqualTo(compound("f", atom("a"), atom("b")));
    }

    @Test
    void rejectsNulls() {
        assertThatThrownBy(() -> atom(null)).isInstanceOf(NullPointerException.class);
        assertThatThrownBy(() -> string(null)).isInstanceOf(NullPointerException.class);
        assertThatThrownBy(() -> variable(null)).isInstanceOf(NullPointerException.class);
        assertThatThrownBy(() -> integer((BigInteger) null)).isInstanceOf(NullPointerException.class);
        assertThatThrownBy(() -> compound(null, atom("a"))).isInstanceOf(NullPointerException.class);
        assertThatThrownBy(() -> compound("f", atom("a"), null))
                .isInstanceOf(NullPointerException.class)
                .hasMessageContaining("argument 1");
        assertThatThrownBy(() -> list(atom("a"), null)).isInstanceOf(NullPointerException.class);
        assertThatThrownBy(() -> list(List.of(atom("a")), null)).isInstanceOf(NullPointerException.class);
    }

    // ---------------------------------------------------------------------------------------------
    // Lists
    // ---------------------------------------------------------------------------------------------

    @Test
    void listsAreChainsOfListCellsEndingInNil() {
        Term term = list(atom("a"), atom("b"));

        assertThat(term).isEqualTo(compound("[|]", atom("a"), compound("[|]", atom("b"), NIL)));
        assertThat(((Term.Compound) term).isListCell()).isTrue();
    }

    @Test
    void emptyListFactoriesGiveNilOrTheTail() {
        assertThat(list()).isSameAs(NIL);
        assertThat(list(List.of())).isSameAs(NIL);
        assertThat(list(List.of(), variable("T"))).isEqualTo(variable("T"));
    }

    @Test
    void aProperListAsTailGivesTheLongerProperList() {
        Term joined = list(List.of(atom("a")), list(atom("b"), atom("c")));

        assertThat(joined).isEqualTo(list(atom("a"), atom("b"), atom("c")));
        assertThat(joined.toString()).isEqualTo("[a,b,c]");
    }

    @Test
    void asListReturnsTheElementsOfProperListsOnly() {
        assertThat(list(atom("a"), integer(1)).asList()).contains(List.of(atom("a"), integer(1)));
        assertThat(NIL.asList()).contains(List.of());
        assertThat(list(List.of(atom("a")), variable("T")).asList()).isEmpty();
        assertThat(list(List.of(atom("a")), atom("[]")).asList()).isEmpty();
        assertThat(atom("a").asList()).isEmpty();
        assertThat(compound("[|]", atom("a"), NIL, NIL).asList()).isEmpty();
    }

    @Test
    void asListResultIsUnmodifiable() {
        List<Term> elements = list(atom("a")).asList().orElseThrow();

        assertThatThrownBy(() -> elements.add(atom("b"))).isInstanceOf(UnsupportedOperationException.class);
    }

    @Test
    void isListIsTrueForProperListsOnly() {
        assertThat(list(atom("a"), atom("b")).isList()).isTrue();
        assertThat(list(List.of(atom("a")), variable("T")).isList()).isFalse();
        assertThat(compound("[|]", atom("a"), atom("b")).isList()).isFalse();
        assertThat(compound("f", NIL).isList()).isFalse();
        assertThat(string("[]").isList()).isFalse();
    }

    @Test
    void listOperationsHandleAMillionElements() {
        List<Term> elements = new ArrayList<>(1_000_000);
        for (int i = 0; i < 1_000_000; i++) {
            elements.add(integer(i % 1000));
        }
        Term big = list(elements);

        assertThat(big.isList()).isTrue();
        assertThat(big.asList()).hasValueSatisfying(back -> assertThat(back).isEqualTo(elements));
    }

    // ---------------------------------------------------------------------------------------------
    // Equality
    // ---------------------------------------------------------------------------------------------

    @Test
    void structurallyEqualCompoundsAreEqualWithEqualHashCodes() {
        Term one = compound("f", atom("a"), list(integer(1), string("s")), compound("g"));
        Term two = compound("f", atom("a"), list(integer(1), string("s")), compound("g"));

        assertThat(one).isEqualTo(two).hasSameHashCodeAs(two);
    }

    @Test
    void compoundsDifferingAnywhereAreNotEqual() {
        Term base = compound("f", atom("a"), list(integer(1), string("s")));

        assertThat(base)
                .isNotEqualTo(compound("g", atom("a"), list(integer(1), string("s"))))
                .isNotEqualTo(compound("f", atom("a")))
                .isNotEqualTo(compound("f", atom("a"), list(integer(1), atom("s"))))
                .isNotEqualTo(compound("f", atom("a"), list(integer(1), string("s"), NIL)))
                .isNotEqualTo(atom("f"));
    }

    @Test
    void millionElementListsCompareAndHashWithoutOverflowingTheStack() {
        Term one = list(Collections.nCopies(1_000_000, atom("a")));
        Term two = list(Collections.nCopies(1_000_000, atom("a")));
        Term other = list(Collections.nCopies(1_000_000, atom("b")));

        assertThat(one).isEqualTo(two).hasSameHashCodeAs(two);
        assertThat(one.equals(other)).isFalse();
    }

    @Test
    void deeplyNestedCompoundsCompareAndHashWithoutOverflowingTheStack() {
        Term one = atom("x");
        Term two = atom("x");
        for (int i = 0; i < 100_000; i++) {
            one = compound("f", one);
            two = compound("f", two);
        }

        assertThat(one.equals(two)).isTrue();
        assertThat(one.hashCode()).isEqualTo(two.hashCode());
        assertThat(one.equals(compound("f", two))).isFalse();
    }

    // ---------------------------------------------------------------------------------------------
    // JSON shortcuts
    // ---------------------------------------------------------------------------------------------

    @Test
    void toJsonAndFromJsonUseTheWireFormat() {
        Term term = compound("f", atom("a"));
        String json = "{\"type\":\"compound\",\"functor\":\"f\",\"args\":[{\"type\":\"atom\",\"value\":\"a\"}]}";

        assertThat(term.toJson()).isEqualTo(json).isEqualTo(TermJson.toJson(term));
        assertThat(Term.fromJson(json)).isEqualTo(term);
    }
}

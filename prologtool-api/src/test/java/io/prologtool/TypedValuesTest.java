package io.prologtool;

import org.junit.jupiter.api.Test;

import java.math.BigInteger;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** Answer's typed getters, Term's conversions, the kind enums and the toString of results. */
class TypedValuesTest {

    private static Answer answer() {
        Map<String, Term> m = new LinkedHashMap<>();
        m.put("N", Term.integer(42));
        m.put("Big", Term.integer(new BigInteger("123456789012345678901234567890")));
        m.put("F", Term.real(2.5));
        m.put("A", Term.atom("bob"));
        m.put("S", Term.string("text"));
        m.put("L", Term.list(Term.integer(1), Term.atom("x")));
        m.put("P", Term.list(List.of(Term.integer(1)), Term.variable("_G1")));
        m.put("C", Term.compound("f", Term.atom("a")));
        return new Answer(m);
    }

    @Test
    void gettersConvertWhatTheyShould() {
        Answer a = answer();
        assertThat(a.getInt("N")).isEqualTo(42);
        assertThat(a.getLong("N")).isEqualTo(42L);
        assertThat(a.getDouble("N")).isEqualTo(42.0);
        assertThat(a.getDouble("F")).isEqualTo(2.5);
        assertThat(a.getBigInteger("Big")).isEqualTo(new BigInteger("123456789012345678901234567890"));
        assertThat(a.getText("A")).isEqualTo("bob");
        assertThat(a.getText("S")).isEqualTo("text");
        assertThat(a.getList("L")).containsExactly(Term.integer(1), Term.atom("x"));
        assertThat(a.getTerm("C")).isEqualTo(Term.compound("f", Term.atom("a")));
    }

    @Test
    void errorsNameTheVariableAndWhatItHolds() {
        Answer a = answer();
        assertThatThrownBy(() -> a.getInt("A")).isInstanceOf(TermTypeException.class)
                .hasMessage("variable A is bob (an atom), not an integer");
        assertThatThrownBy(() -> a.getInt("Big")).isInstanceOf(TermTypeException.class)
                .hasMessageContaining("variable Big").hasMessageContaining("does not fit in an int");
        assertThatThrownBy(() -> a.getLong("Big")).hasMessageContaining("does not fit in a long");
        assertThatThrownBy(() -> a.getText("C")).hasMessage("variable C is f(a) (a compound f/1), not an atom or a string");
        assertThatThrownBy(() -> a.getList("P")).hasMessageContaining("variable P").hasMessageContaining("a partial list");
        assertThatThrownBy(() -> a.getDouble("S")).hasMessageContaining("variable S").hasMessageContaining("a string");
        assertThatThrownBy(() -> a.getInt("Nope")).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("Nope");
        assertThatThrownBy(() -> Term.atom("x").toInt()).isInstanceOf(TermTypeException.class)
                .hasMessage("the term is x (an atom), not an integer");
    }

    @Test
    void termConversionsMatchTheGetters() {
        assertThat(Term.integer(7).toInt()).isEqualTo(7);
        assertThat(Term.string("s").toText()).isEqualTo("s");
        assertThat(Term.NIL.toList()).isEmpty();
        assertThat(Term.real(1.5).toDouble()).isEqualTo(1.5);
        assertThatThrownBy(() -> Term.real(1.5).toBigInteger()).hasMessageContaining("a float");
    }

    @Test
    void kindsAreEnumsWithAFallbackThatKeepsTheRawKind() {
        assertThat(PrologError.of("type_error", "m").knownKind()).isEqualTo(PrologError.Kind.TYPE_ERROR);
        PrologError odd = PrologError.of("some_new_kind", "m");
        assertThat(odd.knownKind()).isEqualTo(PrologError.Kind.UNKNOWN);
        assertThat(odd.kind()).isEqualTo("some_new_kind");
        assertThat(new Diagnostic(Severity.WARNING, "singleton", "m", 1, 0).knownKind())
                .isEqualTo(Diagnostic.Kind.SINGLETON);
        assertThat(new Diagnostic(Severity.WARNING, "brand_new", "m", 1, 0).knownKind())
                .isEqualTo(Diagnostic.Kind.UNKNOWN);
        assertThat(Diagnostic.Kind.UNDEFINED_PREDICATE.wireName()).isEqualTo("undefined_predicate");
    }

    @Test
    void aGoalResultShowsWhereEachAnswerEnds() {
        Map<String, Term> one = new LinkedHashMap<>();
        one.put("X", Term.integer(1));
        one.put("Y", Term.atom("a"));
        Map<String, Term> two = new LinkedHashMap<>();
        two.put("X", Term.integer(2));
        two.put("Y", Term.atom("b"));
        GoalResult r = new GoalResult(Outcome.SUCCESS, List.of(new Answer(one), new Answer(two)), "", false, true,
                Optional.empty());
        assertThat(r).hasToString("SUCCESS: X = 1, Y = a ; X = 2, Y = b ; ...");
        assertThat(GoalResult.failedWith(PrologError.of("timeout", "too slow"))).hasToString("ERROR timeout: too slow");
    }

    @Test
    void aDiagnosticInAFileSaysSo() {
        Diagnostic d = new Diagnostic(Severity.ERROR, "syntax_error", "Illegal start of term", 3, 5)
                .inFile("/p/rules.pl");
        assertThat(d.file()).isEqualTo(Optional.of("/p/rules.pl"));
        assertThat(d).hasToString("error syntax_error in /p/rules.pl at line 3, column 5: Illegal start of term");
    }
}

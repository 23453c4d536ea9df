package io.prologtool.junit;

import io.prologtool.ConsultResult;
import io.prologtool.Diagnostic;
import io.prologtool.Severity;
import org.assertj.core.api.AbstractAssert;

import java.util.List;

/**
 * Assertions on a {@link ConsultResult}; from {@link PrologAssertions#assertThat(ConsultResult)}.
 *
 * <pre>{@code
 * assertThat(s.consult(program)).hasNoErrors();
 * assertThat(s.consult("p :- q(.")).hasDiagnostic("syntax_error", 1);
 * }</pre>
 */
public final class ConsultResultAssert extends AbstractAssert<ConsultResultAssert, ConsultResult> {

    ConsultResultAssert(ConsultResult actual) {
        super(actual, ConsultResultAssert.class);
    }

    /** No diagnostic is an error (warnings are allowed). */
    public ConsultResultAssert hasNoErrors() {
        return noneAtLeast(Severity.ERROR, "errors");
    }

    /** No diagnostic is an error or a warning. */
    public ConsultResultAssert hasNoWarnings() {
        return noneAtLeast(Severity.WARNING, "errors or warnings");
    }

    /** Some diagnostic is of {@code kind} ({@code syntax_error}, {@code singleton}, ...) at {@code line}. */
    public ConsultResultAssert hasDiagnostic(String kind, int line) {
        isNotNull();
        if (actual.messages().stream().noneMatch(d -> d.kind().equals(kind) && d.line() == line)) {
            failWithActualExpectedAndMessage(actual.messages(), kind + " at line " + line,
                    "Expecting a %s diagnostic at line %d but the diagnostics were:%s", kind, line, listing(actual.messages()));
        }
        return this;
    }

    private ConsultResultAssert noneAtLeast(Severity minimum, String what) {
        isNotNull();
        List<Diagnostic> found = actual.messages(minimum);
        if (!found.isEmpty()) {
            failWithActualExpectedAndMessage(found, List.of(), "Expecting the text to load without %s but it reported:%s",
                    what, listing(found));
        }
        return this;
    }

    private static String listing(List<Diagnostic> ds) {
        if (ds.isEmpty()) {
            return " none";
        }
        StringBuilder sb = new StringBuilder();
        ds.forEach(d -> sb.append("\n  ").append(d));
        return sb.toString();
    }
}

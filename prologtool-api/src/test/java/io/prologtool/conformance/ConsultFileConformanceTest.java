package io.prologtool.conformance;

import io.prologtool.ConsultResult;
import io.prologtool.Diagnostic;
import io.prologtool.GoalResult;
import io.prologtool.PrologToolException;
import io.prologtool.Term;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * {@code PrologSession.consult(Path)}: the files a consulted file loads by a relative name are found in
 * its own folder, whatever the working folder of the Prolog behind the session; diagnostics name the file.
 */
public abstract class ConsultFileConformanceTest extends BackendFixture {

    @TempDir
    Path dir;

    private Path write(String name, String text) throws IOException {
        Path p = dir.resolve(name);
        Files.createDirectories(p.getParent());
        Files.writeString(p, text, StandardCharsets.UTF_8);
        return p;
    }

    @Test
    void relativeLoadsResolveAgainstTheFilesFolder() throws IOException {
        write("rules/helper.pl", "helper(h).\n");
        write("rules/other.pl", ":- module(other, [other/1]).\nother(o).\n");
        write("rules/part.pl", "part(p).\n");
        Path main = write("rules/main.pl", ":- consult('helper.pl').\n:- use_module(other).\n"
                + ":- include(part).\n:- ensure_loaded([helper]).\nmain(X) :- helper(X).\n");
        ConsultResult c = session.consult(main);
        assertThat(c.messages()).as("%s", c.messages()).isEmpty();
        for (String g : new String[] {"main(h)", "other(o)", "part(p)"}) {
            GoalResult r = session.goal(g).run();
            assertThat(r.succeeded()).as("%s -> %s", g, r).isTrue();
        }
    }

    @Test
    void diagnosticsNameTheFileAndItsLines() throws IOException {
        Path main = write("broken.pl", "ok(1).\nbad(X :- .\n");
        ConsultResult c = session.consult(main);
        Diagnostic d = c.errors().get(0);
        assertThat(d.file()).contains(main.toAbsolutePath().normalize().toString());
        assertThat(d.line()).isEqualTo(2);
        assertThat(d.toString()).contains("broken.pl");
        assertThat(d.knownKind()).isEqualTo(Diagnostic.Kind.SYNTAX_ERROR);
        assertThat(session.goal("ok(X)").run().answers().get(0).getInt("X")).isEqualTo(1);
    }

    @Test
    void aMissingRelativeFileIsADiagnosticNotALoadFromTheWorkingFolder() throws IOException {
        Path main = write("lonely/main.pl", ":- consult('nowhere_to_be_found.pl').\nx.\n");
        ConsultResult c = session.consult(main);
        assertThat(c.hasErrors()).as("%s", c.messages()).isTrue();
        assertThat(c.errors().get(0).file()).isPresent();
    }

    @Test
    void textThatIsNotUtf8IsAnErrorNamingFileAndEncoding() throws IOException {
        Path latin1 = dir.resolve("latin1.pl");
        Files.write(latin1, "name('Jos\u00e9').\n".getBytes(StandardCharsets.ISO_8859_1));
        assertThatThrownBy(() -> session.consult(latin1))
                .isInstanceOf(PrologToolException.class)
                .hasMessageContaining("latin1.pl").hasMessageContaining("UTF-8");
    }

    private static final String SENTENCE_ORDER = "likes(ann, tea).\nperson(ann).\nlikes(bob, coffee).\n"
            + "person(bob).\ngreets(X) --> [hello], { person(X) }.\nadjacent(1).\nadjacent(2).\n";

    @Test
    void declareDiscontiguousLoadsSentenceOrderWithoutWarnings() {
        try (io.prologtool.PrologSession s = backend.open(
                io.prologtool.SessionOptions.builder().declareDiscontiguous(true).build())) {
            ConsultResult c = s.consult(SENTENCE_ORDER);
            assertThat(c.messages(io.prologtool.Severity.WARNING)).as("%s", c.messages()).isEmpty();
            assertThat(c.messages()).hasSize(1);
            Diagnostic info = c.messages().get(0);
            assertThat(info.severity()).isEqualTo(io.prologtool.Severity.INFO);
            assertThat(info.kind()).isEqualTo("discontiguous");
            assertThat(info.message()).contains("likes/2").contains("person/1").doesNotContain("adjacent");
            assertThat(s.goal("likes(bob, X)").run().answers().get(0).getText("X")).isEqualTo("coffee");
            assertThat(s.goal("person(X)").run().answers()).hasSize(2);
        }
        ConsultResult plain = session.consult(SENTENCE_ORDER);
        assertThat(plain.messages(io.prologtool.Severity.WARNING)).as("off by default")
                .extracting(Diagnostic::kind).contains("discontiguous");
    }

    @Test
    void backendsSessionsAndRegistriesSayWhatTheyAre() {
        assertThat(backend.toString()).contains("Backend[swipl ").contains("sessions open");
        assertThat(session.toString()).contains(session.id()).contains("open");
        session.close();
        assertThat(session.toString()).contains("closed");
        try (io.prologtool.SessionRegistry reg = io.prologtool.SessionRegistry.builder(backend).maxSessions(5).build()) {
            reg.open();
            assertThat(reg.toString()).contains(backend.name()).contains("1 of 5 sessions");
        }
    }

    @Test
    void aConsultedStringStillLoadsAsBefore() {
        ConsultResult c = session.consult("v(\"text\", [1, 2.5], 12345678901234567890).");
        assertThat(c.messages()).isEmpty();
        var a = session.goal("v(S, L, B)").run().answers().get(0);
        assertThat(a.getText("S")).isEqualTo("text");
        assertThat(a.getList("L")).hasSize(2);
        assertThat(a.getList("L").get(1).toDouble()).isEqualTo(2.5);
        assertThat(a.getBigInteger("B")).hasToString("12345678901234567890");
        assertThat(Term.integer(3).toLong()).isEqualTo(3L);
    }
}

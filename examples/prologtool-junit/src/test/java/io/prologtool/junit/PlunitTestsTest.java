package io.prologtool.junit;

import io.prologtool.PrologBackend;
import io.prologtool.process.ProcessBackend;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.DynamicContainer;
import org.junit.jupiter.api.DynamicNode;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestFactory;
import org.junit.jupiter.api.io.TempDir;
import org.opentest4j.AssertionFailedError;
import org.opentest4j.TestAbortedException;

import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatCode;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class PlunitTestsTest {

    static PrologBackend backend;

    @BeforeAll
    static void start() {
        backend = ProcessBackend.builder().poolSize(1).build();
    }

    @AfterAll
    static void stop() {
        if (backend != null) {
            backend.close();
        }
    }

    /** The fixture in use: every plunit test of family.pl is a JUnit test (on the shared backend). */
    @TestFactory
    Stream<DynamicNode> familyRules() {
        return PlunitTests.resource("prolog/family.pl").dynamicTests();
    }

    static final String MIXED = """
            parent(tom, bob).
            parent(bob, ann).
            grandparent(X, Z) :- parent(X, Y), parent(Y, Z).
            :- begin_tests(family).
            test(tom_is_grandparent) :- grandparent(tom, ann).
            test(wrong_grandchild, [true(X == bob)]) :- grandparent(tom, X).
            test(not_yet, [blocked(needs_more_data)]) :- grandparent(bob, _).
            :- end_tests(family).
            """;

    @Test
    void eachPlunitTestIsADynamicTestWithItsVerdict() throws Throwable {
        List<DynamicNode> nodes = PlunitTests.text("mixed.pl", MIXED).backend(backend).dynamicTests().toList();
        assertThat(nodes).singleElement().isInstanceOf(DynamicContainer.class)
                .extracting(DynamicNode::getDisplayName).isEqualTo("family");
        List<DynamicTest> tests = ((DynamicContainer) nodes.get(0)).getChildren().map(DynamicTest.class::cast).toList();
        assertThat(tests).extracting(DynamicNode::getDisplayName)
                .containsExactly("tom_is_grandparent", "wrong_grandchild", "not_yet");

        assertThatCode(() -> tests.get(0).getExecutable().execute()).doesNotThrowAnyException();
        assertThatThrownBy(() -> tests.get(1).getExecutable().execute())
                .isInstanceOf(AssertionFailedError.class)
                .hasMessageContaining("plunit test family:wrong_grandchild failed at mixed.pl:6")
                .hasMessageContaining("expected bob, got ann");
        assertThatThrownBy(() -> tests.get(2).getExecutable().execute())
                .isInstanceOf(TestAbortedException.class)
                .hasMessageContaining("mixed.pl:7 was skipped: needs_more_data");
    }

    @Test
    void testsFromAFilePointAtTheirLine(@TempDir Path dir) throws Exception {
        Path file = dir.resolve("mixed.pl");
        Files.writeString(file, MIXED);
        DynamicContainer unit = (DynamicContainer) PlunitTests.file(file).backend(backend).dynamicTests().findFirst().orElseThrow();
        DynamicTest wrong = unit.getChildren().map(DynamicTest.class::cast).toList().get(1);
        assertThat(wrong.getTestSourceUri()).contains(URI.create(file.toUri() + "?line=6"));
        assertThat(PlunitTests.resource("prolog/family.pl").backend(backend).dynamicTests().findFirst().orElseThrow()
                .getTestSourceUri()).contains(URI.create("classpath:/prolog/family.pl"));
    }

    @Test
    void aFileThatDoesNotLoadGivesAFailingConsultTest() {
        List<DynamicNode> nodes = PlunitTests.text("broken.pl", """
                p(1).
                p(2 :- .
                :- begin_tests(p).
                test(one) :- p(1).
                :- end_tests(p).
                """).backend(backend).dynamicTests().toList();
        assertThat(nodes).extracting(DynamicNode::getDisplayName).containsExactly("consult broken.pl", "p");
        assertThatThrownBy(() -> ((DynamicTest) nodes.get(0)).getExecutable().execute())
                .isInstanceOf(AssertionFailedError.class)
                .hasMessageContaining("broken.pl does not load cleanly")
                .hasMessageContaining("broken.pl:2: error syntax_error at line 2");
    }

    @Test
    void aFileWithoutTestsIsAFailureNotAnEmptyPass() {
        List<DynamicNode> nodes = PlunitTests.text("empty.pl", "p(1).\n").backend(backend).dynamicTests().toList();
        assertThat(nodes).singleElement().extracting(DynamicNode::getDisplayName).isEqualTo("plunit tests in empty.pl");
        assertThatThrownBy(() -> ((DynamicTest) nodes.get(0)).getExecutable().execute())
                .hasMessageContaining("has no plunit tests");
        assertThatThrownBy(() -> PlunitTests.resource("prolog/nope.pl")).hasMessageContaining("prolog/nope.pl");
    }

    @Test
    void textThatIsNotUtf8IsAnErrorNamingTheResourceAndTheEncoding() {
        assertThatThrownBy(() -> PlunitTests.resource("prolog/latin1.pl"))
                .isInstanceOf(io.prologtool.PrologToolException.class)
                .hasMessageContaining("prolog/latin1.pl").hasMessageContaining("UTF-8");
    }

    @Test
    void aFileThatIsNotUtf8IsAnErrorNamingTheFile(@TempDir Path dir) throws Exception {
        Path f = dir.resolve("latin.pl");
        Files.write(f, new byte[] {'a', '(', '\'', 'J', 'o', 's', (byte) 0xE9, '\'', ')', '.', '\n'});
        assertThatThrownBy(() -> PlunitTests.file(f)).isInstanceOf(io.prologtool.PrologToolException.class)
                .hasMessageContaining("latin.pl").hasMessageContaining("UTF-8");
    }

    @Test
    void anEncodingReadsTextInIt() {
        List<DynamicNode> nodes = PlunitTests.resource("prolog/latin1.pl", java.nio.charset.StandardCharsets.ISO_8859_1)
                .backend(backend).dynamicTests().toList();
        assertThat(nodes).extracting(DynamicNode::getDisplayName).containsExactly("l");
        DynamicTest t = (DynamicTest) ((DynamicContainer) nodes.get(0)).getChildren().findFirst().orElseThrow();
        assertThatCode(t.getExecutable()::execute).as("José has four characters").doesNotThrowAnyException();
    }

    @Test
    void theTimeLimitPerTestFailsTheSlowTestAlone() throws Throwable {
        List<DynamicNode> nodes = PlunitTests.text("slow.pl", ":- begin_tests(s).\ntest(loop) :- repeat, fail.\n"
                + "test(quick) :- true.\n:- end_tests(s).\n").backend(backend)
                .testTimeLimit(java.time.Duration.ofMillis(500)).dynamicTests().toList();
        assertThat(nodes).extracting(DynamicNode::getDisplayName).containsExactly("s");
        List<DynamicTest> tests = ((DynamicContainer) nodes.get(0)).getChildren().map(DynamicTest.class::cast).toList();
        assertThat(tests).extracting(DynamicNode::getDisplayName).containsExactly("loop", "quick");
        assertThatThrownBy(tests.get(0).getExecutable()::execute).hasMessageContaining("time limit exceeded");
        tests.get(1).getExecutable().execute();
        assertThatThrownBy(() -> PlunitTests.text("x.pl", "").testTimeLimit(java.time.Duration.ZERO))
                .isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void theTimeLimitBoundsTheRun() {
        List<DynamicNode> nodes = PlunitTests.text("slow.pl", ":- begin_tests(s).\ntest(loop) :- repeat, fail.\n"
                + ":- end_tests(s).\n").backend(backend).timeLimit(java.time.Duration.ofSeconds(1)).dynamicTests().toList();
        assertThat(nodes).extracting(DynamicNode::getDisplayName).contains("run_tests");
    }
}

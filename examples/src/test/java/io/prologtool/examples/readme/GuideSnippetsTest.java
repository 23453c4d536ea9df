package io.prologtool.examples.readme;

import org.junit.jupiter.api.Test;

import javax.tools.Diagnostic;
import javax.tools.DiagnosticCollector;
import javax.tools.JavaCompiler;
import javax.tools.JavaFileObject;
import javax.tools.SimpleJavaFileObject;
import javax.tools.StandardJavaFileManager;
import javax.tools.ToolProvider;
import java.io.IOException;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Every {@code ```java} block of the guides under {@code docs/} listed in {@link #GUIDES} compiles
 * against this build, under the README's convention ({@link ReadmeSnippetsTest}).
 */
class GuideSnippetsTest {

    static final List<String> GUIDES = List.of("observability.md");

    @Test
    void everyJavaBlockOfTheGuidesCompiles(@org.junit.jupiter.api.io.TempDir Path out) throws IOException {
        Path docs = ReadmeSnippetsTest.readme().toAbsolutePath().getParent().resolve("docs");
        for (String guide : GUIDES) {
            Path file = docs.resolve(guide);
            assertThat(file).isRegularFile();
            List<ReadmeSnippetsTest.Snippet> snippets =
                    ReadmeSnippetsTest.snippets(Files.readAllLines(file, StandardCharsets.UTF_8));
            assertThat(snippets).as("java blocks in %s", guide).isNotEmpty();
            List<ReadmeSnippetsTest.Unit> units = snippets.stream().map(ReadmeSnippetsTest::unit).toList();
            JavaCompiler javac = ToolProvider.getSystemJavaCompiler();
            DiagnosticCollector<JavaFileObject> diagnostics = new DiagnosticCollector<>();
            List<JavaFileObject> sources = new ArrayList<>();
            for (ReadmeSnippetsTest.Unit u : units) {
                sources.add(new SimpleJavaFileObject(URI.create("string:///readme/" + u.className() + ".java"),
                        JavaFileObject.Kind.SOURCE) {
                    @Override
                    public CharSequence getCharContent(boolean ignoreEncodingErrors) {
                        return u.text();
                    }
                });
            }
            try (StandardJavaFileManager files = javac.getStandardFileManager(diagnostics, Locale.ROOT,
                    StandardCharsets.UTF_8)) {
                List<String> options = List.of("--release", "17", "-proc:none", "-parameters", "-nowarn",
                        "-classpath", System.getProperty("java.class.path"), "-d", out.toString());
                boolean ok = javac.getTask(null, files, diagnostics, options, null, sources).call();
                List<String> errors = new ArrayList<>();
                for (Diagnostic<? extends JavaFileObject> d : diagnostics.getDiagnostics()) {
                    if (d.getKind() != Diagnostic.Kind.ERROR) {
                        continue;
                    }
                    ReadmeSnippetsTest.Unit u = units.stream().filter(x -> d.getSource() != null
                            && d.getSource().getName().endsWith(x.className() + ".java")).findFirst().orElse(null);
                    int line = u == null || d.getLineNumber() < 1 ? 0 : u.readmeLines()[(int) d.getLineNumber() - 1];
                    errors.add("docs/" + guide + ":" + line + ": " + d.getMessage(Locale.ROOT));
                }
                assertThat(errors).as("compile errors in the java blocks of docs/%s", guide).isEmpty();
                assertThat(ok).isTrue();
            }
        }
    }
}

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
 * Every {@code ```java} block of the README compiles against this build, so the README cannot drift from
 * the code.
 *
 * <p>The convention a snippet is compiled under (also written in the README, "README snippets"):
 * <ul>
 *   <li>{@code import} lines at the top of a block are the imports of its compilation unit; every
 *       snippet also imports the packages of {@link #IMPORTS};</li>
 *   <li>the rest is the body of a method {@code void snippet() throws Exception} of a class whose fields
 *       are the context a reader has in mind: {@code backend} (a {@code PrologBackend}), {@code s} (a
 *       {@code PrologSession}), {@code registry}, {@code tools}, {@code model} (a LangChain4j
 *       {@code ChatModel}) and {@code plunitSource}. A snippet may declare its own variables of those
 *       names (they shadow the fields), and local classes, interfaces and records.</li>
 * </ul>
 * Snippets are compiled only, never run: the tests of each module run the same calls.
 */
class ReadmeSnippetsTest {

    static final List<String> IMPORTS = List.of(
            "io.prologtool.*", "io.prologtool.tools.*", "io.prologtool.process.*", "io.prologtool.jpl.*",
            "io.prologtool.langchain4j.*", "io.prologtool.junit.*", "io.prologtool.examples.formalizer.*",
            "java.math.*", "java.nio.file.*", "java.time.*", "java.util.*", "java.util.stream.*",
            "dev.langchain4j.model.chat.ChatModel", "dev.langchain4j.service.AiServices",
            "dev.langchain4j.model.openai.OpenAiChatModel", "org.junit.jupiter.api.*");

    private static final String CONTEXT = """
                PrologBackend backend;
                PrologSession s;
                SessionRegistry registry;
                PrologTools tools;
                ChatModel model;
                String plunitSource;
            """;

    /** One {@code ```java} block: where it starts in the README (1-based line of its first code line). */
    record Snippet(int line, List<String> code) {
    }

    /** A snippet as a compilation unit, and the README line of each of its lines (0 for added lines). */
    record Unit(String className, String text, int[] readmeLines) {
    }

    static Path readme() {
        String prop = System.getProperty("prologtool.readme");
        Path p = prop != null ? Path.of(prop) : Path.of("..", "README.md");
        assertThat(p).as("the README (system property prologtool.readme)").isRegularFile();
        return p;
    }

    static List<Snippet> snippets(List<String> lines) {
        List<Snippet> out = new ArrayList<>();
        for (int i = 0; i < lines.size(); i++) {
            if (lines.get(i).strip().equals("```java")) {
                int start = i + 1;
                int end = start;
                while (end < lines.size() && !lines.get(end).strip().equals("```")) {
                    end++;
                }
                assertThat(end).as("the java block at README line %d is closed", start).isLessThan(lines.size());
                out.add(new Snippet(start + 1, lines.subList(start, end)));
                i = end;
            }
        }
        return out;
    }

    static Unit unit(Snippet snippet) {
        return unit("ReadmeSnippet", snippet);
    }

    /** {@code snippet} as a class named {@code prefix + "AtLine" + its line}. */
    static Unit unit(String prefix, Snippet snippet) {
        String name = prefix + "AtLine" + snippet.line();
        List<String> text = new ArrayList<>();
        List<Integer> map = new ArrayList<>();
        text.add("package readme;");
        map.add(0);
        int i = 0;
        List<String> code = snippet.code();
        while (i < code.size() && (code.get(i).startsWith("import ") || code.get(i).isBlank())) {
            text.add(code.get(i));
            map.add(snippet.line() + i);
            i++;
        }
        for (String imp : IMPORTS) {
            text.add("import " + imp + ";");
            map.add(0);
        }
        text.add("@SuppressWarnings(\"all\") class " + name + " {");
        map.add(0);
        for (String c : CONTEXT.lines().toList()) {
            text.add(c);
            map.add(0);
        }
        text.add("    void snippet() throws Exception {");
        map.add(0);
        for (; i < code.size(); i++) {
            text.add(code.get(i));
            map.add(snippet.line() + i);
        }
        text.add("    }");
        map.add(0);
        text.add("}");
        map.add(0);
        return new Unit(name, String.join("\n", text) + "\n", map.stream().mapToInt(Integer::intValue).toArray());
    }

    @Test
    void everyJavaBlockOfTheReadmeCompiles(@org.junit.jupiter.api.io.TempDir Path out) throws IOException {
        List<Snippet> snippets = snippets(Files.readAllLines(readme(), StandardCharsets.UTF_8));
        assertThat(snippets).as("java blocks in the README").hasSizeGreaterThanOrEqualTo(15);
        compile("README.md", snippets.stream().map(ReadmeSnippetsTest::unit).toList(), out);
    }

    /** The guides under docs/ follow the README's convention: each of their java blocks compiles too. */
    @Test
    void everyJavaBlockOfTheGuidesCompiles(@org.junit.jupiter.api.io.TempDir Path out) throws IOException {
        Path docs = readme().toAbsolutePath().getParent().resolve("docs");
        List<Path> guides;
        try (var list = Files.list(docs)) {
            guides = list.filter(f -> f.getFileName().toString().endsWith(".md")).sorted().toList();
        }
        for (Path guide : guides) {
            String file = guide.getFileName().toString();
            String prefix = "Guide_" + file.replaceAll("[^A-Za-z0-9]", "_");
            List<Unit> units = snippets(Files.readAllLines(guide, StandardCharsets.UTF_8)).stream()
                    .map(sn -> unit(prefix, sn)).toList();
            if (!units.isEmpty()) {
                Path dir = Files.createDirectories(out.resolve(prefix));
                compile("docs/" + file, units, dir);
            }
        }
    }

    private static void compile(String file, List<Unit> units, Path out) throws IOException {

        JavaCompiler javac = ToolProvider.getSystemJavaCompiler();
        assertThat(javac).as("a JDK's compiler").isNotNull();
        DiagnosticCollector<JavaFileObject> diagnostics = new DiagnosticCollector<>();
        List<JavaFileObject> sources = new ArrayList<>();
        for (Unit u : units) {
            sources.add(new SimpleJavaFileObject(URI.create("string:///readme/" + u.className() + ".java"),
                    JavaFileObject.Kind.SOURCE) {
                @Override
                public CharSequence getCharContent(boolean ignoreEncodingErrors) {
                    return u.text();
                }
            });
        }
        try (StandardJavaFileManager files = javac.getStandardFileManager(diagnostics, Locale.ROOT, StandardCharsets.UTF_8)) {
            List<String> options = List.of("--release", "17", "-proc:none", "-parameters", "-nowarn",
                    "-classpath", System.getProperty("java.class.path"), "-d", out.toString());
            boolean ok = javac.getTask(null, files, diagnostics, options, null, sources).call();
            List<String> errors = new ArrayList<>();
            for (Diagnostic<? extends JavaFileObject> d : diagnostics.getDiagnostics()) {
                if (d.getKind() != Diagnostic.Kind.ERROR) {
                    continue;
                }
                Unit u = units.stream().filter(x -> d.getSource() != null
                        && d.getSource().getName().endsWith(x.className() + ".java")).findFirst().orElse(null);
                int line = u == null || d.getLineNumber() < 1 ? 0 : u.readmeLines()[(int) d.getLineNumber() - 1];
                errors.add(file + ":" + line + ": " + d.getMessage(Locale.ROOT));
            }
            assertThat(errors).as("compile errors in the java blocks of " + file).isEmpty();
            assertThat(ok).isTrue();
        }
    }

    @Test
    void aBlockThatDoesNotCompileIsReportedAtItsReadmeLine(@org.junit.jupiter.api.io.TempDir Path out) {
        Unit u = unit(new Snippet(40, List.of("import java.util.List;", "", "List<String> xs = List.of(1);")));
        assertThat(u.text()).contains("import java.util.List;").contains("void snippet() throws Exception {");
        int bodyLine = u.text().lines().toList().indexOf("List<String> xs = List.of(1);");
        assertThat(u.readmeLines()[bodyLine]).isEqualTo(42);
    }
}

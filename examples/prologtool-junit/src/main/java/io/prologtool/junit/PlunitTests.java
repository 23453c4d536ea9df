package io.prologtool.junit;

import io.prologtool.ConsultResult;
import io.prologtool.Diagnostic;
import io.prologtool.PrologBackend;
import io.prologtool.PrologSession;
import io.prologtool.SessionOptions;
import io.prologtool.SourceFiles;
import io.prologtool.TestCase;
import io.prologtool.TestReport;
import io.prologtool.process.ProcessBackend;
import org.junit.jupiter.api.DynamicContainer;
import org.junit.jupiter.api.DynamicNode;
import org.junit.jupiter.api.DynamicTest;
import org.opentest4j.AssertionFailedError;
import org.opentest4j.TestAbortedException;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.net.URI;
import java.nio.charset.Charset;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.stream.Collectors;
import java.util.stream.Stream;

/**
 * Runs the plunit units of a Prolog file as JUnit 5 dynamic tests: one test per plunit test, grouped by
 * unit, so that IDEs and Surefire list each by name, and a failure carries plunit's message and the
 * test's line in the file.
 *
 * <pre>{@code
 * class FamilyRulesTest {
 *     @TestFactory
 *     Stream<DynamicNode> family() {
 *         return PlunitTests.file(Path.of("src/test/prolog/family.pl")).dynamicTests();
 *     }
 * }
 * }</pre>
 *
 * The file (program and {@code :- begin_tests(...)} units together) is consulted into a fresh session;
 * its units run with {@link PrologSession#runTests()}. Then:
 * <ul>
 *   <li>a passed plunit test is a passed JUnit test;</li>
 *   <li>a failed one throws {@link AssertionFailedError} with plunit's message and {@code file:line};</li>
 *   <li>a blocked (skipped) one is aborted ({@link TestAbortedException}), which JUnit reports as
 *       skipped;</li>
 *   <li>a file that does not load cleanly (an error diagnostic) gives a failing test named
 *       {@code consult <file>} listing the diagnostics, and tests that could not run (a time limit) a
 *       failing test named {@code run_tests}.</li>
 * </ul>
 * Each test's source is the file and line ({@code file:...?line=N}, or {@code classpath:/...?line=N}),
 * so an IDE jumps to it. Without {@link #backend(PrologBackend)}, one process backend is started on
 * first use and shared by every fixture in the JVM; it is closed when the JVM exits.
 */
public final class PlunitTests {

    private final String name;
    private final String text;
    private final URI source;
    private PrologBackend backend;
    private Duration timeLimit;
    private Duration testTimeLimit;

    private PlunitTests(String name, String text, URI source) {
        this.name = name;
        this.text = text;
        this.source = source;
    }

    /**
     * The plunit tests of a {@code .pl} file, read as UTF-8.
     *
     * @throws UncheckedIOException        when the file cannot be read
     * @throws io.prologtool.PrologToolException when it is not valid UTF-8 (the message names the file and
     *                                     the encoding)
     */
    public static PlunitTests file(Path file) {
        return file(file, StandardCharsets.UTF_8);
    }

    /**
     * The plunit tests of a {@code .pl} file in {@code encoding}.
     *
     * @throws UncheckedIOException        when the file cannot be read
     * @throws io.prologtool.PrologToolException when it is not valid in {@code encoding} (the message names
     *                                     the file and the encoding)
     */
    public static PlunitTests file(Path file, Charset encoding) {
        Objects.requireNonNull(file, "file");
        Objects.requireNonNull(encoding, "encoding");
        try {
            return new PlunitTests(file.getFileName().toString(), SourceFiles.decode(Files.readAllBytes(file),
                    encoding, file.toAbsolutePath().toString()), file.toAbsolutePath().toUri());
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read the Prolog file " + file.toAbsolutePath(), e);
        }
    }

    /**
     * The plunit tests of a classpath resource, e.g. {@code "prolog/family.pl"} (no leading slash), read
     * as UTF-8.
     *
     * @throws IllegalArgumentException when there is no such resource
     * @throws io.prologtool.PrologToolException when it is not valid UTF-8 (the message names the resource
     *                                  and the encoding)
     */
    public static PlunitTests resource(String path) {
        return resource(path, StandardCharsets.UTF_8);
    }

    /**
     * The plunit tests of a classpath resource in {@code encoding}.
     *
     * @throws IllegalArgumentException when there is no such resource
     * @throws io.prologtool.PrologToolException when it is not valid in {@code encoding} (the message names
     *                                  the resource and the encoding)
     */
    public static PlunitTests resource(String path, Charset encoding) {
        Objects.requireNonNull(path, "path");
        Objects.requireNonNull(encoding, "encoding");
        String p = path.startsWith("/") ? path.substring(1) : path;
        ClassLoader loader = Thread.currentThread().getContextClassLoader();
        try (InputStream in = (loader != null ? loader : PlunitTests.class.getClassLoader()).getResourceAsStream(p)) {
            if (in == null) {
                throw new IllegalArgumentException("no classpath resource " + p);
            }
            String fileName = p.substring(p.lastIndexOf('/') + 1);
            return new PlunitTests(fileName, SourceFiles.decode(in.readAllBytes(), encoding,
                    "classpath resource " + p), URI.create("classpath:/" + p));
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read the classpath resource " + p, e);
        }
    }

    /** The plunit tests in {@code text}; {@code name} names it in test names and messages. */
    public static PlunitTests text(String name, String text) {
        return new PlunitTests(Objects.requireNonNull(name, "name"), Objects.requireNonNull(text, "text"), null);
    }

    /**
     * The time limit for loading the file and running all its tests (default 30 seconds): tests still
     * running then end the run with a failing {@code run_tests} test naming the limit. To bound each test
     * on its own, see {@link #testTimeLimit(Duration)}.
     *
     * @throws IllegalArgumentException when it is not positive
     */
    public PlunitTests timeLimit(Duration limit) {
        Objects.requireNonNull(limit, "limit");
        if (limit.isZero() || limit.isNegative()) {
            throw new IllegalArgumentException("the time limit must be positive: " + limit);
        }
        this.timeLimit = limit;
        return this;
    }

    /**
     * The time limit of each plunit test (default: none of its own): a test still running then fails
     * with "time limit exceeded" and the run goes on with the next test. The whole run stays within
     * {@link #timeLimit(Duration)}.
     *
     * @throws IllegalArgumentException when it is not positive
     */
    public PlunitTests testTimeLimit(Duration limit) {
        Objects.requireNonNull(limit, "limit");
        if (limit.isZero() || limit.isNegative()) {
            throw new IllegalArgumentException("the time limit per test must be positive: " + limit);
        }
        this.testTimeLimit = limit;
        return this;
    }

    /** Runs on {@code backend} instead of the shared process backend; the caller closes it. */
    public PlunitTests backend(PrologBackend backend) {
        this.backend = Objects.requireNonNull(backend, "backend");
        return this;
    }

    /**
     * Loads the file, runs its units, and returns one container per unit holding one test per plunit
     * test, in plunit's order (preceded by a failing {@code consult} test when the file has errors).
     */
    public Stream<DynamicNode> dynamicTests() {
        PrologBackend b = backend != null ? backend : SharedBackend.get();
        ConsultResult loaded;
        TestReport report;
        SessionOptions.Builder options = SessionOptions.builder();
        if (timeLimit != null) {
            options.consultTimeLimit(timeLimit);
        }
        if (testTimeLimit != null) {
            options.testTimeLimit(testTimeLimit);
        }
        try (PrologSession s = b.open(options.build())) {
            loaded = s.consult(text);
            report = s.runTests();
        }
        List<DynamicNode> nodes = new ArrayList<>();
        if (loaded.hasErrors()) {
            Diagnostic first = loaded.errors().get(0);
            String listing = loaded.messages().stream().map(d -> "  " + name + ":" + d.line() + ": " + d)
                    .collect(Collectors.joining("\n"));
            nodes.add(DynamicTest.dynamicTest("consult " + name, uri(first.line()), () -> {
                throw new AssertionFailedError(name + " does not load cleanly:\n" + listing);
            }));
        }
        report.error().ifPresent(e -> nodes.add(DynamicTest.dynamicTest("run_tests", uri(0), () -> {
            throw new AssertionFailedError("the plunit tests of " + name + " could not run: " + e);
        })));
        Map<String, List<DynamicNode>> byUnit = new LinkedHashMap<>();
        for (TestCase c : report.results()) {
            byUnit.computeIfAbsent(c.unit(), u -> new ArrayList<>())
                    .add(DynamicTest.dynamicTest(c.name(), uri(c.line()), () -> verdict(c)));
        }
        if (byUnit.isEmpty() && nodes.isEmpty()) {
            nodes.add(DynamicTest.dynamicTest("plunit tests in " + name, uri(0), () -> {
                throw new AssertionFailedError(name + " has no plunit tests (no :- begin_tests(Unit). ... "
                        + ":- end_tests(Unit). block with test/1,2 clauses)");
            }));
        }
        byUnit.forEach((unit, tests) -> nodes.add(DynamicContainer.dynamicContainer(unit, uri(0), tests.stream())));
        return nodes.stream();
    }

    private void verdict(TestCase c) {
        String where = name + (c.line() > 0 ? ":" + c.line() : "");
        switch (c.status()) {
            case PASSED -> { }
            case FAILED -> throw new AssertionFailedError("plunit test " + c.unit() + ":" + c.name() + " failed at "
                    + where + ": " + (c.message().isEmpty() ? "failed" : c.message()));
            case SKIPPED -> throw new TestAbortedException("plunit test " + c.unit() + ":" + c.name() + " at " + where
                    + " was skipped" + (c.message().isEmpty() ? "" : ": " + c.message()));
        }
    }

    private URI uri(int line) {
        if (source == null) {
            return null;
        }
        return line > 0 ? URI.create(source + "?line=" + line) : source;
    }

    /** The process backend shared by fixtures that were given none: started lazily, closed at JVM exit. */
    private static final class SharedBackend {
        private static volatile PrologBackend instance;

        static PrologBackend get() {
            PrologBackend b = instance;
            if (b == null) {
                synchronized (SharedBackend.class) {
                    b = instance;
                    if (b == null) {
                        PrologBackend made = ProcessBackend.builder().poolSize(1).build();
                        Runtime.getRuntime().addShutdownHook(new Thread(made::close, "prologtool-plunit-backend"));
                        instance = b = made;
                    }
                }
            }
            return b;
        }
    }
}

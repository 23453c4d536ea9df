package io.prologtool.conformance;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.List;

/**
 * The repository's test data ({@code data/} at its root, see {@code data/README.md} for each source's
 * licence), read from the classpath, where the build puts it under {@code prologtool/data/}. It ships in
 * this module's test-jar, so every backend's conformance run finds it without looking at the file system.
 */
public final class TestData {

    private TestData() {
    }

    /** The text of {@code data/<relative>}, e.g. {@code prolog-reasoner/problems.json}. */
    public static String text(String relative) {
        String resource = "prologtool/data/" + relative;
        try (InputStream in = TestData.class.getClassLoader().getResourceAsStream(resource)) {
            if (in == null) {
                throw new IllegalStateException("the test resource " + resource + " is missing from the classpath "
                        + "(the build copies the repository's data/ folder there)");
            }
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read the test resource " + resource, e);
        }
    }

    /** The lines of {@code data/<relative>}. */
    public static List<String> lines(String relative) {
        return text(relative).lines().toList();
    }
}

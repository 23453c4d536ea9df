package io.prologtool.spi;

import io.prologtool.PrologToolException;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * The Prolog harness ({@code io/prologtool/harness.pl}), the one Prolog program behind every backend.
 *
 * <p>Protocol: a request is one JSON object with an {@code id}, an {@code op} ({@code open, consult,
 * goal, close, ping}) and the op's arguments; the reply is one JSON object that echoes the
 * {@code id} and has {@code ok}. The process backend sends them as lines on a child's stdin and
 * stdout ({@link #SERVE_GOAL}); an in-process backend calls {@code handle_request/2} with the request
 * text.
 */
public final class Harness {

    /** Classpath location of the harness source. */
    public static final String RESOURCE = "io/prologtool/harness.pl";
    /** The goal that runs the line protocol on stdin/stdout. */
    public static final String SERVE_GOAL = "prologtool_harness:serve";

    private Harness() {
    }

    /** The harness source text. */
    public static String text() {
        try (InputStream in = Harness.class.getClassLoader().getResourceAsStream(RESOURCE)) {
            if (in == null) {
                throw new PrologToolException("the harness resource " + RESOURCE + " is missing from the classpath");
            }
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read the harness resource " + RESOURCE, e);
        }
    }

    /** Writes the harness to {@code dir/harness.pl} and returns that path. */
    public static Path extractTo(Path dir) throws IOException {
        Path file = dir.resolve("harness.pl");
        Files.writeString(file, text(), StandardCharsets.UTF_8);
        return file;
    }
}

package io.prologtool.conformance;

import java.nio.file.Files;
import java.nio.file.Path;

/**
 * Finds the project's shared test data ({@code ../shared/data} beside the repository). The system
 * property {@code prologtool.shared} overrides the search. Missing data fails the test that needs it.
 */
public final class SharedData {

    private SharedData() {
    }

    /** The file {@code shared/data/<relative>}. */
    public static Path file(String relative) {
        String override = System.getProperty("prologtool.shared");
        if (override != null) {
            return existing(Path.of(override, "data", relative));
        }
        for (Path dir = Path.of("").toAbsolutePath(); dir != null; dir = dir.getParent()) {
            Path candidate = dir.resolve("shared").resolve("data").resolve(relative);
            if (Files.isRegularFile(candidate)) {
                return candidate;
            }
        }
        throw new IllegalStateException("shared/data/" + relative + " was not found beside the repository "
                + "or above " + Path.of("").toAbsolutePath() + "; set -Dprologtool.shared=<dir>");
    }

    private static Path existing(Path p) {
        if (!Files.isRegularFile(p)) {
            throw new IllegalStateException(p + " does not exist");
        }
        return p;
    }
}

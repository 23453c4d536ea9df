package io.prologtool.examples;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/** Files of the shared data folder ({@code ../shared/data} beside the repository), found from where we run. */
public final class SharedData {

    private SharedData() {
    }

    /**
     * The file {@code relative} (under {@code shared/data}): in {@code <dir>/data} for
     * {@code -Dprologtool.shared=<dir>}, else in {@code shared/data} of the working directory, of a parent,
     * or beside one of them (in CI the repository is cloned beside {@code shared}).
     *
     * @throws IllegalStateException when it is nowhere
     */
    public static Path file(String relative) {
        List<Path> tries = new ArrayList<>();
        String prop = System.getProperty("prologtool.shared");
        if (prop != null) {
            tries.add(Path.of(prop, "data", relative));
        }
        for (Path d = Path.of("").toAbsolutePath(); d != null; d = d.getParent()) {
            tries.add(d.resolve("shared/data").resolve(relative));
            if (d.getParent() != null) {
                tries.add(d.getParent().resolve("shared/data").resolve(relative));
            }
        }
        return tries.stream().filter(Files::isRegularFile).findFirst().map(Path::normalize)
                .orElseThrow(() -> new IllegalStateException("shared/data/" + relative + " was not found above "
                        + Path.of("").toAbsolutePath() + " nor beside it; name the shared folder with "
                        + "-Dprologtool.shared=DIR"));
    }
}

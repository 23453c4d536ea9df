package io.prologtool.examples.bench;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/** Files of the shared data folder and the repository root, found from the working directory. */
final class SharedData {

    private SharedData() {
    }

    /**
     * {@code relative} (under {@code shared/data}) in {@code <dir>/data} for {@code -Dprologtool.shared=<dir>},
     * else in {@code shared/data} of the working directory, of a parent, or beside one of them (in CI the
     * repository is cloned beside {@code shared}).
     */
    static Path file(String relative) {
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
                        + Path.of("").toAbsolutePath() + " nor beside it; name the shared folder with -Dprologtool.shared=DIR"));
    }

    /** The repository root: the nearest directory at or above the working directory whose pom.xml has modules. */
    static Path repositoryRoot() {
        for (Path d = Path.of("").toAbsolutePath(); d != null; d = d.getParent()) {
            Path pom = d.resolve("pom.xml");
            try {
                if (Files.isRegularFile(pom) && Files.readString(pom).contains("<modules>")) {
                    return d;
                }
            } catch (java.io.IOException e) {
                // unreadable: keep looking
            }
        }
        throw new IllegalStateException("no pom.xml with <modules> above " + Path.of("").toAbsolutePath()
                + "; run from the repository or pass --out DIR");
    }
}

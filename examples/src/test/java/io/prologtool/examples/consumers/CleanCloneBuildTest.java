package io.prologtool.examples.consumers;

import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * {@code mvn install} of a clean clone needs nothing but SWI-Prolog and what Maven Central serves: the
 * repository's tracked files are copied to a temporary folder and built with {@code mvn install -DskipTests}
 * against an empty local repository whose one remote repository is what Maven Central served to this
 * build (this build's local repository seen without {@code org/jpl7} and {@code io/prologtool}, as
 * {@link ConsumerProjectTest} sees it). No JPL artifact is installed beforehand and none is resolved: the
 * JPL backend compiles against no JPL jar.
 */
class CleanCloneBuildTest {

    @Test
    void aCleanCloneInstallsWithNoJplArtifactAnywhere() throws Exception {
        Path root = ConsumerProjectTest.property("prologtool.root").toAbsolutePath().normalize();
        Path buildRepo = ConsumerProjectTest.property("prologtool.m2");
        String version = System.getProperty("prologtool.version");
        Path tmp = Files.createTempDirectory("prologtool-clone-");
        try {
            Path clone = tmp.resolve("clone");
            copyTrackedFiles(root, clone);
            assertThat(clone.resolve("pom.xml")).isRegularFile();
            Path repo = Files.createDirectories(tmp.resolve("repo"));
            Path central = ConsumerProjectTest.centralView(buildRepo, tmp.resolve("central"));
            Path settings = tmp.resolve("settings.xml");
            Files.writeString(settings, """
                    <settings>
                      <localRepository>%s</localRepository>
                      <mirrors>
                        <mirror>
                          <id>central</id>
                          <mirrorOf>*</mirrorOf>
                          <url>%s</url>
                        </mirror>
                      </mirrors>
                    </settings>
                    """.formatted(repo, central.toUri()), StandardCharsets.UTF_8);
            Path log = tmp.resolve("mvn.log");
            List<String> cmd = List.of(ConsumerProjectTest.mvn(), "-B", "-ntp", "-q", "-s", settings.toString(),
                    "-gs", settings.toString(), "-f", clone.resolve("pom.xml").toString(), "install", "-DskipTests");
            ProcessBuilder pb = new ProcessBuilder(cmd).directory(clone.toFile()).redirectErrorStream(true)
                    .redirectOutput(log.toFile());
            for (String v : List.of("MAVEN_OPTS", "MAVEN_ARGS", "MAVEN_CONFIG", "MAVEN_BASEDIR", "MAVEN_PROJECTBASEDIR")) {
                pb.environment().remove(v);
            }
            pb.environment().put("MAVEN_OPTS", "-Xmx512m");
            long t0 = System.nanoTime();
            Process p = pb.start();
            boolean ended = p.waitFor(10, TimeUnit.MINUTES);
            if (!ended) {
                p.destroyForcibly();
            }
            String out = Files.readString(log);
            assertThat(ended).as("the clean clone's build ended within 10 minutes: %s", out).isTrue();
            assertThat(p.exitValue()).as("the clean clone's build (%s) said:%n%s", String.join(" ", cmd), out)
                    .isZero();
            System.out.printf("a clean clone built and installed in %.1f s%n", (System.nanoTime() - t0) / 1e9);

            assertThat(repo.resolve("org/jpl7")).as("no JPL artifact resolved").doesNotExist();
            assertThat(repo.resolve("jpl")).as("no JPL artifact resolved").doesNotExist();
            Path ours = repo.resolve("io/prologtool");
            assertThat(ours.resolve("prologtool-jpl/" + version + "/prologtool-jpl-" + version + ".jar")).isRegularFile();
            assertThat(ours.resolve("prologtool-mcp-server/" + version + "/prologtool-mcp-server-" + version
                    + "-runnable.jar")).isRegularFile();
        } finally {
            ConsumerProjectTest.deleteTree(tmp);
        }
    }

    /** The files git tracks under {@code root} (as a clone has them, with their working-tree contents). */
    private static void copyTrackedFiles(Path root, Path to) throws IOException, InterruptedException {
        Process git = new ProcessBuilder("git", "-C", root.toString(), "ls-files", "-z")
                .redirectError(ProcessBuilder.Redirect.DISCARD).start();
        String listing = new String(git.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertThat(git.waitFor(60, TimeUnit.SECONDS)).isTrue();
        assertThat(git.exitValue()).as("git ls-files in %s (a clone of the repository)", root).isZero();
        List<String> files = new ArrayList<>(List.of(listing.split("\0")));
        files.removeIf(String::isEmpty);
        for (String f : files) {
            Path from = root.resolve(f);
            if (Files.isRegularFile(from)) {
                Path target = to.resolve(f);
                Files.createDirectories(target.getParent());
                Files.copy(from, target);
            }
        }
    }
}

package io.prologtool.examples.consumers;

import org.junit.jupiter.api.Test;

import java.io.File;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The library artifacts work for a user, outside this repository: the projects in {@code examples/consumers}
 * (one module per library artifact: api, process, jpl, langchain4j, spring-ai, junit, micrometer, and the
 * Spring Boot starter; each depends on that artifact alone, plus JUnit to run its tests) are copied to a temporary folder outside the reactor and built with
 * {@code mvn test}. They run a session on each backend (JPL's classes from the SWI-Prolog installation,
 * never from a repository), an AiServices agent over the toolbox and a Spring AI {@code ChatClient} over the
 * tool callbacks, each with a scripted chat model, a
 * JUnit test class through the fixture, a Spring Boot application context on the starter (its versions from
 * Spring Boot's BOM), and check that no artifact drags in what it should not (JPL, a
 * logger binding, a model provider, test libraries, mismatched Jackson).
 *
 * <p>What the consumer's Maven sees: a local repository seeded only with the artifacts this build installed
 * ({@code io/prologtool/**}, checked to be the jars this build just made: run it through {@code mvn install},
 * as {@code make test} does), and one remote repository, a mirror of everything else, which holds only what
 * Maven Central served to this build: this build's local repository seen without {@code org/jpl7} (which
 * {@code make} installs by hand from SWI-Prolog) and without {@code io/prologtool}. So a dependency that is
 * not on Maven Central fails here as it would for a user. What the consumers need from Central and this build
 * did not fetch (a user's project resolves Spring AI's own versions of its dependencies) is fetched into the
 * build's repository first ({@link #fetchFromCentral}).
 */
class ConsumerProjectTest {

    static final List<String> LIBRARIES = List.of("prologtool-api", "prologtool-jpl", "prologtool-process",
            "examples/prologtool-langchain4j", "examples/prologtool-spring-ai", "examples/prologtool-junit",
            "examples/prologtool-micrometer", "examples/prologtool-spring-boot-autoconfigure",
            "examples/prologtool-spring-boot-starter");

    /** Each consumer module and the tests it must have run (dynamic tests count one each). */
    static final Map<String, Integer> MODULES = Map.of("api", 2, "process", 2, "jpl", 2, "langchain4j", 2,
            "spring-ai", 2, "junit", 6, "micrometer", 2, "spring-boot", 2);

    static Path property(String name) {
        String v = System.getProperty(name);
        assertThat(v).as("system property %s (set by the examples POM)", name).isNotBlank();
        return Path.of(v);
    }

    @Test
    void aUserProjectBuildsAndRunsEachLibraryArtifactFromMavenCentralAndThisBuild() throws Exception {
        Path root = property("prologtool.root");
        Path buildRepo = property("prologtool.m2");
        String version = System.getProperty("prologtool.version");
        Path tmp = Files.createTempDirectory("prologtool-consumer-");
        try {
            Path project = tmp.resolve("project");
            copyTree(root.resolve("examples/consumers"), project);
            Path repo = tmp.resolve("repo");
            seed(buildRepo, repo, root, version);
            fetchFromCentral(project, buildRepo, version, tmp.resolve("fetch.log"));
            Path central = centralView(buildRepo, tmp.resolve("central"));
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
            List<String> cmd = List.of(mvn(), "-B", "-ntp", "-fae", "-s", settings.toString(), "-gs", settings.toString(),
                    "-Dprologtool.version=" + version, "-f", project.resolve("pom.xml").toString(), "test");
            ProcessBuilder pb = new ProcessBuilder(cmd).directory(project.toFile()).redirectErrorStream(true)
                    .redirectOutput(log.toFile());
            for (String v : List.of("MAVEN_OPTS", "MAVEN_ARGS", "MAVEN_CONFIG", "MAVEN_BASEDIR", "MAVEN_PROJECTBASEDIR")) {
                pb.environment().remove(v);
            }
            pb.environment().put("MAVEN_OPTS", "-Xmx384m");
            long t0 = System.nanoTime();
            Process p = pb.start();
            boolean ended = p.waitFor(5, TimeUnit.MINUTES);
            if (!ended) {
                p.destroyForcibly();
            }
            String out = Files.readString(log);
            assertThat(ended).as("the consumer build ended within 5 minutes: %s", tail(out)).isTrue();
            assertThat(p.exitValue()).as("the consumer build (%s) said:%n%s", String.join(" ", cmd), tail(out))
                    .isZero();
            System.out.printf("consumer projects built and tested in %.1f s%n", (System.nanoTime() - t0) / 1e9);

            for (Map.Entry<String, Integer> m : MODULES.entrySet()) {
                int[] counts = surefireCounts(project.resolve(m.getKey()).resolve("target/surefire-reports"));
                assertThat(counts[0]).as("tests run in consumer %s", m.getKey()).isEqualTo(m.getValue());
                assertThat(counts[1] + counts[2] + counts[3]).as("failed, errors, skipped in consumer %s", m.getKey())
                        .isZero();
            }
            assertThat(repo.resolve("org/jpl7")).as("no consumer resolved JPL from a repository").doesNotExist();
            assertThat(repo.resolve("dev/langchain4j/langchain4j-anthropic")).doesNotExist();
        } finally {
            deleteTree(tmp);
        }
    }

    /** The consumer's local repository: this build's io/prologtool artifacts, checked to be this build's. */
    static void seed(Path buildRepo, Path repo, Path root, String version) throws IOException {
        Path ours = buildRepo.resolve("io/prologtool");
        assertThat(ours).as("this build's installed artifacts").isDirectory();
        for (String lib : LIBRARIES) {
            String artifact = Path.of(lib).getFileName().toString();
            Path built = root.resolve(lib).resolve("target").resolve(artifact + "-" + version + ".jar");
            Path installed = ours.resolve(artifact).resolve(version).resolve(artifact + "-" + version + ".jar");
            assertThat(installed).as("%s installed (run `mvn install`, as `make test` does)", artifact).isRegularFile();
            if (Files.isRegularFile(built)) {
                assertThat(Files.mismatch(built, installed)).as("%s installed is the jar this build made (run "
                        + "`mvn install`, as `make test` does)", artifact).isEqualTo(-1L);
            }
        }
        copyTree(ours, repo.resolve("io/prologtool"));
    }

    /** A view of the build's local repository without org/jpl7 and io/prologtool, made of symbolic links. */
    /**
     * Fetches from Maven Central, into this build's repository, what the consumer projects need and this
     * build did not (a user's project resolves Spring AI's own dependency versions, which this build
     * manages to others): {@code mvn dependency:go-offline} on them with the build's repository. A
     * dependency that is not on Central fails here, as it would for a user.
     */
    static void fetchFromCentral(Path project, Path buildRepo, String version, Path log) throws Exception {
        List<String> cmd = List.of(mvn(), "-B", "-ntp", "-Dmaven.repo.local=" + buildRepo,
                "-Dprologtool.version=" + version, "-f", project.resolve("pom.xml").toString(),
                "dependency:go-offline");
        ProcessBuilder pb = new ProcessBuilder(cmd).directory(project.toFile()).redirectErrorStream(true)
                .redirectOutput(log.toFile());
        for (String v : List.of("MAVEN_OPTS", "MAVEN_ARGS", "MAVEN_CONFIG", "MAVEN_BASEDIR", "MAVEN_PROJECTBASEDIR")) {
            pb.environment().remove(v);
        }
        Process p = pb.start();
        boolean ended = p.waitFor(5, TimeUnit.MINUTES);
        if (!ended) {
            p.destroyForcibly();
        }
        String out = Files.readString(log);
        assertThat(ended && p.exitValue() == 0).as("fetching what the consumer projects need from Maven Central "
                + "(%s) said:%n%s", String.join(" ", cmd), tail(out)).isTrue();
    }

    static Path centralView(Path buildRepo, Path view) throws IOException {
        Files.createDirectories(view);
        try (Stream<Path> top = Files.list(buildRepo)) {
            for (Path group : (Iterable<Path>) top::iterator) {
                String name = group.getFileName().toString();
                if (!Files.isDirectory(group)) {
                    continue;
                }
                if (name.equals("org") || name.equals("io")) {
                    String hidden = name.equals("org") ? "jpl7" : "prologtool";
                    Path dir = Files.createDirectories(view.resolve(name));
                    try (Stream<Path> children = Files.list(group)) {
                        for (Path c : (Iterable<Path>) children::iterator) {
                            if (!c.getFileName().toString().equals(hidden)) {
                                Files.createSymbolicLink(dir.resolve(c.getFileName().toString()), c.toAbsolutePath());
                            }
                        }
                    }
                } else {
                    Files.createSymbolicLink(view.resolve(name), group.toAbsolutePath());
                }
            }
        }
        assertThat(view.resolve("org/jpl7")).doesNotExist();
        assertThat(view.resolve("io/prologtool")).doesNotExist();
        return view;
    }

    static String mvn() {
        String home = System.getProperty("maven.home");
        if (home != null && !home.isBlank() && Files.isExecutable(Path.of(home, "bin", "mvn"))) {
            return Path.of(home, "bin", "mvn").toString();
        }
        for (String dir : System.getenv().getOrDefault("PATH", "").split(File.pathSeparator)) {
            if (!dir.isEmpty() && Files.isExecutable(Path.of(dir, "mvn"))) {
                return Path.of(dir, "mvn").toString();
            }
        }
        throw new AssertionError("mvn is neither under maven.home nor on the PATH");
    }

    private static final Pattern COUNTS = Pattern.compile(
            "Tests run: (\\d+), Failures: (\\d+), Errors: (\\d+), Skipped: (\\d+)");

    /** Tests run, failures, errors and skipped over a module's Surefire reports. */
    static int[] surefireCounts(Path reports) throws IOException {
        assertThat(reports).as("Surefire reports of a consumer module").isDirectory();
        int[] sum = new int[4];
        try (Stream<Path> files = Files.list(reports)) {
            for (Path f : (Iterable<Path>) files.filter(f -> f.toString().endsWith(".txt"))::iterator) {
                Matcher m = COUNTS.matcher(Files.readString(f));
                if (m.find()) {
                    for (int i = 0; i < 4; i++) {
                        sum[i] += Integer.parseInt(m.group(i + 1));
                    }
                }
            }
        }
        return sum;
    }

    static void copyTree(Path from, Path to) throws IOException {
        try (Stream<Path> all = Files.walk(from)) {
            for (Path p : (Iterable<Path>) all::iterator) {
                Path target = to.resolve(from.relativize(p).toString());
                if (Files.isDirectory(p)) {
                    if (!p.getFileName().toString().equals("target")) {
                        Files.createDirectories(target);
                    }
                } else if (!from.relativize(p).toString().contains("target" + File.separator)) {
                    Files.createDirectories(target.getParent());
                    Files.copy(p, target, StandardCopyOption.REPLACE_EXISTING);
                }
            }
        }
    }

    static void deleteTree(Path dir) {
        try (Stream<Path> all = Files.walk(dir)) {
            for (Path p : (Iterable<Path>) all.sorted(Comparator.reverseOrder())::iterator) {
                Files.deleteIfExists(p);
            }
        } catch (IOException e) {
            throw new UncheckedIOException("cannot delete " + dir, e);
        }
    }

    private static String tail(String out) {
        List<String> lines = new ArrayList<>(out.lines().toList());
        return String.join("\n", lines.subList(Math.max(0, lines.size() - 80), lines.size()));
    }
}

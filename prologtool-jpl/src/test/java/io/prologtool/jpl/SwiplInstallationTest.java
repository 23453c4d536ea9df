package io.prologtool.jpl;

import io.prologtool.PrologUnavailableException;
import io.prologtool.jpl.internal.JplBridge;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.net.URISyntaxException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * Where JPL's jar comes from: the SWI-Prolog installation at run time, never a Maven repository. These
 * tests run, like a user's program, without JPL on the classpath (the POM keeps it off Surefire's).
 */
class SwiplInstallationTest {

    @Test
    void jplIsNotOnTheTestClasspathSoTheTestsUseTheInstallationsJar() {
        assertThat(System.getProperty("java.class.path").split(java.io.File.pathSeparator))
                .noneMatch(e -> Path.of(e).getFileName().toString().matches("jpl([-.].*)?\\.jar"));
        assertThatThrownBy(() -> Class.forName("org.jpl7.JPL", false, getClass().getClassLoader()))
                .isInstanceOf(ClassNotFoundException.class);
    }

    @Test
    void thePropertyNamesTheJarBeforeAnyLookup(@TempDir Path dir) throws Exception {
        Path named = jar(dir.resolve("my-jpl.jar"), SwiplInstallation.JPL_CLASS_ENTRY);
        Path home = Files.createDirectories(dir.resolve("home/lib"));
        Files.createFile(home.resolve("jpl.jar"));
        assertThat(SwiplInstallation.findJplJar(named.toString(), dir.resolve("home"), dir.resolve("system.jar")))
                .isEqualTo(named);
    }

    @Test
    void aPropertyNamingNoFileIsOneSentenceNamingThePackage(@TempDir Path dir) {
        assertThatThrownBy(() -> SwiplInstallation.findJplJar(dir.resolve("nope.jar").toString(), dir,
                dir.resolve("system.jar")))
                .isInstanceOf(PrologUnavailableException.class)
                .hasMessageContaining("nope.jar")
                .hasMessageContaining("-Dprologtool.jpl.jar")
                .hasMessageContaining("apt-get install swi-prolog-java")
                .satisfies(e -> assertOneSentence(e.getMessage()));
    }

    @Test
    void aPropertyNamingAFolderIsOneSentenceNamingTheJarInIt(@TempDir Path dir) throws Exception {
        Path inside = jar(dir.resolve("jpl.jar"), SwiplInstallation.JPL_CLASS_ENTRY);
        assertThatThrownBy(() -> SwiplInstallation.findJplJar(dir.toString(), dir, dir.resolve("system.jar")))
                .isInstanceOf(PrologUnavailableException.class)
                .hasMessageContaining("names a folder")
                .hasMessageContaining("-Dprologtool.jpl.jar=" + inside)
                .satisfies(e -> assertOneSentence(e.getMessage()));
    }

    @Test
    void aPropertyNamingAFileThatIsNotAJarIsOneSentence(@TempDir Path dir) throws Exception {
        Path text = Files.writeString(dir.resolve("jpl.jar"), "not a jar");
        assertThatThrownBy(() -> SwiplInstallation.findJplJar(text.toString(), dir, dir.resolve("system.jar")))
                .isInstanceOf(PrologUnavailableException.class)
                .hasMessageContaining(text.toString())
                .hasMessageContaining("not a jar")
                .satisfies(e -> assertOneSentence(e.getMessage()));
    }

    @Test
    void aPropertyNamingAJarThatIsNotJplIsOneSentence(@TempDir Path dir) throws Exception {
        Path other = jar(dir.resolve("other.jar"), "com/example/Main.class");
        assertThatThrownBy(() -> SwiplInstallation.findJplJar(other.toString(), dir, dir.resolve("system.jar")))
                .isInstanceOf(PrologUnavailableException.class)
                .hasMessageContaining(other.toString())
                .hasMessageContaining("not JPL")
                .satisfies(e -> assertOneSentence(e.getMessage()));
    }

    @Test
    void aJvmWhosePropertyNamesAJarThatIsNotJplSaysSoInOneLine(@TempDir Path dir) throws Exception {
        Path other = jar(dir.resolve("other.jar"), "com/example/Main.class");
        Path java = Path.of(System.getProperty("java.home"), "bin", "java");
        Process p = new ProcessBuilder(java.toString(), "-Dprologtool.jpl.jar=" + other,
                "-cp", System.getProperty("java.class.path"), JplChildMain.class.getName()).redirectErrorStream(true)
                .start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertThat(p.waitFor(60, TimeUnit.SECONDS)).isTrue();
        assertThat(p.exitValue()).as("child JVM said: %s", out).isEqualTo(JplChildMain.UNAVAILABLE);
        assertThat(out).contains("other.jar").contains("not JPL");
        assertThat(out.strip().lines().count()).as("one line: %s", out).isEqualTo(1);
    }

    @Test
    void aSwiplPathThatIsNotSwiplIsOneSentence() {
        Path notSwipl = Path.of("/bin/true");
        assertThatThrownBy(() -> SwiplInstallation.locate(notSwipl))
                .isInstanceOf(PrologUnavailableException.class)
                .hasMessageContaining("/bin/true")
                .hasMessageContaining("is not SWI-Prolog")
                .satisfies(e -> assertOneSentence(e.getMessage()));
    }

    /** A zip archive holding one empty entry of each name. */
    private static Path jar(Path file, String... entries) throws IOException {
        try (java.util.zip.ZipOutputStream zip = new java.util.zip.ZipOutputStream(Files.newOutputStream(file))) {
            for (String e : entries) {
                zip.putNextEntry(new java.util.zip.ZipEntry(e));
                zip.closeEntry();
            }
        }
        return file;
    }

    @Test
    void theInstallationsLibFolderComesBeforeTheSystemJar(@TempDir Path dir) throws Exception {
        Path home = dir.resolve("home");
        Files.createDirectories(home.resolve("lib"));
        Path system = Files.createFile(dir.resolve("system-jpl.jar"));
        assertThat(SwiplInstallation.findJplJar(null, home, system)).isEqualTo(system);
        Path own = Files.createFile(home.resolve("lib/jpl.jar"));
        assertThat(SwiplInstallation.findJplJar(null, home, system)).isEqualTo(own);
        assertThat(SwiplInstallation.findJplJar(" ", home, system)).as("a blank property counts as unset")
                .isEqualTo(own);
    }

    @Test
    void aMissingJarIsOneSentenceNamingThePackageAndWhereItLooked(@TempDir Path dir) {
        assertThatThrownBy(() -> SwiplInstallation.findJplJar(null, dir.resolve("home"), dir.resolve("system.jar")))
                .isInstanceOf(PrologUnavailableException.class)
                .hasMessageContaining("apt-get install swi-prolog-java")
                .hasMessageContaining(dir.resolve("home/lib/jpl.jar").toString())
                .hasMessageContaining(dir.resolve("system.jar").toString())
                .satisfies(e -> assertOneSentence(e.getMessage()));
    }

    @Test
    void thisMachinesInstallationHasAJarAndItsClassesLoadThroughTheBridgeLoader() throws Exception {
        SwiplInstallation inst = SwiplInstallation.locate(null);
        Path jar = inst.jplJar();
        assertThat(jar).isRegularFile().hasFileName("jpl.jar");
        try (JplClasses.BridgeLoader loader = JplClasses.loader(jar, getClass().getClassLoader())) {
            Class<?> bridge = loader.loadClass(JplClasses.BRIDGE_CLASS);
            assertThat(bridge.getClassLoader()).isSameAs(loader);
            assertThat(JplBridge.class).isAssignableFrom(bridge);
            Class<?> jpl = Class.forName("org.jpl7.JPL", false, loader);
            assertThat(Path.of(jpl.getProtectionDomain().getCodeSource().getLocation().toURI())).isEqualTo(jar);
            assertThat(loader.loadClass(JplBridge.class.getName())).as("the interface is shared, not copied")
                    .isSameAs(JplBridge.class);
        }
    }

    @Test
    void theRunningBackendTookJplFromTheInstallationsJar() throws URISyntaxException {
        try (JplBackend backend = JplBackend.get()) {
            ClassLoader loader = backend.runtime().jplClassLoader();
            assertThat(loader).isInstanceOf(JplClasses.BridgeLoader.class);
            assertThat(backend.open().goal("X = 1").run().answers()).hasSize(1);
        }
    }

    @Test
    void aJvmWhosePropertyNamesNoJarSaysWhatToInstall(@TempDir Path dir) throws Exception {
        Path java = Path.of(System.getProperty("java.home"), "bin", "java");
        ProcessBuilder pb = new ProcessBuilder(java.toString(), "-Dprologtool.jpl.jar=" + dir.resolve("missing.jar"),
                "-cp", System.getProperty("java.class.path"), JplChildMain.class.getName()).redirectErrorStream(true);
        Process p = pb.start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertThat(p.waitFor(60, TimeUnit.SECONDS)).isTrue();
        assertThat(p.exitValue()).as("child JVM said: %s", out).isEqualTo(JplChildMain.UNAVAILABLE);
        assertThat(out).contains("missing.jar").contains("apt-get install swi-prolog-java");
        assertThat(out.strip().lines().count()).as("one line: %s", out).isEqualTo(1);
    }

    private static void assertOneSentence(String message) {
        assertThat(message.lines().count()).as("one line: %s", message).isEqualTo(1);
        assertThat(message.replaceAll("`[^`]*`", "").replaceAll("\\([^)]*\\)", "")).as("one sentence: %s", message)
                .doesNotContain(". ");
    }
}

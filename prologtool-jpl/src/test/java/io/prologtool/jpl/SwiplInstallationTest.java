package io.prologtool.jpl;

import io.prologtool.PrologUnavailableException;
import io.prologtool.jpl.internal.JplBridge;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

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
        Path named = Files.createFile(dir.resolve("my-jpl.jar"));
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

package io.prologtool.examples.consumers;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import javax.tools.ToolProvider;
import java.io.ByteArrayOutputStream;
import java.io.File;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A modular application ({@code examples/consumers/modular}) on the module path: what the README's
 * "Module path" note promises. {@code io.prologtool.api} is a named module that requires Jackson's databind
 * transitively; the backends are automatic modules. The application requires the API and both backends,
 * names no Jackson module, and runs both backends and the tool layer with no {@code --add-modules}.
 */
class ModulePathTest {

    @Test
    void aModularApplicationRunsBothBackendsWithoutNamingJackson(@TempDir Path tmp) throws Exception {
        Path root = ConsumerProjectTest.property("prologtool.root");
        Path repo = ConsumerProjectTest.property("prologtool.m2");
        String version = System.getProperty("prologtool.version");
        Path src = tmp.resolve("src");
        ConsumerProjectTest.copyTree(root.resolve("examples/consumers/modular"), src);
        List<Path> modules = new ArrayList<>();
        for (String lib : List.of("prologtool-api", "prologtool-process", "prologtool-jpl")) {
            modules.add(root.resolve(lib).resolve("target").resolve(lib + "-" + version + ".jar"));
        }
        // the versions this build resolved (jackson-bom, the parent POM's JNA)
        for (String jar : List.of("com/fasterxml/jackson/core/jackson-databind/2.22.1/jackson-databind-2.22.1.jar",
                "com/fasterxml/jackson/core/jackson-core/2.22.1/jackson-core-2.22.1.jar",
                "com/fasterxml/jackson/core/jackson-annotations/2.22/jackson-annotations-2.22.jar",
                "net/java/dev/jna/jna/5.19.1/jna-5.19.1.jar")) {
            modules.add(repo.resolve(jar));
        }
        modules.forEach(m -> assertThat(m).isRegularFile());
        String modulePath = String.join(File.pathSeparator, modules.stream().map(Path::toString).toList());

        Path out = tmp.resolve("out");
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        int rc = ToolProvider.getSystemJavaCompiler().run(null, err, err, "-d", out.toString(), "--module-path",
                modulePath, "--module-source-path", src.toString(), "-m", "app");
        assertThat(rc).as("javac: %s", err.toString(StandardCharsets.UTF_8)).isZero();

        String output = run(modulePath + File.pathSeparator + out);
        assertThat(output).contains("process [X = 1, X = 2]").contains("tools {\"ok\":true")
                .contains("jpl [X = 1, X = 2]");

        // Jackson comes through io.prologtool.api's `requires transitive`: the application does not name it.
        assertThat(Files.readString(src.resolve("app/module-info.java"))).doesNotContain("jackson");
    }

    private static String run(String modulePath) throws Exception {
        Path java = Path.of(System.getProperty("java.home"), "bin", "java");
        Process p = new ProcessBuilder(java.toString(), "--module-path", modulePath, "-m", "app/app.Main")
                .redirectErrorStream(true).start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertThat(p.waitFor(60, TimeUnit.SECONDS)).as("the modular application ended: %s", out).isTrue();
        return out;
    }
}

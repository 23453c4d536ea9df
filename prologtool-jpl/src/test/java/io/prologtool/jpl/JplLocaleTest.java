package io.prologtool.jpl;

import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * An application started without a locale (no {@code LANG}, as MCP clients start servers) loads the
 * harness into the embedded Prolog without a word on standard error: every Prolog source the backend
 * loads declares its encoding, so the C locale's default encoding never reads it.
 */
class JplLocaleTest {

    @Test
    void theBackendsOwnPrologFileDeclaresUtf8OnItsFirstLine() throws Exception {
        try (var in = JplLocaleTest.class.getClassLoader().getResourceAsStream("io/prologtool/jpl/prologtool_jpl.pl")) {
            assertThat(in).as("the JPL entry file on the classpath").isNotNull();
            String text = new String(in.readAllBytes(), StandardCharsets.UTF_8);
            assertThat(text.lines().findFirst().orElse("")).isEqualTo(":- encoding(utf8).");
        }
    }

    @Test
    void underTheCLocaleTheHarnessLoadsAndNothingIsPrinted() throws Exception {
        Path java = Path.of(System.getProperty("java.home"), "bin", "java");
        ProcessBuilder pb = new ProcessBuilder(java.toString(), "-cp", System.getProperty("java.class.path"),
                JplChildMain.class.getName(), "queries").redirectErrorStream(true);
        Map<String, String> env = pb.environment();
        env.keySet().removeIf(k -> k.equals("LANG") || k.equals("LANGUAGE") || k.startsWith("LC_"));
        env.put("LC_ALL", "C");
        Process p = pb.start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertThat(p.waitFor(60, TimeUnit.SECONDS)).as("child JVM ended").isTrue();
        assertThat(p.exitValue()).as("child JVM said: %s", out).isEqualTo(JplChildMain.ANSWERED);
        // The library's own log lines (the backend's start, at INFO) are not what this test is about.
        String printed = out.lines().filter(l -> !l.startsWith("INFO io.prologtool."))
                .collect(Collectors.joining("\n")).strip();
        assertThat(printed).as("the child's standard output and error").isEqualTo("CLOSED " + JplChildMain.QUERIES);
    }
}

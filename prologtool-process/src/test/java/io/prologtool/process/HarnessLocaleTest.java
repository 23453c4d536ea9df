package io.prologtool.process;

import io.prologtool.spi.Harness;
import io.prologtool.spi.Executables;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.Map;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The harness loads from its files into a {@code swipl} started under the C locale (no {@code LANG}, as
 * MCP clients start servers) without a word on standard error: each file declares its encoding.
 */
class HarnessLocaleTest {

    @Test
    void underTheCLocaleTheHarnessFilesLoadSilently(@TempDir Path dir) throws Exception {
        Path harness = Harness.extractTo(dir);
        Path swipl = Executables.findOnPath("swipl").orElseThrow();
        ProcessBuilder pb = new ProcessBuilder(swipl.toString(), "-q", "--no-packs", "-f", "none",
                "-g", "load_files('" + harness + "', [silent(true)]), writeln(loaded)", "-t", "halt")
                .redirectErrorStream(true);
        Map<String, String> env = pb.environment();
        env.keySet().removeIf(k -> k.equals("LANG") || k.equals("LANGUAGE") || k.startsWith("LC_"));
        env.put("LC_ALL", "C");
        Process p = pb.start();
        p.getOutputStream().close();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertThat(p.waitFor(60, TimeUnit.SECONDS)).as("swipl ended").isTrue();
        assertThat(out.strip()).as("what swipl printed").isEqualTo("loaded");
    }
}

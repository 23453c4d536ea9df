package io.prologtool.examples.mcp;

import org.junit.jupiter.api.Test;

import java.nio.file.Path;
import java.util.jar.JarFile;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The MCP server's runnable jar is attached to the build with the classifier {@value #CLASSIFIER}, so
 * {@code mvn install} puts it into the local repository beside the plain jar, where a user or a script can
 * take it by its coordinates ({@code io.prologtool:prologtool-mcp-server:VERSION:jar:runnable}).
 */
class McpServerArtifactTest {

    static final String CLASSIFIER = "runnable";

    @Test
    void theLocalRepositoryHoldsTheRunnableJarWithItsMainClass() throws Exception {
        String m2 = System.getProperty("prologtool.m2");
        String version = System.getProperty("prologtool.version");
        assertThat(m2).as("system property prologtool.m2 (set by the examples POM)").isNotBlank();
        assertThat(version).as("system property prologtool.version (set by the examples POM)").isNotBlank();
        Path jar = Path.of(m2, "io", "prologtool", "prologtool-mcp-server", version,
                "prologtool-mcp-server-" + version + "-" + CLASSIFIER + ".jar");
        assertThat(jar).as("installed by `mvn install` of examples/mcp-server").isRegularFile();
        try (JarFile j = new JarFile(jar.toFile())) {
            assertThat(j.getManifest().getMainAttributes().getValue("Main-Class"))
                    .isEqualTo("io.prologtool.mcp.PrologMcpServer");
            assertThat(j.getEntry("io/modelcontextprotocol/server/McpServer.class"))
                    .as("the dependencies are inside").isNotNull();
        }
    }
}

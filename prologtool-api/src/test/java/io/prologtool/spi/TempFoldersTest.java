package io.prologtool.spi;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** Backends' temporary folders: made with an owner file, swept when their JVM has ended, else left alone. */
class TempFoldersTest {

    @Test
    void aFolderIsMadeInTheTemporaryDirectoryWithAFileNamingThisJvm() throws IOException {
        Path dir = TempFolders.create("prologtool-test-");
        try {
            assertThat(dir.getParent()).isEqualTo(Path.of(System.getProperty("java.io.tmpdir")).toAbsolutePath());
            assertThat(dir.getFileName().toString()).startsWith("prologtool-test-");
            String owner = Files.readString(dir.resolve(TempFolders.OWNER_FILE), StandardCharsets.UTF_8);
            assertThat(owner).startsWith(ProcessHandle.current().pid() + " ");
            assertThat(TempFolders.ended(dir, TempFolders.bootId().orElseThrow(), TempFolders.pidNamespace().orElseThrow()))
                    .as("this JVM runs").isFalse();
        } finally {
            TempFolders.deleteTree(dir);
        }
        assertThat(dir).doesNotExist();
    }

    @Test
    void aPrefixOutsideTheSweptOnesIsRefused() {
        assertThatThrownBy(() -> TempFolders.create("other-")).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("prologtool-");
    }

    @Test
    void theSweepDeletesTheFoldersOfEndedProcessesAndNothingElse(@TempDir Path tmp) throws Exception {
        Process sleeper = new ProcessBuilder("sleep", "60").start();
        String deadOwner = TempFolders.owner(sleeper.toHandle());
        sleeper.destroyForcibly();
        assertThat(sleeper.waitFor(10, TimeUnit.SECONDS)).isTrue();

        Path dead = folder(tmp, "prologtool-dead", deadOwner);
        Path deadOtherName = folder(tmp, "other-dead", deadOwner);
        Path live = folder(tmp, "prologtool-live", TempFolders.owner(ProcessHandle.current()));
        Path noOwner = Files.createDirectory(tmp.resolve("prologtool-no-owner"));
        String[] w = deadOwner.split(" ");
        Path otherBoot = folder(tmp, "prologtool-other-boot", w[0] + " " + w[1] + " another-boot " + w[3]);
        Path otherNamespace = folder(tmp, "prologtool-other-ns", w[0] + " " + w[1] + " " + w[2] + " pid:[1]");
        Path reused = folder(tmp, "prologtool-reused-pid",
                ProcessHandle.current().pid() + " 12345 " + w[2] + " " + w[3]);

        assertThat(TempFolders.sweep(tmp)).isEqualTo(2);

        assertThat(dead).as("a folder of an ended process").doesNotExist();
        assertThat(reused).as("a folder of an ended process whose id a running one has now").doesNotExist();
        assertThat(deadOtherName).as("a folder whose name is not a backend's").exists();
        assertThat(live).as("a folder of a running process").exists();
        assertThat(noOwner).as("a folder without an owner file").exists();
        assertThat(otherBoot).as("a folder of another boot").exists();
        assertThat(otherNamespace).as("a folder of another process namespace").exists();
    }

    private static Path folder(Path tmp, String name, String owner) throws IOException {
        Path dir = Files.createDirectory(tmp.resolve(name));
        Files.writeString(dir.resolve("swipl_x_1_1"), "left behind");
        Files.writeString(dir.resolve(TempFolders.OWNER_FILE), owner, StandardCharsets.UTF_8);
        return dir;
    }
}

package io.prologtool.process;

import io.prologtool.PrologSession;
import io.prologtool.spi.SavedStateCache;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The saved state cached between JVMs ({@link ProcessBackend.Builder#stateCache}): compiled once, started from
 * afterwards, one whole file when backends start at once, stale files swept, unsafe folders refused.
 */
class SavedStateCacheTest {

    private static List<Path> files(Path dir) throws Exception {
        try (Stream<Path> s = Files.list(dir)) {
            return s.sorted().toList();
        }
    }

    private static void answers(ProcessBackend backend) {
        try (PrologSession s = backend.open()) {
            assertThat(s.goal("X is 6 * 7").run().firstAnswer().orElseThrow().getInt("X")).isEqualTo(42);
        }
    }

    @Test
    void theFirstBackendCompilesTheStateAndTheNextStartsFromTheSameFile(@TempDir Path tmp) throws Exception {
        Path cache = tmp.resolve("cache");
        Object firstFile;
        Path state;
        try (ProcessBackend first = ProcessBackend.builder().stateCache(cache).build()) {
            state = first.savedState().orElseThrow();
            assertThat(state.getParent()).isEqualTo(cache);
            assertThat(state.getFileName().toString()).matches("harness-[0-9a-f]{32}\\.state");
            assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(cache))).isEqualTo("rwx------");
            firstFile = Files.readAttributes(state, java.nio.file.attribute.BasicFileAttributes.class).fileKey();
            answers(first);
        }
        assertThat(state).as("the cached state outlives the backend").isRegularFile();
        Files.setLastModifiedTime(state, FileTime.from(Instant.now().minus(Duration.ofDays(1))));
        try (ProcessBackend second = ProcessBackend.builder().stateCache(cache).build()) {
            assertThat(second.savedState()).contains(state);
            assertThat(Files.readAttributes(state, java.nio.file.attribute.BasicFileAttributes.class).fileKey())
                    .as("the same file, not compiled again").isEqualTo(firstFile);
            assertThat(Files.getLastModifiedTime(state).toInstant())
                    .as("marked used").isAfter(Instant.now().minus(Duration.ofMinutes(1)));
            answers(second);
        }
        assertThat(files(cache)).containsExactly(state);
    }

    @Test
    void backendsStartingAtOnceOnAnEmptyCacheLeaveOneWholeState(@TempDir Path tmp) throws Exception {
        Path cache = tmp.resolve("cache");
        CountDownLatch go = new CountDownLatch(1);
        List<CompletableFuture<ProcessBackend>> starts = new ArrayList<>();
        for (int i = 0; i < 3; i++) {
            starts.add(CompletableFuture.supplyAsync(() -> {
                try {
                    go.await();
                } catch (InterruptedException e) {
                    throw new IllegalStateException(e);
                }
                return ProcessBackend.builder().stateCache(cache).build();
            }));
        }
        go.countDown();
        List<ProcessBackend> backends = starts.stream().map(CompletableFuture::join).toList();
        try {
            for (ProcessBackend b : backends) {
                assertThat(b.savedState()).as("each started from the cache").isPresent();
                assertThat(b.savedState().get().getParent()).isEqualTo(cache);
                answers(b);
            }
            assertThat(files(cache)).as("one state, no temporary file left").hasSize(1);
        } finally {
            backends.forEach(ProcessBackend::close);
        }
    }

    @Test
    void statesUnusedForLongAndLeftOverTemporariesAreSweptWhenANewStateIsWritten(@TempDir Path tmp) throws Exception {
        Path cache = Files.createDirectory(tmp.resolve("cache"), PosixFilePermissions.asFileAttribute(
                PosixFilePermissions.fromString("rwx------")));
        Path old = Files.writeString(cache.resolve("harness-00000000000000000000000000000000.state"), "old");
        Path recent = Files.writeString(cache.resolve("harness-11111111111111111111111111111111.state"), "recent");
        Path tmpLeft = Files.writeString(cache.resolve("harness-22222222222222222222222222222222.123.tmp"), "x");
        Path other = Files.writeString(cache.resolve("notes.txt"), "not ours");
        Instant longAgo = Instant.now().minus(SavedStateCache.UNUSED_FOR).minus(Duration.ofDays(1));
        Files.setLastModifiedTime(old, FileTime.from(longAgo));
        Files.setLastModifiedTime(tmpLeft, FileTime.from(longAgo));
        Files.setLastModifiedTime(other, FileTime.from(longAgo));
        try (ProcessBackend b = ProcessBackend.builder().stateCache(cache).build()) {
            assertThat(files(cache)).contains(b.savedState().orElseThrow(), recent, other).doesNotContain(old, tmpLeft);
        }
    }

    @Test
    void aFolderOthersMayWriteIsNotUsedAndTheBackendCompilesAStateOfItsOwn(@TempDir Path tmp) throws Exception {
        Path shared = Files.createDirectory(tmp.resolve("shared"));
        Files.setPosixFilePermissions(shared, PosixFilePermissions.fromString("rwxrwxrwx"));
        try (ProcessBackend b = ProcessBackend.builder().stateCache(shared).build()) {
            assertThat(b.savedState()).isPresent();
            assertThat(b.savedState().get().getParent()).isEqualTo(b.workDir());
            assertThat(files(shared)).isEmpty();
            answers(b);
        }
        try (ProcessBackend b = ProcessBackend.builder().stateCache(null).build()) {
            assertThat(b.savedState().orElseThrow().getParent()).isEqualTo(b.workDir());
        }
    }
}

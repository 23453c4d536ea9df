package io.prologtool.store;

import io.prologtool.PrologToolException;
import io.prologtool.SessionCheckpoint;
import io.prologtool.SessionOptions;
import io.prologtool.SessionStore;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * The folder store: what it keeps reads back whole, from another store on the folder and after a kill -9;
 * its leases (the {@link DurableStoreContract}) are file locks.
 */
class FolderSessionStoreTest extends DurableStoreContract {

    @TempDir
    Path dir;

    @Override
    protected SessionStore store() {
        return SessionStore.folder(dir);
    }

    @Override
    protected String spec() {
        return "folder:" + dir;
    }

    @Test
    void aLeaseFileStaysWhileTheSessionIsKeptAndGoesWithIt() {
        SessionStore store = store();
        store.save(checkpoint("kept", "k.\n"));
        store.lease("kept", "r").close();
        assertThat(dir.resolve("kept.lease")).as("the session is kept: its lease file stays").exists();
        SessionStore.Lease lease = store.lease("kept", "r");
        store.delete("kept");
        lease.close();
        assertThat(dir.resolve("kept.lease")).as("the session is gone: so is its lease file").doesNotExist();
        assertThat(store.sessionIds()).isEmpty();
    }

    private static SessionCheckpoint checkpoint(String id, String program) {
        SessionOptions o = SessionOptions.builder().sandboxed(false).stackLimitBytes(64L << 20).maxOutputChars(999)
                .consultTimeLimit(Duration.ofSeconds(7)).testTimeLimit(Duration.ofMillis(1500)).maxSourceChars(12345)
                .clauseSpaceBytes(3L << 20).maxAtomChars(4096).tableSpaceBytes(5L << 20).maxOpenStreams(9)
                .allowThreads(true).maxOpenQueries(3).staticCheck(false).declareDiscontiguous(false).build();
        return new SessionCheckpoint(id, o, program, List.of(":- begin_tests(u).\ntest(a) :- true.\n:- end_tests(u).\n"),
                Instant.parse("2026-12-06T21:00:00.123456Z"));
    }

    @Test
    void aCheckpointReadsBackAsItWasWrittenInAnotherStoreOnTheFolder() {
        // text JSON cannot carry as it is (a lone surrogate) and text beyond the BMP come back as they were
        String program = "p('caf\u00e9', \"\ud83d\ude00\", '\ud800').\nq(X) :- p(X, _, _).\n";
        SessionCheckpoint c = checkpoint("s-1", program);
        SessionStore.folder(dir).save(c);

        SessionStore other = SessionStore.folder(dir);
        SessionCheckpoint back = other.load("s-1").orElseThrow();
        assertThat(back.sessionId()).isEqualTo("s-1");
        assertThat(back.program()).isEqualTo(program);
        assertThat(back.tests()).isEqualTo(c.tests());
        assertThat(back.takenAt()).isEqualTo(c.takenAt());
        // every option but the rule base store, which is the application's
        assertThat(back.options().toString()).isEqualTo(c.options().toString());
        assertThat(other.sessionIds()).containsExactly("s-1");
        assertThat(other.load("s-2")).isEmpty();
    }

    @Test
    void aSaveReplacesTheCheckpointAndADeleteForgetsIt() {
        SessionStore store = SessionStore.folder(dir);
        store.save(checkpoint("a", "v(1).\n"));
        store.save(checkpoint("a", "v(2).\n"));
        store.save(checkpoint("b", "v(3).\n"));
        assertThat(store.load("a").orElseThrow().program()).isEqualTo("v(2).\n");
        assertThat(store.sessionIds()).containsExactlyInAnyOrder("a", "b");
        assertThat(store.delete("a")).isTrue();
        assertThat(store.delete("a")).isFalse();
        assertThat(store.load("a")).isEmpty();
        assertThat(store.sessionIds()).containsExactly("b");
        try (Stream<Path> files = Files.list(dir)) {
            assertThat(files.map(p -> p.getFileName().toString())).as("no temporary file left")
                    .containsExactly("b.json");
        } catch (java.io.IOException e) {
            throw new AssertionError(e);
        }
    }

    @Test
    void idsThatAreNoFileNameAndFilesThatAreNoCheckpointAreTypedErrors() throws Exception {
        SessionStore store = SessionStore.folder(dir);
        for (String bad : List.of("", "../x", "a/b", ".hidden", "x".repeat(201))) {
            assertThatThrownBy(() -> store.save(checkpoint(bad, "")))
                    .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("ids are");
        }
        Files.writeString(dir.resolve("junk.json"), "{not json", StandardCharsets.UTF_8);
        assertThatThrownBy(() -> store.load("junk")).isInstanceOf(PrologToolException.class)
                .hasMessageContaining("junk.json").hasMessageContaining("not JSON");
        Files.writeString(dir.resolve("new.json"), "{\"format\": 99, \"session_id\": \"new\", \"program\": \"\"}");
        assertThatThrownBy(() -> store.load("new")).isInstanceOf(PrologToolException.class)
                .hasMessageContaining("format 99").hasMessageContaining("newer prologtool");
        store.save(checkpoint("moved", "m.\n"));
        Files.move(dir.resolve("moved.json"), dir.resolve("elsewhere.json"));
        assertThatThrownBy(() -> store.load("elsewhere")).isInstanceOf(PrologToolException.class)
                .hasMessageContaining("session moved");
        Path file = Files.writeString(dir.resolve("plain-file"), "");
        assertThatThrownBy(() -> SessionStore.folder(file)).isInstanceOf(PrologToolException.class)
                .hasMessageContaining("plain-file");
    }

    /**
     * A JVM that saves checkpoints of growing size as fast as it can is killed with SIGKILL: every file in
     * the folder is then a whole checkpoint, one the JVM wrote, and the store opens and writes on.
     */
    @Test
    void aJvmKilledWhileSavingLeavesOnlyWholeCheckpoints() throws Exception {
        Path java = Path.of(System.getProperty("java.home"), "bin", "java");
        Process child = new ProcessBuilder(java.toString(), "-Xmx128m", "-cp", System.getProperty("java.class.path"),
                FolderStoreWriterMain.class.getName(), dir.toString())
                .redirectErrorStream(true).redirectOutput(dir.resolveSibling(dir.getFileName() + ".log").toFile())
                .start();
        try {
            long until = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
            while (countSaved() < 200 && System.nanoTime() < until && child.isAlive()) {
                Thread.sleep(20);
            }
            assertThat(child.isAlive()).as("the writer runs until it is killed").isTrue();
        } finally {
            child.destroyForcibly(); // SIGKILL on Linux
            child.waitFor(30, TimeUnit.SECONDS);
        }
        SessionStore store = SessionStore.folder(dir);
        List<String> ids = store.sessionIds();
        assertThat(ids).hasSize(FolderStoreWriterMain.SESSIONS);
        for (String id : ids) {
            SessionCheckpoint c = store.load(id).orElseThrow();
            assertThat(FolderStoreWriterMain.isWhole(c)).as("checkpoint of %s is one the writer made", id).isTrue();
        }
        store.save(checkpoint(ids.get(0), "after.\n"));
        assertThat(store.load(ids.get(0)).orElseThrow().program()).isEqualTo("after.\n");
        Files.deleteIfExists(dir.resolveSibling(dir.getFileName() + ".log")); // kept when the test fails, to read
    }

    private int countSaved() throws java.io.IOException {
        Path progress = dir.resolveSibling(dir.getFileName() + ".log");
        if (!Files.exists(progress)) {
            return 0;
        }
        List<String> lines = new ArrayList<>(Files.readAllLines(progress));
        return (int) lines.stream().filter(l -> l.startsWith("saved ")).count();
    }
}

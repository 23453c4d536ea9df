package io.prologtool;

import io.prologtool.store.FolderSessionStore;
import io.prologtool.store.InMemorySessionStore;

import java.nio.file.Path;
import java.util.List;
import java.util.Optional;

/**
 * Where session checkpoints ({@link SessionCheckpoint}) are kept, by session id, so that a session can be
 * opened again ({@link PrologBackend#restore(SessionCheckpoint)}) after its JVM ended, or in another JVM.
 * Implementations are thread-safe.
 *
 * <pre>{@code
 * SessionStore store = SessionStore.folder(Path.of("/var/lib/myapp/sessions"));
 * store.save(session.checkpoint());
 * // later, in this JVM or another one on the same folder:
 * PrologSession again = backend.restore(store.load(id).orElseThrow());
 * }</pre>
 */
public interface SessionStore {

    /**
     * Keeps {@code checkpoint} under its {@link SessionCheckpoint#sessionId() session id}, replacing the one
     * kept there before. Durable when it returns, as far as the store is (see each implementation).
     *
     * @throws IllegalArgumentException when the store cannot keep a session of that id
     * @throws PrologToolException      when the store could not write it (nothing kept before is lost)
     */
    void save(SessionCheckpoint checkpoint);

    /**
     * The checkpoint kept for {@code sessionId}, if one is.
     *
     * @throws PrologToolException when the store holds one but could not read it
     */
    Optional<SessionCheckpoint> load(String sessionId);

    /** Forgets the checkpoint of {@code sessionId}; true when one was kept. */
    boolean delete(String sessionId);

    /** The ids of the sessions whose checkpoints are kept, in no particular order. */
    List<String> sessionIds();

    /** A store in this JVM's memory: what ends with the JVM. */
    static SessionStore inMemory() {
        return new InMemorySessionStore();
    }

    /**
     * A store in a folder on disk (created if missing), one file per session: each save writes a new file
     * beside the old one, forces it to the disk, and renames it over the old one, so a checkpoint that was
     * saved survives the JVM's end and a {@code kill -9}, and a reader never sees half of one. Several JVMs
     * on one machine may read and write the same folder.
     *
     * @throws PrologToolException when the folder cannot be created or is not a folder
     */
    static SessionStore folder(Path directory) {
        return new FolderSessionStore(directory);
    }
}

package io.prologtool;

import io.prologtool.store.FolderSessionStore;
import io.prologtool.store.InMemorySessionStore;
import io.prologtool.store.JdbcSessionStore;

import javax.sql.DataSource;
import java.nio.file.Path;
import java.time.Instant;
import java.util.List;
import java.util.Optional;

/**
 * Where session checkpoints ({@link SessionCheckpoint}) are kept, by session id, so that a session can be
 * opened again ({@link PrologBackend#restore(SessionCheckpoint)}) after its JVM ended, or in another JVM.
 * Implementations are thread-safe.
 *
 * <p>A store also hands out {@linkplain #lease leases}: a registry on the store holds the lease of each
 * session it has open, so that two registries on one store (two JVMs, replicas of one service) never serve
 * one session at once.
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

    /**
     * When the checkpoint of {@code sessionId} was last saved, by the clock of the machine that saved it
     * (the database's, for {@link #jdbc}); empty when none is kept. A registry saves a session's checkpoint
     * again when it lets the session go, so this is when the session was last changed or let go.
     */
    Optional<Instant> savedAt(String sessionId);

    /** The ids of the sessions whose checkpoints were last saved before {@code instant} (see {@link #savedAt}). */
    List<String> sessionIdsSavedBefore(Instant instant);

    /**
     * Takes the lease of {@code sessionId} for {@code holder} (a name for the registry that takes it, which
     * the error of anyone else who asks names): while it is held, {@code lease} of that id fails for every
     * other taker, in this JVM or another one. A lease ends with {@link Lease#close()}, or with its holder:
     * a lease of a JVM that ended (a {@code kill -9} included) is free as soon as the store can tell (the
     * folder store's file lock at once; PostgreSQL when it sees the connection gone, at once for a process
     * that died, after TCP keepalive for a machine that vanished). A store of your own whose storage cannot
     * tell gives its leases an expiry that their holder renews. A session's checkpoint can be saved and
     * loaded whoever holds its lease; the lease is what registries agree on.
     *
     * @throws SessionHeldException when another holder has it
     * @throws PrologToolException  when the store could not be asked
     */
    Lease lease(String sessionId, String holder);

    /** A session's lease, held until it is closed; {@link #close()} is idempotent. */
    interface Lease extends AutoCloseable {

        /** The session it is the lease of. */
        String sessionId();

        /** Who holds it. */
        String holder();

        /** Lets the session go: another holder can take its lease now. */
        @Override
        void close();
    }

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

    /**
     * A store in a PostgreSQL database, for sessions that move between JVMs on several machines: one row
     * per session, each save one transaction, leases held as PostgreSQL session-level advisory locks (which
     * end with the JVM that holds them). The store creates its tables when they are missing (in the
     * connection's default schema) and checks their version; give it a pooled {@code DataSource} (each save
     * takes a connection and gives it back) whose user may create tables. Tested on PostgreSQL 15; other
     * databases are refused.
     *
     * @throws PrologToolException when the database cannot be reached, is not PostgreSQL, or holds tables of
     *                             a newer version of this store
     */
    static SessionStore jdbc(DataSource dataSource) {
        return new JdbcSessionStore(dataSource);
    }

    /**
     * {@link #jdbc(DataSource)} on a JDBC URL, with the user and password in it ({@code
     * jdbc:postgresql://db.example/app?user=app&password=secret}), which keeps up to four connections given
     * back for the next save ({@link JdbcSessionStore#dataSource(String)}); give an application's pooled
     * {@code DataSource} to bound the connections or share them. The PostgreSQL JDBC driver ({@code
     * org.postgresql:postgresql}) must be on the class path.
     *
     * @throws PrologToolException when the database cannot be reached, is not PostgreSQL, or holds tables of
     *                             a newer version of this store
     */
    static SessionStore jdbc(String url) {
        return new JdbcSessionStore(JdbcSessionStore.dataSource(url));
    }
}

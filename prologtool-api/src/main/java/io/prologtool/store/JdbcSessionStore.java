package io.prologtool.store;

import io.prologtool.PrologToolException;
import io.prologtool.SessionCheckpoint;
import io.prologtool.SessionHeldException;
import io.prologtool.SessionStore;

import javax.sql.DataSource;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;

/**
 * {@link SessionStore#jdbc(DataSource)}: checkpoints in a PostgreSQL table, leases as advisory locks.
 *
 * <p>The tables, in the connection's default schema (its {@code search_path}):
 * <ul>
 *   <li>{@code prologtool_schema(version)}: the version of the tables below ({@value #SCHEMA_VERSION});
 *       a store refuses tables of a newer version, and brings older ones up to its own;</li>
 *   <li>{@code prologtool_sessions(session_id, checkpoint, taken_at, saved_at)}: one row per session, the
 *       checkpoint as the folder store writes it (JSON), replaced by each save in one statement;</li>
 *   <li>{@code prologtool_leases(session_id, holder, taken_at)}: who holds each lease, for the error of
 *       anyone else who asks.</li>
 * </ul>
 *
 * <p>A lease is a session-level advisory lock ({@code pg_try_advisory_lock}) on a connection the store
 * keeps while it holds any lease: PostgreSQL ends the lock when that connection ends, so the leases of a
 * JVM that was killed are free as soon as the server sees its connection gone (at once for a process
 * that died on the database's machine or whose machine closed the socket; after the server's TCP
 * keepalive otherwise). The lock key is the first 64 bits of the SHA-256 of the session id.
 */
public final class JdbcSessionStore implements SessionStore {

    /** The version of the tables this code creates and reads. */
    public static final int SCHEMA_VERSION = 1;
    /** The advisory lock taken while the tables are checked or created (ASCII "prologt"). */
    private static final long SCHEMA_LOCK = 0x70726f6c6f6774L;
    private static final int MAX_ID = 200;

    private final DataSource dataSource;
    private final String name;
    /** Guards {@link #leaseConnection} and {@link #held}. */
    private final Object leases = new Object();
    /** Holds this store's advisory locks; open while {@link #held} is not empty. */
    private Connection leaseConnection;
    private final Map<String, JdbcLease> held = new HashMap<>();

    public JdbcSessionStore(DataSource dataSource) {
        this.dataSource = Objects.requireNonNull(dataSource, "dataSource");
        try (Connection c = dataSource.getConnection()) {
            String product = c.getMetaData().getDatabaseProductName();
            String url = String.valueOf(c.getMetaData().getURL());
            int q = url.indexOf('?');
            this.name = "SessionStore.jdbc(" + (q < 0 ? url : url.substring(0, q)) + ")";
            if (!"PostgreSQL".equalsIgnoreCase(product)) {
                throw new PrologToolException("SessionStore.jdbc keeps sessions in PostgreSQL (it takes its "
                        + "advisory locks for leases); the data source is " + product);
            }
            createOrCheckTables(c);
        } catch (SQLException e) {
            throw new PrologToolException("cannot open the session store on the data source " + dataSource + ": "
                    + e.getMessage(), e);
        }
    }

    private void createOrCheckTables(Connection c) throws SQLException {
        boolean auto = c.getAutoCommit();
        c.setAutoCommit(false);
        try (Statement st = c.createStatement()) {
            // two JVMs that start at once: the second waits here, then finds the tables made
            st.execute("SELECT pg_advisory_xact_lock(" + SCHEMA_LOCK + ")");
            st.execute("CREATE TABLE IF NOT EXISTS prologtool_schema (version INTEGER NOT NULL)");
            Integer version = null;
            try (ResultSet rs = st.executeQuery("SELECT max(version) FROM prologtool_schema")) {
                if (rs.next()) {
                    int v = rs.getInt(1);
                    version = rs.wasNull() ? null : v;
                }
            }
            if (version != null && version > SCHEMA_VERSION) {
                throw new PrologToolException(name + " holds tables of version " + version + "; this prologtool "
                        + "reads version " + SCHEMA_VERSION + " and older: use the prologtool that made them, "
                        + "or a newer one");
            }
            if (version == null) {
                st.execute("CREATE TABLE prologtool_sessions (session_id VARCHAR(" + MAX_ID + ") PRIMARY KEY, "
                        + "checkpoint TEXT NOT NULL, taken_at TIMESTAMP WITH TIME ZONE NOT NULL, "
                        + "saved_at TIMESTAMP WITH TIME ZONE NOT NULL)");
                st.execute("CREATE TABLE prologtool_leases (session_id VARCHAR(" + MAX_ID + ") PRIMARY KEY, "
                        + "holder TEXT NOT NULL, taken_at TIMESTAMP WITH TIME ZONE NOT NULL)");
                st.execute("INSERT INTO prologtool_schema (version) VALUES (" + SCHEMA_VERSION + ")");
            }
            // version < SCHEMA_VERSION: the migrations go here when there is a second version
            c.commit();
        } catch (SQLException | RuntimeException e) {
            c.rollback();
            throw e;
        } finally {
            c.setAutoCommit(auto);
        }
    }

    @Override
    public void save(SessionCheckpoint checkpoint) {
        Objects.requireNonNull(checkpoint, "checkpoint");
        String id = checkId(checkpoint.sessionId());
        String json = new String(CheckpointJson.write(checkpoint), StandardCharsets.UTF_8);
        update("save the checkpoint of session " + id + " (the one kept before is unchanged)", c -> {
            try (PreparedStatement ps = c.prepareStatement("INSERT INTO prologtool_sessions "
                    + "(session_id, checkpoint, taken_at, saved_at) VALUES (?, ?, ?, now()) "
                    + "ON CONFLICT (session_id) DO UPDATE SET checkpoint = EXCLUDED.checkpoint, "
                    + "taken_at = EXCLUDED.taken_at, saved_at = EXCLUDED.saved_at")) {
                ps.setString(1, id);
                ps.setString(2, json);
                ps.setObject(3, OffsetDateTime.ofInstant(checkpoint.takenAt(), ZoneOffset.UTC));
                return ps.executeUpdate();
            }
        });
    }

    @Override
    public Optional<SessionCheckpoint> load(String sessionId) {
        String id = checkId(sessionId);
        String json;
        try (Connection c = dataSource.getConnection();
             PreparedStatement ps = c.prepareStatement(
                     "SELECT checkpoint FROM prologtool_sessions WHERE session_id = ?")) {
            ps.setString(1, id);
            try (ResultSet rs = ps.executeQuery()) {
                if (!rs.next()) {
                    return Optional.empty();
                }
                json = rs.getString(1);
            }
        } catch (SQLException e) {
            throw new PrologToolException("cannot read the checkpoint of session " + id + " from " + name + ": "
                    + e.getMessage(), e);
        }
        SessionCheckpoint cp = CheckpointJson.read(json.getBytes(StandardCharsets.UTF_8),
                name + ", the row of session " + id);
        if (!cp.sessionId().equals(id)) {
            throw new PrologToolException("the row of session " + id + " in " + name + " holds the checkpoint "
                    + "of session " + cp.sessionId() + "; it was changed by hand");
        }
        return Optional.of(cp);
    }

    @Override
    public boolean delete(String sessionId) {
        String id = checkId(sessionId);
        return update("delete the checkpoint of session " + id, c -> {
            try (PreparedStatement ps = c.prepareStatement("DELETE FROM prologtool_sessions WHERE session_id = ?")) {
                ps.setString(1, id);
                return ps.executeUpdate();
            }
        }) > 0;
    }

    @Override
    public List<String> sessionIds() {
        return ids("SELECT session_id FROM prologtool_sessions", null);
    }

    @Override
    public Optional<Instant> savedAt(String sessionId) {
        String id = checkId(sessionId);
        try (Connection c = dataSource.getConnection();
             PreparedStatement ps = c.prepareStatement("SELECT saved_at FROM prologtool_sessions WHERE session_id = ?")) {
            ps.setString(1, id);
            try (ResultSet rs = ps.executeQuery()) {
                return rs.next() ? Optional.of(rs.getObject(1, OffsetDateTime.class).toInstant()) : Optional.empty();
            }
        } catch (SQLException e) {
            throw new PrologToolException("cannot read when session " + id + " was saved in " + name + ": "
                    + e.getMessage(), e);
        }
    }

    @Override
    public List<String> sessionIdsSavedBefore(Instant instant) {
        return ids("SELECT session_id FROM prologtool_sessions WHERE saved_at < ?",
                OffsetDateTime.ofInstant(Objects.requireNonNull(instant, "instant"), ZoneOffset.UTC));
    }

    /** The session ids {@code sql} selects, with {@code parameter} (if not null) as its one parameter. */
    private List<String> ids(String sql, Object parameter) {
        List<String> ids = new ArrayList<>();
        try (Connection c = dataSource.getConnection(); PreparedStatement ps = c.prepareStatement(sql)) {
            if (parameter != null) {
                ps.setObject(1, parameter);
            }
            try (ResultSet rs = ps.executeQuery()) {
                while (rs.next()) {
                    ids.add(rs.getString(1));
                }
            }
        } catch (SQLException e) {
            throw new PrologToolException("cannot list the sessions of " + name + ": " + e.getMessage(), e);
        }
        return ids;
    }

    @Override
    public Lease lease(String sessionId, String holder) {
        String id = checkId(sessionId);
        Objects.requireNonNull(holder, "holder");
        synchronized (leases) {
            JdbcLease mine = held.get(id);
            if (mine != null) {
                throw new SessionHeldException(id, mine.holder(), name);
            }
            try {
                Connection c = leaseConnection();
                long deadline = System.nanoTime() + StoreLease.NAME_WAIT_NANOS;
                while (!tryLock(c, key(id))) {
                    String who = null;
                    try (PreparedStatement ps = c.prepareStatement(
                            "SELECT holder FROM prologtool_leases WHERE session_id = ?")) {
                        ps.setString(1, id);
                        try (ResultSet rs = ps.executeQuery()) {
                            who = rs.next() ? rs.getString(1) : null;
                        }
                    }
                    if (who != null || System.nanoTime() > deadline) {
                        closeLeaseConnectionIfIdle();
                        throw new SessionHeldException(id, who, name);
                    }
                    StoreLease.pause(); // its holder has just locked it, or is letting it go
                }
                try (PreparedStatement ps = c.prepareStatement("INSERT INTO prologtool_leases "
                        + "(session_id, holder, taken_at) VALUES (?, ?, now()) ON CONFLICT (session_id) "
                        + "DO UPDATE SET holder = EXCLUDED.holder, taken_at = EXCLUDED.taken_at")) {
                    ps.setString(1, id);
                    ps.setString(2, holder);
                    ps.executeUpdate();
                } catch (SQLException e) {
                    unlock(c, key(id));
                    throw e;
                }
                JdbcLease lease = new JdbcLease(id, holder);
                held.put(id, lease);
                return lease;
            } catch (SQLException e) {
                closeLeaseConnectionIfIdle();
                throw new PrologToolException("cannot take the lease of session " + id + " in " + name + ": "
                        + e.getMessage(), e);
            }
        }
    }

    private final class JdbcLease extends StoreLease {

        JdbcLease(String sessionId, String holder) {
            super(sessionId, holder);
        }

        @Override
        public void close() {
            synchronized (leases) {
                if (!held.remove(sessionId(), this)) {
                    return;
                }
                try {
                    try (PreparedStatement ps = leaseConnection.prepareStatement(
                            "DELETE FROM prologtool_leases WHERE session_id = ? AND holder = ?")) {
                        ps.setString(1, sessionId());
                        ps.setString(2, holder());
                        ps.executeUpdate();
                    }
                    unlock(leaseConnection, key(sessionId()));
                } catch (SQLException e) {
                    if (isBroken(leaseConnection, e)) {
                        // gone, and PostgreSQL ended its locks with it: the leases still held are taken again
                        closeQuietly(leaseConnection);
                        leaseConnection = null;
                        retakeHeld();
                    } else {
                        // a live connection keeps every lock it holds: this one stays held until it ends
                        io.prologtool.spi.Logs.REGISTRY.log(System.Logger.Level.WARNING, "the lease of session "
                                + sessionId() + " could not be let go in " + name + ": " + e.getMessage());
                    }
                } finally {
                    closeLeaseConnectionIfIdle();
                }
            }
        }
    }

    /**
     * The connection that holds the leases, opened when there is none and opened again when it broke (the
     * database restarted, say): then the leases still held are taken again on the new one.
     */
    private Connection leaseConnection() throws SQLException {
        if (leaseConnection != null && !leaseConnection.isValid(5)) {
            closeQuietly(leaseConnection);
            leaseConnection = null;
        }
        if (leaseConnection == null) {
            Connection c = dataSource.getConnection();
            c.setAutoCommit(true);
            leaseConnection = c;
            retakeHeld();
        }
        return leaseConnection;
    }

    /** After the lease connection was lost: each lease held is taken again where nobody took it meanwhile. */
    private void retakeHeld() {
        if (held.isEmpty()) {
            return;
        }
        try {
            if (leaseConnection == null) {
                Connection c = dataSource.getConnection();
                c.setAutoCommit(true);
                leaseConnection = c;
            }
            for (String id : List.copyOf(held.keySet())) {
                if (!tryLock(leaseConnection, key(id))) {
                    io.prologtool.spi.Logs.REGISTRY.log(System.Logger.Level.WARNING, "the lease of session " + id
                            + " was lost with the connection that held it in " + name
                            + ", and another registry took it meanwhile");
                }
            }
        } catch (SQLException e) {
            io.prologtool.spi.Logs.REGISTRY.log(System.Logger.Level.WARNING, "the leases held in " + name
                    + " could not be taken again after their connection was lost: " + e.getMessage());
        }
    }

    /** Whether {@code e} says the connection is gone (a connection error, the server ended the session). */
    private static boolean isBroken(Connection c, SQLException e) {
        String state = e.getSQLState();
        if (state != null && (state.startsWith("08") || state.startsWith("57P"))) {
            return true;
        }
        try {
            return c.isClosed();
        } catch (SQLException closed) {
            return true;
        }
    }

    private void closeLeaseConnectionIfIdle() {
        if (held.isEmpty() && leaseConnection != null) {
            closeQuietly(leaseConnection);
            leaseConnection = null;
        }
    }

    private static boolean tryLock(Connection c, long key) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement("SELECT pg_try_advisory_lock(?)")) {
            ps.setLong(1, key);
            try (ResultSet rs = ps.executeQuery()) {
                return rs.next() && rs.getBoolean(1);
            }
        }
    }

    private static void unlock(Connection c, long key) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement("SELECT pg_advisory_unlock(?)")) {
            ps.setLong(1, key);
            ps.executeQuery().close();
        }
    }

    /** The advisory lock key of a session: the first 64 bits of the SHA-256 of its id. */
    static long key(String sessionId) {
        try {
            byte[] d = MessageDigest.getInstance("SHA-256").digest(
                    ("prologtool session " + sessionId).getBytes(StandardCharsets.UTF_8));
            return ByteBuffer.wrap(d).getLong();
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("every JVM has SHA-256", e);
        }
    }

    private static void closeQuietly(Connection c) {
        try {
            c.close();
        } catch (SQLException ignored) {
            // already gone
        }
    }

    private interface Update {
        int run(Connection c) throws SQLException;
    }

    /** One statement in a transaction of its own, whatever the data source's connections are set to. */
    private int update(String what, Update u) {
        try (Connection c = dataSource.getConnection()) {
            boolean auto = c.getAutoCommit();
            try {
                int n = u.run(c);
                if (!auto) {
                    c.commit();
                }
                return n;
            } catch (SQLException e) {
                if (!auto) {
                    c.rollback();
                }
                throw e;
            }
        } catch (SQLException e) {
            throw new PrologToolException("cannot " + what + " in " + name + ": " + e.getMessage(), e);
        }
    }

    private static String checkId(String sessionId) {
        Objects.requireNonNull(sessionId, "sessionId");
        if (sessionId.isEmpty() || sessionId.length() > MAX_ID || sessionId.indexOf('\0') >= 0) {
            throw new IllegalArgumentException("a JDBC session store keeps sessions whose ids are 1 to " + MAX_ID
                    + " characters, none of them NUL; got a " + sessionId.length() + "-character id");
        }
        return sessionId;
    }

    /**
     * A data source on a JDBC URL with the user and password in it ({@code
     * jdbc:postgresql://host/db?user=u&password=p}): what {@link SessionStore#jdbc(String)} runs on. It
     * opens connections through {@link java.sql.DriverManager} and keeps up to four that were given back
     * for the next use (each checked with {@code isValid} before it is used again), so a save does not pay
     * for a new connection. The JDBC driver must be on the class path.
     */
    public static DataSource dataSource(String url) {
        return new UrlDataSource(url);
    }

    @Override
    public String toString() {
        return name;
    }
}

package io.prologtool.store;

import io.prologtool.PrologToolException;
import io.prologtool.SessionCheckpoint;
import io.prologtool.SessionHeldException;
import io.prologtool.SessionOptions;
import io.prologtool.SessionStore;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import javax.sql.DataSource;
import java.lang.reflect.Proxy;
import java.sql.Connection;
import java.sql.DatabaseMetaData;
import java.sql.ResultSet;
import java.sql.Statement;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

/**
 * The JDBC store on a real PostgreSQL server ({@link PostgresServer}, a database per test): checkpoints
 * read back as written, the tables are created once and versioned, leases are advisory locks (the {@link
 * DurableStoreContract}) that survive a lost connection.
 */
class JdbcSessionStoreTest extends DurableStoreContract {

    private final PostgresServer server = PostgresServer.shared();
    private String database;

    @BeforeEach
    void newDatabase() {
        database = server.newDatabaseName();
    }

    @Override
    protected SessionStore store() {
        return SessionStore.jdbc(PostgresServer.dataSource(server.url(database)));
    }

    @Override
    protected String spec() {
        return server.url(database);
    }

    private static SessionCheckpoint checkpoint(String id, String program) {
        SessionOptions o = SessionOptions.builder().sandboxed(false).maxOutputChars(999)
                .consultTimeLimit(Duration.ofSeconds(7)).maxSourceChars(12345).build();
        return new SessionCheckpoint(id, o, program, List.of(":- begin_tests(u).\ntest(a).\n:- end_tests(u).\n"),
                Instant.parse("2026-12-06T21:00:00.123456Z"));
    }

    @Test
    void aCheckpointReadsBackAsItWasWrittenInAnotherStoreOnTheDatabase() {
        // a NUL, a lone surrogate and text beyond the BMP: what a TEXT column or JSON cannot carry as it is
        String program = "p('caf\u00e9', \"\ud83d\ude00\", '\ud800', 'a\u0000b').\nq(X) :- p(X, _, _, _).\n";
        SessionCheckpoint c = checkpoint("s-1", program);
        store().save(c);
        SessionStore other = store();
        SessionCheckpoint back = other.load("s-1").orElseThrow();
        assertThat(back.program()).isEqualTo(program);
        assertThat(back.tests()).isEqualTo(c.tests());
        assertThat(back.takenAt()).isEqualTo(c.takenAt());
        assertThat(back.options().toString()).isEqualTo(c.options().toString());
        assertThat(other.load("s-2")).isEmpty();

        other.save(checkpoint("s-1", "v(2).\n"));
        other.save(checkpoint("s-3", "v(3).\n"));
        assertThat(store().load("s-1").orElseThrow().program()).isEqualTo("v(2).\n");
        assertThat(store().sessionIds()).containsExactlyInAnyOrder("s-1", "s-3");
        assertThat(store().delete("s-1")).isTrue();
        assertThat(store().delete("s-1")).isFalse();
        assertThat(store().sessionIds()).containsExactly("s-3");
        assertThatThrownBy(() -> store().save(checkpoint("x".repeat(201), ""))).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("1 to 200");
    }

    @Test
    void theTablesAreCreatedOnceWhenStoresOpenAtOnceAndCarryTheirVersion() throws Exception {
        ExecutorService pool = Executors.newFixedThreadPool(4);
        try {
            List<Future<SessionStore>> opened = new ArrayList<>();
            for (int i = 0; i < 4; i++) {
                opened.add(pool.submit(this::store));
            }
            for (Future<SessionStore> f : opened) {
                f.get().save(checkpoint("same", "x.\n"));
            }
        } finally {
            pool.shutdownNow();
        }
        try (Connection c = PostgresServer.dataSource(server.url(database)).getConnection();
             Statement st = c.createStatement();
             ResultSet rs = st.executeQuery("SELECT version FROM prologtool_schema")) {
            assertThat(rs.next()).isTrue();
            assertThat(rs.getInt(1)).isEqualTo(JdbcSessionStore.SCHEMA_VERSION);
            assertThat(rs.next()).as("one version row").isFalse();
        }
    }

    @Test
    void tablesOfANewerVersionAndOtherDatabasesAreRefusedWithTypedErrors() throws Exception {
        store();
        try (Connection c = PostgresServer.dataSource(server.url(database)).getConnection();
             Statement st = c.createStatement()) {
            st.execute("UPDATE prologtool_schema SET version = 99");
        }
        assertThatThrownBy(this::store).isInstanceOf(PrologToolException.class)
                .hasMessageContaining("version 99").hasMessageContaining("reads version 1");

        DataSource h2 = (DataSource) Proxy.newProxyInstance(getClass().getClassLoader(),
                new Class<?>[] {DataSource.class}, (p, m, a) -> switch (m.getName()) {
                    case "getConnection" -> Proxy.newProxyInstance(getClass().getClassLoader(),
                            new Class<?>[] {Connection.class}, (p2, m2, a2) -> switch (m2.getName()) {
                                case "getMetaData" -> Proxy.newProxyInstance(getClass().getClassLoader(),
                                        new Class<?>[] {DatabaseMetaData.class}, (p3, m3, a3) -> switch (m3.getName()) {
                                            case "getDatabaseProductName" -> "H2";
                                            case "getURL" -> "jdbc:h2:mem:x";
                                            default -> null;
                                        });
                                default -> null;
                            });
                    case "toString" -> "an H2 data source";
                    default -> null;
                });
        assertThatThrownBy(() -> SessionStore.jdbc(h2)).isInstanceOf(PrologToolException.class)
                .hasMessageContaining("PostgreSQL").hasMessageContaining("H2");
    }

    /** The data source of SessionStore.jdbc(url): a connection given back is used again, unless it broke. */
    @Test
    void aUrlDataSourceUsesAConnectionAgainUnlessItBroke() throws Exception {
        DataSource ds = JdbcSessionStore.dataSource(server.url(database));
        int first;
        try (Connection c = ds.getConnection()) {
            first = pid(c);
            c.setAutoCommit(false);
            try (Statement st = c.createStatement()) {
                st.execute("CREATE TABLE left_open (x INTEGER)"); // never committed
            }
        }
        try (Connection c = ds.getConnection()) {
            assertThat(pid(c)).as("the same connection, given back").isEqualTo(first);
            assertThat(c.getAutoCommit()).as("as a new one would be").isTrue();
            try (Statement st = c.createStatement();
                 ResultSet rs = st.executeQuery("SELECT count(*) FROM pg_tables WHERE tablename = 'left_open'")) {
                rs.next();
                assertThat(rs.getInt(1)).as("what the last user left open was rolled back").isZero();
            }
        }
        Connection closed = ds.getConnection();
        closed.close();
        assertThat(closed.isClosed()).isTrue();
        assertThatThrownBy(closed::createStatement).isInstanceOf(java.sql.SQLException.class);
        server.dropConnections(database);
        try (Connection c = ds.getConnection()) {
            assertThat(pid(c)).as("a broken connection is not used again").isNotEqualTo(first);
        }
        assertThat(ds.toString()).doesNotContain("user=");
    }

    private static int pid(Connection c) throws java.sql.SQLException {
        try (Statement st = c.createStatement(); ResultSet rs = st.executeQuery("SELECT pg_backend_pid()")) {
            rs.next();
            return rs.getInt(1);
        }
    }

    /** A lease held has its holder's row; one let go leaves neither row nor lock behind. */
    @Test
    void aLeaseLetGoLeavesNoRowBehind() throws Exception {
        SessionStore store = store();
        SessionStore.Lease a = store.lease("a", "first");
        SessionStore.Lease b = store.lease("b", "first");
        assertThat(leaseRows()).containsExactlyInAnyOrder("a=first", "b=first");
        a.close();
        assertThat(leaseRows()).containsExactly("b=first");
        try (SessionStore.Lease again = store().lease("a", "second")) {
            assertThat(leaseRows()).containsExactlyInAnyOrder("a=second", "b=first");
        }
        b.close();
        assertThat(leaseRows()).isEmpty();
    }

    private List<String> leaseRows() throws java.sql.SQLException {
        List<String> rows = new ArrayList<>();
        try (Connection c = PostgresServer.dataSource(server.url(database)).getConnection();
             Statement st = c.createStatement();
             ResultSet rs = st.executeQuery("SELECT session_id, holder FROM prologtool_leases")) {
            while (rs.next()) {
                rows.add(rs.getString(1) + "=" + rs.getString(2));
            }
        }
        return rows;
    }

    @Test
    void leasesLostWithTheirConnectionAreTakenAgain() {
        SessionStore mine = store();
        SessionStore.Lease a = mine.lease("a", "mine");
        server.dropConnections(database); // as a database restart would: PostgreSQL ends the locks
        SessionStore.Lease b = mine.lease("b", "mine"); // a new connection, and "a" taken again on it
        SessionHeldException e = catchThrowableOfType(() -> store().lease("a", "other"), SessionHeldException.class);
        assertThat(e).as("a is held again after the lost connection").isNotNull();
        assertThat(e.holder()).isEqualTo("mine");
        a.close();
        b.close();
        store().lease("a", "other").close();
    }
}

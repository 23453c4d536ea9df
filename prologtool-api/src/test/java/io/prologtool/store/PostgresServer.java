package io.prologtool.store;

import javax.sql.DataSource;
import java.io.IOException;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.Stream;

/**
 * A real PostgreSQL server for the tests, started by them without Docker: the PostgreSQL of the OS
 * packages ({@code make test} installs it where missing: apt-get install postgresql), a cluster of its
 * own made by {@code initdb} in a temporary folder, on a free port of 127.0.0.1, stopped and removed when
 * the JVM ends. As root it runs as the {@code postgres} user (PostgreSQL refuses root). One server per
 * JVM ({@link #shared()}); each test takes a database of its own ({@link #newDatabase()}).
 *
 * <p>A test that needs it fails when PostgreSQL is not installed; it never skips.
 */
public final class PostgresServer {

    private static PostgresServer shared;
    private static final AtomicInteger DATABASES = new AtomicInteger();

    private final Path bin;
    private final Path dir;
    private final int port;
    private final boolean asPostgres;

    /** The server of this JVM's tests, started on first use, with fsync off (its data is thrown away). */
    public static synchronized PostgresServer shared() {
        if (shared == null) {
            shared = start(false);
        }
        return shared;
    }

    /** A server of its own that forces each commit to the disk, as a production one does: for the bench. */
    public static PostgresServer durable() {
        return start(true);
    }

    private PostgresServer(Path bin, Path dir, int port, boolean asPostgres) {
        this.bin = bin;
        this.dir = dir;
        this.port = port;
        this.asPostgres = asPostgres;
    }

    private static PostgresServer start(boolean fsync) {
        Path bin = findBin();
        boolean root = "root".equals(System.getProperty("user.name"));
        try {
            Path dir = Files.createTempDirectory("prologtool-pg");
            if (root) {
                run(List.of("chown", "postgres:postgres", dir.toString()), false, 30);
            }
            Path data = dir.resolve("data");
            run(List.of(bin.resolve("initdb").toString(), "-D", data.toString(), "-U", "prologtool", "-A", "trust",
                    "-E", "UTF8", "--no-sync"), root, 120);
            IOException last = null;
            for (int attempt = 0; attempt < 3; attempt++) {
                int port = freePort();
                try {
                    run(List.of(bin.resolve("pg_ctl").toString(), "-D", data.toString(), "-l",
                            dir.resolve("server.log").toString(), "-w", "-t", "60", "-o",
                            "-p " + port + " -k " + dir + " -c listen_addresses=127.0.0.1 -c fsync="
                                    + (fsync ? "on" : "off") + " -c max_connections=300", "start"), root, 90);
                    PostgresServer s = new PostgresServer(bin, dir, port, root);
                    Runtime.getRuntime().addShutdownHook(new Thread(s::stop, "postgres-stop"));
                    return s;
                } catch (IOException e) {
                    last = e; // the port was taken meanwhile, say
                }
            }
            throw new IllegalStateException("PostgreSQL did not start: " + last.getMessage() + "\n" + log(dir));
        } catch (IOException e) {
            throw new IllegalStateException("cannot set up a PostgreSQL cluster for the tests: " + e.getMessage(), e);
        }
    }

    /** {@code PROLOGTOOL_PG_BIN}, else the newest {@code /usr/lib/postgresql/<version>/bin}, else the PATH's. */
    private static Path findBin() {
        String env = System.getenv("PROLOGTOOL_PG_BIN");
        if (env != null && !env.isBlank()) {
            return Path.of(env);
        }
        Path debian = Path.of("/usr/lib/postgresql");
        if (Files.isDirectory(debian)) {
            try (Stream<Path> versions = Files.list(debian)) {
                var newest = versions.filter(v -> Files.isExecutable(v.resolve("bin/initdb")))
                        .max(Comparator.comparingInt(v -> {
                            try {
                                return Integer.parseInt(v.getFileName().toString());
                            } catch (NumberFormatException e) {
                                return -1;
                            }
                        }));
                if (newest.isPresent()) {
                    return newest.get().resolve("bin");
                }
            } catch (IOException ignored) {
                // look on the PATH
            }
        }
        for (String p : System.getenv().getOrDefault("PATH", "").split(":")) {
            if (!p.isEmpty() && Files.isExecutable(Path.of(p, "initdb")) && Files.isExecutable(Path.of(p, "pg_ctl"))) {
                return Path.of(p);
            }
        }
        throw new IllegalStateException("PostgreSQL's server is not installed (no initdb in /usr/lib/postgresql/*/bin "
                + "or on the PATH): `make test` installs it (apt-get install postgresql); or set PROLOGTOOL_PG_BIN to "
                + "a folder holding initdb and pg_ctl");
    }

    private static int freePort() throws IOException {
        try (ServerSocket s = new ServerSocket(0)) {
            return s.getLocalPort();
        }
    }

    private static void run(List<String> command, boolean asPostgres, int seconds) throws IOException {
        List<String> cmd = new ArrayList<>();
        if (asPostgres) {
            cmd.addAll(List.of("runuser", "-u", "postgres", "--"));
        }
        cmd.addAll(command);
        Process p = new ProcessBuilder(cmd).redirectErrorStream(true).start();
        String out;
        try {
            out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
            if (!p.waitFor(seconds, TimeUnit.SECONDS)) {
                p.destroyForcibly();
                throw new IOException(String.join(" ", cmd) + " did not end within " + seconds + " s");
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IOException("interrupted", e);
        }
        if (p.exitValue() != 0) {
            throw new IOException(String.join(" ", cmd) + " exited with " + p.exitValue() + ": " + out);
        }
    }

    private static String log(Path dir) {
        try {
            return Files.readString(dir.resolve("server.log"));
        } catch (IOException e) {
            return "(no server log)";
        }
    }

    /** The server's port on 127.0.0.1. */
    public int port() {
        return port;
    }

    /** The JDBC URL of database {@code name}, with the user in it (the cluster trusts local connections). */
    public String url(String name) {
        return "jdbc:postgresql://127.0.0.1:" + port + "/" + name + "?user=prologtool";
    }

    /** A data source on {@code url} as {@link #url} writes it: a new connection each time, no pool. */
    public static DataSource dataSource(String url) {
        return JdbcSessionStore.dataSource(url);
    }

    /** A new empty database; its name. */
    public String newDatabaseName() {
        String name = "t" + ProcessHandle.current().pid() + "_" + DATABASES.incrementAndGet();
        try (Connection c = dataSource(url("postgres")).getConnection(); Statement st = c.createStatement()) {
            st.execute("CREATE DATABASE " + name);
        } catch (SQLException e) {
            throw new IllegalStateException("cannot create database " + name + ": " + e.getMessage() + "\n"
                    + log(dir), e);
        }
        return name;
    }

    /** A data source on a new empty database. */
    public DataSource newDatabase() {
        return dataSource(url(newDatabaseName()));
    }

    /** Closes every other connection to database {@code name}, as a server restart or a network cut would. */
    public void dropConnections(String name) {
        try (Connection c = dataSource(url("postgres")).getConnection(); Statement st = c.createStatement()) {
            st.execute("SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = '" + name + "'");
        } catch (SQLException e) {
            throw new IllegalStateException(e);
        }
    }

    private void stop() {
        try {
            run(List.of(bin.resolve("pg_ctl").toString(), "-D", dir.resolve("data").toString(), "-m", "immediate",
                    "stop"), asPostgres, 60);
        } catch (IOException ignored) {
            // the JVM ends anyway; a server left behind is a test machine's, in a temporary folder
        }
        try (Stream<Path> files = Files.walk(dir)) {
            files.sorted(Comparator.reverseOrder()).forEach(f -> f.toFile().delete());
        } catch (IOException ignored) {
            // left in the temporary folder
        }
    }
}

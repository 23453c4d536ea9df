package io.prologtool.store;

import javax.sql.DataSource;
import java.io.PrintWriter;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Proxy;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.sql.SQLFeatureNotSupportedException;
import java.util.Deque;
import java.util.Objects;
import java.util.concurrent.ConcurrentLinkedDeque;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.logging.Logger;

/**
 * {@link JdbcSessionStore#dataSource(String)}: connections from {@link DriverManager} on one URL, up to
 * {@link #MAX_IDLE} of those given back kept for the next use. Not a pool for an application (no bound on
 * the connections open at once, no timeouts): what a session store on a URL needs, a connection per save
 * without a new login each time.
 */
final class UrlDataSource implements DataSource {

    static final int MAX_IDLE = 4;

    private final String url;
    private final Deque<Connection> idle = new ConcurrentLinkedDeque<>();

    UrlDataSource(String url) {
        Objects.requireNonNull(url, "url");
        if (!url.startsWith("jdbc:")) {
            throw new IllegalArgumentException("a JDBC URL starts with jdbc: (jdbc:postgresql://host/db), got " + url);
        }
        this.url = url;
    }

    @Override
    public Connection getConnection() throws SQLException {
        Connection c;
        while ((c = idle.pollFirst()) != null) {
            try {
                if (c.isValid(2)) {
                    return given(c);
                }
            } catch (SQLException ignored) {
                // broken: drop it
            }
            closeQuietly(c);
        }
        return given(DriverManager.getConnection(url));
    }

    /** {@code c} as handed out: its close gives it back (or closes it when enough are kept). */
    private Connection given(Connection c) {
        AtomicBoolean closed = new AtomicBoolean();
        return (Connection) Proxy.newProxyInstance(Connection.class.getClassLoader(), new Class<?>[] {Connection.class},
                (proxy, method, args) -> {
                    switch (method.getName()) {
                        case "close" -> {
                            if (closed.compareAndSet(false, true)) {
                                giveBack(c);
                            }
                            return null;
                        }
                        case "isClosed" -> {
                            return closed.get() || c.isClosed();
                        }
                        default -> {
                            if (closed.get()) {
                                throw new SQLException("the connection was closed");
                            }
                            try {
                                return method.invoke(c, args);
                            } catch (InvocationTargetException e) {
                                throw e.getCause();
                            }
                        }
                    }
                });
    }

    private void giveBack(Connection c) {
        try {
            if (!c.isClosed() && !c.getAutoCommit()) {
                c.rollback(); // nothing left open for the next user
                c.setAutoCommit(true);
            }
            if (!c.isClosed() && idle.size() < MAX_IDLE) {
                idle.addFirst(c);
                return;
            }
        } catch (SQLException ignored) {
            // broken: closed below
        }
        closeQuietly(c);
    }

    private static void closeQuietly(Connection c) {
        try {
            c.close();
        } catch (SQLException ignored) {
            // already gone
        }
    }

    @Override
    public Connection getConnection(String user, String password) throws SQLException {
        return DriverManager.getConnection(url, user, password);
    }

    @Override
    public PrintWriter getLogWriter() {
        return DriverManager.getLogWriter();
    }

    @Override
    public void setLogWriter(PrintWriter out) {
        throw new UnsupportedOperationException("set DriverManager's log writer");
    }

    @Override
    public void setLoginTimeout(int seconds) {
        throw new UnsupportedOperationException("set DriverManager's login timeout");
    }

    @Override
    public int getLoginTimeout() {
        return DriverManager.getLoginTimeout();
    }

    @Override
    public Logger getParentLogger() throws SQLFeatureNotSupportedException {
        throw new SQLFeatureNotSupportedException("no parent logger");
    }

    @Override
    public <T> T unwrap(Class<T> type) throws SQLException {
        throw new SQLException("a URL data source wraps nothing");
    }

    @Override
    public boolean isWrapperFor(Class<?> type) {
        return false;
    }

    @Override
    public String toString() {
        int q = url.indexOf('?');
        return q < 0 ? url : url.substring(0, q); // the parameters may hold a password
    }
}

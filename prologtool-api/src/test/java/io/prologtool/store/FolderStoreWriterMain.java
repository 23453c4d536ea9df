package io.prologtool.store;

import io.prologtool.SessionCheckpoint;
import io.prologtool.SessionOptions;
import io.prologtool.SessionStore;

import java.nio.file.Path;
import java.time.Instant;
import java.util.List;

/**
 * Run in a child JVM by {@link FolderSessionStoreTest}: saves checkpoints of {@link #SESSIONS} sessions in
 * turn, each bigger than the last, until it is killed; prints {@code saved N} after each.
 */
public final class FolderStoreWriterMain {

    static final int SESSIONS = 5;

    private FolderStoreWriterMain() {
    }

    public static void main(String[] args) {
        SessionStore store = SessionStore.folder(Path.of(args[0]));
        for (int n = 1; ; n++) {
            String id = "w" + (n % SESSIONS);
            store.save(new SessionCheckpoint(id, SessionOptions.defaults(), program(n), List.of(), Instant.now()));
            System.out.println("saved " + n);
        }
    }

    /** The program of save number n: n facts, then a last line that says how many came before it. */
    static String program(int n) {
        StringBuilder b = new StringBuilder();
        for (int i = 1; i <= n; i++) {
            b.append("f(").append(i).append(", '").append("x".repeat(200)).append("').\n");
        }
        return b.append("count(").append(n).append(").\n").toString();
    }

    /** A checkpoint is whole when its program is exactly one the writer made. */
    static boolean isWhole(SessionCheckpoint c) {
        String p = c.program();
        int at = p.lastIndexOf("count(");
        if (at < 0) {
            return false;
        }
        int n = Integer.parseInt(p.substring(at + 6, p.indexOf(')', at)));
        return p.equals(program(n)) && c.sessionId().equals("w" + (n % SESSIONS));
    }
}

package io.prologtool.examples.bench;

import io.prologtool.GoalResult;
import io.prologtool.Outcome;
import io.prologtool.PrologBackend;
import io.prologtool.PrologSession;
import io.prologtool.SessionRegistry;
import io.prologtool.SessionStore;
import io.prologtool.jpl.JplBackend;
import io.prologtool.process.ProcessBackend;
import io.prologtool.spi.TempFolders;
import io.prologtool.store.PostgresServer;

import java.io.PrintStream;
import java.lang.management.ManagementFactory;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * Sessions on a store: what a call that changed a session pays for its checkpoint, on a folder store and
 * on a PostgreSQL store (a server of the bench's own on this machine, started like the tests' with initdb
 * and pg_ctl, but forcing each commit to the disk as a production server does), against the same registry without a store, with a program of 20 and of 2,000 clauses
 * (the checkpoint holds the whole program, so its cost grows with it); and a restore from the folder store
 * against opening a session and consulting the same program. The JVM's CPU time per call is in each row's
 * details (the process backend's children are processes of their own, not counted).
 */
final class SessionStores {

    /** A goal that changes the session: each call saves a checkpoint on a store. */
    private static final String ADD = "retract(counter(N)), M is N + 1, assertz(counter(M))";
    private static final int[] SIZES = {20, 2_000};

    private SessionStores() {
    }

    static List<Row> measure(Plan plan, PrintStream log) throws Exception {
        List<Row> rows = new ArrayList<>();
        PostgresServer pg = PostgresServer.durable();
        try (JplBackend backend = JplBackend.get()) {
            rows.addAll(measure(plan, backend, pg, log));
        }
        try (ProcessBackend backend = ProcessBackend.builder().poolSize(2).build()) {
            rows.addAll(measure(plan, backend, pg, log));
        }
        return rows;
    }

    private static List<Row> measure(Plan plan, PrologBackend backend, PostgresServer pg, PrintStream log)
            throws Exception {
        List<Row> rows = new ArrayList<>();
        Path folder = Files.createTempDirectory("prologtool-bench-store");
        Path restoreFolder = Files.createTempDirectory("prologtool-bench-restore");
        try {
            measureOn(plan, backend, pg, log, folder, restoreFolder, rows);
        } finally {
            TempFolders.deleteTree(folder);
            TempFolders.deleteTree(restoreFolder);
        }
        return rows;
    }

    /** The rows of one backend, into {@code rows}: a folder store in {@code folder}, restores from {@code restoreFolder}. */
    private static void measureOn(Plan plan, PrologBackend backend, PostgresServer pg, PrintStream log, Path folder,
            Path restoreFolder, List<Row> rows) throws Exception {
        for (int size : SIZES) {
            String program = program(size);
            Measured none = changes(plan, backend, null, program, log, "no store");
            Measured onFolder = changes(plan, backend, SessionStore.folder(folder), program, log, "folder store");
            Measured onPg = changes(plan, backend, SessionStore.jdbc(pg.url(pg.newDatabaseName())), program, log,
                    "PostgreSQL store");
            String how = "a registry on %s; a session holding " + size + " clauses; the goal `" + ADD
                    + "`, which changes the session, so each call saves a checkpoint before it returns; %s";
            rows.add(Row.of("store_folder_" + size, "a changing goal, folder store, " + size + " clauses",
                    backend.name(), Summary.ofNanos(onFolder.nanos, Unit.MILLIS), Unit.MILLIS,
                    String.format(Locale.ROOT, how, "SessionStore.folder (written beside, forced, renamed)",
                            onFolder.cpu() + "; baseline " + none.cpu()),
                    "the same goal on a registry without a store", Summary.ofNanos(none.nanos, Unit.MILLIS)));
            rows.add(Row.of("store_postgres_" + size, "a changing goal, PostgreSQL store, " + size + " clauses",
                    backend.name(), Summary.ofNanos(onPg.nanos, Unit.MILLIS), Unit.MILLIS,
                    String.format(Locale.ROOT, how, "SessionStore.jdbc(url) on a local PostgreSQL (its "
                            + "connections used again; each commit forced to the disk)", onPg.cpu() + "; baseline " + none.cpu()),
                    "the same goal on a registry without a store", Summary.ofNanos(none.nanos, Unit.MILLIS)));
        }
        rows.add(restore(plan, backend, SessionStore.folder(restoreFolder), log));
    }

    /** Per-call times and the JVM's CPU time over them. */
    private record Measured(long[] nanos, long cpuNanos) {
        String cpu() {
            double wall = 0;
            for (long n : nanos) {
                wall += n;
            }
            return String.format(Locale.ROOT, "JVM CPU %.3f ms per call (wall %.3f ms)",
                    cpuNanos / 1e6 / nanos.length, wall / 1e6 / nanos.length);
        }
    }

    private static Measured changes(Plan plan, PrologBackend backend, SessionStore store, String program,
                                    PrintStream log, String where) throws Exception {
        SessionRegistry.Builder b = SessionRegistry.builder(backend);
        if (store != null) {
            b.store(store);
        }
        try (SessionRegistry registry = b.build()) {
            PrologSession s = registry.consult(program).session();
            Plan.Iterations it = plan.cyclePool();
            Timer.progress(log, "store, " + backend.name() + ", " + where, it);
            long cpu0 = cpuNanos();
            long[] nanos = Timer.time(it, () -> check(s.goal(ADD).run(), backend));
            long cpu = cpuNanos() - cpu0;
            // the warm-up's CPU is in cpu too: scale it to the timed calls
            long perTimed = cpu * it.timed() / Math.max(1, it.timed() + it.warmup());
            if (store != null && !store.load(s.id()).orElseThrow().program().contains("counter(" + (it.warmup() + it.timed()) + ")")) {
                throw new IllegalStateException("the store does not hold the session's last change");
            }
            return new Measured(nanos, perTimed);
        }
    }

    /**
     * A restore: a registry that keeps one session open gets an evicted one back from the folder store and
     * runs one goal (the other session, evicted in turn, is got back untimed between iterations), against
     * opening a session, consulting the 20 clauses and the same goal.
     */
    private static Row restore(Plan plan, PrologBackend backend, SessionStore store, PrintStream log)
            throws Exception {
        String program = program(SIZES[0]);
        Plan.Iterations it = plan.cyclePool();
        long[] restores;
        try (SessionRegistry registry = SessionRegistry.builder(backend).store(store).maxSessions(1).build()) {
            String a = registry.consult(program).session().id();
            String other = registry.consult(program).session().id();
            Timer.progress(log, "restore, " + backend.name(), it);
            restores = Timer.time(it, () -> check(registry.get(a).orElseThrow().goal("counter(N)").run(), backend),
                    () -> {
                        registry.get(other).orElseThrow(); // evicts a
                        pause(backend);
                    });
        }
        PrologSession[] made = new PrologSession[1];
        Timer.progress(log, "restore, " + backend.name() + ", baseline: open and consult", it);
        long[] fresh = Timer.time(it, () -> {
            made[0] = backend.open();
            if (made[0].consult(program).hasErrors()) {
                throw new IllegalStateException("the bench program does not load");
            }
            check(made[0].goal("counter(N)").run(), backend);
        }, () -> {
            if (made[0] != null) {
                made[0].close();
            }
            pause(backend);
        });
        made[0].close();
        return Row.of("store_restore", "restore a session from a folder store", backend.name(),
                Summary.ofNanos(restores, Unit.MILLIS), Unit.MILLIS, "a registry on SessionStore.folder keeping one "
                        + "session open: get(id) of the evicted session holding 20 clauses (read its checkpoint, "
                        + "take its lease, read it again, restore; the other session evicted, its checkpoint "
                        + "saved again) then one goal",
                "open a session, consult the same 20 clauses, the same goal", Summary.ofNanos(fresh, Unit.MILLIS));
    }

    private static void pause(PrologBackend backend) throws InterruptedException {
        if (backend instanceof ProcessBackend) {
            Thread.sleep(Plan.POOL_PAUSE_MILLIS);
        }
    }

    /** {@code size} facts and a counter. */
    static String program(int size) {
        StringBuilder b = new StringBuilder(":- dynamic counter/1.\ncounter(0).\n");
        for (int i = 1; i < size; i++) {
            b.append("item(").append(i).append(", 'item number ").append(i).append("').\n");
        }
        return b.toString();
    }

    /** This JVM's CPU time so far, in nanoseconds. */
    static long cpuNanos() {
        return ((com.sun.management.OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean())
                .getProcessCpuTime();
    }

    private static void check(GoalResult r, PrologBackend backend) {
        if (r.outcome() != Outcome.SUCCESS) {
            throw new IllegalStateException("a store goal on " + backend.name() + " answered " + r);
        }
    }
}

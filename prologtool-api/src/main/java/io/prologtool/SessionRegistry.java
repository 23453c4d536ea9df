package io.prologtool;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.ReentrantLock;

/**
 * Sessions by id, with a cap and a time-to-live: what a tool server needs to hold many agents'
 * sessions on one backend. Thread-safe.
 *
 * <pre>{@code
 * try (SessionRegistry registry = SessionRegistry.builder(backend)
 *         .maxSessions(64).idleTtl(Duration.ofMinutes(15)).build()) {
 *     SessionRegistry.Consulted c = registry.consult("p(1). p(2).");
 *     String id = c.session().id();                            // hand this to the agent
 *     GoalResult r = registry.get(id).orElseThrow().goal("p(X)").run();
 * }
 * }</pre>
 *
 * <ul>
 *   <li>Over {@code maxSessions}, opening a session closes the least recently used one that is not in
 *       the middle of a call (only when every session is, the least recently used of them, whose call
 *       then ends with {@code session_closed: evicted}); a call on an evicted session (or {@link #get}
 *       of its id) reports {@code session_closed: evicted}, never another session's data. The session
 *       {@link #consult(String)} opens counts as in a call until {@code consult} returns: it is evicted
 *       only when more calls are under way than the cap allows sessions.</li>
 *   <li>A background daemon closes sessions idle longer than {@code idleTtl} ({@code expired}).
 *       {@link #reapExpired()} does the same on demand (tests drive it with a fake {@link Clock}).</li>
 * </ul>
 */
public final class SessionRegistry implements AutoCloseable {

    /** Why an id no longer names an open session. */
    public enum ClosedReason {
        /** Closed by {@link #close(String)}, by the session's own close, or by the registry's close. */
        CLOSED,
        /** Closed to make room under {@code maxSessions}. */
        EVICTED,
        /** Closed after being idle longer than {@code idleTtl}. */
        EXPIRED;

        /** {@code closed}, {@code evicted} or {@code expired}. */
        public String wireName() {
            return name().toLowerCase(java.util.Locale.ROOT);
        }
    }

    /**
     * Counters since the registry was built.
     *
     * @param opened   sessions opened
     * @param closed   sessions closed by request (including the registry's own close)
     * @param evicted  sessions closed to make room
     * @param expired  sessions closed for idleness
     * @param crashed  times a session's Prolog died (see {@link PrologSession#crashCount()})
     * @param restored times a session was restored from its journal
     */
    public record Stats(long opened, long closed, long evicted, long expired, long crashed, long restored) {

        /** Sessions open now: opened minus every way of closing. */
        public long open() {
            return opened - closed - evicted - expired;
        }
    }

    /** What {@link #consult(String)} gives: the new session and what loading reported. */
    public record Consulted(PrologSession session, ConsultResult result) {
    }

    private static final int REASONS_REMEMBERED = 10_000;

    private final PrologBackend backend;
    private final int maxSessions;
    private final Duration idleTtl;
    private final Clock clock;
    private final SessionOptions sessionOptions;
    /** Where checkpoints go; null: none (sessions live in this JVM only). */
    private final SessionStore store;
    /** This registry's name in the leases it holds in {@link #store}. */
    private final String replicaName;
    /** Held while a session is restored from {@link #store}, so that it is restored once. */
    private final Object restoring = new Object();
    private final ReentrantLock lock = new ReentrantLock();
    /** Access-ordered: iteration starts at the least recently used. Guarded by {@link #lock}. */
    private final LinkedHashMap<String, Entry> entries = new LinkedHashMap<>(16, 0.75f, true);
    private final Map<String, ClosedReason> reasons = Collections.synchronizedMap(
            new LinkedHashMap<>(16, 0.75f, false) {
                @Override
                protected boolean removeEldestEntry(Map.Entry<String, ClosedReason> eldest) {
                    return size() > REASONS_REMEMBERED;
                }
            });
    private final ScheduledExecutorService reaper;
    /** How often the reaper also sweeps {@link #store} ({@link #sweepStore()}), in nanoseconds. */
    private final long sweepEveryNanos;
    private volatile long lastSweep = System.nanoTime();
    private long opened;
    private long closedCount;
    private long evicted;
    private long expired;
    private long crashedOfGone;
    private long restoredOfGone;
    private volatile boolean shut;

    private final class Entry {
        final RegisteredSession session;
        volatile Instant lastUsed;

        Entry(RegisteredSession session) {
            this.session = session;
            this.lastUsed = clock.instant();
        }
    }

    private SessionRegistry(Builder b) {
        this.backend = b.backend;
        this.maxSessions = b.maxSessions;
        this.idleTtl = b.idleTtl;
        this.clock = b.clock;
        this.sessionOptions = b.sessionOptions;
        this.store = b.store;
        this.replicaName = b.replicaName != null ? b.replicaName : defaultReplicaName();
        this.reaper = Executors.newSingleThreadScheduledExecutor(r -> {
            Thread t = new Thread(r, "prologtool-registry-reaper");
            t.setDaemon(true);
            return t;
        });
        long period = Math.max(50, Math.min(b.reapInterval.toMillis(), Long.MAX_VALUE / 2));
        this.sweepEveryNanos = TimeUnit.MILLISECONDS.toNanos(Math.max(period, Math.min(idleTtl.toMillis() / 4,
                TimeUnit.HOURS.toMillis(1))));
        reaper.scheduleWithFixedDelay(this::reapQuietly, period, period, TimeUnit.MILLISECONDS);
    }

    private static final java.util.concurrent.atomic.AtomicInteger REGISTRIES =
            new java.util.concurrent.atomic.AtomicInteger();

    /**
     * {@code host/pid#n}: the machine, the JVM, and the how-manieth registry of the JVM this is. The host
     * name is the kernel's ({@code HOSTNAME}, or {@code /proc/sys/kernel/hostname}), never a DNS lookup,
     * which can take seconds where the name does not resolve.
     */
    private static String defaultReplicaName() {
        String host = System.getenv("HOSTNAME");
        if (host == null || host.isBlank()) {
            try {
                host = java.nio.file.Files.readString(java.nio.file.Path.of("/proc/sys/kernel/hostname")).strip();
            } catch (java.io.IOException | RuntimeException e) {
                host = "";
            }
        }
        if (host.isBlank()) {
            host = "localhost";
        }
        return host + "/" + ProcessHandle.current().pid() + "#" + REGISTRIES.incrementAndGet();
    }

    /**
     * A builder over {@code backend}: 64 sessions, 15 minutes idle TTL, the system clock, sessions with
     * {@link SessionOptions#defaults()}.
     */
    public static Builder builder(PrologBackend backend) {
        return new Builder(backend);
    }

    /** The backend this registry opens sessions on. */
    public PrologBackend backend() {
        return backend;
    }

    /** Opens a session with the registry's {@linkplain Builder#sessionOptions session options}. */
    public PrologSession open() {
        return open(sessionOptions);
    }

    /**
     * Opens a session; over the cap, the least recently used session not in the middle of a call is
     * evicted first.
     */
    public PrologSession open(SessionOptions options) {
        Objects.requireNonNull(options, "options");
        return openRegistered(options, false);
    }

    /** Makes room, opens a session on the backend and registers it ({@code held}: see {@link #adopt}). */
    private RegisteredSession openRegistered(SessionOptions options, boolean held) {
        ensureOpen();
        makeRoom(null);
        PrologSession raw = backend.open(options);
        return adopt(raw, raw.id(), held, leaseOrClose(raw), null);
    }

    /**
     * A copy of the open session {@code id} ({@link PrologSession#fork()}), registered like a session
     * this registry opened (the {@code fork_session} tool); it counts towards the cap like any other.
     *
     * @throws SessionClosedException when {@code id} names no open session
     */
    public PrologSession fork(String id) {
        PrologSession original = get(id).orElseThrow(() -> new SessionClosedException("session_closed: "
                + closedReason(id).map(ClosedReason::wireName).orElse("unknown") + ": no open session " + id));
        ensureOpen();
        makeRoom(id);
        PrologSession raw = ((RegisteredSession) original).delegate.fork();
        return adopt(raw, raw.id(), false, leaseOrClose(raw), null);
    }

    /**
     * Over the cap, evicts the least recently used sessions not in a call (when every session is, the
     * least recently used of them; never {@code keep}, when given) until one more fits; they are closed
     * outside the lock.
     */
    private void makeRoom(String keep) {
        List<RegisteredSession> victims = new ArrayList<>();
        lock.lock();
        try {
            while (entries.size() >= maxSessions) {
                String victim = null;
                String busyVictim = null;
                for (Map.Entry<String, Entry> e : entries.entrySet()) {   // least recently used first
                    if (e.getKey().equals(keep)) {
                        continue;
                    }
                    if (!e.getValue().session.busy()) {
                        victim = e.getKey();
                        break;
                    }
                    if (busyVictim == null) {
                        busyVictim = e.getKey();
                    }
                }
                if (victim == null) {
                    victim = busyVictim;
                }
                if (victim == null) {
                    break;
                }
                reasons.put(victim, ClosedReason.EVICTED);
                evicted++;
                victims.add(entries.remove(victim).session);
            }
        } finally {
            lock.unlock();
        }
        victims.forEach(v -> v.closeUnderlying(ClosedReason.EVICTED, false)); // restored on its next use
    }

    /** With a store, the lease of a session just opened here; {@code raw} is closed when it cannot be had. */
    private SessionStore.Lease leaseOrClose(PrologSession raw) {
        if (store == null) {
            return null;
        }
        try {
            return store.lease(raw.id(), replicaName);
        } catch (RuntimeException e) {
            raw.close();
            throw e;
        }
    }

    /**
     * Registers {@code raw} under {@code id} (its own id, or the id of the session it was restored from),
     * and with a store saves its first checkpoint. {@code held}: the session counts as in a call until the
     * caller's {@link RegisteredSession#release()}. {@code lease}: the session's lease in the store (null
     * without one), let go when the session leaves this registry. {@code restoredFrom}: the checkpoint it
     * was restored from, which the store holds already (null for a new session).
     */
    private RegisteredSession adopt(PrologSession raw, String id, boolean held, SessionStore.Lease lease,
                                    SessionCheckpoint restoredFrom) {
        RegisteredSession s = new RegisteredSession(raw, id, lease);
        if (held) {
            s.inFlight.incrementAndGet();
        }
        lock.lock();
        try {
            if (shut) {
                raw.close();
                if (lease != null) {
                    lease.close();
                }
                throw new IllegalStateException("the registry is closed");
            }
            entries.put(id, new Entry(s));
            opened++;
        } finally {
            lock.unlock();
        }
        if (restoredFrom != null) {
            s.savedAs(restoredFrom); // its journal is the load of that checkpoint: nothing to save again
            return s;
        }
        try {
            s.persist(true);
        } catch (RuntimeException e) {
            close(id);
            throw e;
        }
        return s;
    }

    /**
     * Opens a session with the registry's {@linkplain Builder#sessionOptions session options} and loads
     * {@code text} into it (the {@code consult_text} tool).
     */
    public Consulted consult(String text) {
        return consultWith(text, null);
    }

    /**
     * {@link #consult(String)}, with the static check on or off for this consult whatever the backend's
     * session options say (see {@link PrologSession#consult(String, boolean)}).
     */
    public Consulted consult(String text, boolean staticCheck) {
        return consultWith(text, staticCheck);
    }

    /** {@code staticCheck} null: as the session's options say. */
    private Consulted consultWith(String text, Boolean staticCheck) {
        Objects.requireNonNull(text, "text");
        RegisteredSession s = openRegistered(sessionOptions, true);
        try {
            return new Consulted(s, staticCheck == null ? s.consult(text) : s.consult(text, staticCheck));
        } catch (RuntimeException e) {
            close(s.id());
            throw e;
        } finally {
            s.release();
        }
    }

    /**
     * The open session {@code id}, counted as a use. With a {@linkplain Builder#store store}, a session
     * that is not open in this registry (evicted, or opened by a registry in another JVM that ended) is
     * restored from its checkpoint, once, under the same id, once this registry has its lease. Empty when
     * there is none (see {@link #closedReason}).
     *
     * @throws SessionHeldException when another registry on the store has the session open (its name is in
     *                              the exception: route the call there)
     * @throws PrologToolException  when the store holds a checkpoint of {@code id} that could not be read
     *                              or restored
     */
    public Optional<PrologSession> get(String id) {
        Objects.requireNonNull(id, "id");
        Optional<PrologSession> open = openEntry(id);
        if (open.isPresent() || store == null) {
            return open;
        }
        synchronized (restoring) {
            open = openEntry(id); // another thread restored it meanwhile
            if (open.isPresent()) {
                return open;
            }
            ensureOpen();
            if (store.load(id).isEmpty()) {
                return Optional.empty(); // asked before the lease: an unknown id takes no lease
            }
            SessionStore.Lease lease = store.lease(id, replicaName);
            try {
                // read again under the lease: the holder before may have saved once more before it let go
                Optional<SessionCheckpoint> saved = store.load(id);
                if (saved.isEmpty()) {
                    lease.close();
                    return Optional.empty();
                }
                SessionCheckpoint c = saved.get();
                // the options it had, with the rule base store of this registry's (the application's)
                SessionOptions options = c.options().toBuilder().ruleBases(sessionOptions.ruleBases()).build();
                makeRoom(null);
                PrologSession raw = backend.restore(c.withOptions(options));
                reasons.remove(id);
                if (io.prologtool.spi.Logs.REGISTRY.isLoggable(System.Logger.Level.DEBUG)) {
                    io.prologtool.spi.Logs.REGISTRY.log(System.Logger.Level.DEBUG, "session " + id
                            + " restored from " + store + " (checkpoint of " + c.takenAt() + ") as " + raw.id());
                }
                return Optional.of(adopt(raw, id, false, lease, c));
            } catch (RuntimeException | Error e) {
                lease.close();
                throw e;
            }
        }
    }

    /**
     * The session {@code id} if it is open in this registry, counted as a use; unlike {@link #get(String)} it
     * never restores one from the store (to cancel a call, say, which can only run where it is open).
     */
    public Optional<PrologSession> getOpen(String id) {
        return openEntry(Objects.requireNonNull(id, "id"));
    }

    private Optional<PrologSession> openEntry(String id) {
        lock.lock();
        try {
            Entry e = entries.get(id);
            if (e == null) {
                return Optional.empty();
            }
            e.lastUsed = clock.instant();
            return Optional.of(e.session);
        } finally {
            lock.unlock();
        }
    }

    /** This registry's name in the store's leases ({@link Builder#replicaName(String)}). */
    public String replicaName() {
        return replicaName;
    }

    /** The store this registry keeps checkpoints in, if it was given one. */
    public Optional<SessionStore> store() {
        return Optional.ofNullable(store);
    }

    /** Why {@code id} names no open session: closed, evicted or expired; empty if it never did (or long ago). */
    public Optional<ClosedReason> closedReason(String id) {
        return Optional.ofNullable(reasons.get(id));
    }

    /**
     * Closes session {@code id}; false when it was not open. With a store, its checkpoint is deleted: a
     * closed session is gone in every JVM.
     */
    public boolean close(String id) {
        Entry e;
        lock.lock();
        try {
            e = entries.remove(id);
            if (e == null) {
                return false;
            }
            reasons.put(id, ClosedReason.CLOSED);
            closedCount++;
        } finally {
            lock.unlock();
        }
        e.session.closeUnderlying(ClosedReason.CLOSED, true);
        return true;
    }

    /** Number of open sessions. */
    /** {@code SessionRegistry[jpl, 3 of 64 sessions, idle ttl PT15M]}. */
    @Override
    public String toString() {
        return "SessionRegistry[" + backend.name() + ", " + size() + " of " + maxSessions + " sessions, idle ttl "
                + idleTtl + "]";
    }

    public int size() {
        lock.lock();
        try {
            return entries.size();
        } finally {
            lock.unlock();
        }
    }

    /** The counters; {@code crashed} and {@code restored} include the sessions still open. */
    public Stats stats() {
        lock.lock();
        try {
            long crashed = crashedOfGone;
            long restored = restoredOfGone;
            for (Entry e : entries.values()) {
                crashed += e.session.delegate.crashCount();
                restored += e.session.delegate.restoreCount();
            }
            return new Stats(opened, closedCount, evicted, expired, crashed, restored);
        } finally {
            lock.unlock();
        }
    }

    /**
     * Closes every session idle longer than the TTL, as the background daemon does; returns how many.
     */
    public int reapExpired() {
        Instant cutoff = clock.instant().minus(idleTtl);
        List<RegisteredSession> victims = new ArrayList<>();
        lock.lock();
        try {
            var it = entries.entrySet().iterator();
            while (it.hasNext()) {
                Map.Entry<String, Entry> e = it.next();
                if (e.getValue().lastUsed.isBefore(cutoff) && !e.getValue().session.busy()) {
                    it.remove();
                    reasons.put(e.getKey(), ClosedReason.EXPIRED);
                    expired++;
                    victims.add(e.getValue().session);
                }
            }
        } finally {
            lock.unlock();
        }
        victims.forEach(v -> v.closeUnderlying(ClosedReason.EXPIRED, true)); // its time to live is over
        return victims.size();
    }

    /** Closes every session and stops the reaper. The backend stays open. Idempotent. */
    @Override
    public void close() {
        if (shut) {
            return;
        }
        List<String> ids;
        lock.lock();
        try {
            shut = true;
            ids = new ArrayList<>(entries.keySet());
        } finally {
            lock.unlock();
        }
        reaper.shutdownNow();
        for (String id : ids) {
            Entry e;
            lock.lock();
            try {
                e = entries.remove(id);
                if (e == null) {
                    continue;
                }
                reasons.put(id, ClosedReason.CLOSED);
                closedCount++;
            } finally {
                lock.unlock();
            }
            e.session.closeUnderlying(ClosedReason.CLOSED, false); // a registry's close keeps checkpoints
        }
    }

    /**
     * With a store, deletes the sessions that nobody has open and whose checkpoints were last saved (changed,
     * or let go by a registry) longer ago than this registry's idle TTL: sessions evicted here or elsewhere,
     * or held by a JVM that ended, whose time to live is over. A session another registry has open is left
     * to that registry. The daemon sweeps every quarter of the TTL (at most hourly, at least as often as it
     * reaps); returns how many were deleted.
     */
    public int sweepStore() {
        if (store == null) {
            return 0;
        }
        Instant cutoff = clock.instant().minus(idleTtl);
        int deleted = 0;
        synchronized (restoring) { // no restore here meanwhile: it would find the sweep's lease
            for (String id : store.sessionIdsSavedBefore(cutoff)) {
                if (isOpenHere(id)) {
                    continue; // its TTL runs here
                }
                SessionStore.Lease lease;
                try {
                    lease = store.lease(id, replicaName);
                } catch (SessionHeldException e) {
                    continue; // open in another registry: its TTL runs there
                }
                try {
                    // saved again since it was listed (restored, changed and let go elsewhere): not idle
                    if (store.savedAt(id).map(t -> t.isBefore(cutoff)).orElse(false) && store.delete(id)) {
                        reasons.put(id, ClosedReason.EXPIRED);
                        deleted++;
                    }
                } finally {
                    lease.close();
                }
            }
        }
        return deleted;
    }

    private boolean isOpenHere(String id) {
        lock.lock();
        try {
            return entries.containsKey(id);
        } finally {
            lock.unlock();
        }
    }

    private void reapQuietly() {
        try {
            reapExpired();
        } catch (RuntimeException ignored) {
            // a failing close must not stop the daemon
        }
        if (store != null && System.nanoTime() - lastSweep >= sweepEveryNanos) {
            lastSweep = System.nanoTime();
            try {
                sweepStore();
            } catch (RuntimeException e) {
                io.prologtool.spi.Logs.REGISTRY.log(System.Logger.Level.WARNING, "sweeping " + store
                        + " for sessions idle past " + idleTtl + " failed: " + e.getMessage());
            }
        }
    }

    private void ensureOpen() {
        if (shut) {
            throw new IllegalStateException("the registry is closed");
        }
    }

    /** Called when a session was closed directly (its own close()): drop it from the map. */
    private void forget(RegisteredSession s) {
        lock.lock();
        try {
            Entry e = entries.get(s.id());
            if (e != null && e.session == s) {
                entries.remove(s.id());
                reasons.put(s.id(), ClosedReason.CLOSED);
                closedCount++;
            }
            crashedOfGone += s.delegate.crashCount();
            restoredOfGone += s.delegate.restoreCount();
        } finally {
            lock.unlock();
        }
    }

    private void touch(String id) {
        lock.lock();
        try {
            Entry e = entries.get(id);
            if (e != null) {
                e.lastUsed = clock.instant();
            }
        } finally {
            lock.unlock();
        }
    }

    /**
     * The session handed out: every call counts as a use, and once the registry closed it, every call
     * says why ({@code session_closed: evicted}).
     */
    private final class RegisteredSession implements PrologSession {
        final PrologSession delegate;
        /** The registry's id of the session: its first session's, whichever session serves it now. */
        private final String id;
        /** {@link io.prologtool.spi.HarnessSession#changes()} at the last checkpoint saved; guarded by this. */
        private long savedChanges = -1;
        private volatile ClosedReason closedBy;
        private final java.util.concurrent.atomic.AtomicInteger inFlight = new java.util.concurrent.atomic.AtomicInteger();
        /** The session's lease in the store; null without a store, or once let go. Guarded by this. */
        private SessionStore.Lease lease;
        /** The last checkpoint saved in the store; guarded by this. */
        private SessionCheckpoint lastSaved;

        RegisteredSession(PrologSession delegate, String id, SessionStore.Lease lease) {
            this.delegate = delegate;
            this.id = id;
            this.lease = lease;
        }

        /**
         * Lets the session's lease go, once its Prolog is closed; waits for a checkpoint being saved, so the
         * next holder reads the last one. {@code kept}: the session stays in the store (evicted, or this
         * registry closed), and its last checkpoint is saved again, which marks when it was let go for the
         * {@linkplain #sweepStore() sweep} of its time to live.
         */
        synchronized void releaseLease(boolean kept) {
            if (lease != null) {
                try {
                    if (kept && lastSaved != null) {
                        store.save(lastSaved);
                    }
                } catch (RuntimeException e) {
                    io.prologtool.spi.Logs.REGISTRY.log(System.Logger.Level.WARNING, "session " + id
                            + " was let go and could not be marked so in " + store + " (its time to live there "
                            + "counts from its last change): " + e.getMessage());
                } finally {
                    try {
                        lease.close();
                    } finally {
                        lease = null;
                    }
                }
            }
        }

        /**
         * With a store, saves a checkpoint when the session changed since the last one ({@code always}:
         * whatever it did). Checkpoints are taken and saved one at a time, so the store never goes back to
         * an older one.
         *
         * @throws PrologToolException when the checkpoint could not be taken or saved
         */
        void persist(boolean always) {
            if (store != null && delegate instanceof io.prologtool.spi.HarnessSession h) {
                persist(h, always);
            }
        }

        /**
         * The checkpoint also restarts the session's journal ({@link
         * io.prologtool.spi.HarnessSession#checkpointAndRestartJournal()}): a Prolog that dies is then
         * restored with the facts its goals asserted.
         */
        private synchronized void persist(io.prologtool.spi.HarnessSession h, boolean always) {
            if (!h.isOpen()) {
                return;
            }
            long now = h.changes();
            if (!always && now == savedChanges) {
                return;
            }
            SessionCheckpoint c = h.checkpointAndRestartJournal();
            try {
                SessionCheckpoint saved = new SessionCheckpoint(id, c.options(), c.program(), c.tests(), c.takenAt());
                store.save(saved);
                lastSaved = saved;
            } catch (RuntimeException e) {
                throw new PrologToolException("session " + id + " changed, and its checkpoint could not be saved in "
                        + store + ": " + e.getMessage() + " (the call itself ran; the store holds the state before it)",
                        e);
            }
            savedChanges = now;
        }

        /** The store holds {@code c}, which is what this session is now. */
        synchronized void savedAs(SessionCheckpoint c) {
            lastSaved = c;
            if (delegate instanceof io.prologtool.spi.HarnessSession h) {
                savedChanges = h.changes();
            }
        }

        void deleteCheckpoint() {
            if (store != null) {
                store.delete(id);
            }
        }

        boolean busy() {
            return inFlight.get() > 0;
        }

        /** Ends the hold of {@link #adopt adopt(raw, id, true, ...)}. */
        void release() {
            inFlight.decrementAndGet();
        }

        void closeUnderlying(ClosedReason reason, boolean deleteCheckpoint) {
            if (deleteCheckpoint) {
                deleteCheckpoint();
            }
            if (closedBy == null) {
                closedBy = reason;
            }
            if (delegate.isOpen()) {
                if (reason != ClosedReason.CLOSED && io.prologtool.spi.Logs.REGISTRY.isLoggable(System.Logger.Level.DEBUG)) {
                    io.prologtool.spi.Logs.REGISTRY.log(System.Logger.Level.DEBUG, "session " + id + " "
                            + reason.wireName() + (reason == ClosedReason.EVICTED ? " to make room under maxSessions "
                            + maxSessions : " after being idle longer than " + idleTtl));
                }
                if (delegate instanceof io.prologtool.spi.HarnessSession h) {
                    h.close(switch (reason) {
                        case CLOSED -> PrologListener.CloseReason.CLOSED;
                        case EVICTED -> PrologListener.CloseReason.EVICTED;
                        case EXPIRED -> PrologListener.CloseReason.EXPIRED;
                    });
                } else {
                    delegate.close();
                }
                lock.lock();
                try {
                    crashedOfGone += delegate.crashCount();
                    restoredOfGone += delegate.restoreCount();
                } finally {
                    lock.unlock();
                }
            }
            releaseLease(!deleteCheckpoint);
        }

        private <T> T use(java.util.function.Supplier<T> call) {
            ClosedReason r = closedBy;
            if (r != null) {
                throw new SessionClosedException("session_closed: " + r.wireName() + ": session " + id()
                        + " was " + r.wireName());
            }
            inFlight.incrementAndGet();
            try {
                touch(id());
                T result = call.get();
                persist(false);
                return result;
            } catch (SessionClosedException e) {
                ClosedReason now = closedBy;
                throw now == null ? e : new SessionClosedException("session_closed: " + now.wireName()
                        + ": session " + id() + " was " + now.wireName());
            } finally {
                inFlight.decrementAndGet();
                touch(id());
            }
        }

        @Override
        public String id() {
            return id;
        }

        @Override
        public String moduleName() {
            return delegate.moduleName();
        }

        @Override
        public ConsultResult consult(String text) {
            return use(() -> delegate.consult(text));
        }

        @Override
        public ConsultResult consult(java.nio.file.Path file) {
            return use(() -> delegate.consult(file));
        }

        @Override
        public PrologSession fork() {
            return SessionRegistry.this.fork(id());
        }

        @Override
        public ConsultResult consult(String text, boolean staticCheck) {
            return use(() -> delegate.consult(text, staticCheck));
        }

        @Override
        public GoalRequest goal(String goalText) {
            Objects.requireNonNull(goalText, "goalText");
            return new GoalRequest(goalText, g -> use(() -> copy(g, delegate.goal(g.goal())).run()),
                    g -> new RegisteredQuery(use(() -> copy(g, delegate.goal(g.goal())).query())));
        }

        /** A query of this session: each fetch counts as a use of the session (its idle time starts again). */
        private final class RegisteredQuery implements Query {
            private final Query inner;

            RegisteredQuery(Query inner) {
                this.inner = inner;
            }

            @Override
            public List<String> variables() {
                return inner.variables();
            }

            @Override
            public GoalResult fetch(int n) {
                if (closedBy != null || !inner.isOpen()) {
                    return inner.fetch(n);  // cursor_closed, or the refusal of a query that did not open
                }
                return use(() -> inner.fetch(n));
            }

            @Override
            public boolean isExhausted() {
                return inner.isExhausted();
            }

            @Override
            public boolean isOpen() {
                return inner.isOpen();
            }

            @Override
            public void close() {
                inner.close();
            }
        }

        @Override
        public PredicateInfo inspect(String name, int arity) {
            return use(() -> delegate.inspect(name, arity));
        }

        @Override
        public boolean cancel() {
            return delegate.cancel();
        }

        @Override
        public RuleBaseStore ruleBases() {
            return delegate.ruleBases();
        }

        @Override
        public List<PredicateInfo> predicates() {
            return use(delegate::predicates);
        }

        @Override
        public String source() {
            return use(delegate::source);
        }

        @Override
        public ReplaceResult replacePredicate(String name, int arity, String text) {
            return use(() -> delegate.replacePredicate(name, arity, text));
        }

        @Override
        public ReplaceResult replacePredicate(String name, int arity, String text, boolean staticCheck) {
            return use(() -> delegate.replacePredicate(name, arity, text, staticCheck));
        }

        @Override
        public List<Diagnostic> messages(Severity minimum) {
            return use(() -> delegate.messages(minimum));
        }

        @Override
        public TestReport runTests(String testText) {
            return use(() -> delegate.runTests(testText));
        }

        @Override
        public TraceRequest trace(String goalText) {
            Objects.requireNonNull(goalText, "goalText");
            return new TraceRequest(goalText, t -> use(() -> delegate.trace(t.goal())
                    .maxDepth(t.maxDepth()).maxNodes(t.maxNodes()).timeLimit(t.timeLimit()).run()));
        }

        @Override
        public int crashCount() {
            return delegate.crashCount();
        }

        @Override
        public int restoreCount() {
            return delegate.restoreCount();
        }

        @Override
        public boolean isOpen() {
            return closedBy == null && delegate.isOpen();
        }

        @Override
        public void close() {
            if (closedBy != null) {
                return;
            }
            closedBy = ClosedReason.CLOSED;
            deleteCheckpoint();
            delegate.close();
            releaseLease(false);
            forget(this);
        }

        @Override
        public String toString() {
            return "PrologSession[" + id() + ", " + (closedBy == null ? "open" : "closed: " + closedBy.wireName()) + "]";
        }

        private static GoalRequest copy(GoalRequest from, GoalRequest to) {
            to.maxAnswers(from.maxAnswers()).timeLimit(from.timeLimit()).maxDepth(from.maxDepth())
                    .allowSideEffects(from.allowSideEffects());
            from.maxInferences().ifPresent(to::maxInferences);
            return to;
        }
    }

    /** Builds a {@link SessionRegistry}. */
    public static final class Builder {
        private final PrologBackend backend;
        private int maxSessions = 64;
        private Duration idleTtl = Duration.ofMinutes(15);
        private Clock clock = Clock.systemUTC();
        private Duration reapInterval;
        private SessionOptions sessionOptions = SessionOptions.defaults();
        private SessionStore store;
        private String replicaName;

        private Builder(PrologBackend backend) {
            this.backend = Objects.requireNonNull(backend, "backend");
        }

        /** Most sessions open at once, at least 1 (default 64). */
        public Builder maxSessions(int n) {
            if (n < 1) {
                throw new IllegalArgumentException("maxSessions must be at least 1, was " + n);
            }
            this.maxSessions = n;
            return this;
        }

        /** Idle time after which a session is closed, positive (default 15 minutes). */
        public Builder idleTtl(Duration ttl) {
            Objects.requireNonNull(ttl, "ttl");
            if (ttl.isZero() || ttl.isNegative()) {
                throw new IllegalArgumentException("idleTtl must be positive, was " + ttl);
            }
            this.idleTtl = ttl;
            return this;
        }

        /**
         * The options of the sessions that {@link SessionRegistry#open()} and {@link SessionRegistry#consult}
         * open (default {@link SessionOptions#defaults()}), e.g. {@code SessionOptions.builder().sandboxed(true).build()}
         * for a server whose callers send untrusted code; {@link SessionRegistry#open(SessionOptions)} still
         * takes any.
         */
        public Builder sessionOptions(SessionOptions options) {
            this.sessionOptions = Objects.requireNonNull(options, "options");
            return this;
        }

        /**
         * Keeps every session's checkpoint in {@code store} (default: none, and sessions live in this JVM
         * only). A checkpoint is saved when a session opens and after every call that changed it (a
         * consult, a replacement, loaded units, a goal that added or removed a clause or set a flag or an
         * operator, a fetch of a query) before the call returns: a call that returned is in the store.
         * {@link SessionRegistry#get(String)} restores a session that is not open here from its checkpoint,
         * under its id: one evicted to make room, or one a registry in a JVM that ended held. A session
         * closed by {@link SessionRegistry#close(String)} or its own {@code close()}, or idle past the idle
         * TTL, is deleted from the store; one evicted, or open when this registry closes, stays in it.
         *
         * <p>The registry holds the store's {@linkplain SessionStore#lease lease} of each session it has
         * open, so two registries on one store (in two JVMs, say) never serve one session at once: {@code
         * get} of a session another registry holds throws {@link SessionHeldException} naming it ({@link
         * #replicaName(String)}).
         */
        public Builder store(SessionStore store) {
            this.store = Objects.requireNonNull(store, "store");
            return this;
        }

        /**
         * This registry's name in the store's leases, which the {@link SessionHeldException} of another
         * registry that asks for one of its sessions gives (default {@code host/pid#n}: the machine, the
         * JVM's process id, and the number of the registry in its JVM). Name it so that your application or
         * its load balancer can route a call there: a pod name, an address.
         */
        public Builder replicaName(String name) {
            Objects.requireNonNull(name, "name");
            if (name.isBlank()) {
                throw new IllegalArgumentException("replicaName must not be blank");
            }
            this.replicaName = name;
            return this;
        }

        /** The clock that idleness is measured with (default the system clock; tests pass a fake one). */
        public Builder clock(Clock clock) {
            this.clock = Objects.requireNonNull(clock, "clock");
            return this;
        }

        /** How often the daemon looks for idle sessions (default a quarter of the TTL, 1 s to 1 min). */
        public Builder reapInterval(Duration interval) {
            Objects.requireNonNull(interval, "interval");
            if (interval.isZero() || interval.isNegative()) {
                throw new IllegalArgumentException("reapInterval must be positive, was " + interval);
            }
            this.reapInterval = interval;
            return this;
        }

        public SessionRegistry build() {
            if (reapInterval == null) {
                long quarter = idleTtl.toMillis() / 4;
                reapInterval = Duration.ofMillis(Math.max(1_000, Math.min(60_000, quarter)));
            }
            return new SessionRegistry(this);
        }
    }
}

package io.prologtool.store;

import io.prologtool.SessionCheckpoint;
import io.prologtool.SessionHeldException;
import io.prologtool.SessionStore;

import java.time.Instant;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;

/** {@link SessionStore#inMemory()}: checkpoints and leases held in this JVM's memory. */
public final class InMemorySessionStore implements SessionStore {

    private final ConcurrentHashMap<String, SessionCheckpoint> checkpoints = new ConcurrentHashMap<>();
    /** When each checkpoint was saved; written after {@link #checkpoints}. */
    private final ConcurrentHashMap<String, Instant> saved = new ConcurrentHashMap<>();
    /** Session id to the lease that holds it. */
    private final ConcurrentHashMap<String, MemoryLease> leases = new ConcurrentHashMap<>();

    @Override
    public void save(SessionCheckpoint checkpoint) {
        Objects.requireNonNull(checkpoint, "checkpoint");
        checkpoints.put(checkpoint.sessionId(), checkpoint);
        saved.put(checkpoint.sessionId(), Instant.now());
    }

    @Override
    public Optional<SessionCheckpoint> load(String sessionId) {
        return Optional.ofNullable(checkpoints.get(Objects.requireNonNull(sessionId, "sessionId")));
    }

    @Override
    public boolean delete(String sessionId) {
        saved.remove(Objects.requireNonNull(sessionId, "sessionId"));
        return checkpoints.remove(sessionId) != null;
    }

    @Override
    public List<String> sessionIds() {
        return List.copyOf(checkpoints.keySet());
    }

    @Override
    public Optional<Instant> savedAt(String sessionId) {
        return Optional.ofNullable(saved.get(Objects.requireNonNull(sessionId, "sessionId")));
    }

    @Override
    public List<String> sessionIdsSavedBefore(Instant instant) {
        Objects.requireNonNull(instant, "instant");
        return saved.entrySet().stream().filter(e -> e.getValue().isBefore(instant)).map(java.util.Map.Entry::getKey)
                .toList();
    }

    @Override
    public Lease lease(String sessionId, String holder) {
        Objects.requireNonNull(sessionId, "sessionId");
        MemoryLease lease = new MemoryLease(sessionId, Objects.requireNonNull(holder, "holder"));
        MemoryLease held = leases.putIfAbsent(sessionId, lease);
        if (held != null) {
            throw new SessionHeldException(sessionId, held.holder(), toString());
        }
        return lease;
    }

    private final class MemoryLease extends StoreLease {

        MemoryLease(String sessionId, String holder) {
            super(sessionId, holder);
        }

        @Override
        public void close() {
            leases.remove(sessionId(), this);
        }
    }

    @Override
    public String toString() {
        return "SessionStore.inMemory()@" + Integer.toHexString(System.identityHashCode(this));
    }
}

package io.prologtool.store;

import io.prologtool.SessionCheckpoint;
import io.prologtool.SessionStore;

import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;

/** {@link SessionStore#inMemory()}: checkpoints held in this JVM's memory. */
public final class InMemorySessionStore implements SessionStore {

    private final ConcurrentHashMap<String, SessionCheckpoint> checkpoints = new ConcurrentHashMap<>();

    @Override
    public void save(SessionCheckpoint checkpoint) {
        Objects.requireNonNull(checkpoint, "checkpoint");
        checkpoints.put(checkpoint.sessionId(), checkpoint);
    }

    @Override
    public Optional<SessionCheckpoint> load(String sessionId) {
        return Optional.ofNullable(checkpoints.get(Objects.requireNonNull(sessionId, "sessionId")));
    }

    @Override
    public boolean delete(String sessionId) {
        return checkpoints.remove(Objects.requireNonNull(sessionId, "sessionId")) != null;
    }

    @Override
    public List<String> sessionIds() {
        return List.copyOf(checkpoints.keySet());
    }

    @Override
    public String toString() {
        return "SessionStore.inMemory()[" + checkpoints.size() + " sessions]";
    }
}

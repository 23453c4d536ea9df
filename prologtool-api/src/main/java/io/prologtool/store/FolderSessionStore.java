package io.prologtool.store;

import io.prologtool.PrologToolException;
import io.prologtool.SessionCheckpoint;
import io.prologtool.SessionHeldException;
import io.prologtool.SessionStore;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.charset.StandardCharsets;
import java.nio.file.AtomicMoveNotSupportedException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.regex.Pattern;
import java.util.stream.Stream;

/**
 * {@link SessionStore#folder(Path)}: one file per session, {@code <session id>.json}, in a folder.
 *
 * <p>A save writes the checkpoint to a new hidden file in the same folder, forces it to the disk, renames
 * it over the session's file (an atomic rename on the same file system) and forces the folder, so the
 * session's file is always a whole checkpoint, the old one or the new one, whenever the JVM or the
 * machine stops. A hidden file left by a save that was stopped midway is not a checkpoint; files of that
 * kind older than an hour are removed when a store opens the folder.
 *
 * <p>A session's lease is an exclusive lock on {@code <session id>.lease} in the folder, which holds the
 * holder's name: the operating system ends the lock with the process that holds it, so the lease of a JVM
 * that was killed is free at once. The lease file is removed when its holder lets it go after the
 * session's checkpoint was deleted.
 */
public final class FolderSessionStore implements SessionStore {

    /** Session ids this store keeps: what every file system takes as a file name. */
    private static final Pattern ID = Pattern.compile("[A-Za-z0-9_-][A-Za-z0-9._-]{0,199}");
    private static final String SUFFIX = ".json";
    private static final String TEMP_SUFFIX = ".tmp";
    private static final String LEASE_SUFFIX = ".lease";
    /**
     * The lease files locked by this JVM, whichever store object took them: a file lock belongs to the
     * process (and closing any other channel of the file would end it), so the JVM must never open a lease
     * file it holds.
     */
    private static final ConcurrentHashMap<Path, FolderLease> HELD = new ConcurrentHashMap<>();
    private static final Duration STALE_TEMP = Duration.ofHours(1);

    private final Path directory;

    public FolderSessionStore(Path directory) {
        this.directory = Objects.requireNonNull(directory, "directory").toAbsolutePath().normalize();
        try {
            Files.createDirectories(this.directory);
        } catch (IOException e) {
            throw new PrologToolException("cannot create the session store's folder " + this.directory + ": " + e,
                    e);
        }
        removeStaleTemporaries();
    }

    /** The folder this store keeps its files in. */
    public Path directory() {
        return directory;
    }

    @Override
    public void save(SessionCheckpoint checkpoint) {
        Objects.requireNonNull(checkpoint, "checkpoint");
        Path target = file(checkpoint.sessionId());
        byte[] bytes = CheckpointJson.write(checkpoint);
        Path temp = directory.resolve("." + checkpoint.sessionId() + "." + UUID.randomUUID() + TEMP_SUFFIX);
        try {
            try (FileChannel ch = FileChannel.open(temp, StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE)) {
                ByteBuffer buf = ByteBuffer.wrap(bytes);
                while (buf.hasRemaining()) {
                    ch.write(buf);
                }
                ch.force(true);
            }
            try {
                Files.move(temp, target, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
            } catch (AtomicMoveNotSupportedException e) {
                throw new PrologToolException("the file system of " + directory + " cannot rename a file "
                        + "atomically; a folder session store needs one that can (a local disk)", e);
            }
            forceDirectory();
        } catch (IOException e) {
            throw new PrologToolException("cannot write the checkpoint of session " + checkpoint.sessionId()
                    + " to " + target + " (the one kept before is unchanged): " + e, e);
        } finally {
            try {
                Files.deleteIfExists(temp);
            } catch (IOException ignored) {
                // removed when a store next opens the folder
            }
        }
    }

    @Override
    public Optional<SessionCheckpoint> load(String sessionId) {
        Path f = file(sessionId);
        byte[] bytes;
        try {
            bytes = Files.readAllBytes(f);
        } catch (NoSuchFileException e) {
            return Optional.empty();
        } catch (IOException e) {
            throw new PrologToolException("cannot read the checkpoint of session " + sessionId + " from " + f
                    + ": " + e, e);
        }
        SessionCheckpoint c = CheckpointJson.read(bytes, f.toString());
        if (!c.sessionId().equals(sessionId)) {
            throw new PrologToolException("the file " + f + " holds the checkpoint of session " + c.sessionId()
                    + ", not of " + sessionId + "; it was renamed or copied by hand");
        }
        return Optional.of(c);
    }

    @Override
    public boolean delete(String sessionId) {
        Path f = file(sessionId);
        try {
            boolean deleted = Files.deleteIfExists(f);
            if (deleted) {
                forceDirectory();
            }
            return deleted;
        } catch (IOException e) {
            throw new PrologToolException("cannot delete the checkpoint of session " + sessionId + " (" + f
                    + "): " + e, e);
        }
    }

    @Override
    public List<String> sessionIds() {
        List<String> ids = new ArrayList<>();
        try (Stream<Path> files = Files.list(directory)) {
            files.forEach(p -> {
                String name = p.getFileName().toString();
                if (name.endsWith(SUFFIX)) {
                    String id = name.substring(0, name.length() - SUFFIX.length());
                    if (ID.matcher(id).matches()) {
                        ids.add(id);
                    }
                }
            });
        } catch (IOException e) {
            throw new PrologToolException("cannot list the session store's folder " + directory + ": " + e, e);
        }
        return ids;
    }

    @Override
    public Optional<Instant> savedAt(String sessionId) {
        try {
            return Optional.of(Files.getLastModifiedTime(file(sessionId)).toInstant());
        } catch (NoSuchFileException e) {
            return Optional.empty();
        } catch (IOException e) {
            throw new PrologToolException("cannot read when session " + sessionId + " was saved: " + e, e);
        }
    }

    @Override
    public List<String> sessionIdsSavedBefore(Instant instant) {
        Objects.requireNonNull(instant, "instant");
        List<String> ids = new ArrayList<>();
        for (String id : sessionIds()) {
            savedAt(id).filter(t -> t.isBefore(instant)).ifPresent(t -> ids.add(id));
        }
        return ids;
    }

    @Override
    public Lease lease(String sessionId, String holder) {
        Objects.requireNonNull(holder, "holder");
        file(sessionId); // checks the id
        Path f = directory.resolve(sessionId + LEASE_SUFFIX);
        FolderLease lease = new FolderLease(sessionId, holder, f);
        FolderLease mine = HELD.putIfAbsent(f, lease);
        if (mine != null) {
            throw new SessionHeldException(sessionId, mine.holder(), toString());
        }
        try {
            lease.take();
            return lease;
        } catch (RuntimeException e) {
            HELD.remove(f, lease);
            throw e;
        }
    }

    /** A lock on a lease file, held by an open channel. */
    private final class FolderLease extends StoreLease {
        private final Path file;
        private FileChannel channel;
        private FileLock lock;

        FolderLease(String sessionId, String holder, Path file) {
            super(sessionId, holder);
            this.file = file;
        }

        void take() {
            FileChannel ch = null;
            try {
                ch = FileChannel.open(file, StandardOpenOption.CREATE, StandardOpenOption.READ,
                        StandardOpenOption.WRITE);
                FileLock l;
                long deadline = System.nanoTime() + StoreLease.NAME_WAIT_NANOS;
                while ((l = ch.tryLock()) == null) {
                    ByteBuffer buf = ByteBuffer.allocate(1024);
                    ch.read(buf, 0);
                    String who = new String(buf.array(), 0, buf.position(), StandardCharsets.UTF_8);
                    if (!who.isEmpty() || System.nanoTime() > deadline) {
                        throw new SessionHeldException(sessionId(), who, FolderSessionStore.this.toString());
                    }
                    StoreLease.pause(); // its holder has locked it and not written its name yet, or is letting it go
                }
                // empty, as a holder leaves it when it lets it go, or the name of one that died
                byte[] name = holder().getBytes(StandardCharsets.UTF_8);
                ch.write(ByteBuffer.wrap(name), 0);
                ch.truncate(name.length);
                channel = ch;
                lock = l;
                ch = null;
            } catch (IOException e) {
                throw new PrologToolException("cannot take the lease of session " + sessionId() + " (" + file
                        + "): " + e, e);
            } finally {
                if (ch != null) {
                    try {
                        ch.close();
                    } catch (IOException ignored) {
                        // nothing was held on it
                    }
                }
            }
        }

        @Override
        public synchronized void close() {
            if (channel == null) {
                return;
            }
            try {
                if (!Files.exists(file(sessionId()))) {
                    Files.deleteIfExists(file); // the session is gone; removed while still locked
                }
            } catch (IOException ignored) {
                // left for the session's next holder to remove
            }
            try {
                channel.truncate(0); // no name in a lease file nobody holds
            } catch (IOException ignored) {
                // the next holder writes its name over it
            }
            try {
                lock.release();
                channel.close();
            } catch (IOException ignored) {
                // the lock ends with the channel, or with the process
            } finally {
                channel = null;
                HELD.remove(file, this);
            }
        }
    }

    @Override
    public String toString() {
        return "SessionStore.folder(" + directory + ")";
    }

    private Path file(String sessionId) {
        Objects.requireNonNull(sessionId, "sessionId");
        if (!ID.matcher(sessionId).matches()) {
            throw new IllegalArgumentException("a folder session store keeps sessions whose ids are 1 to 200 "
                    + "letters, digits, '_', '-' or '.' (not first); got \"" + sessionId + "\"");
        }
        return directory.resolve(sessionId + SUFFIX);
    }

    /** The rename and the removal are durable once the folder's entry is on the disk too. */
    private void forceDirectory() {
        try (FileChannel dir = FileChannel.open(directory, StandardOpenOption.READ)) {
            dir.force(true);
        } catch (IOException e) {
            // a file system that cannot open a folder for this keeps the rename in its own order
        }
    }

    private void removeStaleTemporaries() {
        Instant before = Instant.now().minus(STALE_TEMP);
        try (Stream<Path> files = Files.list(directory)) {
            files.filter(p -> {
                String name = p.getFileName().toString();
                return name.startsWith(".") && name.endsWith(TEMP_SUFFIX);
            }).forEach(p -> {
                try {
                    if (Files.getLastModifiedTime(p).toInstant().isBefore(before)) {
                        Files.deleteIfExists(p);
                    }
                } catch (IOException ignored) {
                    // another store removed it first, or it cannot be removed: it is never read
                }
            });
        } catch (IOException e) {
            throw new PrologToolException("the session store's folder " + directory + " cannot be listed: " + e,
                    e);
        }
    }
}

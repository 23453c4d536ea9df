package io.prologtool.spi;


import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.AtomicMoveNotSupportedException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.attribute.FileTime;
import java.nio.file.attribute.PosixFilePermission;
import java.nio.file.attribute.PosixFilePermissions;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.time.Duration;
import java.time.Instant;
import java.util.HexFormat;
import java.util.Optional;
import java.util.Set;
import java.util.function.Predicate;

/**
 * The harness's saved states kept on disk between JVMs, so that a backend is ready in a fraction of the
 * second that compiling the harness takes: one file per kind and key, {@code <kind>-<key>.state}, where the
 * kind says what the state holds ({@code harness}: what a {@code swipl} child runs; {@code jpl}: what the
 * in-process backend's embedded Prolog starts from) and the key is a hash of the harness's text and of what
 * the backend names (the SWI-Prolog version, the real path of {@code swipl} or {@code libswipl}, its own
 * Prolog). A change of any gives a new key, hence a new file; files of a kind's keys no backend has started
 * from for {@link #UNUSED_FOR} are deleted when a new one of that kind is written.
 *
 * <p>Safe when several JVMs start at once: each writes its state to a temporary file of its own in the folder
 * and renames it to the key's name atomically, so a reader sees a whole file or none (the states are the same
 * either way). Only a folder of the JVM's user that no one else may write is used (a state is code the
 * children run); any other, or a folder that cannot be made, makes {@link #stateFor} return empty, and the
 * backend compiles a state of its own as it did without a cache.
 */
public final class SavedStateCache {

    /** How long a state no backend started from stays. */
    public static final Duration UNUSED_FOR = Duration.ofDays(30);
    /** Temporary files older than this are left-overs of a JVM that died while writing. */
    static final Duration STALE_TEMPORARY = Duration.ofHours(1);
    private static final String SUFFIX = ".state";
    /** Changes when what a state holds changes in a way the key does not see. */
    private static final String FORMAT = "1";

    private SavedStateCache() {
    }

    /** {@code $XDG_CACHE_HOME/prologtool}, or {@code ~/.cache/prologtool}. */
    public static Path defaultFolder() {
        String xdg = System.getenv("XDG_CACHE_HOME");
        if (xdg != null && !xdg.isBlank() && Path.of(xdg).isAbsolute()) {
            return Path.of(xdg, "prologtool");
        }
        return Path.of(System.getProperty("user.home"), ".cache", "prologtool");
    }

    /**
     * The state of {@code kind} for {@code key} in {@code folder}: the file there when it exists (its
     * modification time set to now, which marks it used), else one compiled by {@code compile} (given the
     * path to write) and moved in. Empty when the folder cannot be used safely or the state cannot be
     * compiled.
     *
     * @param cacheFolder the cache ({@link #defaultFolder()} unless the application names another)
     * @param kind        what the state holds, a word: the start of its file's name
     * @param key         {@link #key(String...)} of everything the state depends on
     * @param compile     writes the state to the path it is given; true when it did
     */
    public static Optional<Path> stateFor(Path cacheFolder, String kind, String key, Predicate<Path> compile) {
        Path folder = cacheFolder.toAbsolutePath().normalize();
        if (!usableFolder(folder)) {
            return Optional.empty();
        }
        String prefix = kind + "-";
        Path state = folder.resolve(prefix + key + SUFFIX);
        try {
            if (Files.isRegularFile(state) && Files.size(state) > 0) {
                Files.setLastModifiedTime(state, FileTime.from(Instant.now()));
                return Optional.of(state);
            }
            Path tmp = Files.createTempFile(folder, prefix + key + ".", ".tmp");
            try {
                if (!compile.test(tmp) || Files.size(tmp) == 0) {
                    return Optional.empty();
                }
                // Isolated children (another user) read it through a descriptor their launcher opened.
                Files.setPosixFilePermissions(tmp, PosixFilePermissions.fromString("rw-r--r--"));
                try {
                    Files.move(tmp, state, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
                } catch (AtomicMoveNotSupportedException e) {
                    return Optional.empty();
                }
            } finally {
                Files.deleteIfExists(tmp);
            }
            sweep(folder, prefix, state);
            return Optional.of(state);
        } catch (IOException | UnsupportedOperationException e) {
            return Optional.empty();
        }
    }

    /**
     * A key for {@link #stateFor}: SHA-256 of the cache's format, the harness files' names and text and
     * {@code parts} (what else the state depends on: the SWI-Prolog version, the real path of the
     * executable or library that runs it, the backend's own Prolog), as 32 hex digits.
     */
    public static String key(String... parts) {
        MessageDigest sha;
        try {
            sha = MessageDigest.getInstance("SHA-256");
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("the JVM has no SHA-256", e);
        }
        update(sha, FORMAT);
        for (String file : Harness.FILES) {
            update(sha, file);
            update(sha, Harness.text(file));
        }
        for (String part : parts) {
            update(sha, part);
        }
        return HexFormat.of().formatHex(sha.digest(), 0, 16);
    }

    private static void update(MessageDigest sha, String text) {
        byte[] bytes = text.getBytes(StandardCharsets.UTF_8);
        sha.update((bytes.length + ":").getBytes(StandardCharsets.UTF_8));
        sha.update(bytes);
    }

    /**
     * Whether {@code folder} (made when missing, for this user alone) is this user's and writable by no one
     * else, so that no other user can put code there for the children to run.
     */
    static boolean usableFolder(Path folder) {
        try {
            if (!Files.isDirectory(folder)) {
                if (folder.getParent() != null) {
                    Files.createDirectories(folder.getParent());
                }
                try {
                    Files.createDirectory(folder, PosixFilePermissions.asFileAttribute(
                            PosixFilePermissions.fromString("rwx------")));
                } catch (java.nio.file.FileAlreadyExistsException e) {
                    // another JVM made it a moment ago: checked below like any other
                }
            }
            Set<PosixFilePermission> perms = Files.getPosixFilePermissions(folder);
            String me = System.getProperty("user.name");
            return Files.getOwner(folder).getName().equals(me)
                    && !perms.contains(PosixFilePermission.GROUP_WRITE) && !perms.contains(PosixFilePermission.OTHERS_WRITE)
                    && Files.isWritable(folder);
        } catch (IOException | UnsupportedOperationException | SecurityException e) {
            return false;
        }
    }

    /**
     * Deletes the states of {@code prefix} other than {@code kept} unused for {@link #UNUSED_FOR}, and their
     * stale temporary files.
     */
    private static void sweep(Path folder, String prefix, Path kept) {
        Instant now = Instant.now();
        try (var files = Files.list(folder)) {
            for (Path f : (Iterable<Path>) files::iterator) {
                String name = f.getFileName().toString();
                if (!name.startsWith(prefix) || f.equals(kept)) {
                    continue;
                }
                Duration age = Duration.between(Files.getLastModifiedTime(f).toInstant(), now);
                if ((name.endsWith(SUFFIX) && age.compareTo(UNUSED_FOR) > 0)
                        || (name.endsWith(".tmp") && age.compareTo(STALE_TEMPORARY) > 0)) {
                    Files.deleteIfExists(f);
                }
            }
        } catch (IOException e) {
            // best effort: a file left is found by the next sweep
        }
    }
}

package io.prologtool.process;

import io.prologtool.spi.Harness;
import io.prologtool.spi.Logs;

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
 * The harness's saved state kept on disk between JVMs, so that a backend is ready in a fraction of the second
 * that compiling it takes: one file per key, {@code harness-<key>.state}, where the key is a hash of the
 * harness's text, the SWI-Prolog version {@code swipl --version} reports and the real path of {@code swipl}.
 * A change of either gives a new key, hence a new file; files of keys no backend has started from for
 * {@link #UNUSED_FOR} are deleted when a new one is written.
 *
 * <p>Safe when several JVMs start at once: each writes its state to a temporary file of its own in the folder
 * and renames it to the key's name atomically, so a reader sees a whole file or none (the states are the same
 * either way). Only a folder of the JVM's user that no one else may write is used (a state is code the
 * children run); any other, or a folder that cannot be made, makes {@link #stateFor} return empty, and the
 * backend compiles a state of its own as it did without a cache.
 */
final class SavedStateCache {

    /** How long a state no backend started from stays. */
    static final Duration UNUSED_FOR = Duration.ofDays(30);
    /** Temporary files older than this are left-overs of a JVM that died while writing. */
    static final Duration STALE_TEMPORARY = Duration.ofHours(1);
    private static final String PREFIX = "harness-";
    private static final String SUFFIX = ".state";
    /** Changes when what a state holds changes in a way the key does not see. */
    private static final String FORMAT = "1";

    private SavedStateCache() {
    }

    /** {@code $XDG_CACHE_HOME/prologtool}, or {@code ~/.cache/prologtool}. */
    static Path defaultFolder() {
        String xdg = System.getenv("XDG_CACHE_HOME");
        if (xdg != null && !xdg.isBlank() && Path.of(xdg).isAbsolute()) {
            return Path.of(xdg, "prologtool");
        }
        return Path.of(System.getProperty("user.home"), ".cache", "prologtool");
    }

    /**
     * The state for {@code swipl} in {@code folder}: the file there when it exists (its modification time set
     * to now, which marks it used), else one compiled by {@code compile} (given the path to write) and moved
     * in. Empty when the folder cannot be used safely or the state cannot be compiled.
     */
    static Optional<Path> stateFor(Path cacheFolder, Path swipl, Predicate<Path> compile) {
        Path folder = cacheFolder.toAbsolutePath().normalize();
        Optional<String> key = key(swipl);
        if (key.isEmpty() || !usableFolder(folder)) {
            return Optional.empty();
        }
        Path state = folder.resolve(PREFIX + key.get() + SUFFIX);
        try {
            if (Files.isRegularFile(state) && Files.size(state) > 0) {
                Files.setLastModifiedTime(state, FileTime.from(Instant.now()));
                return Optional.of(state);
            }
            Path tmp = Files.createTempFile(folder, PREFIX + key.get() + ".", ".tmp");
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
            sweep(folder, state);
            return Optional.of(state);
        } catch (IOException | UnsupportedOperationException e) {
            return Optional.empty();
        }
    }

    /**
     * The key of {@code swipl}'s state: SHA-256 of the format, the harness files' names and text, the version
     * line and the real path of {@code swipl}, as 32 hex digits; empty when the version cannot be had.
     */
    static Optional<String> key(Path swipl) {
        String version = Logs.swiplVersion(swipl);
        if (version.equals("unknown")) {
            return Optional.empty();
        }
        try {
            MessageDigest sha = MessageDigest.getInstance("SHA-256");
            update(sha, FORMAT);
            for (String file : Harness.FILES) {
                update(sha, file);
                update(sha, Harness.text(file));
            }
            update(sha, version);
            update(sha, swipl.toRealPath().toString());
            return Optional.of(HexFormat.of().formatHex(sha.digest(), 0, 16));
        } catch (NoSuchAlgorithmException | IOException e) {
            return Optional.empty();
        }
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

    /** Deletes states other than {@code kept} unused for {@link #UNUSED_FOR}, and stale temporary files. */
    private static void sweep(Path folder, Path kept) {
        Instant now = Instant.now();
        try (var files = Files.list(folder)) {
            for (Path f : (Iterable<Path>) files::iterator) {
                String name = f.getFileName().toString();
                if (!name.startsWith(PREFIX) || f.equals(kept)) {
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

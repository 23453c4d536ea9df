package io.prologtool.spi;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.DirectoryStream;
import java.nio.file.FileVisitResult;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.SimpleFileVisitor;
import java.nio.file.attribute.BasicFileAttributes;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * Folders in the system's temporary directory ({@code java.io.tmpdir}) that a backend works in: the
 * process backend's harness and its children's temporary files, the in-process Prolog's temporary files.
 * A backend deletes its folders when it closes and when the JVM exits; a JVM that was killed cannot, so each
 * folder holds a file naming the JVM that made it, and the first folder a JVM makes starts a sweep, on a
 * thread of its own, that deletes every such folder whose JVM has ended. A folder is left alone unless its
 * owner file says it was made on this boot of this machine, in this process namespace, by a process that
 * is no longer running (a process id in use again is told apart by its start time); folders without the
 * file, and anything else in the temporary directory, are never touched.
 */
public final class TempFolders {

    /** The file in each folder that names the JVM that made it. */
    static final String OWNER_FILE = ".prologtool-owner";
    /** Folders swept are those whose names start with this (every prefix a backend uses does). */
    static final String SWEPT_PREFIX = "prologtool-";
    private static final AtomicBoolean SWEPT = new AtomicBoolean();

    private TempFolders() {
    }

    /**
     * A new folder in the system's temporary directory whose name starts with {@code prefix}, with the
     * owner file in it; the first call in a JVM also starts the sweep of folders whose JVM has ended.
     *
     * @param prefix starts with {@code prologtool-}
     * @throws IOException when the folder cannot be made
     */
    public static Path create(String prefix) throws IOException {
        if (!prefix.startsWith(SWEPT_PREFIX)) {
            throw new IllegalArgumentException("a temporary folder's prefix starts with " + SWEPT_PREFIX
                    + ", was " + prefix);
        }
        Path dir = Files.createTempDirectory(prefix);
        Files.writeString(dir.resolve(OWNER_FILE), owner(ProcessHandle.current()), StandardCharsets.UTF_8);
        if (SWEPT.compareAndSet(false, true)) {
            Path parent = dir.getParent();
            Thread t = new Thread(() -> sweep(parent), "prologtool-temp-sweep");
            t.setDaemon(true);
            t.start();
        }
        return dir;
    }

    /**
     * Deletes {@code dir} and everything in it, as far as it can: a file that cannot be deleted stays,
     * and so does the folder holding it. No error when {@code dir} is gone, or when something else deletes
     * parts of it meanwhile (a child's folder of temporary files goes when the child ends, which may be while
     * its backend's folder is deleted): what is gone is passed over, and the walk is tried again.
     */
    public static void deleteTree(Path dir) {
        if (dir == null) {
            return;
        }
        for (int attempt = 0; attempt < 3 && Files.exists(dir, LinkOption.NOFOLLOW_LINKS); attempt++) {
            try {
                Files.walkFileTree(dir, new SimpleFileVisitor<>() {
                    @Override
                    public FileVisitResult visitFile(Path file, BasicFileAttributes attrs) {
                        deleteQuietly(file);
                        return FileVisitResult.CONTINUE;
                    }

                    @Override
                    public FileVisitResult visitFileFailed(Path file, IOException e) {
                        return FileVisitResult.CONTINUE; // gone meanwhile, or not readable
                    }

                    @Override
                    public FileVisitResult postVisitDirectory(Path d, IOException e) {
                        deleteQuietly(d);
                        return FileVisitResult.CONTINUE;
                    }
                });
            } catch (IOException | RuntimeException ignored) {
                // tried again while attempts last
            }
        }
    }

    private static void deleteQuietly(Path p) {
        try {
            Files.deleteIfExists(p);
        } catch (IOException ignored) {
            // a file still open elsewhere, or not ours, stays behind; a folder not empty is tried again
        }
    }

    /**
     * Deletes the folders in {@code tmp} whose owner file names a JVM of this boot and process namespace
     * that has ended; how many it deleted.
     */
    static int sweep(Path tmp) {
        String boot = bootId().orElse(null);
        String namespace = pidNamespace().orElse(null);
        if (boot == null || namespace == null) {
            return 0; // not Linux: whether a process id is of this machine cannot be told
        }
        int deleted = 0;
        try (DirectoryStream<Path> dirs = Files.newDirectoryStream(tmp, SWEPT_PREFIX + "*")) {
            for (Path dir : dirs) {
                if (ended(dir, boot, namespace)) {
                    deleteTree(dir);
                    deleted++;
                }
            }
        } catch (IOException | RuntimeException ignored) {
            // the temporary directory cannot be listed: nothing to sweep
        }
        return deleted;
    }

    /** Whether {@code dir}'s owner file names a process of this boot and namespace that has ended. */
    static boolean ended(Path dir, String boot, String namespace) {
        Path file = dir.resolve(OWNER_FILE);
        List<String> words;
        try {
            if (!Files.isDirectory(dir, LinkOption.NOFOLLOW_LINKS) || !Files.isRegularFile(file, LinkOption.NOFOLLOW_LINKS)) {
                return false;
            }
            words = List.of(Files.readString(file, StandardCharsets.UTF_8).trim().split(" "));
        } catch (IOException | RuntimeException e) {
            return false;
        }
        if (words.size() != 4 || !words.get(2).equals(boot) || !words.get(3).equals(namespace)) {
            return false;
        }
        long pid;
        long started;
        try {
            pid = Long.parseLong(words.get(0));
            started = Long.parseLong(words.get(1));
        } catch (NumberFormatException e) {
            return false;
        }
        Optional<ProcessHandle> p = ProcessHandle.of(pid);
        return p.isEmpty() || !p.get().isAlive() || startMillis(p.get()) != started;
    }

    /** The owner file's line for process {@code p}: pid, start time, boot id, pid namespace. */
    static String owner(ProcessHandle p) {
        return p.pid() + " " + startMillis(p) + " " + bootId().orElse("-") + " " + pidNamespace().orElse("-");
    }

    private static long startMillis(ProcessHandle p) {
        return p.info().startInstant().map(java.time.Instant::toEpochMilli).orElse(-1L);
    }

    /** This boot's id (Linux), empty elsewhere. */
    static Optional<String> bootId() {
        try {
            return Optional.of(Files.readString(Path.of("/proc/sys/kernel/random/boot_id")).trim());
        } catch (IOException | RuntimeException e) {
            return Optional.empty();
        }
    }

    /** This process's pid namespace (Linux), empty elsewhere. */
    static Optional<String> pidNamespace() {
        try {
            return Optional.of(Files.readSymbolicLink(Path.of("/proc/self/ns/pid")).toString().replace(' ', '_'));
        } catch (IOException | RuntimeException e) {
            return Optional.empty();
        }
    }
}

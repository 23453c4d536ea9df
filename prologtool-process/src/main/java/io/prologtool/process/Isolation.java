package io.prologtool.process;

import io.prologtool.PrologUnavailableException;
import io.prologtool.SessionOptions;
import io.prologtool.spi.Executables;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.TimeUnit;

/**
 * How the {@link ProcessBackend} confines the {@code swipl} children of its sessions at the level of
 * the operating system, on top of what {@code library(sandbox)} checks inside Prolog. Immutable; each
 * setter returns a copy.
 *
 * <pre>{@code
 * ProcessBackend backend = ProcessBackend.builder()
 *         .isolation(Isolation.required().scratchBytes(32L << 20))   // fail fast where it cannot be had
 *         .build();
 * }</pre>
 *
 * <p>Levels:
 * <ul>
 *   <li>{@link #auto()} (the default): on Linux, as root, with util-linux's {@code setpriv},
 *       {@code unshare} and {@code prlimit}, a sandboxed session's child runs as user 65534
 *       ({@code nobody}), in a network namespace of its own with no interface but loopback (no
 *       network), with a private tmpfs on {@code /tmp} (also bound on {@code /var/tmp},
 *       {@code /run/lock} and {@code /dev/shm}) as its only writable folder, and under an
 *       address-space limit. Where any of that is unavailable, children run as the JVM's user, still
 *       under the backend's address-space limit ({@link ProcessBackend#isolationInEffect()} says which).</li>
 *   <li>{@link #required()}: the same, but building the backend fails with a clear message when it
 *       cannot be had.</li>
 *   <li>{@link #custom(List)}: isolated children are started through a command prefix of your own
 *       ({@code ssh host}, {@code docker exec -i box}, {@code kubectl exec -i pod --}); the harness
 *       reaches them over standard input, so nothing needs to be shared with them but the pipe.</li>
 *   <li>{@link #none()}: children run as the JVM's user, with its network and file system.</li>
 * </ul>
 * By default only sandboxed sessions ({@link SessionOptions#sandboxed()}) are isolated: trusted code
 * keeps the JVM's files and network. {@link #allSessions(boolean)} isolates every session.
 */
public final class Isolation {

    /** The user and group id isolated children run as by default: 65534, {@code nobody}/{@code nogroup}. */
    public static final int NOBODY = 65534;
    /** Default address-space limit of an isolated child: 1 GiB. */
    public static final long DEFAULT_ADDRESS_SPACE = 1L << 30;
    /** Default size of an isolated child's private tmpfs: 64 MiB. */
    public static final long DEFAULT_SCRATCH = 64L << 20;

    enum Mode { AUTO, REQUIRED, CUSTOM, NONE }

    private final Mode mode;
    private final List<String> prefix;
    private final int uid;
    private final int gid;
    private final boolean network;
    private final long addressSpaceBytes;
    private final long scratchBytes;
    private final boolean allSessions;

    private Isolation(Mode mode, List<String> prefix, int uid, int gid, boolean network, long addressSpaceBytes,
                      long scratchBytes, boolean allSessions) {
        this.mode = mode;
        this.prefix = List.copyOf(prefix);
        this.uid = uid;
        this.gid = gid;
        this.network = network;
        this.addressSpaceBytes = addressSpaceBytes;
        this.scratchBytes = scratchBytes;
        this.allSessions = allSessions;
    }

    private static Isolation of(Mode mode, List<String> prefix) {
        return new Isolation(mode, prefix, NOBODY, NOBODY, false, DEFAULT_ADDRESS_SPACE, DEFAULT_SCRATCH, false);
    }

    /** OS isolation where the machine offers it, none elsewhere (the default). */
    public static Isolation auto() {
        return of(Mode.AUTO, List.of());
    }

    /**
     * OS isolation or an error: {@link ProcessBackend.Builder#build()} throws
     * {@link PrologUnavailableException} naming what is missing (not Linux, not root, no
     * {@code setpriv}/{@code unshare}/{@code prlimit}, or namespaces refused).
     */
    public static Isolation required() {
        return of(Mode.REQUIRED, List.of());
    }

    /** No OS isolation: children run as the JVM's user (still under the backend's address-space limit). */
    public static Isolation none() {
        return of(Mode.NONE, List.of());
    }

    /** Isolated children are started as {@code prefix... swipl ...}; see {@link #custom(List)}. */
    public static Isolation custom(String... prefix) {
        return custom(List.of(prefix));
    }

    /**
     * Isolated children are started through {@code prefix}, a command that runs the rest of its line
     * somewhere else and passes standard input, output and error through: {@code ssh -T host},
     * {@code docker exec -i box}, {@code kubectl exec -i pod --}, or a local wrapper. The harness is
     * sent over standard input, so the far side needs only {@code swipl} (name its path there with
     * {@link ProcessBackend.Builder#swiplPath}). The user, network and size settings do not apply: the
     * prefix decides.
     */
    public static Isolation custom(List<String> prefix) {
        Objects.requireNonNull(prefix, "prefix");
        if (prefix.isEmpty()) {
            throw new IllegalArgumentException("a custom isolation prefix must name a command");
        }
        prefix.forEach(p -> Objects.requireNonNull(p, "prefix element"));
        return of(Mode.CUSTOM, prefix);
    }

    /** The user and group ids isolated children run as (default 65534, 65534). */
    public Isolation user(int uid, int gid) {
        if (uid < 0 || gid < 0) {
            throw new IllegalArgumentException("uid and gid must not be negative: " + uid + ", " + gid);
        }
        return new Isolation(mode, prefix, uid, gid, network, addressSpaceBytes, scratchBytes, allSessions);
    }

    /** Whether isolated children keep the network (default false: a namespace with loopback only). */
    public Isolation network(boolean allowed) {
        return new Isolation(mode, prefix, uid, gid, allowed, addressSpaceBytes, scratchBytes, allSessions);
    }

    /** Address-space limit of an isolated child (default 1 GiB); at least 256 MiB. */
    public Isolation addressSpaceBytes(long bytes) {
        if (bytes < (256L << 20)) {
            throw new IllegalArgumentException("addressSpaceBytes must be at least 256 MiB, was " + bytes);
        }
        return new Isolation(mode, prefix, uid, gid, network, bytes, scratchBytes, allSessions);
    }

    /** Size of an isolated child's private {@code /tmp} (default 64 MiB); at least 1 MiB. */
    public Isolation scratchBytes(long bytes) {
        if (bytes < (1L << 20)) {
            throw new IllegalArgumentException("scratchBytes must be at least 1 MiB, was " + bytes);
        }
        return new Isolation(mode, prefix, uid, gid, network, addressSpaceBytes, bytes, allSessions);
    }

    /** Isolate every session, not only sandboxed ones (default false). */
    public Isolation allSessions(boolean all) {
        return new Isolation(mode, prefix, uid, gid, network, addressSpaceBytes, scratchBytes, all);
    }

    /** True when this isolation applies to a session opened with {@code options}. */
    boolean appliesTo(SessionOptions options) {
        return mode != Mode.NONE && (allSessions || options.sandboxed());
    }

    Mode mode() {
        return mode;
    }

    List<String> prefix() {
        return prefix;
    }

    boolean allSessions() {
        return allSessions;
    }

    @Override
    public String toString() {
        return switch (mode) {
            case NONE -> "Isolation.none()";
            case CUSTOM -> "Isolation.custom(" + String.join(" ", prefix) + ")" + (allSessions ? ".allSessions(true)" : "");
            default -> "Isolation." + mode.name().toLowerCase(java.util.Locale.ROOT) + "()[user=" + uid + ":" + gid
                    + ", network=" + network + ", addressSpace=" + addressSpaceBytes + ", scratch=" + scratchBytes
                    + ", allSessions=" + allSessions + "]";
        };
    }

    // ---------------------------------------------------------------- resolution

    /**
     * What the backend does for isolated children: the command that goes before {@code swipl}, and
     * whether the harness's saved state can be handed over on file descriptor 3.
     *
     * @param prefix    the launcher, ending in a shell script that takes the state path (or "") as its
     *                  first argument and runs the rest of the line
     * @param viaFd3    true when the prefix opens the saved state as fd 3 (local isolation)
     * @param describe  what is in effect, for {@link ProcessBackend#isolationInEffect()}
     */
    record Plan(List<String> prefix, boolean viaFd3, String describe) {
    }

    /**
     * The plan on this machine, or empty when children are not isolated.
     *
     * @throws PrologUnavailableException when {@link #required()} cannot be had
     */
    Optional<Plan> resolve() {
        return resolve(Executables::findOnPath, effectiveUid());
    }

    /** {@link #resolve()} with the tools found by {@code find} and the JVM running as {@code uid}. */
    Optional<Plan> resolve(java.util.function.Function<String, Optional<Path>> find, int uid) {
        switch (mode) {
            case NONE:
                return Optional.empty();
            case CUSTOM:
                return Optional.of(new Plan(prefix, false, "custom prefix: " + String.join(" ", prefix)));
            default:
                break;
        }
        List<String> missing = new ArrayList<>();
        if (!System.getProperty("os.name", "").toLowerCase(java.util.Locale.ROOT).contains("linux")) {
            missing.add("Linux (this is " + System.getProperty("os.name") + ")");
        } else if (uid != 0) {
            missing.add("root (the JVM runs as uid " + uid + "; setpriv and unshare need root)");
        }
        Optional<Path> setpriv = find.apply("setpriv");
        Optional<Path> unshare = find.apply("unshare");
        Optional<Path> prlimit = find.apply("prlimit");
        Optional<Path> sh = find.apply("sh");
        for (var tool : List.of(java.util.Map.entry("setpriv", setpriv), java.util.Map.entry("unshare", unshare),
                java.util.Map.entry("prlimit", prlimit), java.util.Map.entry("sh", sh))) {
            if (tool.getValue().isEmpty()) {
                missing.add(tool.getKey() + " (apt-get install util-linux)");
            }
        }
        if (missing.isEmpty()) {
            List<String> cmd = new ArrayList<>();
            cmd.add(prlimit.get().toString());
            cmd.add("--as=" + addressSpaceBytes);
            cmd.add(unshare.get().toString());
            if (!network) {
                cmd.add("--net");
            }
            cmd.add("--mount");
            cmd.add(sh.get().toString());
            cmd.add("-c");
            cmd.add(script(setpriv.get()));
            String probe = PROBES.computeIfAbsent(cmd, Isolation::probe).orElse(null);
            if (probe == null) {
                return Optional.of(new Plan(cmd, true, toString()));
            }
            missing.add("namespaces (a trial start failed: " + probe + ")");
        }
        if (mode == Mode.REQUIRED) {
            throw new PrologUnavailableException("Isolation.required() cannot be had on this machine; missing: "
                    + String.join("; ", missing));
        }
        return Optional.empty();
    }

    /**
     * The script run as root inside the new mount namespace: open the saved state (if any) as fd 3,
     * put a private tmpfs on /tmp (and the other world-writable folders), then become the
     * unprivileged user and run swipl. $1 is the state path or "", the rest is the swipl command.
     */
    private String script(Path setpriv) {
        return "st=$1; shift; "
                + "if [ -n \"$st\" ]; then exec 3<\"$st\" || exit 97; fi; "
                + "mount -t tmpfs -o size=" + scratchBytes + ",mode=1777,nosuid,nodev prologtool /tmp || exit 98; "
                + "for d in /var/tmp /run/lock /dev/shm; do "
                + "if [ -d \"$d\" ]; then mount --bind /tmp \"$d\" || exit 98; fi; done; "
                + "cd /tmp || exit 98; "
                + "HOME=/tmp; export HOME; "
                + "exec " + setpriv + " --reuid=" + uid + " --regid=" + gid + " --clear-groups -- \"$@\"";
    }

    /** Trial starts by launcher: the machine does not change while the JVM runs. */
    private static final java.util.Map<List<String>, Optional<String>> PROBES = new java.util.concurrent.ConcurrentHashMap<>();

    /** Empty when {@code prefix sh "" true} runs here, else what went wrong. */
    private static Optional<String> probe(List<String> prefix) {
        return Optional.ofNullable(tryStart(prefix));
    }

    private static String tryStart(List<String> prefix) {
        List<String> cmd = new ArrayList<>(prefix);
        cmd.add("sh");      // $0 of the script
        cmd.add("");        // no state
        cmd.add("true");
        try {
            Process p = new ProcessBuilder(cmd).redirectErrorStream(true).start();
            p.getOutputStream().close();
            if (!p.waitFor(20, TimeUnit.SECONDS)) {
                p.destroyForcibly();
                return "no answer in 20 s";
            }
            String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8).strip();
            return p.exitValue() == 0 ? null : "status " + p.exitValue() + (out.isEmpty() ? "" : ": " + out);
        } catch (IOException e) {
            return e.getMessage();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return "interrupted";
        }
    }

    /** The JVM's effective uid from /proc/self/status; -1 when it cannot be read. */
    static int effectiveUid() {
        try {
            for (String line : Files.readAllLines(Path.of("/proc/self/status"), StandardCharsets.UTF_8)) {
                if (line.startsWith("Uid:")) {
                    return Integer.parseInt(line.substring(4).trim().split("\\s+")[1]);
                }
            }
        } catch (IOException | RuntimeException ignored) {
            // not Linux
        }
        return -1;
    }
}

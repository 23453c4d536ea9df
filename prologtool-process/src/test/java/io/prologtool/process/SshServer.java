package io.prologtool.process;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

/**
 * A real OpenSSH server on this machine for {@link RemoteSshTest}: a throwaway user made for it with a
 * fresh key pair (key login only), and {@code sshd} on a free port of 127.0.0.1 with a configuration and
 * host key of its own in a temporary folder. Needs root (to add the user and run sshd) and the OS's
 * openssh-server ({@code make test-remote} installs it); fails, never skips, without them.
 * {@link #close()} stops sshd, ends the user's processes and removes the user and the folder.
 */
final class SshServer implements AutoCloseable {

    private final Path dir;
    private final String user;
    private final int port;
    private final Process sshd;

    private SshServer(Path dir, String user, int port, Process sshd) {
        this.dir = dir;
        this.user = user;
        this.port = port;
        this.sshd = sshd;
    }

    static SshServer start() throws IOException, InterruptedException {
        if (!"root".equals(System.getProperty("user.name"))) {
            throw new IllegalStateException("the ssh tests make a user and start sshd: run them as root (make test-remote)");
        }
        Path sshdBin = Path.of("/usr/sbin/sshd");
        if (!Files.isExecutable(sshdBin)) {
            throw new IllegalStateException("OpenSSH's server is not installed (no /usr/sbin/sshd): make test-remote "
                    + "installs it (apt-get install openssh-server)");
        }
        Path dir = Files.createTempDirectory("prologtool-sshd");
        String user = "ptssh" + ThreadLocalRandom.current().nextInt(100_000, 1_000_000);
        run("useradd", "--create-home", "--shell", "/bin/sh", user);
        try {
            // no password, and not locked: sshd without PAM lets no one into a locked account ("!")
            run("usermod", "--password", "*", user);
            run("ssh-keygen", "-q", "-t", "ed25519", "-N", "", "-f", dir.resolve("id").toString());
            run("ssh-keygen", "-q", "-t", "ed25519", "-N", "", "-f", dir.resolve("host_key").toString());
            Path home = Path.of("/home", user);
            Path ssh = Files.createDirectories(home.resolve(".ssh"));
            Files.copy(dir.resolve("id.pub"), ssh.resolve("authorized_keys"));
            Files.setPosixFilePermissions(ssh, PosixFilePermissions.fromString("rwx------"));
            Files.setPosixFilePermissions(ssh.resolve("authorized_keys"), PosixFilePermissions.fromString("rw-------"));
            run("chown", "-R", user + ":" + user, ssh.toString());
            Files.createDirectories(Path.of("/run/sshd")); // sshd's privilege separation folder
            int port;
            try (ServerSocket s = new ServerSocket(0)) {
                port = s.getLocalPort();
            }
            Path config = dir.resolve("sshd_config");
            Files.writeString(config, String.join("\n",
                    "Port " + port,
                    "ListenAddress 127.0.0.1",
                    "HostKey " + dir.resolve("host_key"),
                    "PidFile " + dir.resolve("sshd.pid"),
                    "AuthorizedKeysFile .ssh/authorized_keys",
                    "PubkeyAuthentication yes",
                    "PasswordAuthentication no",
                    "KbdInteractiveAuthentication no",
                    "UsePAM no",
                    "PermitRootLogin no",
                    "AllowUsers " + user,
                    "LogLevel ERROR",
                    ""), StandardCharsets.UTF_8);
            run(sshdBin.toString(), "-t", "-f", config.toString());
            Process sshd = new ProcessBuilder(sshdBin.toString(), "-D", "-e", "-f", config.toString())
                    .redirectErrorStream(true).redirectOutput(dir.resolve("sshd.log").toFile()).start();
            SshServer server = new SshServer(dir, user, port, sshd);
            long until = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
            while (true) {
                try (Socket probe = new Socket()) {
                    probe.connect(new InetSocketAddress("127.0.0.1", port), 1_000);
                    return server;
                } catch (IOException e) {
                    if (!sshd.isAlive() || System.nanoTime() > until) {
                        server.close();
                        throw new IllegalStateException("sshd did not start: " + Files.readString(dir.resolve("sshd.log")));
                    }
                    Thread.sleep(50);
                }
            }
        } catch (IOException | RuntimeException e) {
            run("userdel", "--remove", user);
            throw e;
        }
    }

    /** The user the server lets in. */
    String user() {
        return user;
    }

    /**
     * The ssh command that logs in as the user with its key, before the remote command: what a
     * {@code commandPrefix} of the process backend takes.
     */
    List<String> login() {
        return List.of("ssh", "-T", "-i", dir.resolve("id").toString(), "-p", String.valueOf(port),
                "-o", "BatchMode=yes", "-o", "StrictHostKeyChecking=no", "-o", "UserKnownHostsFile=/dev/null",
                "-o", "LogLevel=ERROR", user + "@127.0.0.1");
    }

    /** The command lines of the user's processes, as ps shows them. */
    List<String> processes() throws IOException, InterruptedException {
        Process p = new ProcessBuilder("ps", "-o", "args=", "-u", user).redirectErrorStream(true).start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        p.waitFor(30, TimeUnit.SECONDS);
        List<String> lines = new ArrayList<>();
        out.lines().filter(l -> !l.isBlank()).forEach(lines::add);
        return lines;
    }

    /** Sends {@code signal} to the user's swipl processes (on the far side of the ssh). */
    void signalSwipl(String signal) throws IOException, InterruptedException {
        new ProcessBuilder("pkill", "-" + signal, "-u", user, "swipl").start().waitFor(30, TimeUnit.SECONDS);
    }

    private static void run(String... command) throws IOException, InterruptedException {
        Process p = new ProcessBuilder(command).redirectErrorStream(true).start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        if (!p.waitFor(60, TimeUnit.SECONDS) || p.exitValue() != 0) {
            p.destroyForcibly();
            throw new IOException(String.join(" ", command) + " failed: " + out);
        }
    }

    @Override
    public void close() throws IOException, InterruptedException {
        sshd.destroy();
        sshd.waitFor(30, TimeUnit.SECONDS);
        new ProcessBuilder("pkill", "-9", "-u", user).start().waitFor(30, TimeUnit.SECONDS);
        Thread.sleep(200);
        new ProcessBuilder("userdel", "--remove", user).redirectErrorStream(true).start().waitFor(60, TimeUnit.SECONDS);
        try (Stream<Path> files = Files.walk(dir)) {
            files.sorted(Comparator.reverseOrder()).forEach(f -> f.toFile().delete());
        }
    }
}

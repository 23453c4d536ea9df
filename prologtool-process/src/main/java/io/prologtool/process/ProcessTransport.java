package io.prologtool.process;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.prologtool.json.TermJson;
import io.prologtool.spi.HarnessCrashedException;
import io.prologtool.spi.HarnessTimeoutException;
import io.prologtool.spi.HarnessTransport;

import java.io.IOException;
import java.io.InputStream;
import java.io.Writer;
import java.io.OutputStreamWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Consumer;

/**
 * One {@code swipl} child running the harness line protocol. A reader thread takes reply lines off
 * the child's stdout and completes the pending call (or the request sent ahead of it) whose id they
 * echo; other lines (late replies, replies nobody waits for, garbage) are dropped. A line longer than
 * the transport's cap (output a goal wrote to the real stdout without a newline) stops the child: the
 * JVM never holds more than the cap for it. A second thread drains stderr into a small ring so that the child can
 * never block on a full pipe.
 *
 * <p>The child is the leader of a process group of its own (started with {@code setsid}), so killing
 * it kills the group: nothing a goal started ({@code shell('sleep 61 &')}) outlives it.
 */
final class ProcessTransport implements HarnessTransport {

    private static final int STDERR_KEEP = 8 * 1024;

    private final Process process;
    private final Writer stdin;
    private final long maxReplyBytes;
    /** The {@code kill} command for the child's process group; null when the child leads no group. */
    private final Path killCommand;
    /** Why the transport stopped its child, for the crash report; null while nothing was stopped. */
    private volatile String stopReason;
    /** Request ids start at a random number, so that a goal cannot forge the reply to its own call. */
    private final AtomicLong nextId = new AtomicLong(ThreadLocalRandom.current().nextLong(1, 1L << 52));
    private final AtomicReference<Pending> pending = new AtomicReference<>();
    /** A {@link #cancel()} that also stops the next call, until {@link #clearCancel()}. */
    private volatile boolean cancelling;
    /** Held while a line is written to the child's stdin: requests and cancels never interleave. */
    private final Object writing = new Object();
    /** The request sent ahead ({@link #callAhead}) whose reply the next call takes first; null when none is. */
    private final AtomicReference<Ahead> ahead = new AtomicReference<>();
    /**
     * The recycle check that the close of the last session asked the child to run right after its
     * reply ({@code recycle_after}); null until a close asked for one.
     */
    private final AtomicReference<Check> recycleCheck = new AtomicReference<>();
    private final StringBuilder stderrTail = new StringBuilder();
    private volatile boolean closed;
    /** Set once the child is being ended: it never serves again. */
    private volatile boolean ended;
    /**
     * Who may take this child back when its session closes (see {@link ProcessBackend}); null when the
     * child ends with its session.
     */
    private volatile Recycler recycler;
    /** Set by the reader thread once the child has answered a request: it is up and serving. */
    private volatile boolean answered;
    /** Sessions this child has served (session threads write, the reader thread reads). */
    private volatile int sessionsServed;

    /** Takes back a child whose session closed; false when it will not (the child is then ended). */
    @FunctionalInterface
    interface Recycler {
        boolean takeBack(ProcessTransport child);
    }

    private record Pending(long id, CompletableFuture<JsonNode> reply) {
    }

    /** A request sent ahead: its reply, how long to wait for it, and what checks it. */
    private record Ahead(Pending pending, Duration timeout, Consumer<JsonNode> check) {
    }

    /** A recycle check asked for by the close of the child's {@code session}th session, at {@code askedAt}. */
    private record Check(long id, CompletableFuture<JsonNode> reply, int session, long askedAt) {
    }

    /**
     * @param bootstrap     the harness text to write to stdin before any request, or null when the
     *                      child loads it otherwise (a saved state)
     * @param maxReplyBytes the longest line the child may write on its protocol stream
     * @param killCommand   {@code kill}, when the child leads its own process group; else null
     */
    ProcessTransport(Process process, String bootstrap, long maxReplyBytes, Path killCommand) {
        this.process = process;
        this.maxReplyBytes = maxReplyBytes;
        this.killCommand = killCommand;
        this.stdin = new OutputStreamWriter(process.getOutputStream(), StandardCharsets.UTF_8);
        long pid = process.pid();
        daemon("prologtool-swipl-" + pid + "-out", () -> readReplies(process.getInputStream()));
        daemon("prologtool-swipl-" + pid + "-err", () -> drainErrors(process.getErrorStream()));
        if (bootstrap != null) {
            try {
                stdin.write(bootstrap);
                stdin.flush();
            } catch (IOException e) {
                kill();
                throw new HarnessCrashedException("cannot send the harness to the swipl child: " + e.getMessage()
                        + "; " + exitDescription(), e);
            }
        }
    }

    long pid() {
        return process.pid();
    }

    @Override
    public JsonNode call(ObjectNode request, Duration timeout) {
        if (!isAlive()) {
            throw new HarnessCrashedException(exitDescription());
        }
        askForCheck(request);
        return send(request, timeout);
    }

    /**
     * Writes the request at once and returns: the child reads it while the caller prepares the next
     * one, which {@link #call} writes before it waits for this reply (then for its own), so a session's
     * open and first request cost one wake-up of a child that sat idle, not two. A child that has not
     * answered yet (one just started, still loading) gets a plain call: its first reply is what says
     * it is up, and the caller would wait for its start-up either way.
     */
    @Override
    public void callAhead(ObjectNode request, Duration timeout, Consumer<JsonNode> check) {
        if (!answered) {
            check.accept(call(request, timeout));
            return;
        }
        if (!isAlive()) {
            throw new HarnessCrashedException(exitDescription());
        }
        awaitAhead(); // at most one request ahead
        Pending p = new Pending(assignId(request), new CompletableFuture<>());
        ahead.set(new Ahead(p, timeout, check));
        write(request);
    }

    /**
     * Writes the request and returns; its reply is dropped when it comes. A close travels this way: the
     * recycle check that it asks for ({@link #checkClean}) comes in on the reader thread all the same.
     * A request still ahead is forgotten (its reply is dropped too): the session that sent it is done.
     */
    @Override
    public void post(ObjectNode request, Duration timeout) {
        if (!isAlive()) {
            throw new HarnessCrashedException(exitDescription());
        }
        ahead.set(null);
        askForCheck(request);
        assignId(request);
        write(request);
    }

    /**
     * When the request is the close of a session whose child may serve again, asks the child to check
     * itself right after the close reply, without waiting to be asked (see {@link #checkClean}).
     */
    private void askForCheck(ObjectNode request) {
        if (recycler != null && "close".equals(request.path("op").asText(null))) {
            Check check = new Check(nextId.getAndIncrement(), new CompletableFuture<>(), sessionsServed,
                    System.nanoTime());
            recycleCheck.set(check);
            request.put("recycle_after", check.id());
        }
    }

    /** Hands the child to a session; {@code recycler} may take it back when the session closes (null: it ends then). */
    void serveSession(Recycler recycler) {
        this.recycler = recycler;
        sessionsServed++;
        pidsAtServe = lastPid();
    }

    /** The machine's process counter when the child was handed to its session ({@link #lastPid}). */
    private volatile long pidsAtServe = -1;
    private static final Path LAST_PID = Path.of("/proc/sys/kernel/ns_last_pid");

    /**
     * The last process id the kernel handed out in this PID namespace, or -1 when it cannot be read.
     * It moves with every process started anywhere below this namespace, the children's included.
     */
    private static long lastPid() {
        // one read: the kernel answers a read of a sysctl file at an offset past 0 with end of file, so
        // a reader that reads a byte at a time (Files.readString on a file of size 0) gets "1" of "10248"
        byte[] buf = new byte[32];
        try (InputStream in = java.nio.file.Files.newInputStream(LAST_PID)) {
            int n = in.read(buf);
            return n <= 0 ? -1 : Long.parseLong(new String(buf, 0, n, StandardCharsets.ISO_8859_1).trim());
        } catch (IOException | RuntimeException e) {
            return -1;
        }
    }

    /**
     * Whether a process may have started since the child was handed to its session: the kernel's
     * counter moved, or it cannot be read. While it stands still no process started anywhere, so the
     * session cannot have left one behind and the pass over {@code /proc} (about 9 us a process here,
     * 0.6 ms on this machine's 65) is skipped. Code that sets the counter back, or starts processes
     * until it comes round to the same value, defeats this on purpose: unsandboxed code is trusted
     * (DESIGN, trust model), and sandboxed code can start no process at all.
     */
    private boolean processMayHaveStarted() {
        long before = pidsAtServe;
        return before < 0 || lastPid() != before;
    }

    int sessionsServed() {
        return sessionsServed;
    }

    /**
     * Whether a child whose session closed is as clean as a fresh one (the {@code recycle} check of
     * {@code harness_recycle.pl}) and the session left no process behind; never called while a session
     * holds the child. The session's close asked the child to run the check right after the close
     * reply ({@code recycle_after}, see {@link #call}): the check runs while that reply travels, and
     * its result completes on the transport's reader thread, which makes the pass over {@code /proc}
     * too when one is needed, so no other thread is woken for it. The future completes false, never
     * exceptionally, when the check fails, is given up ({@link #expireCheck}), or was not asked for by
     * this session (one that never sent its close: the child then ends).
     */
    CompletableFuture<Boolean> checkClean() {
        Check asked = recycleCheck.get();
        if (asked == null || asked.session() != sessionsServed) {
            return CompletableFuture.completedFuture(false);
        }
        return asked.reply()
                .handle((reply, failure) -> failure == null
                        && reply.path("ok").asBoolean(false) && reply.path("clean").asBoolean(false)
                        && process.isAlive() && stopReason == null
                        && !(processMayHaveStarted() && leftProcessBehind()));
    }

    /**
     * Gives up the check that the last close asked for when it has not ended within {@code timeout}
     * of the asking: {@link #checkClean} then completes false. Called about once a second by the
     * backend: one timer for all children rather than one per check.
     */
    void expireCheck(Duration timeout) {
        Check asked = recycleCheck.get();
        if (asked != null && !asked.reply().isDone() && System.nanoTime() - asked.askedAt() > timeout.toNanos()) {
            asked.reply().completeExceptionally(new TimeoutException("no recycle check within " + timeout));
        }
    }

    /** A child taken back serves again, once clean: open, with nothing of its last session's error output. */
    void reopen() {
        synchronized (stderrTail) {
            stderrTail.setLength(0);
        }
        ahead.set(null);
        closed = false;
    }

    /** Writes the request (its own id first), then waits for what was sent ahead, then for its reply. */
    private JsonNode send(ObjectNode request, Duration timeout) {
        Pending p = new Pending(assignId(request), new CompletableFuture<>());
        pending.set(p);
        try {
            write(request);
            if (cancelling) { // a cancel that came while the call was being made
                writeCancel(p);
            }
            awaitAhead();
            return await(p, timeout);
        } finally {
            pending.compareAndSet(p, null);
        }
    }

    private long assignId(ObjectNode request) {
        long id = nextId.getAndIncrement();
        request.put("id", id);
        return id;
    }

    private void write(ObjectNode request) {
        try {
            if (maxReplyBytes != ProcessBackend.DEFAULT_MAX_REPLY_BYTES) {
                request.put("max_reply", maxReplyBytes); // the harness refuses a longer reply (reply_too_large)
            }
            String line = TermJson.escapeLoneSurrogates(TermJson.mapper().writeValueAsString(request));
            synchronized (writing) {
                stdin.write(line);
                stdin.write('\n');
                stdin.flush();
            }
        } catch (IOException e) {
            kill();
            throw new HarnessCrashedException("cannot write to the swipl child: " + e.getMessage(), e);
        }
    }

    /**
     * The reply of the request sent ahead, if one is, handed to its check. The request stays ahead
     * until its reply is in: the reader matches replies against it.
     */
    private void awaitAhead() {
        Ahead a = ahead.get();
        if (a == null) {
            return;
        }
        JsonNode reply;
        try {
            reply = await(a.pending(), a.timeout());
        } finally {
            ahead.compareAndSet(a, null);
        }
        a.check().accept(reply);
    }

    /**
     * Stops the call in flight: the line {@code {"cancel":Id}} on the child's stdin, which the child's
     * watchdog thread reads while the request runs (it looks every 2 ms once the request has run a
     * moment, within 10 ms at first) and turns into a signal to the thread running it
     * (harness_limits.pl). It names the request, so a cancel that reaches the child after its
     * request ended is skipped and never stops the next one. It travels like the requests, so it works
     * through any launcher prefix (ssh, docker exec), where a signal to a process id would not.
     */
    @Override
    public void cancel() {
        cancelling = true;
        Pending p = pending.get();
        if (p != null) {
            writeCancel(p);
        }
    }

    @Override
    public void clearCancel() {
        cancelling = false;
    }

    private void writeCancel(Pending p) {
        if (p.reply().isDone() || !isAlive()) {
            return;
        }
        try {
            synchronized (writing) {
                stdin.write("{\"cancel\":" + p.id() + "}\n");
                stdin.flush();
            }
        } catch (IOException e) {
            // the child is gone: its call ends as a crash anyway
        }
    }

    private JsonNode await(Pending p, Duration timeout) {
        long deadline = System.nanoTime() + timeout.toNanos();
        try {
            return awaitCancellable(p, deadline);
        } catch (InterruptedException e) {
            // an interrupt cancels the call: it stops, and its reply says so; a request sent ahead (an
            // open, which runs no user code) is waited for, and the call after it is then cancelled
            if (p == pending.get()) {
                writeCancel(p);
            }
            try {
                return awaitCancelled(p, deadline);
            } finally {
                Thread.currentThread().interrupt();
            }
        } catch (TimeoutException e) {
            kill();
            throw new HarnessTimeoutException("no reply within " + timeout.toMillis() + " ms; the swipl child was stopped");
        } catch (ExecutionException e) {
            throw new HarnessCrashedException(exitDescription(), e.getCause());
        }
    }

    /**
     * The reply of the call in flight, waited for up to {@code deadline}. After a {@link #cancel()} the
     * cancel line is written again every {@link #CANCEL_AGAIN} for as long as the call runs: the harness
     * acts on a cancel once, and code that caught and dropped the exception it threw (a catch-all in a
     * library or in a hook of the session's) would otherwise keep the call running to its time limit.
     */
    private JsonNode awaitCancellable(Pending p, long deadline)
            throws InterruptedException, TimeoutException, ExecutionException {
        while (true) {
            long left = deadline - System.nanoTime();
            if (left <= 0) {
                throw new TimeoutException();
            }
            try {
                return p.reply().get(Math.min(left, CANCEL_AGAIN.toNanos()), TimeUnit.NANOSECONDS);
            } catch (TimeoutException slice) {
                if (cancelling && p == pending.get()) {
                    writeCancel(p);
                }
            }
        }
    }

    /** How often a cancel is written again to a call that still runs after it. */
    private static final Duration CANCEL_AGAIN = Duration.ofMillis(100);

    /**
     * The reply of a cancelled call, waited for up to {@code deadline} whatever interrupts come; the cancel
     * is written again every {@link #CANCEL_AGAIN} meanwhile, as in {@link #awaitCancellable}.
     */
    private JsonNode awaitCancelled(Pending p, long deadline) {
        while (true) {
            long left = deadline - System.nanoTime();
            try {
                if (left <= 0) {
                    throw new TimeoutException();
                }
                return p.reply().get(Math.min(left, CANCEL_AGAIN.toNanos()), TimeUnit.NANOSECONDS);
            } catch (InterruptedException again) {
                // the caller is interrupted when this returns
            } catch (TimeoutException e) {
                if (left > CANCEL_AGAIN.toNanos()) { // a slice: the call runs on, cancelled again
                    if (p == pending.get()) {
                        writeCancel(p);
                    }
                    continue;
                }
                kill();
                throw new HarnessTimeoutException("the cancelled call did not stop within its bound; the swipl "
                        + "child was stopped");
            } catch (ExecutionException e) {
                throw new HarnessCrashedException(exitDescription(), e.getCause());
            }
        }
    }

    /** True unless the child may serve again after its session: then the harness closes the session. */
    @Override
    public boolean closingEndsProlog() {
        return recycler == null;
    }

    @Override
    public boolean isAlive() {
        return !closed && process.isAlive();
    }

    /**
     * Whether the child serves or may serve a session: it runs and has not been ended (a child whose
     * session closed and that waits for the check of the backend is in service; one ending is not).
     */
    boolean inService() {
        return !ended && process.isAlive();
    }

    @Override
    public String recentErrorOutput() {
        synchronized (stderrTail) {
            return stderrTail.toString();
        }
    }

    /**
     * Ends the session's use of the child. A child that may serve again goes to the backend (which
     * checks it and ends it unless it is clean); any other ends: EOF on stdin asks the harness to halt,
     * and a child still alive two seconds later is killed. Returns at once: the checking and waiting
     * happen on other threads.
     */
    @Override
    public void close() {
        if (closed) {
            return;
        }
        closed = true;
        Recycler r = recycler;
        recycler = null;
        if (r != null && process.isAlive() && stopReason == null && r.takeBack(this)) {
            return;
        }
        end();
    }

    /** Ends the child (see {@link #close()}). */
    void end() {
        closed = true;
        ended = true;
        try {
            stdin.close();
        } catch (IOException ignored) {
            // the child is gone already
        }
        process.onExit().orTimeout(2, TimeUnit.SECONDS).whenComplete((p, timeout) -> {
            if (timeout != null) {
                kill();
            } else if (groupHasMembers()) {
                killGroup(); // what the session started in the background dies with it
            }
        });
    }

    /**
     * Kills the child and everything it started: its process group (which a goal's subprocess stays
     * in even once orphaned) and, for good measure, its descendants as they are now.
     */
    void kill() {
        ended = true;
        List<ProcessHandle> descendants;
        try {
            descendants = process.descendants().toList();
        } catch (RuntimeException e) {
            descendants = List.of();
        }
        killGroup();
        process.destroyForcibly();
        descendants.forEach(ProcessHandle::destroyForcibly);
        try {
            process.waitFor(5, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    /**
     * Whether the child's session left a process behind: one in the child's process group (when it leads
     * one) or among its descendants, other than the child itself. One pass over {@code /proc}, reading
     * each process's parent and group: a pass for the group and another for
     * {@link ProcessHandle#descendants()} cost about 0.6 ms each here, on the core the next session
     * needs. Without {@code /proc}, the descendants as Java sees them. A pass that fails counts as a
     * process left behind.
     */
    private boolean leftProcessBehind() {
        Path proc = Path.of("/proc");
        if (!java.nio.file.Files.isDirectory(proc.resolve("self"))) {
            return process.descendants().anyMatch(ProcessHandle::isAlive);
        }
        long self = process.pid();
        java.util.Map<Long, Long> parents = new java.util.HashMap<>();
        try (var dirs = java.nio.file.Files.newDirectoryStream(proc, "[0-9]*")) {
            for (Path d : dirs) {
                long pid = Long.parseLong(d.getFileName().toString());
                if (pid == self) {
                    continue;
                }
                long[] parentAndGroup = parentAndGroup(d);
                if (parentAndGroup == null) {
                    continue; // ended meanwhile
                }
                if (killCommand != null && parentAndGroup[1] == self) {
                    return true;
                }
                parents.put(pid, parentAndGroup[0]);
            }
        } catch (IOException | RuntimeException e) {
            return true;
        }
        for (long pid : parents.keySet()) {
            Long up = parents.get(pid);
            for (int hops = 0; up != null && hops < 4096; hops++) { // a bound, should /proc ever show a cycle
                if (up == self) {
                    return true;
                }
                up = parents.get(up);
            }
        }
        return false;
    }

    /** {ppid, pgrp} of the process whose {@code /proc} folder is {@code dir}; null when it is gone. */
    private static long[] parentAndGroup(Path dir) {
        String stat;
        try {
            stat = java.nio.file.Files.readString(dir.resolve("stat"), StandardCharsets.ISO_8859_1);
        } catch (IOException | RuntimeException gone) {
            return null;
        }
        // pid (comm) state ppid pgrp ...: comm may hold spaces and parentheses
        String[] f = stat.substring(stat.lastIndexOf(')') + 2).split(" ", 4);
        if (f.length < 3) {
            return null;
        }
        return new long[]{Long.parseLong(f[1]), Long.parseLong(f[2])};
    }

    /**
     * Whether any process is left in the child's process group, read from /proc (no process is
     * started for the common case of a session that left nothing behind); true where /proc cannot tell.
     */
    private boolean groupHasMembers() {
        if (killCommand == null) {
            return false;
        }
        long group = process.pid();
        try (var dirs = java.nio.file.Files.newDirectoryStream(Path.of("/proc"), "[0-9]*")) {
            for (Path d : dirs) {
                long[] parentAndGroup = parentAndGroup(d);
                if (parentAndGroup != null && parentAndGroup[1] == group) {
                    return true;
                }
            }
            return false;
        } catch (IOException | RuntimeException e) {
            return true;
        }
    }

    /** SIGKILL to the child's process group (its id is the child's pid); bounded to 5 s. */
    private void killGroup() {
        if (killCommand == null) {
            return;
        }
        try {
            Process k = new ProcessBuilder(killCommand.toString(), "-KILL", "--", "-" + process.pid())
                    .redirectErrorStream(true).redirectOutput(ProcessBuilder.Redirect.DISCARD).start();
            if (!k.waitFor(5, TimeUnit.SECONDS)) {
                k.destroyForcibly();
            }
        } catch (IOException ignored) {
            // the group is gone, or kill is: the descendants are killed one by one
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    private String exitDescription() {
        String reason = stopReason;
        String how = reason != null ? reason
                : process.isAlive() ? "the swipl child is not answering"
                : "the swipl child exited with status " + process.exitValue();
        String err = recentErrorOutput().strip();
        return err.isEmpty() ? how : how + "; its last error output: " + lastLines(err, 5);
    }

    private void readReplies(InputStream out) {
        try (out) {
            LineReader lines = new LineReader(out, maxReplyBytes);
            String line;
            while ((line = lines.next()) != null) {
                Pending p = pending.get();
                Ahead a = ahead.get();
                Check check = recycleCheck.get();
                if ((p == null && a == null && check == null) || line.isEmpty()) {
                    continue;
                }
                JsonNode reply;
                try {
                    reply = TermJson.mapper().readTree(line);
                } catch (IOException | RuntimeException e) {
                    continue; // not a reply: garbage on the protocol stream is dropped
                }
                long id = reply == null ? -1 : reply.path("id").asLong(-1);
                if (p != null && id == p.id()) {
                    answered = true;
                    p.reply().complete(reply);
                } else if (a != null && id == a.pending().id()) {
                    a.pending().reply().complete(reply);
                } else if (check != null && id == check.id()) {
                    check.reply().complete(reply);
                }
            }
        } catch (LineReader.TooLongException e) {
            stopReason = "the swipl child wrote a line of more than " + maxReplyBytes
                    + " bytes to its protocol stream (output written to the process's real standard output?)"
                    + " and was stopped";
            kill();
        } catch (IOException ignored) {
            // the stream broke: treated like EOF
        }
        try {
            process.waitFor(2, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        Pending p = pending.get();
        if (p != null) {
            p.reply().completeExceptionally(new HarnessCrashedException(exitDescription()));
        }
        Ahead a = ahead.get();
        if (a != null) {
            a.pending().reply().completeExceptionally(new HarnessCrashedException(exitDescription()));
        }
        Check check = recycleCheck.get();
        if (check != null) {
            check.reply().completeExceptionally(new HarnessCrashedException(exitDescription()));
        }
    }

    private void drainErrors(InputStream err) {
        byte[] buf = new byte[4096];
        try (err) {
            int n;
            while ((n = err.read(buf)) >= 0) {
                String s = new String(buf, 0, n, StandardCharsets.UTF_8);
                synchronized (stderrTail) {
                    stderrTail.append(s);
                    if (stderrTail.length() > STDERR_KEEP) {
                        stderrTail.delete(0, stderrTail.length() - STDERR_KEEP);
                    }
                }
            }
        } catch (IOException ignored) {
            // the child is gone
        }
    }

    private static String lastLines(String s, int n) {
        String[] lines = s.split("\n");
        int from = Math.max(0, lines.length - n);
        return String.join(" | ", java.util.Arrays.copyOfRange(lines, from, lines.length));
    }

    private static void daemon(String name, Runnable body) {
        Thread t = new Thread(body, name);
        t.setDaemon(true);
        t.start();
    }

}

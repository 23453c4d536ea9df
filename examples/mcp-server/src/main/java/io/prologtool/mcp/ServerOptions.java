package io.prologtool.mcp;

import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Objects;
import java.util.Optional;

/**
 * The command-line options of the MCP server: which backend, whether sessions are sandboxed, how the
 * process backend isolates their children, how many sessions one client may hold and how long an idle
 * one lives. Immutable; {@link #parse} reads them from the command line, {@link #defaults()} is what an
 * empty command line gives.
 *
 * @param backend     where sessions run (default {@link Backend#PROCESS})
 * @param sandboxed   whether sessions (and {@code execute_prolog}'s scratch sessions) run untrusted code
 *                    under {@code library(sandbox)} (default true)
 * @param isolation   the OS isolation of the process backend's sandboxed children (default
 *                    {@link IsolationLevel#AUTO}); empty with the JPL backend, which has none
 * @param maxSessions most sessions open at once; over it the least recently used one is closed
 *                    (default 64)
 * @param idleTtl     idle time after which a session is closed (default 15 minutes)
 * @param poolSize    children the process backend keeps started ahead of demand (default 0)
 * @param ruleBases   the folder of the rule base tools; empty for the default store
 *                    ({@code $PROLOGTOOL_RULES_DIR} or {@code ~/.prologtool/rules})
 * @param swipl       {@code --swipl PATH}: the SWI-Prolog executable; empty for the {@code swipl} on the PATH
 * @param discontiguous whether a consult declares discontiguous the predicates whose clauses are apart, as
 *                    the PrologMCP contract says (default true; {@code --no-discontiguous} turns it off)
 * @param store       {@code --store DIR} or {@code --store jdbc:postgresql://...}: the folder or the
 *                    PostgreSQL database the sessions' checkpoints are kept in, so that a server started
 *                    again on it, or another server on it, serves them by id; empty for none
 * @param help        {@code --help}: print the usage on standard output and exit
 * @param version     {@code --version}: print the version on standard output and exit
 */
public record ServerOptions(Backend backend, boolean sandboxed, Optional<IsolationLevel> isolation, int maxSessions,
                            Duration idleTtl, int poolSize, Optional<Path> ruleBases, Optional<Path> swipl,
                            boolean discontiguous, Optional<String> store, boolean help, boolean version) {

    /** Default cap on open sessions. */
    public static final int DEFAULT_MAX_SESSIONS = 64;
    /** Default idle time-to-live of a session. */
    public static final Duration DEFAULT_TTL = Duration.ofMinutes(15);

    /** The usage text ({@code --help}, and after a bad option). */
    public static final String USAGE = String.join("\n",
            "usage: java -jar prologtool-mcp-server.jar [options]",
            "",
            "An MCP server on standard input and output: every prologtool tool (consult_text, run_goal, ...,",
            "execute_prolog, the rule base tools). Standard output carries MCP messages only; logs go to",
            "standard error. The server exits, closing every session, when its client closes the connection.",
            "",
            "options:",
            "  --backend process|jpl    where sessions run: a swipl child each (default), or SWI-Prolog",
            "                           embedded in this JVM through JPL",
            "  --sandbox, --no-sandbox  run the client's code under library(sandbox) (default: sandboxed)",
            "  --isolation auto|required|none",
            "                           OS isolation of the process backend's sandboxed children: another",
            "                           user, no network, a private /tmp where the machine allows it (auto,",
            "                           the default), or fail to start where it does not (required)",
            "  --max-sessions N         most sessions open at once; the least recently used one is closed",
            "                           beyond it (default " + DEFAULT_MAX_SESSIONS + ")",
            "  --ttl DURATION           idle time after which a session is closed: seconds, or a number",
            "                           with s, m or h (default 15m)",
            "  --pool N                 swipl children kept started ahead of demand (process backend;",
            "                           default 0)",
            "  --rule-bases DIR         the folder of the rule base tools (default $PROLOGTOOL_RULES_DIR,",
            "                           else ~/.prologtool/rules)",
            "  --swipl PATH             the SWI-Prolog executable (default: swipl on the PATH)",
            "  --discontiguous, --no-discontiguous",
            "                           declare discontiguous each predicate whose clauses are apart in a",
            "                           consulted text, as the PrologMCP contract says (default), or leave",
            "                           such texts as written (SWI-Prolog then warns about them)",
            "  --store DIR|JDBC-URL     keep every session's checkpoint in this folder, or in this PostgreSQL",
            "                           database (jdbc:postgresql://host/db?user=u&password=p), after each",
            "                           call that changed it, so that a server started again on the store,",
            "                           or another one on it, serves the session by its load_id (default:",
            "                           sessions end with the server)",
            "  --help                   print this text and exit",
            "  --version                print the version and exit",
            "");

    /** Where sessions run. */
    public enum Backend {
        /** {@code io.prologtool.process.ProcessBackend}: one {@code swipl} child per session. */
        PROCESS,
        /** {@code io.prologtool.jpl.JplBackend}: SWI-Prolog embedded in this JVM. */
        JPL;

        /** The option's word: {@code process} or {@code jpl}. */
        public String word() {
            return name().toLowerCase(Locale.ROOT);
        }
    }

    /** The levels of {@code io.prologtool.process.Isolation} that the command line offers. */
    public enum IsolationLevel {
        /** Isolation where the machine offers it, none elsewhere. */
        AUTO,
        /** Isolation or a failure to start. */
        REQUIRED,
        /** No OS isolation. */
        NONE;

        /** The option's word: {@code auto}, {@code required} or {@code none}. */
        public String word() {
            return name().toLowerCase(Locale.ROOT);
        }
    }

    /** A command line that cannot be served; its message says why. */
    public static final class UsageException extends IllegalArgumentException {

        private static final long serialVersionUID = 1L;

        UsageException(String message) {
            super(message);
        }
    }

    /** Checks the values. */
    public ServerOptions {
        Objects.requireNonNull(backend, "backend");
        Objects.requireNonNull(isolation, "isolation");
        Objects.requireNonNull(idleTtl, "idleTtl");
        Objects.requireNonNull(ruleBases, "ruleBases");
        Objects.requireNonNull(swipl, "swipl");
        Objects.requireNonNull(store, "store");
        if (backend == Backend.JPL && isolation.isPresent()) {
            throw new UsageException("--isolation applies to the process backend only (the JPL backend runs "
                    + "sessions inside this JVM)");
        }
        if (maxSessions < 1) {
            throw new UsageException("--max-sessions must be at least 1, was " + maxSessions);
        }
        if (idleTtl.isNegative() || idleTtl.isZero()) {
            throw new UsageException("--ttl must be positive, was " + idleTtl);
        }
        if (poolSize < 0 || poolSize > 256) {
            throw new UsageException("--pool must be 0 to 256, was " + poolSize);
        }
        if (backend == Backend.JPL && poolSize > 0) {
            throw new UsageException("--pool applies to the process backend only");
        }
    }

    /** What an empty command line gives: process backend, sandboxed sessions, automatic isolation. */
    public static ServerOptions defaults() {
        return new ServerOptions(Backend.PROCESS, true, Optional.of(IsolationLevel.AUTO), DEFAULT_MAX_SESSIONS,
                DEFAULT_TTL, 0, Optional.empty(), Optional.empty(), true, Optional.empty(), false, false);
    }

    /**
     * The options of a command line; {@code --name=value} is the same as {@code --name value}.
     *
     * @throws UsageException for an unknown option, a missing or malformed value, or a combination that
     *                        does not apply (such as {@code --isolation} with {@code --backend jpl})
     */
    public static ServerOptions parse(String... args) {
        List<String> words = new ArrayList<>();
        for (String a : args) {
            Objects.requireNonNull(a, "argument");
            int eq = a.indexOf('=');
            if (a.startsWith("--") && eq > 0) {
                words.add(a.substring(0, eq));
                words.add(a.substring(eq + 1));
            } else {
                words.add(a);
            }
        }
        Backend backend = Backend.PROCESS;
        boolean sandboxed = true;
        Optional<IsolationLevel> isolation = Optional.empty();
        int maxSessions = DEFAULT_MAX_SESSIONS;
        Duration ttl = DEFAULT_TTL;
        int pool = 0;
        Optional<Path> ruleBases = Optional.empty();
        Optional<Path> swipl = Optional.empty();
        boolean discontiguous = true;
        Optional<String> store = Optional.empty();
        boolean help = false;
        boolean version = false;
        for (int i = 0; i < words.size(); i++) {
            String w = words.get(i);
            switch (w) {
                case "--backend" -> backend = choice(w, value(words, i++), Backend.values());
                case "--sandbox" -> sandboxed = true;
                case "--no-sandbox" -> sandboxed = false;
                case "--isolation" -> isolation = Optional.of(choice(w, value(words, i++), IsolationLevel.values()));
                case "--max-sessions" -> maxSessions = integer(w, value(words, i++));
                case "--ttl" -> ttl = duration(w, value(words, i++));
                case "--pool" -> pool = integer(w, value(words, i++));
                case "--rule-bases" -> ruleBases = Optional.of(Path.of(value(words, i++)));
                case "--swipl" -> swipl = Optional.of(Path.of(value(words, i++)));
                case "--discontiguous" -> discontiguous = true;
                case "--no-discontiguous" -> discontiguous = false;
                case "--store" -> store = Optional.of(value(words, i++));
                case "--help", "-h" -> help = true;
                case "--version", "-V" -> version = true;
                default -> throw new UsageException("unknown option '" + w + "'");
            }
        }
        if (backend == Backend.PROCESS && isolation.isEmpty()) {
            isolation = Optional.of(IsolationLevel.AUTO);
        }
        return new ServerOptions(backend, sandboxed, isolation, maxSessions, ttl, pool, ruleBases, swipl,
                discontiguous, store, help, version);
    }

    /** One line for the log: what this server runs. */
    public String describe() {
        return backend.word() + " backend, " + (sandboxed ? "sandboxed" : "unsandboxed") + " sessions"
                + isolation.map(l -> ", isolation " + l.word()).orElse("") + ", at most " + maxSessions
                + " sessions, idle TTL " + idleTtl.toString().substring(2).toLowerCase(Locale.ROOT)
                + (poolSize > 0 ? ", warm pool " + poolSize : "")
                + (discontiguous ? "" : ", no discontiguous declarations")
                + store.map(d -> ", sessions kept in " + (d.indexOf('?') < 0 ? d : d.substring(0, d.indexOf('?'))))
                .orElse("");
    }

    private static String value(List<String> words, int i) {
        if (i + 1 >= words.size() || words.get(i + 1).startsWith("--")) {
            throw new UsageException(words.get(i) + " needs a value");
        }
        return words.get(i + 1);
    }

    private static <E extends Enum<E>> E choice(String option, String word, E[] values) {
        for (E e : values) {
            if (e.name().equalsIgnoreCase(word)) {
                return e;
            }
        }
        List<String> names = new ArrayList<>();
        for (E e : values) {
            names.add(e.name().toLowerCase(Locale.ROOT));
        }
        throw new UsageException(option + " takes one of " + String.join(", ", names) + "; got '" + word + "'");
    }

    private static int integer(String option, String word) {
        if (!word.matches("\\d{1,9}")) {
            throw new UsageException(option + " takes a whole number; got '" + word + "'");
        }
        return Integer.parseInt(word);
    }

    /** Seconds ({@code 90}), or a number with a unit: {@code 90s}, {@code 15m}, {@code 2h}. */
    static Duration duration(String option, String word) {
        java.util.regex.Matcher m = java.util.regex.Pattern.compile("(\\d{1,9})([smh]?)").matcher(word);
        if (!m.matches()) {
            throw new UsageException(option + " takes seconds or a number with s, m or h (90, 90s, 15m, 2h); got '"
                    + word + "'");
        }
        long n = Long.parseLong(m.group(1));
        return switch (m.group(2)) {
            case "m" -> Duration.ofMinutes(n);
            case "h" -> Duration.ofHours(n);
            default -> Duration.ofSeconds(n);
        };
    }
}

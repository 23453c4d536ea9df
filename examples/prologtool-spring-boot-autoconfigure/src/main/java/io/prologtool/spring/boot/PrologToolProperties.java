package io.prologtool.spring.boot;

import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.util.unit.DataSize;

import java.nio.file.Path;
import java.time.Duration;

/**
 * The settings of the prologtool auto-configuration, under {@code prologtool.*} in {@code application.properties}
 * or {@code application.yml}. Every setting is optional: unset, each takes the library's default, except that
 * sessions are sandboxed unless {@code prologtool.session.sandboxed=false}.
 *
 * <pre>
 * prologtool.backend=process
 * prologtool.process.pool-size=2
 * prologtool.process.isolation=auto
 * prologtool.session.stack-limit=256MB
 * prologtool.registry.max-sessions=64
 * prologtool.registry.idle-ttl=15m
 * prologtool.rule-bases.folder=/var/lib/myapp/rule-bases
 * prologtool.store.type=jdbc
 * </pre>
 */
@ConfigurationProperties(prefix = "prologtool")
public class PrologToolProperties {

    /** Which backend runs the sessions. */
    public enum Backend {
        /** One {@code swipl} child process per session (prologtool-process, which the starter brings). */
        PROCESS,
        /** Sessions in this JVM through JPL (needs io.prologtool:prologtool-jpl on the class path). */
        JPL
    }

    /** The OS isolation of the process backend's sandboxed sessions. */
    public enum IsolationLevel {
        /** Isolate where the machine allows it (root and the tools), run as the JVM's user elsewhere. */
        AUTO,
        /** Isolate or fail at start-up. */
        REQUIRED,
        /** Never isolate. */
        NONE
    }

    /** Where sessions are checkpointed, so that another JVM (or this one, after a restart) takes them over. */
    public enum StoreType {
        /** No store: sessions live as long as this JVM. */
        NONE,
        /** Files in {@code prologtool.store.folder}. */
        FOLDER,
        /** PostgreSQL: {@code prologtool.store.url}, or the application's {@code DataSource} when unset. */
        JDBC
    }

    /** Whether the auto-configuration makes the prologtool beans at all. */
    private boolean enabled = true;

    /** Which backend runs the sessions: process (a swipl child per session) or jpl (in this JVM). */
    private Backend backend = Backend.PROCESS;

    /** The swipl to run; when unset, swipl from the PATH. */
    private Path swipl;

    private final Process process = new Process();
    private final Jpl jpl = new Jpl();
    private final Session session = new Session();
    private final Registry registry = new Registry();
    private final RuleBases ruleBases = new RuleBases();
    private final Store store = new Store();
    private final Metrics metrics = new Metrics();

    public boolean isEnabled() {
        return enabled;
    }

    public void setEnabled(boolean enabled) {
        this.enabled = enabled;
    }

    public Backend getBackend() {
        return backend;
    }

    public void setBackend(Backend backend) {
        this.backend = backend;
    }

    public Path getSwipl() {
        return swipl;
    }

    public void setSwipl(Path swipl) {
        this.swipl = swipl;
    }

    public Process getProcess() {
        return process;
    }

    public Jpl getJpl() {
        return jpl;
    }

    public Session getSession() {
        return session;
    }

    public Registry getRegistry() {
        return registry;
    }

    public RuleBases getRuleBases() {
        return ruleBases;
    }

    public Store getStore() {
        return store;
    }

    public Metrics getMetrics() {
        return metrics;
    }

    /** The Micrometer binding ({@code prologtool.metrics.*}), when prologtool-micrometer is on the class path. */
    public static class Metrics {

        /** Whether sessions and calls are metered in the application's MeterRegistry. */
        private boolean enabled = true;

        public boolean isEnabled() {
            return enabled;
        }

        public void setEnabled(boolean enabled) {
            this.enabled = enabled;
        }
    }

    /** Settings of the process backend ({@code prologtool.process.*}). */
    public static class Process {

        /** Children kept started and loaded ahead of demand; each serves later sessions after a clean close. */
        private int poolSize = 2;

        /** OS isolation of sandboxed sessions: auto, required or none. */
        private IsolationLevel isolation = IsolationLevel.AUTO;

        public int getPoolSize() {
            return poolSize;
        }

        public void setPoolSize(int poolSize) {
            this.poolSize = poolSize;
        }

        public IsolationLevel getIsolation() {
            return isolation;
        }

        public void setIsolation(IsolationLevel isolation) {
            this.isolation = isolation;
        }
    }

    /** Settings of the in-process backend ({@code prologtool.jpl.*}). */
    public static class Jpl {

        /** Calls that run at once in the embedded Prolog; later ones wait their turn. */
        private int maxConcurrentCalls = 8;

        public int getMaxConcurrentCalls() {
            return maxConcurrentCalls;
        }

        public void setMaxConcurrentCalls(int maxConcurrentCalls) {
            this.maxConcurrentCalls = maxConcurrentCalls;
        }
    }

    /** Limits of every session the tools open ({@code prologtool.session.*}); unset ones keep the library's default. */
    public static class Session {

        /** Whether sessions run in the sandbox (no files, no processes, no network, no other modules). */
        private boolean sandboxed = true;

        /** Prolog stack limit of a session (library default 256MB). */
        private DataSize stackLimit;

        /** Clause space a session's asserted and consulted clauses may take (library default 256MB). */
        private DataSize clauseSpace;

        /** Space a session's tabled answers may take (library default 128MB). */
        private DataSize tableSpace;

        /** Longest output of a goal kept, in characters; the rest is cut and said to be. */
        private Integer maxOutputChars;

        /** Longest program text a caller may consult at once, in characters. */
        private Integer maxSourceChars;

        /** Longest atom or string a goal may build, in characters. */
        private Integer maxAtomChars;

        /** Streams a session may hold open at once. */
        private Integer maxOpenStreams;

        /** Queries (cursors) a session may hold open at once. */
        private Integer maxOpenQueries;

        /** Time limit of one consult (library default 30s). */
        private Duration consultTimeLimit;

        /** Time limit of one run of plunit tests (library default: the consult time limit). */
        private Duration testTimeLimit;

        /** Whether goals may start threads (unsandboxed sessions only). */
        private Boolean allowThreads;

        /** Whether consults are checked for undefined predicates and singleton variables (library default true). */
        private Boolean staticCheck;

        /** Whether clauses of one predicate that lie apart are declared discontiguous for the caller. */
        private Boolean declareDiscontiguous;

        public boolean isSandboxed() {
            return sandboxed;
        }

        public void setSandboxed(boolean sandboxed) {
            this.sandboxed = sandboxed;
        }

        public DataSize getStackLimit() {
            return stackLimit;
        }

        public void setStackLimit(DataSize stackLimit) {
            this.stackLimit = stackLimit;
        }

        public DataSize getClauseSpace() {
            return clauseSpace;
        }

        public void setClauseSpace(DataSize clauseSpace) {
            this.clauseSpace = clauseSpace;
        }

        public DataSize getTableSpace() {
            return tableSpace;
        }

        public void setTableSpace(DataSize tableSpace) {
            this.tableSpace = tableSpace;
        }

        public Integer getMaxOutputChars() {
            return maxOutputChars;
        }

        public void setMaxOutputChars(Integer maxOutputChars) {
            this.maxOutputChars = maxOutputChars;
        }

        public Integer getMaxSourceChars() {
            return maxSourceChars;
        }

        public void setMaxSourceChars(Integer maxSourceChars) {
            this.maxSourceChars = maxSourceChars;
        }

        public Integer getMaxAtomChars() {
            return maxAtomChars;
        }

        public void setMaxAtomChars(Integer maxAtomChars) {
            this.maxAtomChars = maxAtomChars;
        }

        public Integer getMaxOpenStreams() {
            return maxOpenStreams;
        }

        public void setMaxOpenStreams(Integer maxOpenStreams) {
            this.maxOpenStreams = maxOpenStreams;
        }

        public Integer getMaxOpenQueries() {
            return maxOpenQueries;
        }

        public void setMaxOpenQueries(Integer maxOpenQueries) {
            this.maxOpenQueries = maxOpenQueries;
        }

        public Duration getConsultTimeLimit() {
            return consultTimeLimit;
        }

        public void setConsultTimeLimit(Duration consultTimeLimit) {
            this.consultTimeLimit = consultTimeLimit;
        }

        public Duration getTestTimeLimit() {
            return testTimeLimit;
        }

        public void setTestTimeLimit(Duration testTimeLimit) {
            this.testTimeLimit = testTimeLimit;
        }

        public Boolean getAllowThreads() {
            return allowThreads;
        }

        public void setAllowThreads(Boolean allowThreads) {
            this.allowThreads = allowThreads;
        }

        public Boolean getStaticCheck() {
            return staticCheck;
        }

        public void setStaticCheck(Boolean staticCheck) {
            this.staticCheck = staticCheck;
        }

        public Boolean getDeclareDiscontiguous() {
            return declareDiscontiguous;
        }

        public void setDeclareDiscontiguous(Boolean declareDiscontiguous) {
            this.declareDiscontiguous = declareDiscontiguous;
        }
    }

    /** The session registry the tools address sessions through ({@code prologtool.registry.*}). */
    public static class Registry {

        /** Most sessions open at once; over it the least recently used one is closed. */
        private int maxSessions = 64;

        /** Idle time after which a session is closed (and, with a store, deleted from it). */
        private Duration idleTtl = Duration.ofMinutes(15);

        /** This replica's name in the store's leases; when unset, host/pid#n. */
        private String replicaName;

        public int getMaxSessions() {
            return maxSessions;
        }

        public void setMaxSessions(int maxSessions) {
            this.maxSessions = maxSessions;
        }

        public Duration getIdleTtl() {
            return idleTtl;
        }

        public void setIdleTtl(Duration idleTtl) {
            this.idleTtl = idleTtl;
        }

        public String getReplicaName() {
            return replicaName;
        }

        public void setReplicaName(String replicaName) {
            this.replicaName = replicaName;
        }
    }

    /** The named rule bases the tools list, read and save ({@code prologtool.rule-bases.*}). */
    public static class RuleBases {

        /** Folder of the rule bases; when unset, the library's default folder with the bundled rule bases. */
        private Path folder;

        /** Whether the model gets the tools that write the folder (save_rule_base, delete_rule_base). */
        private boolean modelWrites;

        public Path getFolder() {
            return folder;
        }

        public void setFolder(Path folder) {
            this.folder = folder;
        }

        public boolean isModelWrites() {
            return modelWrites;
        }

        public void setModelWrites(boolean modelWrites) {
            this.modelWrites = modelWrites;
        }
    }

    /** Where the registry checkpoints its sessions ({@code prologtool.store.*}). */
    public static class Store {

        /** none, folder (prologtool.store.folder) or jdbc (prologtool.store.url, or the application's DataSource). */
        private StoreType type = StoreType.NONE;

        /** Folder of the folder store. */
        private Path folder;

        /** JDBC URL of the PostgreSQL database of the jdbc store; when unset, the application's DataSource. */
        private String url;

        public StoreType getType() {
            return type;
        }

        public void setType(StoreType type) {
            this.type = type;
        }

        public Path getFolder() {
            return folder;
        }

        public void setFolder(Path folder) {
            this.folder = folder;
        }

        public String getUrl() {
            return url;
        }

        public void setUrl(String url) {
            this.url = url;
        }
    }
}

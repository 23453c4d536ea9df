package io.prologtool.spring.boot;

import io.prologtool.PrologBackend;
import io.prologtool.PrologExecutor;
import io.prologtool.PrologListener;
import io.prologtool.RuleBaseStore;
import io.prologtool.SessionOptions;
import io.prologtool.SessionRegistry;
import io.prologtool.SessionStore;
import io.prologtool.jpl.JplBackend;
import io.prologtool.process.Isolation;
import io.prologtool.process.ProcessBackend;
import io.prologtool.tools.PrologTools;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnProperty;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.context.ApplicationContext;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.util.ClassUtils;

import javax.sql.DataSource;
import java.util.List;

/**
 * Auto-configuration of prologtool: from {@link PrologToolProperties} ({@code prologtool.*}), a
 * {@link PrologBackend}, a {@link SessionRegistry} over it (on a {@link SessionStore} when {@code
 * prologtool.store.type} names one), a {@link PrologExecutor} for {@code execute_prolog}, and the
 * {@link PrologTools} over both. Each bean backs off when the application defines its own of that type; every
 * {@link PrologListener} bean of the application hears the backend's sessions. On context shutdown the tools,
 * the executor, the registry (every session, its last checkpoint saved when there is a store) and the backend
 * (every child process) are closed, in that order. Off with {@code prologtool.enabled=false}.
 *
 * <p>The Spring AI tool callbacks ({@link PrologToolSpringAiAutoConfiguration}), the Micrometer binding
 * ({@link PrologToolMicrometerAutoConfiguration}) and the health indicator ({@link
 * PrologToolHealthAutoConfiguration}) are configured apart, each when what it needs is on the class path.
 */
@AutoConfiguration(afterName = "org.springframework.boot.autoconfigure.jdbc.DataSourceAutoConfiguration")
@ConditionalOnProperty(prefix = "prologtool", name = "enabled", havingValue = "true", matchIfMissing = true)
@EnableConfigurationProperties(PrologToolProperties.class)
public class PrologToolAutoConfiguration {

    static final String JPL_BACKEND = "io.prologtool.jpl.JplBackend";
    static final String PROCESS_BACKEND = "io.prologtool.process.ProcessBackend";

    /**
     * The backend {@code prologtool.backend} names.
     *
     * @throws IllegalStateException when the backend's module is not on the class path (the message names
     *                               the dependency to add)
     */
    @Bean(destroyMethod = "close")
    @ConditionalOnMissingBean
    public PrologBackend prologBackend(PrologToolProperties properties, ObjectProvider<PrologListener> listeners,
                                       ApplicationContext context) {
        List<PrologListener> heard = listeners.orderedStream().toList();
        ClassLoader loader = context.getClassLoader();
        return switch (properties.getBackend()) {
            case PROCESS -> {
                requireClass(loader, PROCESS_BACKEND, "prologtool.backend=process", "prologtool-process");
                yield ProcessBackends.build(properties, heard);
            }
            case JPL -> {
                requireClass(loader, JPL_BACKEND, "prologtool.backend=jpl", "prologtool-jpl");
                yield JplBackends.build(properties, heard);
            }
        };
    }

    /** The options of every session the tools open, from {@code prologtool.session.*}. */
    static SessionOptions sessionOptions(PrologToolProperties.Session p) {
        SessionOptions.Builder b = SessionOptions.builder().sandboxed(p.isSandboxed());
        if (p.getStackLimit() != null) {
            b.stackLimitBytes(p.getStackLimit().toBytes());
        }
        if (p.getClauseSpace() != null) {
            b.clauseSpaceBytes(p.getClauseSpace().toBytes());
        }
        if (p.getTableSpace() != null) {
            b.tableSpaceBytes(p.getTableSpace().toBytes());
        }
        if (p.getMaxOutputChars() != null) {
            b.maxOutputChars(p.getMaxOutputChars());
        }
        if (p.getMaxSourceChars() != null) {
            b.maxSourceChars(p.getMaxSourceChars());
        }
        if (p.getMaxAtomChars() != null) {
            b.maxAtomChars(p.getMaxAtomChars());
        }
        if (p.getMaxOpenStreams() != null) {
            b.maxOpenStreams(p.getMaxOpenStreams());
        }
        if (p.getMaxOpenQueries() != null) {
            b.maxOpenQueries(p.getMaxOpenQueries());
        }
        if (p.getConsultTimeLimit() != null) {
            b.consultTimeLimit(p.getConsultTimeLimit());
        }
        if (p.getTestTimeLimit() != null) {
            b.testTimeLimit(p.getTestTimeLimit());
        }
        if (p.getAllowThreads() != null) {
            b.allowThreads(p.getAllowThreads());
        }
        if (p.getStaticCheck() != null) {
            b.staticCheck(p.getStaticCheck());
        }
        if (p.getDeclareDiscontiguous() != null) {
            b.declareDiscontiguous(p.getDeclareDiscontiguous());
        }
        return b.build();
    }

    /** The rule base folder of {@code prologtool.rule-bases.folder}, or the library's default one. */
    @Bean
    @ConditionalOnMissingBean
    public RuleBaseStore prologRuleBases(PrologToolProperties properties) {
        return properties.getRuleBases().getFolder() != null
                ? RuleBaseStore.directory(properties.getRuleBases().getFolder()) : RuleBaseStore.defaultStore();
    }

    /**
     * The registry the tools address sessions through: {@code prologtool.registry.*}, the session options of
     * {@code prologtool.session.*}, and the {@link SessionStore} bean when there is one.
     */
    @Bean(destroyMethod = "close")
    @ConditionalOnMissingBean
    public SessionRegistry prologSessionRegistry(PrologBackend backend, PrologToolProperties properties,
                                                 ObjectProvider<SessionStore> store) {
        PrologToolProperties.Registry p = properties.getRegistry();
        SessionRegistry.Builder b = SessionRegistry.builder(backend).maxSessions(p.getMaxSessions())
                .idleTtl(p.getIdleTtl()).sessionOptions(sessionOptions(properties.getSession()));
        if (p.getReplicaName() != null) {
            b.replicaName(p.getReplicaName());
        }
        store.ifAvailable(b::store);
        return b.build();
    }

    /** The executor behind {@code execute_prolog}: scratch sessions with the same options and rule bases. */
    @Bean(destroyMethod = "close")
    @ConditionalOnMissingBean
    public PrologExecutor prologExecutor(PrologBackend backend, PrologToolProperties properties,
                                         RuleBaseStore ruleBases) {
        return PrologExecutor.builder(backend).sessionOptions(sessionOptions(properties.getSession()))
                .ruleBases(ruleBases).build();
    }

    /** The tools, as an agent framework or a controller calls them. */
    @Bean(destroyMethod = "close")
    @ConditionalOnMissingBean
    public PrologTools prologTools(SessionRegistry registry, PrologExecutor executor) {
        return PrologTools.builder(registry).executor(executor).build();
    }

    /** The folder store of {@code prologtool.store.type=folder}. */
    @Configuration(proxyBeanMethods = false)
    @ConditionalOnProperty(prefix = "prologtool.store", name = "type", havingValue = "folder")
    static class FolderStoreConfiguration {

        @Bean
        @ConditionalOnMissingBean
        SessionStore prologSessionStore(PrologToolProperties properties) {
            if (properties.getStore().getFolder() == null) {
                throw new IllegalStateException("prologtool.store.type=folder needs prologtool.store.folder, the "
                        + "folder the sessions' checkpoints are written to");
            }
            return SessionStore.folder(properties.getStore().getFolder());
        }
    }

    /** The PostgreSQL store of {@code prologtool.store.type=jdbc}: its URL, or the application's DataSource. */
    @Configuration(proxyBeanMethods = false)
    @ConditionalOnProperty(prefix = "prologtool.store", name = "type", havingValue = "jdbc")
    static class JdbcStoreConfiguration {

        @Bean
        @ConditionalOnMissingBean
        SessionStore prologSessionStore(PrologToolProperties properties, ObjectProvider<DataSource> dataSource) {
            String url = properties.getStore().getUrl();
            if (url != null && !url.isBlank()) {
                return SessionStore.jdbc(url);
            }
            DataSource ds = dataSource.getIfUnique();
            if (ds == null) {
                throw new IllegalStateException("prologtool.store.type=jdbc needs prologtool.store.url (a "
                        + "jdbc:postgresql: URL) or one DataSource bean in the application (spring.datasource.*)");
            }
            return SessionStore.jdbc(ds);
        }
    }

    private static void requireClass(ClassLoader loader, String className, String setting, String artifact) {
        if (!ClassUtils.isPresent(className, loader)) {
            throw new IllegalStateException(setting + " needs io.prologtool:" + artifact
                    + " on the class path: add it to the application's dependencies");
        }
    }

    /** The process backend, in a class of its own so that its module is loaded only when it is chosen. */
    static final class ProcessBackends {

        private ProcessBackends() {
        }

        static PrologBackend build(PrologToolProperties properties, List<PrologListener> listeners) {
            ProcessBackend.Builder b = ProcessBackend.builder().poolSize(properties.getProcess().getPoolSize())
                    .isolation(switch (properties.getProcess().getIsolation()) {
                        case AUTO -> Isolation.auto();
                        case REQUIRED -> Isolation.required();
                        case NONE -> Isolation.none();
                    });
            if (properties.getSwipl() != null) {
                b.swiplPath(properties.getSwipl());
            }
            listeners.forEach(b::listener);
            return b.build();
        }
    }

    /** The in-process backend, in a class of its own so that JPL is loaded only when it is chosen. */
    static final class JplBackends {

        private JplBackends() {
        }

        static PrologBackend build(PrologToolProperties properties, List<PrologListener> listeners) {
            JplBackend.Builder b = JplBackend.builder()
                    .maxConcurrentCalls(properties.getJpl().getMaxConcurrentCalls());
            if (properties.getSwipl() != null) {
                b.swiplPath(properties.getSwipl());
            }
            listeners.forEach(b::listener);
            return b.build();
        }
    }
}

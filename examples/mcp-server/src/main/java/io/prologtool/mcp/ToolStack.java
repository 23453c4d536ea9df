package io.prologtool.mcp;

import io.prologtool.PrologBackend;
import io.prologtool.PrologExecutor;
import io.prologtool.RuleBaseStore;
import io.prologtool.SessionOptions;
import io.prologtool.SessionRegistry;
import io.prologtool.SessionStore;
import io.prologtool.jpl.JplBackend;
import io.prologtool.process.Isolation;
import io.prologtool.process.ProcessBackend;
import io.prologtool.tools.PrologTools;

import java.util.Objects;
import java.util.Optional;

/**
 * What the MCP server serves, built from its {@link ServerOptions}: a backend, a {@link SessionRegistry}
 * with the session cap and TTL, the {@link PrologExecutor} behind {@code execute_prolog}, and the
 * {@link PrologTools} over both. Sandboxed options make every session the tools open sandboxed, the
 * ones of {@code consult_text} and {@code execute_prolog}'s scratch sessions alike. {@link #close()}
 * closes all of it, every session and child process with it.
 *
 * <pre>{@code
 * try (ToolStack stack = ToolStack.open(ServerOptions.defaults())) {
 *     ObjectNode reply = stack.tools().call("consult_text", args);
 * }
 * }</pre>
 */
public final class ToolStack implements AutoCloseable {

    private final ServerOptions options;
    private final PrologBackend backend;
    private final SessionRegistry registry;
    private final PrologExecutor executor;
    private final PrologTools tools;

    private ToolStack(ServerOptions options, PrologBackend backend) {
        this.options = options;
        this.backend = backend;
        // The PrologMCP contract: discontiguous declarations are injected for predicates whose clauses are
        // apart, unless --no-discontiguous.
        SessionOptions sessions = SessionOptions.builder().sandboxed(options.sandboxed())
                .declareDiscontiguous(options.discontiguous()).build();
        SessionRegistry.Builder registryBuilder = SessionRegistry.builder(backend).maxSessions(options.maxSessions())
                .idleTtl(options.idleTtl()).sessionOptions(sessions);
        options.store().ifPresent(where -> registryBuilder.store(where.startsWith("jdbc:")
                ? SessionStore.jdbc(where) : SessionStore.folder(java.nio.file.Path.of(where))));
        this.registry = registryBuilder.build();
        RuleBaseStore store = options.ruleBases().map(RuleBaseStore::directory).orElseGet(RuleBaseStore::defaultStore);
        this.executor = PrologExecutor.builder(backend).sessionOptions(sessions).ruleBases(store).build();
        this.tools = PrologTools.builder(registry).executor(executor).build();
    }

    /**
     * Starts the backend the options name and builds the tools over it.
     *
     * @throws io.prologtool.PrologUnavailableException when SWI-Prolog (or, for the JPL backend, JPL) is not
     *                                                  installed, or {@code --isolation required} cannot be had
     */
    public static ToolStack open(ServerOptions options) {
        Objects.requireNonNull(options, "options");
        PrologBackend backend = switch (options.backend()) {
            case JPL -> options.swipl().map(p -> JplBackend.builder().swiplPath(p).build()).orElseGet(JplBackend::get);
            case PROCESS -> {
                ProcessBackend.Builder builder = ProcessBackend.builder().isolation(isolation(options))
                        .poolSize(options.poolSize());
                options.swipl().ifPresent(builder::swiplPath);
                yield builder.build();
            }
        };
        try {
            return new ToolStack(options, backend);
        } catch (RuntimeException e) {
            backend.close();
            throw e;
        }
    }

    private static Isolation isolation(ServerOptions options) {
        return switch (options.isolation().orElse(ServerOptions.IsolationLevel.AUTO)) {
            case AUTO -> Isolation.auto();
            case REQUIRED -> Isolation.required();
            case NONE -> Isolation.none();
        };
    }

    /** The tool layer the server calls. */
    public PrologTools tools() {
        return tools;
    }

    /** The options this stack was built from. */
    public ServerOptions options() {
        return options;
    }

    /**
     * The OS isolation the process backend gives sandboxed sessions on this machine, as it describes it;
     * empty when there is none (the JPL backend, {@code --isolation none}, or {@code auto} where the
     * machine does not allow it).
     */
    public Optional<String> isolationInEffect() {
        return backend instanceof ProcessBackend p ? p.isolationInEffect() : Optional.empty();
    }

    /** Closes the tools, the executor, the registry (every session) and the backend (every child). */
    @Override
    public void close() {
        try {
            tools.close();
            executor.close();
            registry.close();
        } finally {
            backend.close();
        }
    }
}

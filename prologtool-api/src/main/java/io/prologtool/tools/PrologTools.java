package io.prologtool.tools;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.prologtool.Answer;
import io.prologtool.ConsultResult;
import io.prologtool.Diagnostic;
import io.prologtool.ExecutionRequest;
import io.prologtool.ExecutionResult;
import io.prologtool.GoalRequest;
import io.prologtool.GoalResult;
import io.prologtool.Outcome;
import io.prologtool.PredicateInfo;
import io.prologtool.PrologBackend;
import io.prologtool.PrologError;
import io.prologtool.PrologExecutor;
import io.prologtool.PrologSession;
import io.prologtool.PrologToolException;
import io.prologtool.ProofTree;
import io.prologtool.ReplaceResult;
import io.prologtool.RuleBaseError;
import io.prologtool.RuleBaseInfo;
import io.prologtool.RuleBaseResult;
import io.prologtool.RuleBaseStore;
import io.prologtool.SessionClosedException;
import io.prologtool.SessionRegistry;
import io.prologtool.Severity;
import io.prologtool.TestCase;
import io.prologtool.TestReport;
import io.prologtool.TraceResult;
import io.prologtool.json.TermJson;
import io.prologtool.spi.HarnessCrashedException;
import io.prologtool.spi.HarnessTimeoutException;

import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.function.Function;

import static io.prologtool.tools.Param.Type.BOOLEAN;
import static io.prologtool.tools.Param.Type.INTEGER;
import static io.prologtool.tools.Param.Type.NUMBER;
import static io.prologtool.tools.Param.Type.STRING;
import static io.prologtool.tools.Param.Type.STRING_ARRAY;

/**
 * The JSON tool layer for agents: the nine tools of PrologMCP ({@code consult_text}, {@code run_goal},
 * {@code inspect_predicate}, {@code get_source}, {@code replace_predicate}, {@code list_messages},
 * {@code run_tests}, {@code trace_goal}, {@code close_session}) with the paper's names, argument
 * names, defaults and response keys, and the five of prolog-reasoner ({@code execute_prolog},
 * {@code list_rule_bases}, {@code get_rule_base}, {@code save_rule_base}, {@code delete_rule_base})
 * with its names, defaults and reply shapes. Sessions are addressed by {@code load_id}.
 *
 * <pre>{@code
 * try (PrologTools tools = PrologTools.over(backend)) {
 *     String r = tools.call("consult_text", "{\"source_text\": \"p(1). p(2).\"}");
 *     // {"ok":true,"load_id":"...","module_name":"m_...","dialect":"swi","messages":[]}
 *     String g = tools.call("run_goal", "{\"load_id\": \"...\", \"goal\": \"p(X)\"}");
 * }
 * }</pre>
 *
 * <p>{@link #call} never throws: every failure — unknown tool, malformed JSON, a missing or mistyped
 * argument, an unknown or closed {@code load_id}, a goal that raises — is a reply
 * {@code {"ok": false, "error": {"kind", "message", "prolog_term"}}}. The prolog-reasoner tools keep
 * that tool's own reply shapes for what they report: {@code execute_prolog} replies
 * {@code {"success", "output", "query", "error", "metadata", "answers"}}, and the rule base tools report
 * a missing, badly named, unreadable or too large rule base as
 * {@code {"success": false, "error": text, "error_code": "RULEBASE_00x"}}; a call that cannot be
 * served at all (a missing argument, say) is the {@code ok: false} reply above. Thread-safe.
 */
public final class PrologTools implements AutoCloseable {

    private static final JsonNodeFactory F = JsonNodeFactory.instance;
    /** Largest time_limit, in seconds (a day). */
    private static final int MAX_SECONDS = 86_400;
    /** A Java builder's argument name in a message, e.g. {@code maxAnswers}. */
    private static final java.util.regex.Pattern CAMEL = java.util.regex.Pattern.compile(
            "\\b(max|min|time|allow)([A-Z][A-Za-z]*)\\b");

    private final SessionRegistry registry;
    private final boolean ownsRegistry;
    private final PrologExecutor executor;
    private final boolean ownsExecutor;
    private final RuleBaseStore ruleBases;
    private final Map<String, Tool> tools = new LinkedHashMap<>();
    /** Open cursors of run_goal with cursor: true, by cursor_id. */
    private final Map<String, Cursor> cursors = new java.util.concurrent.ConcurrentHashMap<>();
    private final java.util.concurrent.atomic.AtomicLong nextCursor = new java.util.concurrent.atomic.AtomicLong();

    private record Cursor(String loadId, io.prologtool.Query query) {
    }

    private record Tool(ToolSpec spec, List<Param> params, Function<Args, ObjectNode> handler) {
    }

    /** A call's arguments, read through their {@link Param}s. */
    private record Args(Map<String, JsonNode> values) {
        JsonNode get(String name) {
            return values.get(name);
        }

        String text(String name) {
            JsonNode v = values.get(name);
            return v == null ? null : v.asText();
        }

        int integer(String name) {
            JsonNode v = values.get(name);
            long l = v.asLong();
            if (l < Integer.MIN_VALUE || l > Integer.MAX_VALUE) {
                throw new ToolFailure("invalid_arguments", "argument '" + name + "' is out of range: " + l);
            }
            return (int) l;
        }
    }

    private PrologTools(Builder b) {
        this.ownsRegistry = b.registry == null;
        this.registry = ownsRegistry ? SessionRegistry.builder(b.backend).build() : b.registry;
        this.ownsExecutor = b.executor == null;
        this.executor = ownsExecutor
                ? PrologExecutor.builder(registry.backend())
                        .ruleBases(b.ruleBases != null ? b.ruleBases : RuleBaseStore.defaultStore()).build()
                : b.executor;
        RuleBaseStore store = b.ruleBases != null ? b.ruleBases : executor.ruleBases();
        this.ruleBases = store.isChecked() ? store : store.checkedBy(executor);
        define();
    }

    /**
     * A tool layer over its own {@link SessionRegistry} on {@code backend} (64 sessions, 15 minutes
     * idle TTL) and its own {@link PrologExecutor} with the system rule base store;
     * {@link #close()} closes both.
     */
    public static PrologTools over(PrologBackend backend) {
        return builder(backend).build();
    }

    /**
     * A tool layer whose sessions live in {@code registry} (its own executor runs on the registry's
     * backend); {@link #close()} leaves the registry open.
     */
    public static PrologTools over(SessionRegistry registry) {
        return builder(registry).build();
    }

    /** A builder for a tool layer with its own registry on {@code backend}. */
    public static Builder builder(PrologBackend backend) {
        return new Builder(Objects.requireNonNull(backend, "backend"), null);
    }

    /** A builder for a tool layer whose sessions live in {@code registry}. */
    public static Builder builder(SessionRegistry registry) {
        Objects.requireNonNull(registry, "registry");
        return new Builder(registry.backend(), registry);
    }

    /** Builds {@link PrologTools}. */
    public static final class Builder {
        private final PrologBackend backend;
        private final SessionRegistry registry;
        private PrologExecutor executor;
        private RuleBaseStore ruleBases;

        private Builder(PrologBackend backend, SessionRegistry registry) {
            this.backend = backend;
            this.registry = registry;
        }

        /**
         * The rule bases of the rule base tools and of {@code execute_prolog} (default
         * {@link RuleBaseStore#defaultStore()}); a store without a syntax checker is checked by the
         * executor.
         */
        public Builder ruleBases(RuleBaseStore store) {
            this.ruleBases = Objects.requireNonNull(store, "store");
            return this;
        }

        /**
         * The executor behind {@code execute_prolog} (default: one of the layer's own); left open on close.
         * {@code execute_prolog} loads rule bases from the executor's own store ({@link PrologExecutor#ruleBases()}),
         * so give both the same store.
         */
        public Builder executor(PrologExecutor executor) {
            this.executor = Objects.requireNonNull(executor, "executor");
            return this;
        }

        public PrologTools build() {
            return new PrologTools(this);
        }
    }

    /** Every tool: name, description, JSON input schema; in a stable order. */
    public List<ToolSpec> specs() {
        return tools.values().stream().map(Tool::spec).toList();
    }

    /**
     * Calls tool {@code name} with its arguments as a JSON object text; returns the reply as JSON
     * text. Never throws.
     */
    public String call(String name, String argumentsJson) {
        JsonNode args;
        try {
            args = argumentsJson == null || argumentsJson.isBlank()
                    ? F.objectNode() : TermJson.mapper().readTree(argumentsJson);
        } catch (JsonProcessingException | RuntimeException | StackOverflowError e) {
            return failure("malformed_json", "the arguments are not valid JSON: " + firstLine(e.getMessage()))
                    .toString();
        }
        // an atom or string may hold a lone surrogate: escaped, so that the text survives UTF-8
        return TermJson.escapeLoneSurrogates(call(name, args).toString());
    }

    /**
     * {@link #call(String, String)} under {@code requestId}, the caller's name for this call (an MCP
     * request id, say): while it runs, {@link #cancel(String)} with that id stops it. Never throws.
     */
    public String call(String name, String argumentsJson, String requestId) {
        return whileRunning(requestId, () -> call(name, argumentsJson));
    }

    /** {@link #call(String, JsonNode)} under {@code requestId}, as {@link #call(String, String, String)}. */
    public ObjectNode call(String name, JsonNode arguments, String requestId) {
        return whileRunning(requestId, () -> call(name, arguments));
    }

    /**
     * Stops the call running under {@code requestId} ({@link #call(String, String, String)}): a goal
     * ends with {@code "outcome": "cancelled"} (the answers found before it kept), a consult with an error
     * message starting {@code cancelled:}, a fetch with its cursor closed; the session stays usable, its
     * program kept. The call's thread is interrupted while it runs that call only, which cancels what it
     * waits for ({@link io.prologtool.GoalRequest#run()}); the interrupt is cleared when the call returns.
     * A no-op returning false when no call runs under that id (it has ended or not started); a call that
     * ends as the cancel comes is either stopped or left to end, and nothing else is touched.
     *
     * @return true when a call was running under {@code requestId} and was asked to stop
     */
    public boolean cancel(String requestId) {
        Running r = running.get(Objects.requireNonNull(requestId, "requestId"));
        return r != null && r.cancel();
    }

    /**
     * Stops whatever runs now on the session {@code loadId} ({@link PrologSession#cancel()}), whoever
     * called it; false when nothing runs there or no open session has that id.
     */
    public boolean cancelSession(String loadId) {
        return registry.getOpen(Objects.requireNonNull(loadId, "loadId")).map(PrologSession::cancel).orElse(false);
    }

    /** The calls running under a request id, for {@link #cancel(String)}. */
    private final Map<String, Running> running = new java.util.concurrent.ConcurrentHashMap<>();

    /** One call running under a request id: the thread it runs on, interrupted by a cancel while it runs it. */
    private static final class Running {
        private final Thread thread = Thread.currentThread();
        private boolean ended;          // guarded by this
        private boolean interrupted;    // guarded by this

        synchronized boolean cancel() {
            if (ended) {
                return false;
            }
            interrupted = true;
            thread.interrupt();
            return true;
        }

        /** The call returned: a cancel no longer reaches the thread, and its interrupt is taken back. */
        synchronized void end() {
            ended = true;
            if (interrupted) {
                Thread.interrupted();
            }
        }
    }

    private <T> T whileRunning(String requestId, java.util.function.Supplier<T> call) {
        if (requestId == null) {
            return call.get();
        }
        Running r = new Running();
        if (running.putIfAbsent(requestId, r) != null) {
            return call.get(); // an id already in use: the call runs, a cancel reaches the first one
        }
        try {
            return call.get();
        } finally {
            running.remove(requestId, r);
            r.end();
        }
    }

    /** Like {@link #call(String, String)}, with the arguments as a JSON tree. Never throws. */
    public ObjectNode call(String name, JsonNode arguments) {
        try {
            Tool tool = tools.get(name);
            if (tool == null) {
                return failure("unknown_tool", "there is no tool '" + name + "'; the tools are " + tools.keySet());
            }
            if (arguments == null || arguments.isNull()) {
                arguments = F.objectNode();
            }
            if (!arguments.isObject()) {
                return failure("invalid_arguments", "the arguments must be a JSON object, got "
                        + arguments.getNodeType().name().toLowerCase(java.util.Locale.ROOT));
            }
            Map<String, JsonNode> values = new LinkedHashMap<>();
            for (Param p : tool.params()) {
                JsonNode v = p.read(arguments);
                if (v != null) {
                    values.put(p.name(), v);
                }
            }
            return tool.handler().apply(new Args(values));
        } catch (ToolFailure f) {
            return failure(f.kind, f.getMessage());
        } catch (SessionClosedException e) {
            return failure("session_closed", e.getMessage());
        } catch (io.prologtool.SessionHeldException e) {
            ObjectNode r = failure("session_held", e.getMessage());
            ((ObjectNode) r.get("error")).put("holder", e.holder());
            return r;
        } catch (IllegalArgumentException e) {
            return failure("invalid_arguments", toolNames(e.getMessage()));
        } catch (HarnessCrashedException e) {
            return failure("session_crashed", e.getMessage());
        } catch (HarnessTimeoutException e) {
            return failure("timeout", e.getMessage());
        } catch (io.prologtool.spi.HarnessCancelledException e) {
            return failure("cancelled", e.getMessage());
        } catch (PrologToolException e) {
            return failure("internal_error", e.getMessage());
        } catch (RuntimeException | StackOverflowError e) {
            return failure("internal_error", e.getClass().getSimpleName() + ": " + e.getMessage());
        }
    }

    /**
     * Whether a reply of {@link #call} reports a failure, for a protocol that flags failed tool calls
     * (MCP's {@code isError}, LangChain4j's {@code ToolExecutionResult.isError()}): {@code "ok": false}
     * (the PrologMCP tools and any call that cannot be served), or {@code "success": false} (the
     * prolog-reasoner tools, {@code execute_prolog} and the rule base tools). A reply with neither key
     * ({@code list_rule_bases}) is not a failure; anything but a JSON object is.
     */
    public static boolean isFailure(JsonNode reply) {
        if (reply == null || !reply.isObject()) {
            return true;
        }
        JsonNode ok = reply.has("ok") ? reply.get("ok") : reply.get("success");
        return ok != null && !(ok.isBoolean() && ok.booleanValue());
    }

    /** Number of sessions open in the registry behind this layer. */
    public int openSessions() {
        return registry.size();
    }

    /** The rule base store of the rule base tools. */
    public RuleBaseStore ruleBases() {
        return ruleBases;
    }

    /**
     * Closes the registry and the executor this layer made (and their sessions); a registry or an
     * executor passed in stays open.
     */
    @Override
    public void close() {
        if (ownsExecutor) {
            executor.close();
        }
        if (ownsRegistry) {
            registry.close();
        }
    }

    // ------------------------------------------------------------------ the tools

    private void define() {
        Param loadId = Param.required("load_id", STRING, "The session id returned by consult_text.");
        Param goal = Param.required("goal", STRING,
                "A Prolog goal, e.g. \"ancestor(tom, X)\"; one term, the final full stop is optional.");
        // Optional rather than defaulted: absent, the session's own option decides (on unless the host
        // opened sessions with SessionOptions.staticCheck(false)); given, it decides for this call.
        Param check = Param.optional("check", BOOLEAN, "Static check of the loaded clauses (default true): each "
                + "call to a predicate that is not defined, built in or in a library becomes a warning of kind "
                + "undefined_predicate with the caller, its line and similar predicates. false: skip it.");

        tool("consult_text",
                "Load Prolog source into a new session. Returns a load_id used by all other tools. "
                        + "Compile-time problems come back in messages (with lines); the session is created "
                        + "anyway so that it can be inspected and repaired. The reply also says what loading "
                        + "cost: wall_time_ms, cpu_time_ms (milliseconds) and inferences.",
                List.of(Param.required("source_text", STRING, "The Prolog program text."),
                        Param.withDefault("dialect", STRING, F.textNode("swi"), "Prolog dialect.").oneOf("swi"),
                        Param.optional("module_name", STRING, "Accepted for compatibility: the session's code "
                                + "always lives in its own module, which the reply's module_name names."),
                        Param.withDefault("include_predicates", BOOLEAN, F.booleanNode(false),
                                "Also list the predicates the source defined."),
                        check),
                this::consultText);

        tool("run_goal",
                "Execute a goal in an existing session. Returns outcome (success, failure, timeout, "
                        + "depth_exceeded, inference_limit, cancelled), typed answers, count, captured output and "
                        + "whether more answers existed (truncated). A goal that raises is an error with its ISO kind. "
                        + "Every reply also says what the goal cost: wall_time_ms, cpu_time_ms (milliseconds) "
                        + "and inferences.",
                List.of(loadId, goal,
                        Param.withDefault("max_answers", INTEGER, F.numberNode(10), "Most answers to return.")
                                .range(1, GoalRequest.MAX_ANSWERS_LIMIT),
                        Param.withDefault("time_limit", NUMBER, F.numberNode(30.0), "Seconds; more than 0.")
                                .above(0, MAX_SECONDS),
                        Param.withDefault("max_depth", INTEGER, F.numberNode(1_000_000), "Depth limit.").atLeast(1),
                        Param.withDefault("allow_side_effects", BOOLEAN, F.booleanNode(true),
                                "false: refuse goals that could have side effects (sandbox check)."),
                        Param.optional("max_inferences", INTEGER,
                                "Extension: inference limit for the whole search.").atLeast(1),
                        Param.withDefault("cursor", BOOLEAN, F.booleanNode(false), "Extension: true keeps the "
                                + "search open after these answers; the reply then has a cursor_id while more "
                                + "answers may exist, for next_answers (time_limit applies to each fetch).")),
                this::runGoal);


        tool("inspect_predicate",
                "Return the live definition of a predicate: found, type (static, dynamic, foreign, "
                        + "undefined), exported, clause_count, clauses; on a miss, candidates with similar names.",
                List.of(loadId, Param.required("name", STRING, "Predicate name."),
                        Param.required("arity", INTEGER, "Predicate arity.").atLeast(0)),
                this::inspectPredicate);

        tool("get_source",
                "Return the session's current program, rebuilt from its live clauses; reflects every "
                        + "replacement since it was loaded.",
                List.of(loadId),
                this::getSource);

        tool("replace_predicate",
                "Replace every clause of one predicate. source_text must define only name/arity; if it "
                        + "does not compile or defines anything else, the session is left unchanged.",
                List.of(loadId, Param.required("name", STRING, "Predicate name."),
                        Param.required("arity", INTEGER, "Predicate arity.").atLeast(0),
                        Param.required("source_text", STRING, "The new clauses."),
                        check),
                this::replacePredicate);

        tool("list_messages",
                "Return the diagnostics gathered in the session across all calls, at min_severity or above.",
                List.of(loadId, Param.withDefault("min_severity", STRING, F.textNode("info"), "Lowest severity.")
                        .oneOf("info", "warning", "error")),
                this::listMessages);

        tool("run_tests",
                "Run plunit tests in the session, optionally loading test source first. Returns passed, "
                        + "failed, skipped and total counts and per-test results, and what the run cost: "
                        + "wall_time_ms, cpu_time_ms (milliseconds) and inferences.",
                List.of(loadId, Param.optional("test_source_text", STRING, "plunit units to load first.")),
                this::runTests);

        tool("trace_goal",
                "Trace a goal with a depth-bounded meta-interpreter. Returns a proof tree (goal, rule, "
                        + "kind, children), its node_count, whether it was truncated, and the outcome.",
                List.of(loadId, goal,
                        Param.withDefault("max_depth", INTEGER, F.numberNode(10), "Deepest tree level.")
                                .range(1, Integer.MAX_VALUE),
                        Param.withDefault("max_nodes", INTEGER, F.numberNode(200), "Most tree nodes.")
                                .range(1, Integer.MAX_VALUE)),
                this::traceGoal);

        tool("close_session",
                "Terminate a session and release its resources.",
                List.of(loadId),
                this::closeSession);

        Param ruleBaseName = Param.required("name", STRING, "Rule base name: 1 to 64 characters from a-z, 0-9, _ and -.");

        tool("execute_prolog",
                "Execute Prolog code and return reasoning results: write facts and rules, then run a query "
                        + "against them. Stateless: nothing is kept between calls. Supports CLP(FD), negation as "
                        + "failure and all standard SWI-Prolog features. Returns success, output (one line per "
                        + "solution, e.g. \"X = socrates\", or \"false\"), query, error and metadata "
                        + "(execution_time_ms, cpu_time_ms, inferences, result_count, truncated, rule_bases_used, "
                        + "warnings; on failure "
                        + "error_category and error_explanation, a hint on how to fix the code).",
                List.of(Param.required("prolog_code", STRING, "Prolog code (facts and rules)."),
                        Param.required("query", STRING, "Prolog query to execute (e.g. \"mortal(X)\"); a final "
                                + "full stop is optional."),
                        Param.optional("rule_bases", STRING_ARRAY, "Names of saved rule bases to load before "
                                + "prolog_code, in this order (e.g. domain rules saved with save_rule_base)."),
                        Param.withDefault("max_results", INTEGER, F.numberNode(ExecutionRequest.DEFAULT_MAX_RESULTS),
                                "Maximum number of solutions, 1 to 10000 (prevents runaway queries).")
                                .range(1, ExecutionRequest.MAX_RESULTS_LIMIT),
                        Param.withDefault("trace", BOOLEAN, F.booleanNode(false), "Append a structured proof "
                                + "tree for each returned solution to metadata.proof_trace (a list in solution "
                                + "order, empty when there is none); runs the query a second time under a "
                                + "meta-interpreter."),
                        Param.withDefault("time_limit", NUMBER, F.numberNode(10.0), "Extension: seconds for the "
                                + "whole call; more than 0.").above(0, MAX_SECONDS)),
                this::executeProlog);

        tool("list_rule_bases",
                "List all saved rule bases with their name, description and tags (from the leading "
                        + "'% description:' and '% tags:' comment lines of each).",
                List.of(),
                this::listRuleBases);

        tool("get_rule_base",
                "Return the Prolog source of a saved rule base.",
                List.of(ruleBaseName),
                this::getRuleBase);

        tool("save_rule_base",
                "Save (create or overwrite) a named rule base of Prolog rules to reuse across execute_prolog "
                        + "calls, for stable knowledge such as game rules or legal axioms. The content is "
                        + "checked for syntax first (parse only, nothing runs). Start it with '% description: ...' "
                        + "and '% tags: a, b' lines.",
                List.of(ruleBaseName, Param.required("content", STRING, "The Prolog source.")),
                this::saveRuleBase);

        tool("delete_rule_base",
                "Delete a saved rule base by name.",
                List.of(ruleBaseName),
                this::deleteRuleBase);

        // Extensions beyond the seeds: answers on demand (issue 17).
        Param cursorId = Param.required("cursor_id", STRING, "A cursor_id from run_goal with cursor: true.");
        tool("next_answers",
                "Extension: the next answers of a search kept open by run_goal with cursor: true, found from "
                        + "where it stopped (nothing is recomputed). Same reply as run_goal; cursor_id is present "
                        + "while more answers may exist, and the cursor closes when they run out or a bound or "
                        + "error ends the search.",
                List.of(loadId, cursorId,
                        Param.withDefault("max_answers", INTEGER, F.numberNode(10), "Most answers to return.")
                                .range(1, GoalRequest.MAX_ANSWERS_LIMIT)),
                this::nextAnswers);

        tool("fork_session",
                "Extension: copy a session: a new session (a new load_id) holding the same program, dynamic "
                        + "facts, operators, flags and plunit units as this one now; later changes to either "
                        + "are invisible to the other. Explore alternatives without reloading.",
                List.of(loadId),
                this::forkSession);

        tool("close_cursor",
                "Extension: close a cursor of run_goal with cursor: true before its answers run out.",
                List.of(loadId, cursorId),
                this::closeCursor);
    }

    private void tool(String name, String description, List<Param> params, Function<Args, ObjectNode> handler) {
        ObjectNode schema = F.objectNode();
        schema.put("type", "object");
        ObjectNode props = schema.putObject("properties");
        ArrayNode required = F.arrayNode();
        for (Param p : params) {
            props.set(p.name(), p.schema());
            if (p.required()) {
                required.add(p.name());
            }
        }
        schema.set("required", required);
        tools.put(name, new Tool(new ToolSpec(name, description, schema), params, handler));
    }

    private ObjectNode consultText(Args a) {
        JsonNode check = a.get("check");
        SessionRegistry.Consulted opened = check == null ? registry.consult(a.text("source_text"))
                : registry.consult(a.text("source_text"), check.asBoolean());
        PrologSession s = opened.session();
        ConsultResult c = opened.result();
        ObjectNode r = ok();
        r.put("load_id", s.id());
        r.put("module_name", s.moduleName());
        r.put("dialect", "swi");
        r.set("messages", diagnostics(c.messages()));
        if (!c.output().isEmpty()) {
            r.put("output", c.output());
        }
        putCost(r, c.cost());
        if (a.get("include_predicates").asBoolean()) {
            ArrayNode ps = r.putArray("predicates");
            for (PredicateInfo p : s.predicates()) {
                ObjectNode d = ps.addObject();
                d.put("name", p.name());
                d.put("arity", p.arity());
                d.put("type", p.type().wireName());
                d.put("exported", p.exported());
                d.put("clause_count", p.clauseCount());
            }
        }
        return r;
    }

    private ObjectNode runGoal(Args a) {
        PrologSession s = session(a);
        double seconds = a.get("time_limit").asDouble();
        if (!(seconds > 0) || seconds > 86_400) {
            throw new ToolFailure("invalid_arguments", "time_limit must be more than 0 and at most 86400, got " + seconds);
        }
        GoalRequest g = s.goal(a.text("goal"))
                .maxAnswers(a.integer("max_answers"))
                .timeLimit(Duration.ofNanos(Math.max(1_000_000, (long) (seconds * 1e9))))
                .maxDepth(a.get("max_depth").asLong())
                .allowSideEffects(a.get("allow_side_effects").asBoolean());
        if (a.get("max_inferences") != null) {
            g.maxInferences(a.get("max_inferences").asLong());
        }
        if (a.get("cursor").asBoolean()) {
            io.prologtool.Query q;
            try {
                q = g.query();
            } catch (io.prologtool.SessionClosedException e) {
                throw sessionClosed(a.text("load_id"));
            } catch (io.prologtool.PrologToolException e) {
                throw new ToolFailure("resource_error", e.getMessage());
            }
            String id = "c" + nextCursor.incrementAndGet();
            cursors.put(id, new Cursor(a.text("load_id"), q));
            return cursorReply(id, q, q.fetch(a.integer("max_answers")));
        }
        return goalReply(g.run());
    }

    private ObjectNode forkSession(Args a) {
        String id = a.text("load_id");
        session(a);                             // an unknown or closed load_id says so
        PrologSession copy;
        try {
            copy = registry.fork(id);
        } catch (io.prologtool.SessionClosedException e) {
            throw sessionClosed(id);
        }
        ObjectNode r = ok();
        r.put("load_id", copy.id());
        r.put("module_name", copy.moduleName());
        return r;
    }

    private ObjectNode nextAnswers(Args a) {
        String id = a.text("cursor_id");
        Cursor c = cursors.get(id);
        if (c == null || !c.loadId().equals(a.text("load_id"))) {
            session(a); // an unknown or closed load_id says so first
            throw new ToolFailure("cursor_closed", "cursor_closed: no open cursor '" + id + "' in session '"
                    + a.text("load_id") + "' (its answers ran out, a bound or error ended it, or it was closed)");
        }
        return cursorReply(id, c.query(), c.query().fetch(a.integer("max_answers")));
    }

    private ObjectNode closeCursor(Args a) {
        String id = a.text("cursor_id");
        Cursor c = cursors.get(id);
        if (c == null || !c.loadId().equals(a.text("load_id"))) {
            session(a);
            throw new ToolFailure("cursor_closed", "cursor_closed: no open cursor '" + id + "' in session '"
                    + a.text("load_id") + "'");
        }
        cursors.remove(id);
        c.query().close();
        ObjectNode r = ok();
        r.put("closed", true);
        return r;
    }

    /** A fetch's reply: run_goal's, with cursor_id while the query is open; a closed one is forgotten. */
    private ObjectNode cursorReply(String id, io.prologtool.Query q, GoalResult res) {
        ObjectNode r = goalReply(res);
        if (q.isOpen()) {
            r.put("cursor_id", id);
        } else {
            cursors.remove(id);
        }
        return r;
    }

    private static ObjectNode goalReply(GoalResult res) {
        ArrayNode answers = F.arrayNode();
        for (Answer ans : res.answers()) {
            ObjectNode o = answers.addObject();
            ans.asMap().forEach((k, v) -> o.set(k, TermJson.encode(v)));
        }
        if (res.outcome() == Outcome.ERROR) {
            ObjectNode f = failure(res.error().orElseThrow());
            // the answers found before the error, for the agent's benefit
            f.set("answers", answers);
            f.put("output", res.output());
            putCost(f, res.cost());
            return f;
        }
        ObjectNode r = ok();
        r.put("outcome", res.outcome().wireName());
        r.set("answers", answers);
        r.put("count", res.answers().size());
        r.put("output", res.output());
        r.put("truncated", res.truncated());
        r.put("depth_exceeded", res.depthExceeded());
        if (res.outputTruncated()) {
            r.put("output_truncated", true);
        }
        putCost(r, res.cost());
        return r;
    }

    /**
     * The cost keys of a reply: {@code wall_time_ms} and {@code cpu_time_ms} (milliseconds, microsecond
     * precision) and {@code inferences}; see {@link io.prologtool.Cost}.
     */
    private static void putCost(ObjectNode r, io.prologtool.Cost cost) {
        r.put("wall_time_ms", cost.wallTimeMillis());
        r.put("cpu_time_ms", cost.cpuTimeMillis());
        r.put("inferences", cost.inferences());
    }

    private ObjectNode inspectPredicate(Args a) {
        PredicateInfo p = session(a).inspect(a.text("name"), nonNegative(a, "arity"));
        ObjectNode r = ok();
        r.put("found", p.found());
        r.put("type", p.type().wireName());
        r.put("exported", p.exported());
        r.put("clause_count", p.clauseCount());
        r.set("clauses", strings(p.clauses()));
        if (!p.found()) {
            r.set("candidates", strings(p.candidates()));
        }
        return r;
    }

    private ObjectNode getSource(Args a) {
        ObjectNode r = ok();
        r.put("source", session(a).source());
        return r;
    }

    private ObjectNode replacePredicate(Args a) {
        JsonNode check = a.get("check");
        PrologSession s = session(a);
        ReplaceResult rr = check == null
                ? s.replacePredicate(a.text("name"), nonNegative(a, "arity"), a.text("source_text"))
                : s.replacePredicate(a.text("name"), nonNegative(a, "arity"), a.text("source_text"),
                        check.asBoolean());
        if (!rr.replaced()) {
            ObjectNode f = failure(rr.error().orElseThrow());
            f.put("predicate", rr.predicate());
            f.set("messages", diagnostics(rr.messages()));
            return f;
        }
        ObjectNode r = ok();
        r.put("predicate", rr.predicate());
        r.set("messages", diagnostics(rr.messages()));
        return r;
    }

    private ObjectNode listMessages(Args a) {
        ObjectNode r = ok();
        r.set("messages", diagnostics(session(a).messages(Severity.fromWireName(a.text("min_severity")))));
        return r;
    }

    private ObjectNode runTests(Args a) {
        String text = a.text("test_source_text");
        TestReport t = session(a).runTests(text == null ? "" : text);
        if (t.error().isPresent()) {
            ObjectNode f = failure(t.error().get());
            f.set("messages", diagnostics(t.messages()));
            putCost(f, t.cost());
            return f;
        }
        ObjectNode r = ok();
        r.put("passed", t.passed());
        r.put("failed", t.failed());
        r.put("skipped", t.skipped());
        r.put("total", t.total());
        ArrayNode results = r.putArray("results");
        for (TestCase c : t.results()) {
            ObjectNode o = results.addObject();
            o.put("unit", c.unit());
            o.put("name", c.name());
            o.put("status", c.status().wireName());
            o.put("message", c.message());
            if (c.line() > 0) {
                o.put("line", c.line());
            } else {
                o.putNull("line");
            }
        }
        r.set("messages", diagnostics(t.messages()));
        putCost(r, t.cost());
        return r;
    }

    private ObjectNode traceGoal(Args a) {
        TraceResult t = session(a).trace(a.text("goal"))
                .maxDepth(positive(a, "max_depth"))
                .maxNodes(positive(a, "max_nodes"))
                .run();
        if (t.outcome() == Outcome.ERROR) {
            ObjectNode f = failure(t.error().orElseThrow());
            t.tree().ifPresent(tree -> f.set("tree", tree(tree)));
            return f;
        }
        ObjectNode r = ok();
        if (t.tree().isPresent()) {
            r.set("tree", tree(t.tree().get()));
        } else {
            r.putNull("tree");
        }
        r.put("node_count", t.nodeCount());
        r.put("truncated", t.truncated());
        r.put("outcome", t.outcome().wireName());
        return r;
    }

    private ObjectNode closeSession(Args a) {
        String id = a.text("load_id");
        if (!registry.close(id)) {
            throw sessionClosed(id);
        }
        ObjectNode r = ok();
        r.put("closed", true);
        return r;
    }

    private ObjectNode executeProlog(Args a) {
        int maxResults = a.integer("max_results");
        if (maxResults < 1 || maxResults > ExecutionRequest.MAX_RESULTS_LIMIT) {
            throw new ToolFailure("invalid_arguments", "max_results must be 1.." + ExecutionRequest.MAX_RESULTS_LIMIT
                    + ", got " + maxResults);
        }
        double seconds = a.get("time_limit").asDouble();
        if (!(seconds > 0) || seconds > 86_400) {
            throw new ToolFailure("invalid_arguments", "time_limit must be more than 0 and at most 86400, got " + seconds);
        }
        ExecutionRequest r = executor.execute(a.text("prolog_code"), a.text("query"))
                .maxResults(maxResults)
                .timeLimit(Duration.ofNanos(Math.max(1_000_000, (long) (seconds * 1e9))))
                .trace(a.get("trace").asBoolean());
        JsonNode names = a.get("rule_bases");
        if (names != null) {
            List<String> list = new java.util.ArrayList<>();
            names.forEach(n -> list.add(n.asText()));
            r.ruleBases(list);
        }
        ExecutionResult res = r.run();
        return res.toJson();
    }

    private ObjectNode listRuleBases(Args a) {
        RuleBaseResult<List<RuleBaseInfo>> r = ruleBases.list();
        if (r.error().isPresent()) {
            return ruleBaseFailure(r.error().get());
        }
        ObjectNode o = F.objectNode();
        ArrayNode list = o.putArray("rule_bases");
        for (RuleBaseInfo info : r.value()) {
            ObjectNode i = list.addObject();
            i.put("name", info.name());
            i.put("description", info.description());
            i.set("tags", strings(info.tags()));
            i.put("bundled", info.bundled());
        }
        return o;
    }

    private ObjectNode getRuleBase(Args a) {
        String name = a.text("name");
        RuleBaseResult<String> r = ruleBases.get(name);
        if (r.error().isPresent()) {
            return ruleBaseFailure(r.error().get());
        }
        ObjectNode o = ruleBaseSuccess(name);
        o.put("content", r.value());
        return o;
    }

    private ObjectNode saveRuleBase(Args a) {
        String name = a.text("name");
        RuleBaseResult<Boolean> r = ruleBases.save(name, a.text("content"));
        if (r.error().isPresent()) {
            return ruleBaseFailure(r.error().get());
        }
        ObjectNode o = ruleBaseSuccess(name);
        o.put("created", r.value());
        return o;
    }

    private ObjectNode deleteRuleBase(Args a) {
        String name = a.text("name");
        RuleBaseResult<Boolean> r = ruleBases.delete(name);
        if (r.error().isPresent()) {
            return ruleBaseFailure(r.error().get());
        }
        return ruleBaseSuccess(name);
    }

    private static ObjectNode ruleBaseSuccess(String name) {
        ObjectNode o = F.objectNode();
        o.put("success", true);
        o.put("name", name);
        return o;
    }

    private static ObjectNode ruleBaseFailure(RuleBaseError e) {
        ObjectNode o = F.objectNode();
        o.put("success", false);
        o.put("error", e.message());
        o.put("error_code", e.code().wireName());
        if (e.line() > 0) {
            o.put("line", e.line());
        }
        return o;
    }

    // ------------------------------------------------------------------ helpers

    private PrologSession session(Args a) {
        String id = a.text("load_id");
        return registry.get(id).orElseThrow(() -> sessionClosed(id));
    }

    private ToolFailure sessionClosed(String id) {
        String reason = registry.closedReason(id).map(SessionRegistry.ClosedReason::wireName).orElse("unknown");
        return new ToolFailure("session_closed", "session_closed: " + reason + ": no open session has load_id '"
                + id + "'" + ("unknown".equals(reason) ? "; consult_text opens one" : ""));
    }

    private static int nonNegative(Args a, String name) {
        int v = a.integer(name);
        if (v < 0) {
            throw new ToolFailure("invalid_arguments", "argument '" + name + "' must not be negative, got " + v);
        }
        return v;
    }

    private static int positive(Args a, String name) {
        int v = a.integer(name);
        if (v < 1) {
            throw new ToolFailure("invalid_arguments", "argument '" + name + "' must be at least 1, got " + v);
        }
        return v;
    }

    /**
     * A builder's message in the tool's words: {@code maxAnswers} becomes {@code max_answers}, as the
     * tool's schema names the argument.
     */
    static String toolNames(String message) {
        if (message == null) {
            return null;
        }
        java.util.regex.Matcher m = CAMEL.matcher(message);
        StringBuilder b = new StringBuilder();
        while (m.find()) {
            String snake = m.group(1) + m.group(2).replaceAll("([A-Z])", "_$1").toLowerCase(java.util.Locale.ROOT);
            m.appendReplacement(b, java.util.regex.Matcher.quoteReplacement(snake));
        }
        m.appendTail(b);
        return b.toString();
    }

    private static ObjectNode ok() {
        ObjectNode r = F.objectNode();
        r.put("ok", true);
        return r;
    }

    private static ObjectNode failure(String kind, String message) {
        ObjectNode r = F.objectNode();
        r.put("ok", false);
        ObjectNode e = r.putObject("error");
        e.put("kind", kind);
        e.put("message", message == null ? kind : message);
        e.putNull("prolog_term");
        return r;
    }

    private static ObjectNode failure(PrologError err) {
        ObjectNode r = failure(err.kind(), err.message());
        ObjectNode e = (ObjectNode) r.get("error");
        err.prologTerm().ifPresent(t -> e.put("prolog_term", t));
        if (!err.candidates().isEmpty()) {
            e.set("candidates", strings(err.candidates()));
        }
        return r;
    }

    static ArrayNode diagnostics(List<Diagnostic> ds) {
        ArrayNode a = F.arrayNode();
        for (Diagnostic d : ds) {
            ObjectNode o = a.addObject();
            o.put("severity", d.severity().wireName());
            o.put("kind", d.kind());
            o.put("message", d.message());
            if (d.line() > 0) {
                o.put("line", d.line());
            } else {
                o.putNull("line");
            }
            if (d.column() > 0) {
                o.put("column", d.column());
            }
        }
        return a;
    }

    private static JsonNode tree(ProofTree t) {
        return t.toJsonNode();
    }

    private static ArrayNode strings(List<String> values) {
        ArrayNode a = F.arrayNode();
        values.forEach(a::add);
        return a;
    }

    private static String firstLine(String s) {
        if (s == null) {
            return "";
        }
        int nl = s.indexOf('\n');
        return nl < 0 ? s : s.substring(0, nl);
    }
}

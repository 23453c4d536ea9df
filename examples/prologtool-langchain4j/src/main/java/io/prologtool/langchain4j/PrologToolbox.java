package io.prologtool.langchain4j;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.langchain4j.agent.tool.ToolExecutionRequest;
import dev.langchain4j.agent.tool.ToolSpecification;
import dev.langchain4j.data.message.ToolExecutionResultMessage;
import dev.langchain4j.invocation.InvocationContext;
import dev.langchain4j.model.chat.request.json.JsonArraySchema;
import dev.langchain4j.model.chat.request.json.JsonBooleanSchema;
import dev.langchain4j.model.chat.request.json.JsonEnumSchema;
import dev.langchain4j.model.chat.request.json.JsonIntegerSchema;
import dev.langchain4j.model.chat.request.json.JsonNumberSchema;
import dev.langchain4j.model.chat.request.json.JsonObjectSchema;
import dev.langchain4j.model.chat.request.json.JsonRawSchema;
import dev.langchain4j.model.chat.request.json.JsonSchemaElement;
import dev.langchain4j.model.chat.request.json.JsonStringSchema;
import dev.langchain4j.service.AiServices;
import dev.langchain4j.service.tool.ToolErrorHandlerResult;
import dev.langchain4j.service.tool.ToolExecutionResult;
import dev.langchain4j.service.tool.ToolExecutor;
import io.prologtool.tools.PrologTools;
import io.prologtool.tools.ToolSpec;

import java.util.ArrayList;
import java.util.Collections;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;

/**
 * The PrologMCP tool set ({@link PrologTools}) for LangChain4j agents: each tool as a
 * {@link ToolSpecification} with its {@link ToolExecutor}, ready for {@code AiServices}.
 *
 * <pre>{@code
 * interface Assistant { String chat(String message); }
 *
 * try (PrologTools tools = PrologTools.over(backend)) {
 *     PrologToolbox toolbox = PrologToolbox.of(tools);
 *     Assistant assistant = toolbox.configure(AiServices.builder(Assistant.class))
 *             .chatModel(model)
 *             .build();
 *     String answer = assistant.chat("Load parent(tom, bob). parent(bob, ann). Who is Tom's grandchild?");
 * }
 * }</pre>
 *
 * <ul>
 *   <li>The specifications are built from {@link PrologTools#specs()}: names, descriptions, argument
 *       names, types, enums and required lists come from the tool layer's JSON schemas, the single
 *       source, so the agent sees exactly what {@code PrologTools.call} checks. A default value, which
 *       LangChain4j's schema model cannot hold, is appended to the argument's description
 *       ({@code "Default: 10."}).</li>
 *   <li>Errors go back to the model as tool results, never as exceptions: every executor returns
 *       {@code PrologTools.call}'s JSON, which is {@code {"ok": false, "error": {"kind", "message",
 *       "prolog_term"}}} for a goal that raises, a closed session, missing or malformed arguments, and
 *       is marked {@linkplain ToolExecutionResult#isError() as an error}. {@link #configure} also
 *       answers a tool name the model made up with an {@code unknown_tool} result (AiServices would
 *       throw by default).</li>
 * </ul>
 *
 * The tools that write to disk, {@value #SAVE_RULE_BASE} and {@value #DELETE_RULE_BASE} (they change
 * the rule base folder every session reads), are offered only when asked: by
 * {@link #withRuleBaseWrites()}, or by naming them in {@link #tools(String...)}.
 *
 * <p>Thread-safe; the sessions live in the {@link PrologTools}' registry, addressed by {@code load_id}.
 */
public final class PrologToolbox {

    private static final JsonNodeFactory F = JsonNodeFactory.instance;
    private static final com.fasterxml.jackson.databind.ObjectMapper MAPPER = new com.fasterxml.jackson.databind.ObjectMapper();

    /** The tool that saves a rule base to disk. */
    public static final String SAVE_RULE_BASE = "save_rule_base";
    /** The tool that deletes a rule base from disk. */
    public static final String DELETE_RULE_BASE = "delete_rule_base";
    private static final Set<String> DISK_WRITES = Set.of(SAVE_RULE_BASE, DELETE_RULE_BASE);

    private final PrologTools tools;
    private final boolean ruleBaseWrites;
    private final Map<ToolSpecification, ToolExecutor> all;
    private final Map<String, ToolSpecification> byName;

    private PrologToolbox(PrologTools tools, boolean ruleBaseWrites) {
        this.tools = tools;
        this.ruleBaseWrites = ruleBaseWrites;
        Map<ToolSpecification, ToolExecutor> m = new LinkedHashMap<>();
        Map<String, ToolSpecification> names = new LinkedHashMap<>();
        for (ToolSpec spec : tools.specs()) {
            ToolSpecification s = specification(spec);
            if (ruleBaseWrites || !DISK_WRITES.contains(s.name())) {
                m.put(s, new Executor());
            }
            names.put(s.name(), s);
        }
        this.all = Collections.unmodifiableMap(m);
        this.byName = Collections.unmodifiableMap(names);
    }

    /**
     * The toolbox over {@code tools}, without the tools that write to disk ({@link #withRuleBaseWrites()}
     * adds them); closing {@code tools} stays the caller's job.
     */
    public static PrologToolbox of(PrologTools tools) {
        return new PrologToolbox(Objects.requireNonNull(tools, "tools"), false);
    }

    /**
     * This toolbox with the tools that write to disk as well: {@value #SAVE_RULE_BASE} and
     * {@value #DELETE_RULE_BASE}, which change the rule base folder that every session of the
     * {@link PrologTools} reads.
     */
    public PrologToolbox withRuleBaseWrites() {
        return ruleBaseWrites ? this : new PrologToolbox(tools, true);
    }

    /** True when the toolbox offers the tools that write to disk ({@link #withRuleBaseWrites()}). */
    public boolean offersRuleBaseWrites() {
        return ruleBaseWrites;
    }

    /**
     * Every tool it offers, in {@link PrologTools#specs()} order, for {@code AiServices.builder(..).tools(map)}:
     * all of them but the tools that write to disk, unless {@link #withRuleBaseWrites()}.
     */
    public Map<ToolSpecification, ToolExecutor> tools() {
        return all;
    }

    /**
     * Only the named tools, e.g. {@code tools("consult_text", "run_goal", "close_session")}. Naming a
     * tool that writes to disk asks for it: it is given whether or not {@link #withRuleBaseWrites()}.
     *
     * @throws IllegalArgumentException for a name that is not a tool
     */
    public Map<ToolSpecification, ToolExecutor> tools(String... names) {
        Map<ToolSpecification, ToolExecutor> m = new LinkedHashMap<>();
        for (String n : names) {
            ToolSpecification s = byName.get(n);
            if (s == null) {
                throw new IllegalArgumentException("no tool '" + n + "'; the tools are " + byName.keySet());
            }
            m.put(s, all.getOrDefault(s, new Executor()));
        }
        return Collections.unmodifiableMap(m);
    }

    /** The specifications alone of the tools it offers ({@link #tools()}), in order. */
    public List<ToolSpecification> specifications() {
        return List.copyOf(all.keySet());
    }

    /**
     * Gives {@code builder} the tools, and makes every way a tool call can go wrong a result for the
     * model: a made-up tool name (answered with {@code unknown_tool}), and, should an executor ever
     * throw, the exception as an {@code internal_error} result. Returns the builder to go on with.
     */
    public <T> AiServices<T> configure(AiServices<T> builder) {
        return configure(builder, all);
    }

    /** Like {@link #configure(AiServices)} with only some of the tools (see {@link #tools(String...)}). */
    public <T> AiServices<T> configure(AiServices<T> builder, Map<ToolSpecification, ToolExecutor> subset) {
        Objects.requireNonNull(builder, "builder");
        Set<String> offered = new java.util.LinkedHashSet<>();
        subset.keySet().forEach(s -> offered.add(s.name()));
        return builder.tools(subset)
                .hallucinatedToolNameStrategy(request -> ToolExecutionResultMessage.builder()
                        .id(request.id()).toolName(request.name())
                        .text(unknownTool(request.name(), offered)).isError(true).build())
                .toolArgumentsErrorHandler((error, context) -> ToolErrorHandlerResult.text(
                        failure("invalid_arguments", String.valueOf(error.getMessage()))))
                .toolExecutionErrorHandler((error, context) -> ToolErrorHandlerResult.text(
                        failure("internal_error", error.getClass().getSimpleName() + ": " + error.getMessage())));
    }

    /** Runs one tool call as the model asked for it; the JSON reply, never an exception. */
    public String execute(ToolExecutionRequest request) {
        Objects.requireNonNull(request, "request");
        return tools.call(request.name(), request.arguments());
    }

    /**
     * A LangChain4j specification of one tool, from its JSON schema.
     *
     * @throws IllegalArgumentException when the schema is not an object schema
     */
    public static ToolSpecification specification(ToolSpec spec) {
        Objects.requireNonNull(spec, "spec");
        return ToolSpecification.builder()
                .name(spec.name())
                .description(spec.description())
                .parameters(objectSchema(spec.inputSchema(), null))
                .build();
    }

    private final class Executor implements ToolExecutor {
        @Override
        public String execute(ToolExecutionRequest request, Object memoryId) {
            return PrologToolbox.this.execute(request);
        }

        @Override
        public ToolExecutionResult executeWithContext(ToolExecutionRequest request, InvocationContext context) {
            String reply = PrologToolbox.this.execute(request);
            return ToolExecutionResult.builder().resultText(reply).isError(!isOk(reply)).build();
        }
    }

    /** Whether a reply reports success (see {@link PrologTools#isFailure}); text that is not JSON does not. */
    private static boolean isOk(String reply) {
        try {
            return !PrologTools.isFailure(MAPPER.readTree(reply));
        } catch (java.io.IOException e) {
            return false;
        }
    }

    private static String unknownTool(String name, Set<String> offered) {
        return failure("unknown_tool", "there is no tool '" + name + "'; the tools are " + offered);
    }

    private static String failure(String kind, String message) {
        ObjectNode r = F.objectNode();
        r.put("ok", false);
        ObjectNode e = r.putObject("error");
        e.put("kind", kind);
        e.put("message", message);
        e.putNull("prolog_term");
        return r.toString();
    }

    // ------------------------------------------------------------------ JSON Schema to LangChain4j

    private static JsonObjectSchema objectSchema(JsonNode schema, String description) {
        if (!schema.isObject() || !"object".equals(schema.path("type").asText())) {
            throw new IllegalArgumentException("not an object schema: " + schema);
        }
        JsonObjectSchema.Builder b = JsonObjectSchema.builder();
        if (description != null) {
            b.description(description);
        }
        Map<String, JsonSchemaElement> props = new LinkedHashMap<>();
        JsonNode properties = schema.path("properties");
        for (Iterator<String> it = properties.fieldNames(); it.hasNext(); ) {
            String name = it.next();
            props.put(name, element(properties.get(name)));
        }
        b.addProperties(props);
        List<String> required = new ArrayList<>();
        schema.path("required").forEach(r -> required.add(r.asText()));
        b.required(required);
        if (schema.has("additionalProperties") && schema.get("additionalProperties").isBoolean()) {
            b.additionalProperties(schema.get("additionalProperties").asBoolean());
        }
        return b.build();
    }

    private static JsonSchemaElement element(JsonNode s) {
        String description = describe(s);
        String type = s.path("type").asText("");
        if (s.has("enum") && s.get("enum").isArray()) {
            List<String> values = new ArrayList<>();
            s.get("enum").forEach(v -> values.add(v.asText()));
            return JsonEnumSchema.builder().enumValues(values).description(description).build();
        }
        return switch (type) {
            case "string" -> JsonStringSchema.builder().description(description).build();
            case "integer" -> JsonIntegerSchema.builder().description(description).build();
            case "number" -> JsonNumberSchema.builder().description(description).build();
            case "boolean" -> JsonBooleanSchema.builder().description(description).build();
            case "array" -> JsonArraySchema.builder().description(description)
                    .items(s.has("items") ? element(s.get("items")) : JsonStringSchema.builder().build()).build();
            case "object" -> objectSchema(s, description);
            default -> JsonRawSchema.from(s.toString());
        };
    }

    private static String describe(JsonNode s) {
        String d = s.path("description").asText("");
        // LangChain4j's JsonIntegerSchema and JsonNumberSchema carry no minimum or maximum: the range goes
        // into the description, so that a model sees it before it errs
        String range = range(s);
        if (!range.isEmpty()) {
            d = (d.isEmpty() ? "" : d + (d.endsWith(".") ? " " : ". ")) + "Range: " + range + ".";
        }
        if (s.has("default") && !s.get("default").isNull()) {
            JsonNode v = s.get("default");
            d = (d.isEmpty() ? "" : d + (d.endsWith(".") ? " " : ". ")) + "Default: "
                    + (v.isTextual() ? v.asText() : v.toString()) + ".";
        }
        return d.isEmpty() ? null : d;
    }

    /** The schema's {@code minimum}, {@code exclusiveMinimum} and {@code maximum} in words; empty when none. */
    static String range(JsonNode s) {
        String lo = s.has("minimum") ? ">= " + s.get("minimum").asText()
                : s.has("exclusiveMinimum") ? "> " + s.get("exclusiveMinimum").asText() : "";
        String hi = s.has("maximum") ? "<= " + s.get("maximum").asText() : "";
        return lo.isEmpty() ? hi : hi.isEmpty() ? lo : lo + " and " + hi;
    }
}

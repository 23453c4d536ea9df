package io.prologtool.springai;

import io.prologtool.tools.PrologTools;
import io.prologtool.tools.ToolSpec;
import org.springframework.ai.chat.model.ToolContext;
import org.springframework.ai.tool.ToolCallback;
import org.springframework.ai.tool.ToolCallbackProvider;
import org.springframework.ai.tool.definition.ToolDefinition;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;

/**
 * The prologtool tools ({@link PrologTools}) for Spring AI agents: a {@link ToolCallbackProvider} with one
 * {@link ToolCallback} per tool, ready for a {@code ChatClient}.
 *
 * <pre>{@code
 * try (PrologTools tools = PrologTools.over(backend)) {
 *     String answer = ChatClient.create(chatModel).prompt()
 *             .user("Load parent(tom, bob). parent(bob, ann). Who is Tom's grandchild?")
 *             .toolCallbacks(PrologToolCallbacks.of(tools))
 *             .call().content();
 * }
 * }</pre>
 *
 * <ul>
 *   <li>Each callback's definition comes from {@link PrologTools#specs()}: its name, description and
 *       JSON Schema are the tool layer's own, the single definition that {@code PrologTools.call} checks
 *       arguments against, so the model sees exactly what is checked (ranges, enums, defaults
 *       included).</li>
 *   <li>Errors go back to the model as data, never as exceptions: every callback returns {@code
 *       PrologTools.call}'s JSON, which is {@code {"ok": false, "error": {"kind", "message",
 *       "prolog_term"}}} for a goal that raises, a closed session, or missing or malformed arguments,
 *       so the model can read what went wrong and repair it.</li>
 * </ul>
 *
 * The tools that write to disk, {@value #SAVE_RULE_BASE} and {@value #DELETE_RULE_BASE} (they change the
 * rule base folder every session reads), are offered only when asked: by {@link #withRuleBaseWrites()},
 * or by naming them in {@link #only(String...)}.
 *
 * <p>Immutable and thread-safe; the sessions live in the {@link PrologTools}' registry, addressed by
 * {@code load_id}. Closing the {@code PrologTools} stays the caller's job.
 */
public final class PrologToolCallbacks implements ToolCallbackProvider {

    /** The tool that saves a rule base to disk. */
    public static final String SAVE_RULE_BASE = "save_rule_base";
    /** The tool that deletes a rule base from disk. */
    public static final String DELETE_RULE_BASE = "delete_rule_base";
    private static final Set<String> DISK_WRITES = Set.of(SAVE_RULE_BASE, DELETE_RULE_BASE);

    private final PrologTools tools;
    private final boolean ruleBaseWrites;
    /** Every tool of {@link #tools}, by name, in {@link PrologTools#specs()} order. */
    private final Map<String, ToolCallback> byName;
    private final ToolCallback[] offered;

    private PrologToolCallbacks(PrologTools tools, boolean ruleBaseWrites, List<String> only) {
        this.tools = tools;
        this.ruleBaseWrites = ruleBaseWrites;
        Map<String, ToolCallback> all = new LinkedHashMap<>();
        for (ToolSpec spec : tools.specs()) {
            all.put(spec.name(), new Callback(spec));
        }
        this.byName = all;
        List<ToolCallback> chosen = new ArrayList<>();
        if (only == null) {
            all.forEach((name, c) -> {
                if (ruleBaseWrites || !DISK_WRITES.contains(name)) {
                    chosen.add(c);
                }
            });
        } else {
            for (String name : only) {
                ToolCallback c = all.get(Objects.requireNonNull(name, "name"));
                if (c == null) {
                    throw new IllegalArgumentException("no tool '" + name + "'; the tools are " + all.keySet());
                }
                chosen.add(c);
            }
        }
        this.offered = chosen.toArray(ToolCallback[]::new);
    }

    /**
     * The tools of {@code tools}, without those that write to disk ({@link #withRuleBaseWrites()} adds
     * them).
     */
    public static PrologToolCallbacks of(PrologTools tools) {
        return new PrologToolCallbacks(Objects.requireNonNull(tools, "tools"), false, null);
    }

    /**
     * These tools with the ones that write to disk as well: {@value #SAVE_RULE_BASE} and
     * {@value #DELETE_RULE_BASE}, which change the rule base folder that every session of the
     * {@link PrologTools} reads.
     */
    public PrologToolCallbacks withRuleBaseWrites() {
        return new PrologToolCallbacks(tools, true, null);
    }

    /**
     * Only the named tools, e.g. {@code only("consult_text", "run_goal", "close_session")}. Naming a tool
     * that writes to disk asks for it.
     *
     * @throws IllegalArgumentException for a name that is not a tool
     */
    public PrologToolCallbacks only(String... names) {
        return new PrologToolCallbacks(tools, ruleBaseWrites, List.of(names));
    }

    /** True when the tools that write to disk are offered ({@link #withRuleBaseWrites()}). */
    public boolean offersRuleBaseWrites() {
        return ruleBaseWrites;
    }

    /** The callbacks offered, in {@link PrologTools#specs()} order (or the order {@link #only} named). */
    @Override
    public ToolCallback[] getToolCallbacks() {
        return offered.clone();
    }

    /** The names of the tools offered, in order. */
    public List<String> names() {
        List<String> names = new ArrayList<>();
        for (ToolCallback c : offered) {
            names.add(c.getToolDefinition().name());
        }
        return names;
    }

    @Override
    public String toString() {
        return "PrologToolCallbacks" + names();
    }

    /** One tool: its definition from the tool layer's spec, its call through {@link PrologTools#call}. */
    private final class Callback implements ToolCallback {
        private final ToolDefinition definition;

        Callback(ToolSpec spec) {
            this.definition = ToolDefinition.builder().name(spec.name()).description(spec.description())
                    .inputSchema(spec.inputSchemaJson()).build();
        }

        @Override
        public ToolDefinition getToolDefinition() {
            return definition;
        }

        /** The tool's JSON reply; a failure is a reply too ({@code "ok": false}), never an exception. */
        @Override
        public String call(String toolInput) {
            return tools.call(definition.name(), toolInput);
        }

        /** As {@link #call(String)}: the tools need nothing from the context, and accept any. */
        @Override
        public String call(String toolInput, ToolContext toolContext) {
            return call(toolInput);
        }

        @Override
        public String toString() {
            return "ToolCallback[" + definition.name() + "]";
        }
    }
}

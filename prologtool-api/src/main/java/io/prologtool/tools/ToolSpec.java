package io.prologtool.tools;

import com.fasterxml.jackson.databind.node.ObjectNode;

import java.util.Objects;

/**
 * One tool an agent can call: its name, what it does, and the JSON Schema of its arguments. This is
 * what an agent framework needs to declare the tool (MCP, LangChain4j, an OpenAI function).
 *
 * @param name        the tool name, e.g. {@code run_goal}
 * @param description one or two sentences for the model
 * @param inputSchema a JSON Schema object ({@code "type": "object"}, {@code properties}, {@code required})
 */
public record ToolSpec(String name, String description, ObjectNode inputSchema) {

    public ToolSpec {
        Objects.requireNonNull(name, "name");
        Objects.requireNonNull(description, "description");
        inputSchema = Objects.requireNonNull(inputSchema, "inputSchema").deepCopy();
    }

    /** A copy of the schema (the record keeps its own). */
    @Override
    public ObjectNode inputSchema() {
        return inputSchema.deepCopy();
    }

    /** The schema as JSON text. */
    public String inputSchemaJson() {
        return inputSchema.toString();
    }
}

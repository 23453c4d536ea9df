package io.prologtool.tools;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;

import java.util.List;

/**
 * One argument of a tool: the single definition from which both its JSON Schema and the check of a
 * call's arguments come, so the two cannot drift apart.
 */
record Param(String name, Type type, boolean required, JsonNode defaultValue, List<String> allowed,
             String description) {

    enum Type {
        STRING("string"), INTEGER("integer"), NUMBER("number"), BOOLEAN("boolean"),
        /** A JSON array of strings. */
        STRING_ARRAY("array");

        final String schemaName;

        Type(String schemaName) {
            this.schemaName = schemaName;
        }
    }

    private static final JsonNodeFactory F = JsonNodeFactory.instance;

    static Param required(String name, Type type, String description) {
        return new Param(name, type, true, null, List.of(), description);
    }

    static Param optional(String name, Type type, String description) {
        return new Param(name, type, false, null, List.of(), description);
    }

    static Param withDefault(String name, Type type, JsonNode defaultValue, String description) {
        return new Param(name, type, false, defaultValue, List.of(), description);
    }

    Param oneOf(String... values) {
        return new Param(name, type, required, defaultValue, List.of(values), description);
    }

    ObjectNode schema() {
        ObjectNode s = F.objectNode();
        s.put("type", type.schemaName);
        if (type == Type.STRING_ARRAY) {
            s.putObject("items").put("type", "string");
        }
        if (!allowed.isEmpty()) {
            ArrayNode e = s.putArray("enum");
            allowed.forEach(e::add);
        }
        if (defaultValue != null) {
            s.set("default", defaultValue);
        }
        s.put("description", description);
        return s;
    }

    /** The argument's value from {@code args}, its default when absent, or null when optional and absent. */
    JsonNode read(JsonNode args) {
        JsonNode v = args.get(name);
        if (v == null || v.isNull()) {
            if (required) {
                throw new ToolFailure("invalid_arguments", "missing required argument '" + name + "' ("
                        + type.schemaName + ")");
            }
            return defaultValue;
        }
        boolean ok = switch (type) {
            case STRING -> v.isTextual();
            case INTEGER -> v.isIntegralNumber() && v.canConvertToLong();
            case NUMBER -> v.isNumber();
            case BOOLEAN -> v.isBoolean();
            case STRING_ARRAY -> v.isArray() && java.util.stream.StreamSupport.stream(v.spliterator(), false)
                    .allMatch(JsonNode::isTextual);
        };
        if (!ok) {
            throw new ToolFailure("invalid_arguments", "argument '" + name + "' must be a JSON "
                    + (type == Type.STRING_ARRAY ? "array of strings" : type.schemaName) + ", got " + describe(v));
        }
        if (!allowed.isEmpty() && !allowed.contains(v.asText())) {
            throw new ToolFailure("invalid_arguments", "argument '" + name + "' must be one of " + allowed
                    + ", got " + v);
        }
        return v;
    }

    private static String describe(JsonNode v) {
        String text = v.toString();
        if (text.length() > 60) {
            text = text.substring(0, 57) + "...";
        }
        return v.getNodeType().name().toLowerCase(java.util.Locale.ROOT) + " " + text;
    }
}

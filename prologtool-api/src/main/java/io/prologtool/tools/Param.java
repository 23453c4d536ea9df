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
             Number minimum, Number exclusiveMinimum, Number maximum, String description) {

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
        return new Param(name, type, true, null, List.of(), null, null, null, description);
    }

    static Param optional(String name, Type type, String description) {
        return new Param(name, type, false, null, List.of(), null, null, null, description);
    }

    static Param withDefault(String name, Type type, JsonNode defaultValue, String description) {
        return new Param(name, type, false, defaultValue, List.of(), null, null, null, description);
    }

    Param oneOf(String... values) {
        return new Param(name, type, required, defaultValue, List.of(values), null, null, null, description);
    }

    /** At least {@code min} and at most {@code max} (JSON Schema {@code minimum}, {@code maximum}). */
    Param range(long min, long max) {
        return new Param(name, type, required, defaultValue, allowed, min, null, max, description);
    }

    /** At least {@code min}, no upper bound. */
    Param atLeast(long min) {
        return new Param(name, type, required, defaultValue, allowed, min, null, null, description);
    }

    /** More than {@code min} and at most {@code max} (JSON Schema {@code exclusiveMinimum}, {@code maximum}). */
    Param above(double min, double max) {
        return new Param(name, type, required, defaultValue, allowed, null, min, max, description);
    }

    /** The range in words, e.g. {@code 1 to 100000}, {@code more than 0 and at most 86400}; empty when none. */
    String rangeText() {
        String lo = minimum != null ? "at least " + number(minimum)
                : exclusiveMinimum != null ? "more than " + number(exclusiveMinimum) : "";
        String hi = maximum != null ? "at most " + number(maximum) : "";
        if (minimum != null && maximum != null) {
            return number(minimum) + " to " + number(maximum);
        }
        return lo.isEmpty() ? hi : hi.isEmpty() ? lo : lo + " and " + hi;
    }

    private static String number(Number n) {
        double d = n.doubleValue();
        return d == Math.rint(d) ? Long.toString((long) d) : Double.toString(d);
    }

    private static void put(ObjectNode s, String key, Number n) {
        if (n instanceof Long l) {
            s.put(key, l);
        } else if (n != null) {
            double d = n.doubleValue();
            if (d == Math.rint(d)) {
                s.put(key, (long) d);
            } else {
                s.put(key, d);
            }
        }
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
        put(s, "minimum", minimum);
        put(s, "exclusiveMinimum", exclusiveMinimum);
        put(s, "maximum", maximum);
        if (defaultValue != null) {
            s.set("default", defaultValue);
        }
        s.put("description", description);
        return s;
    }

    /**
     * The argument's value from {@code args}, its default when absent or JSON {@code null} (as OpenAI's
     * strict mode sends for an optional argument), or null when optional without a default and absent.
     * A value of the wrong type, outside the enum or outside the range is a failure that names the
     * argument as the tool's schema does.
     */
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
        if (v.isNumber()) {
            double d = v.asDouble();
            boolean inRange = (minimum == null || d >= minimum.doubleValue())
                    && (exclusiveMinimum == null || d > exclusiveMinimum.doubleValue())
                    && (maximum == null || d <= maximum.doubleValue());
            if (!inRange) {
                throw new ToolFailure("invalid_arguments", name + " must be " + rangeText() + ", got " + v);
            }
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

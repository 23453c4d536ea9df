package io.prologtool.store;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.prologtool.PrologToolException;
import io.prologtool.SessionCheckpoint;
import io.prologtool.SessionOptions;
import io.prologtool.json.TermJson;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Consumer;

/**
 * A checkpoint as the stores keep it: one JSON object, UTF-8, with a format number. Every option is
 * written except the rule base store (an object of the application's); a checkpoint read back has the
 * default one. A format newer than this code reads is refused with an error that says so.
 */
final class CheckpointJson {

    /** The format this code writes; it reads this one and older ones. */
    static final int FORMAT = 1;

    private CheckpointJson() {
    }

    static byte[] write(SessionCheckpoint c) {
        ObjectNode root = TermJson.mapper().createObjectNode();
        root.put("format", FORMAT);
        root.put("session_id", c.sessionId());
        root.put("taken_at", c.takenAt().toString());
        root.set("options", options(c.options()));
        root.put("program", c.program());
        ArrayNode tests = root.putArray("tests");
        c.tests().forEach(tests::add);
        try {
            // lone surrogates (a program may hold one) written as escapes, which read back as they were
            return TermJson.escapeLoneSurrogates(TermJson.mapper().writeValueAsString(root))
                    .getBytes(StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new PrologToolException("cannot encode the checkpoint of session " + c.sessionId() + ": "
                    + e.getMessage(), e);
        }
    }

    /** The checkpoint in {@code bytes}; {@code where} names them in errors (a file, a row). */
    static SessionCheckpoint read(byte[] bytes, String where) {
        JsonNode root;
        try {
            root = TermJson.mapper().readTree(bytes);
        } catch (IOException e) {
            throw new PrologToolException("the checkpoint in " + where + " is not JSON (" + e.getMessage()
                    + "); it was not written by a prologtool session store, or was changed since", e);
        }
        int format = root == null ? 0 : root.path("format").asInt(0);
        if (format > FORMAT) {
            throw new PrologToolException("the checkpoint in " + where + " has format " + format
                    + ", written by a newer prologtool; this one reads format " + FORMAT + " and older");
        }
        if (format < 1 || !root.path("session_id").isTextual() || !root.path("program").isTextual()) {
            throw new PrologToolException("the checkpoint in " + where + " lacks its format, session_id or "
                    + "program; it was not written by a prologtool session store, or was changed since");
        }
        List<String> tests = new ArrayList<>();
        root.path("tests").forEach(t -> tests.add(t.asText()));
        Instant takenAt;
        try {
            takenAt = Instant.parse(root.path("taken_at").asText());
        } catch (DateTimeParseException e) {
            throw new PrologToolException("the checkpoint in " + where + " has no valid taken_at", e);
        }
        SessionOptions options;
        try {
            options = options(root.path("options"));
        } catch (DateTimeParseException | IllegalArgumentException e) {
            throw new PrologToolException("the checkpoint in " + where + " has options this version refuses: "
                    + e.getMessage(), e);
        }
        return new SessionCheckpoint(root.path("session_id").asText(), options, root.path("program").asText(),
                tests, takenAt);
    }

    private static ObjectNode options(SessionOptions o) {
        ObjectNode n = TermJson.mapper().createObjectNode();
        n.put("stack_limit_bytes", o.stackLimitBytes());
        n.put("max_output_chars", o.maxOutputChars());
        n.put("consult_time_limit", o.consultTimeLimit().toString());
        o.testTimeLimit().ifPresent(d -> n.put("test_time_limit", d.toString()));
        n.put("sandboxed", o.sandboxed());
        n.put("max_source_chars", o.maxSourceChars());
        n.put("clause_space_bytes", o.clauseSpaceBytes());
        n.put("max_atom_chars", o.maxAtomChars());
        n.put("table_space_bytes", o.tableSpaceBytes());
        n.put("max_open_streams", o.maxOpenStreams());
        n.put("allow_threads", o.allowThreads());
        n.put("max_open_queries", o.maxOpenQueries());
        n.put("static_check", o.staticCheck());
        n.put("declare_discontiguous", o.declareDiscontiguous());
        return n;
    }

    /** The options in {@code n}; an option it does not name keeps its default. */
    private static SessionOptions options(JsonNode n) {
        SessionOptions.Builder b = SessionOptions.builder();
        ifPresent(n, "stack_limit_bytes", v -> b.stackLimitBytes(v.asLong()));
        ifPresent(n, "max_output_chars", v -> b.maxOutputChars(v.asInt()));
        ifPresent(n, "consult_time_limit", v -> b.consultTimeLimit(Duration.parse(v.asText())));
        ifPresent(n, "test_time_limit", v -> b.testTimeLimit(Duration.parse(v.asText())));
        ifPresent(n, "sandboxed", v -> b.sandboxed(v.asBoolean()));
        ifPresent(n, "max_source_chars", v -> b.maxSourceChars(v.asInt()));
        ifPresent(n, "clause_space_bytes", v -> b.clauseSpaceBytes(v.asLong()));
        ifPresent(n, "max_atom_chars", v -> b.maxAtomChars(v.asInt()));
        ifPresent(n, "table_space_bytes", v -> b.tableSpaceBytes(v.asLong()));
        ifPresent(n, "max_open_streams", v -> b.maxOpenStreams(v.asInt()));
        ifPresent(n, "allow_threads", v -> b.allowThreads(v.asBoolean()));
        ifPresent(n, "max_open_queries", v -> b.maxOpenQueries(v.asInt()));
        ifPresent(n, "static_check", v -> b.staticCheck(v.asBoolean()));
        ifPresent(n, "declare_discontiguous", v -> b.declareDiscontiguous(v.asBoolean()));
        return b.build();
    }

    private static void ifPresent(JsonNode n, String key, Consumer<JsonNode> set) {
        JsonNode v = n.get(key);
        if (v != null && !v.isNull()) {
            set.accept(v);
        }
    }
}

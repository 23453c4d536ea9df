package io.prologtool.process;

import com.fasterxml.jackson.databind.JsonNode;
import io.prologtool.json.TermJson;
import io.prologtool.spi.Executables;
import io.prologtool.spi.Harness;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.OutputStreamWriter;
import java.io.Writer;
import java.math.BigInteger;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The harness's line protocol spoken raw, one line in and one line out, without a backend in between:
 * the request reader (compact JSON read by Prolog's term reader, everything else by the JSON reader)
 * must read every request as JSON means it and refuse everything JSON refuses, and the reply writer
 * must write JSON that says what the harness meant.
 */
class HarnessProtocolTest {

    @TempDir
    static Path dir;
    /** The child most tests share; tests that need a fresh Prolog start their own. */
    private static Child shared;

    @BeforeAll
    static void start() throws IOException {
        shared = new Child();
    }

    @AfterAll
    static void stop() throws InterruptedException {
        shared.close();
    }

    /** A {@code swipl} serving the harness protocol on its standard input and output. */
    private static final class Child implements AutoCloseable {
        private final Process process;
        private final Writer in;
        private final BufferedReader out;

        Child() throws IOException {
            Path harness = Harness.extractTo(dir);
            String swipl = Executables.findOnPath("swipl").orElseThrow(() -> new IllegalStateException(
                    "swipl is not on the PATH: apt-get install swi-prolog-nox")).toString();
            process = new ProcessBuilder(swipl, "-q", "--no-packs", "--no-tty", "-f", "none", "-g", Harness.SERVE_GOAL,
                    "-t", "halt(1)", harness.toString()).redirectError(ProcessBuilder.Redirect.DISCARD).start();
            in = new OutputStreamWriter(process.getOutputStream(), StandardCharsets.UTF_8);
            out = new BufferedReader(new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8));
        }

        /** Sends one line and returns the reply (the harness writes an empty line before each reply). */
        JsonNode send(String line) throws IOException {
            in.write(line);
            in.write('\n');
            in.flush();
            return nextReply(line);
        }

        /** The next reply line, without sending anything. */
        JsonNode nextReply(String after) throws IOException {
            String reply;
            do {
                reply = out.readLine();
                assertThat(reply).as("a reply after " + after).isNotNull();
            } while (reply.isEmpty());
            return TermJson.mapper().readTree(reply);
        }

        @Override
        public void close() throws InterruptedException {
            process.destroyForcibly();
            process.waitFor(5, TimeUnit.SECONDS);
        }
    }

    private static JsonNode send(String line) throws IOException {
        return shared.send(line);
    }

    @ParameterizedTest
    @ValueSource(strings = {
            "{\"id\":7,\"op\":\"ping\"}",
            "{ \"id\" : 7 , \"op\" : \"ping\" }",
            "{\"op\":\"ping\",\"id\":7,\"extra\":{\"a\":[1,-2.5,1.0E-4,true,false,null,{}],\"b\":\"x\\/y\"}}",
            "{\"id\":7,\"op\":\"p\\u0069ng\"}",
            "{\"id\":7,\"op\":\"ping\",\"x\":\"\\uD83D\\uDE00 \\\"q\\\" \\\\ \\n\"}",
            "{\"id\":7,\"op\":\"ping\",\"x\":-1}",
            "{\"id\":7,\"op\":\"ping\",\"x\":\"é😀\"}",
    })
    void everyWayOfWritingTheSameRequestIsReadTheSame(String line) throws IOException {
        JsonNode reply = send(line);
        assertThat(reply.path("id").asLong()).isEqualTo(7);
        assertThat(reply.path("ok").asBoolean()).as(reply.toString()).isTrue();
        assertThat(reply.path("pong").asBoolean()).isTrue();
    }

    @Test
    void aNegativeIdIsReadAsNegative() throws IOException {
        // "id":-5 is ":-" to Prolog's tokenizer: this one goes the JSON reader's way
        assertThat(send("{\"id\":-5,\"op\":\"ping\"}").path("id").asLong()).isEqualTo(-5);
    }

    @ParameterizedTest
    @ValueSource(strings = {
            "{\"id\":8,\"op\":ping}",                 // Prolog text, not JSON
            "{\"id\":8,\"op\":\"ping\",\"x\":X}",     // a variable
            "{\"id\":8,\"op\":\"ping\",\"x\":f(1)}",  // a compound
            "{'id':8,'op':'ping'}",
            "[8, \"ping\"]",
            "not json at all",
    })
    void textThatIsNotAJsonObjectIsABadRequestAndTheHarnessGoesOn(String line) throws IOException {
        JsonNode reply = send(line);
        assertThat(reply.path("ok").asBoolean(true)).as(reply.toString()).isFalse();
        assertThat(reply.path("error").path("message").asText()).as(reply.toString()).isNotBlank();
        assertThat(send("{\"id\":9,\"op\":\"ping\"}").path("pong").asBoolean()).isTrue();
    }

    @Test
    void repliesCarryTextAndNumbersExactly() throws IOException {
        assertThat(send("{\"id\":1,\"op\":\"open\",\"session\":\"p1\"}").path("ok").asBoolean()).isTrue();
        var req = TermJson.mapper().createObjectNode().put("id", 2).put("op", "goal").put("session", "p1")
                .put("goal", "X = \"tab\\there \\\"quoted\\\" back\\\\slash é 😀 \\x01\\\", "
                        + "Y is 2**70, Z = -0.5, W = 'it''s'");
        JsonNode r = send(TermJson.mapper().writeValueAsString(req));
        assertThat(r.path("outcome").asText()).as(r.toString()).isEqualTo("success");
        JsonNode a = r.path("answers").get(0);
        assertThat(a.path("X").path("value").asText()).isEqualTo("tab\there \"quoted\" back\\slash é 😀 \u0001");
        assertThat(a.path("Y").path("value").bigIntegerValue()).isEqualTo(BigInteger.TWO.pow(70));
        assertThat(a.path("Z").path("value").asDouble()).isEqualTo(-0.5);
        assertThat(a.path("W").path("value").asText()).isEqualTo("it's");
        assertThat(r.path("count").asInt()).isEqualTo(1);
        assertThat(r.path("truncated").isBoolean()).isTrue();
    }

    @Test
    void anUnknownOrEndedCursorIsKindCursorClosed() throws IOException {
        assertThat(send("{\"id\":1,\"op\":\"open\",\"session\":\"p2\"}").path("ok").asBoolean()).isTrue();
        JsonNode unknown = send("{\"id\":2,\"op\":\"query_next\",\"session\":\"p2\",\"cursor\":\"nope\"}");
        assertThat(unknown.path("error").path("kind").asText()).as(unknown.toString()).isEqualTo("cursor_closed");
        assertThat(send("{\"id\":3,\"op\":\"query_open\",\"session\":\"p2\",\"cursor\":\"k\","
                + "\"goal\":\"member(X, [a])\"}").path("cursor").asText()).isEqualTo("k");
        JsonNode all = send("{\"id\":4,\"op\":\"query_next\",\"session\":\"p2\",\"cursor\":\"k\",\"max_answers\":5}");
        assertThat(all.path("count").asInt()).as(all.toString()).isEqualTo(1);
        assertThat(all.path("truncated").asBoolean()).isFalse();
        JsonNode ended = send("{\"id\":5,\"op\":\"query_next\",\"session\":\"p2\",\"cursor\":\"k\"}");
        assertThat(ended.path("error").path("kind").asText()).as(ended.toString()).isEqualTo("cursor_closed");
    }

    /**
     * A request carrying {@code recycle_after} (the process backend sends it with the close of a session
     * whose child may serve again) is answered, and then the child runs the recycle check without being
     * asked again and writes its reply, with the id the request named: clean after a session that left
     * nothing behind, not clean after one that changed {@code user}. Other requests get one reply.
     */
    @Test
    void recycleAfterRunsTheCheckRightAfterTheReply() throws IOException, InterruptedException {
        try (Child own = new Child()) {
            assertThat(own.send("{\"id\":1,\"op\":\"open\",\"session\":\"c1\"}").path("ok").asBoolean()).isTrue();
            assertThat(own.send("{\"id\":2,\"op\":\"goal\",\"session\":\"c1\",\"goal\":\"nb_setval(k, 1)\"}")
                    .path("outcome").asText()).isEqualTo("success");
            String close = "{\"id\":3,\"op\":\"close\",\"session\":\"c1\",\"recycle_after\":41}";
            JsonNode closed = own.send(close);
            assertThat(closed.path("id").asLong()).as(closed.toString()).isEqualTo(3);
            assertThat(closed.path("ok").asBoolean()).as(closed.toString()).isTrue();
            JsonNode check = own.nextReply(close);
            assertThat(check.path("id").asLong()).as(check.toString()).isEqualTo(41);
            assertThat(check.path("clean").asBoolean()).as(check.toString()).isTrue();
            assertThat(check.path("differences")).as(check.toString()).isEmpty();

            assertThat(own.send("{\"id\":4,\"op\":\"open\",\"session\":\"c2\"}").path("ok").asBoolean()).isTrue();
            assertThat(own.send("{\"id\":5,\"op\":\"goal\",\"session\":\"c2\","
                    + "\"goal\":\"atom_concat(us, er, M), M:assertz(pt_litter(1))\"}").path("outcome").asText())
                    .isEqualTo("success");
            close = "{\"id\":6,\"op\":\"close\",\"session\":\"c2\",\"recycle_after\":42}";
            assertThat(own.send(close).path("id").asLong()).isEqualTo(6);
            check = own.nextReply(close);
            assertThat(check.path("id").asLong()).as(check.toString()).isEqualTo(42);
            assertThat(check.path("clean").asBoolean(true)).as(check.toString()).isFalse();
            assertThat(check.path("differences").toString()).as(check.toString()).contains("pt_litter");

            // no second line without recycle_after: the reply to the next request is the next line
            assertThat(own.send("{\"id\":7,\"op\":\"ping\"}").path("id").asLong()).isEqualTo(7);
            assertThat(own.send("{\"id\":8,\"op\":\"ping\"}").path("id").asLong()).isEqualTo(8);
        }
    }

    /**
     * What a session leaves in the process is a difference the recycle check names: an operator of
     * {@code system} or of {@code user}, a foreign library, each reached the way trusted code can.
     */
    @ParameterizedTest
    @ValueSource(strings = {
            "atom_concat(sys, tem, S), S:op(700, xfx, pt_sys_op)|operators",
            "atom_concat(us, er, U), U:op(700, xfx, pt_user_op)|operators",
            "atom_concat(sys, tem, S), S:op(0, xfx, is)|operators",
            "load_foreign_library(foreign(md54pl))|foreign",
    })
    void theRecycleCheckNamesWhatASessionLeftInTheProcess(String litterAndPart) throws IOException, InterruptedException {
        String litter = litterAndPart.substring(0, litterAndPart.indexOf('|'));
        String part = litterAndPart.substring(litterAndPart.indexOf('|') + 1);
        try (Child own = new Child()) {
            assertThat(own.send("{\"id\":1,\"op\":\"open\",\"session\":\"l1\"}").path("ok").asBoolean()).isTrue();
            var goal = TermJson.mapper().createObjectNode().put("id", 2).put("op", "goal").put("session", "l1")
                    .put("goal", litter);
            JsonNode ran = own.send(TermJson.mapper().writeValueAsString(goal));
            assertThat(ran.path("outcome").asText()).as(ran.toString()).isEqualTo("success");
            String close = "{\"id\":3,\"op\":\"close\",\"session\":\"l1\",\"recycle_after\":43}";
            assertThat(own.send(close).path("ok").asBoolean()).isTrue();
            JsonNode check = own.nextReply(close);
            assertThat(check.path("clean").asBoolean(true)).as(check.toString()).isFalse();
            assertThat(check.path("differences").toString()).as(check.toString()).contains(part + ":");
        }
    }

    /**
     * Memory a session made the child take stays with the child: the recycle check first gives back what
     * it can (stacks a goal grew are trimmed: clean), and a child still holding far more than before its
     * first request (a million clauses asserted and retracted leave the heap fragmented) is not clean.
     */
    @Test
    void theRecycleCheckNamesMemoryTheChildKeptAndGivesBackStacks() throws IOException, InterruptedException {
        try (Child own = new Child()) {
            assertThat(own.send("{\"id\":1,\"op\":\"open\",\"session\":\"m1\"}").path("ok").asBoolean()).isTrue();
            JsonNode grew = own.send("{\"id\":2,\"op\":\"goal\",\"session\":\"m1\",\"max_depth\":100000000,"
                    + "\"goal\":\"numlist(1, 3000000, _L), msort(_L, _S), length(_S, N)\"}");
            assertThat(grew.path("outcome").asText()).as(grew.toString()).isEqualTo("success");
            String close = "{\"id\":3,\"op\":\"close\",\"session\":\"m1\",\"recycle_after\":44}";
            assertThat(own.send(close).path("ok").asBoolean()).isTrue();
            JsonNode check = own.nextReply(close);
            assertThat(check.path("clean").asBoolean()).as(check.toString()).isTrue();

            assertThat(own.send("{\"id\":4,\"op\":\"open\",\"session\":\"m2\"}").path("ok").asBoolean()).isTrue();
            JsonNode kept = own.send("{\"id\":5,\"op\":\"goal\",\"session\":\"m2\",\"time_limit\":60,"
                    + "\"goal\":\"forall(between(1, 1000000, I), assertz(f(I, abc))), retractall(f(_, _))\"}");
            assertThat(kept.path("outcome").asText()).as(kept.toString()).isEqualTo("success");
            close = "{\"id\":6,\"op\":\"close\",\"session\":\"m2\",\"recycle_after\":45}";
            assertThat(own.send(close).path("ok").asBoolean()).isTrue();
            check = own.nextReply(close);
            assertThat(check.path("clean").asBoolean(true)).as(check.toString()).isFalse();
            assertThat(check.path("differences").toString()).as(check.toString()).contains("memory:")
                    .contains("before the first request");
        }
    }
}

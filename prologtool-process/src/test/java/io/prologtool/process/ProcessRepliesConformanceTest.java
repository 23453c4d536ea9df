package io.prologtool.process;

import com.fasterxml.jackson.databind.JsonNode;
import io.prologtool.ConsultResult;
import io.prologtool.ExecutionResult;
import io.prologtool.GoalResult;
import io.prologtool.Outcome;
import io.prologtool.PrologBackend;
import io.prologtool.PrologExecutor;
import io.prologtool.PrologSession;
import io.prologtool.SessionOptions;
import io.prologtool.conformance.RepliesConformanceTest;
import io.prologtool.json.TermJson;
import io.prologtool.tools.PrologTools;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

class ProcessRepliesConformanceTest extends RepliesConformanceTest {
    @Override
    protected PrologBackend createBackend() {
        return ProcessBackend.builder().build();
    }

    /** The harness knows the backend's maxReplyBytes: a longer reply is reply_too_large, the child kept. */
    @Test
    void aReplyOverMaxReplyBytesIsReplyTooLargeAndTheChildIsKept() {
        try (PrologBackend small = ProcessBackend.builder().maxReplyBytes(64 << 10).build();
             PrologSession s = withFact(small.open())) {
            GoalResult r = s.goal("length(L, 100000), maplist(=(0'a), L), atom_codes(A, L)").run();
            assertThat(r.outcome()).as(r.error().toString()).isEqualTo(Outcome.ERROR);
            assertThat(r.error().orElseThrow().kind()).isEqualTo("reply_too_large");
            assertThat(r.error().orElseThrow().message()).contains("65,536");
            GoalResult out = s.goal("forall(between(1, 20000, _), write(abcde))").run();
            assertThat(out.error().map(e -> e.kind())).as(out.error().toString()).contains("reply_too_large");
            assertFactKept(s);
            GoalResult fits = s.goal("length(_L, 10000), maplist(=(0'a), _L), atom_codes(A, _L)").run();
            assertThat(fits.outcome()).isEqualTo(Outcome.SUCCESS);
        }
    }

    /** A consult whose reply would be too long (its output) is loaded all the same and says so. */
    @Test
    void aConsultWhoseReplyIsTooLargeIsLoadedAndSaysSo() {
        try (PrologBackend small = ProcessBackend.builder().maxReplyBytes(64 << 10).build();
             PrologSession s = small.open(SessionOptions.builder().maxOutputChars(1 << 20).build())) {
            ConsultResult c = s.consult("p(1).\n:- forall(between(1, 20000, _), write(abcde)).\np(2).\n");
            assertThat(c.errors()).extracting(d -> d.kind()).containsExactly("reply_too_large");
            GoalResult r = s.goal("findall(X, p(X), L)").run();
            assertThat(r.answers().get(0).get("L").toString()).isEqualTo("[1,2]");
            assertThat(s.crashCount()).isZero();
        }
    }

    /** A stateless execution whose result is too large says reply_too_large, through the API and execute_prolog. */
    @Test
    void anExecutionWhoseReplyIsTooLargeSaysSo() throws Exception {
        try (PrologBackend small = ProcessBackend.builder().maxReplyBytes(64 << 10).build();
             PrologExecutor executor = PrologExecutor.over(small);
             PrologTools tools = PrologTools.over(small)) {
            ExecutionResult r = executor.execute("p.", "length(L, 100000), maplist(=(0'a), L), atom_codes(A, L)").run();
            assertThat(r.success()).isFalse();
            assertThat(r.metadata().get("error_category")).isEqualTo("reply_too_large");
            JsonNode x = TermJson.mapper().readTree(tools.call("execute_prolog", TermJson.mapper().writeValueAsString(
                    java.util.Map.of("prolog_code", "p.", "query", "length(L, 100000), maplist(=(0'a), L), atom_codes(A, L)"))));
            assertThat(x.toString()).contains("reply_too_large").doesNotContain("internal_error");
            assertThat(executor.execute("p.", "p").run().success()).isTrue();
        }
    }
}

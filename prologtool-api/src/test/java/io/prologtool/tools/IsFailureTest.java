package io.prologtool.tools;

import com.fasterxml.jackson.databind.JsonNode;
import io.prologtool.json.TermJson;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/** {@link PrologTools#isFailure}: which replies a protocol flags as failed tool calls. */
class IsFailureTest {

    private static JsonNode json(String text) throws Exception {
        return TermJson.mapper().readTree(text);
    }

    @Test
    void okFalseAndSuccessFalseAreFailures() throws Exception {
        assertThat(PrologTools.isFailure(json("{\"ok\": false, \"error\": {\"kind\": \"timeout\"}}"))).isTrue();
        assertThat(PrologTools.isFailure(json("{\"success\": false, \"error\": \"x\", \"error_code\": \"RULEBASE_001\"}")))
                .isTrue();
    }

    @Test
    void okTrueSuccessTrueAndNeitherAreNot() throws Exception {
        assertThat(PrologTools.isFailure(json("{\"ok\": true, \"outcome\": \"failure\"}"))).isFalse();
        assertThat(PrologTools.isFailure(json("{\"success\": true, \"output\": \"X = 1\"}"))).isFalse();
        assertThat(PrologTools.isFailure(json("{\"rule_bases\": []}"))).as("list_rule_bases").isFalse();
    }

    @Test
    void okWinsOverSuccessAndANonBooleanOrNonObjectIsAFailure() throws Exception {
        assertThat(PrologTools.isFailure(json("{\"ok\": false, \"success\": true}"))).isTrue();
        assertThat(PrologTools.isFailure(json("{\"ok\": \"yes\"}"))).isTrue();
        assertThat(PrologTools.isFailure(json("[]"))).isTrue();
        assertThat(PrologTools.isFailure(null)).isTrue();
    }
}

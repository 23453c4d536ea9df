package io.prologtool.conformance;

import com.fasterxml.jackson.databind.JsonNode;
import io.prologtool.Answer;
import io.prologtool.GoalResult;
import io.prologtool.Outcome;
import io.prologtool.Term;
import io.prologtool.json.TermJson;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * The 30 prolog-reasoner problems ({@code data/prolog-reasoner/problems.json}) and a check of a
 * goal's result against each one's expected answer.
 */
public final class Problems {

    /** One problem: its code, its query and what the answer must be. */
    public record Problem(String id, String code, String query, String answerType, JsonNode expected) {
    }

    private Problems() {
    }

    /** All problems in file order. */
    public static List<Problem> all() {
        try {
            JsonNode root = TermJson.mapper().readTree(TestData.text("prolog-reasoner/problems.json"));
            List<Problem> out = new ArrayList<>();
            for (JsonNode p : root.get("problems")) {
                out.add(new Problem(p.get("id").asText(), p.get("prolog_code").asText(), p.get("query").asText(),
                        p.get("answer_type").asText(), p.get("expected_answer")));
            }
            return out;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /**
     * Whether {@code r} (the query run with enough answers to count them) gives the expected answer:
     * boolean by success; value, number and count by a binding of the first answer (count also by the
     * number of answers); set by the values of all answers; assignment by the bindings.
     */
    public static boolean answers(Problem p, GoalResult r) {
        JsonNode exp = p.expected();
        switch (p.answerType()) {
            case "boolean":
                return (r.outcome() == Outcome.SUCCESS) == exp.asBoolean();
            case "value":
                return r.outcome() == Outcome.SUCCESS && firstHas(r, Term.atom(exp.asText()));
            case "number":
                return r.outcome() == Outcome.SUCCESS && (firstHas(r, Term.integer(exp.asLong()))
                        || cryptarithmSum(r, exp.asLong()));
            case "count":
                return r.outcome() == Outcome.SUCCESS && (firstHas(r, Term.integer(exp.asLong()))
                        || (!r.truncated() && r.answers().size() == exp.asInt()));
            case "set": {
                Set<Term> want = new HashSet<>();
                exp.forEach(v -> want.add(Term.atom(v.asText())));
                Set<Term> got = new HashSet<>();
                for (Answer a : r.answers()) {
                    got.addAll(a.asMap().values());
                }
                return got.equals(want);
            }
            case "assignment": {
                if (r.outcome() != Outcome.SUCCESS) {
                    return false;
                }
                Answer a = r.answers().get(0);
                for (var it = exp.fields(); it.hasNext(); ) {
                    var e = it.next();
                    if (!a.get(e.getKey()).equals(Term.atom(e.getValue().asText()))) {
                        return false;
                    }
                }
                return true;
            }
            default:
                throw new IllegalArgumentException("unknown answer type " + p.answerType());
        }
    }

    /**
     * Like {@link #answers(Problem, GoalResult)} for a {@link io.prologtool.PrologExecutor} run: a
     * successful run with solutions reads as SUCCESS, one without as FAILURE, a failed run as ERROR.
     */
    public static boolean answers(Problem p, io.prologtool.ExecutionResult r) {
        Outcome outcome = !r.success() ? Outcome.ERROR : r.answers().isEmpty() ? Outcome.FAILURE : Outcome.SUCCESS;
        java.util.Optional<io.prologtool.PrologError> error = r.success() ? java.util.Optional.empty()
                : java.util.Optional.of(io.prologtool.PrologError.of(r.errorCategory().orElse("unknown"),
                        r.error().orElse("")));
        return answers(p, new GoalResult(outcome, r.answers(), r.output(), false, r.truncated(), error));
    }

    private static boolean firstHas(GoalResult r, Term t) {
        return !r.answers().isEmpty() && r.answers().get(0).asMap().containsValue(t);
    }

    /**
     * SEND + MORE = MONEY (constraint_02) expects the number MONEY, which the query binds only as its
     * digits: read MONEY off the bindings M, O, N, E and Y.
     */
    private static boolean cryptarithmSum(GoalResult r, long expected) {
        if (r.answers().isEmpty()) {
            return false;
        }
        var a = r.answers().get(0).asMap();
        long money = 0;
        for (String digit : List.of("M", "O", "N", "E", "Y")) {
            if (!(a.get(digit) instanceof Term.Int d)) {
                return false;
            }
            money = money * 10 + d.value().longValue();
        }
        return money == expected;
    }
}

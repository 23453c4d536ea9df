package io.prologtool.examples.pararule;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.prologtool.examples.BundledData;
import io.prologtool.examples.formalizer.Problem;

import java.io.BufferedReader;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * One PARARULE-Plus question as the files in the repository's {@code data/pararule-plus} hold it (one JSON object
 * per line).
 *
 * @param id                    e.g. {@code NegationRule-D4-29677}
 * @param depth                 reasoning depth, 2 to 5
 * @param ruleType              {@code NegationRule} or {@code NonNegationRule}
 * @param domain                {@code people} or {@code animal}
 * @param context               the facts and rules
 * @param question              the statement to judge
 * @param label                 the gold label (for the original questions it follows the paper's reading
 *                              of negation; for the counterfactual ones, the closed-world reading)
 * @param nafLabel              the answer under standard negation as failure with tabling, where the
 *                              file gives it ({@code diverging.jsonl})
 * @param plainSldnfTerminates  whether untabled SLDNF terminates, where the file gives it
 * @param synthetic             true for the counterfactual questions
 */
public record PararuleQuestion(String id, int depth, String ruleType, String domain, String context,
                               String question, boolean label, Optional<Boolean> nafLabel,
                               Optional<Boolean> plainSldnfTerminates, boolean synthetic) {

    /** The rule type of questions whose rules contain negation. */
    public static final String NEGATION_RULE = "NegationRule";

    private static final ObjectMapper JSON = new ObjectMapper();

    /** Checks the components: none is null. */
    public PararuleQuestion {
        Objects.requireNonNull(id, "id");
        Objects.requireNonNull(ruleType, "ruleType");
        Objects.requireNonNull(domain, "domain");
        Objects.requireNonNull(context, "context");
        Objects.requireNonNull(question, "question");
        Objects.requireNonNull(nafLabel, "nafLabel");
        Objects.requireNonNull(plainSldnfTerminates, "plainSldnfTerminates");
    }

    /** The question as a {@link Problem} for a formalizer. */
    public Problem problem() {
        return new Problem(id, context, question);
    }

    /** True for {@code NegationRule} questions. */
    public boolean negationRule() {
        return NEGATION_RULE.equals(ruleType);
    }

    /**
     * Reads one of the PARARULE-Plus files bundled with the examples ({@code sample.jsonl},
     * {@code sample-counterfactual.jsonl}, {@code diverging.jsonl}: the repository's
     * {@code data/pararule-plus}, on the classpath under {@code prologtool/data/pararule-plus}).
     *
     * @throws IOException              when it cannot be read
     * @throws IllegalStateException    when it is not on the classpath
     * @throws IllegalArgumentException naming the line when a line is not such a question
     */
    public static List<PararuleQuestion> bundled(String fileName) throws IOException {
        try (BufferedReader r = BundledData.reader("pararule-plus/" + fileName)) {
            return read(r, fileName);
        }
    }

    /**
     * Reads a JSONL file of questions.
     *
     * @throws IOException              when the file cannot be read
     * @throws IllegalArgumentException naming the line when a line is not such a question
     */
    public static List<PararuleQuestion> read(Path file) throws IOException {
        try (BufferedReader r = Files.newBufferedReader(file, StandardCharsets.UTF_8)) {
            return read(r, file.toString());
        }
    }

    private static List<PararuleQuestion> read(BufferedReader r, String name) throws IOException {
        List<PararuleQuestion> out = new ArrayList<>();
        String line;
        int n = 0;
        while ((line = r.readLine()) != null) {
            n++;
            if (line.isBlank()) {
                continue;
            }
            try {
                out.add(parse(JSON.readTree(line)));
            } catch (IOException | RuntimeException e) {
                throw new IllegalArgumentException(name + ":" + n + ": not a PARARULE-Plus question: " + e.getMessage(), e);
            }
        }
        return out;
    }

    /**
     * At most {@code n} of {@code items}, evenly spaced: the PARARULE-Plus files are stratified in blocks
     * of depth and rule type, so a spaced sample keeps every block. All of them when {@code n} is not
     * smaller than their number.
     */
    public static <T> List<T> spread(List<T> items, int n) {
        if (n >= items.size()) {
            return items;
        }
        List<T> out = new ArrayList<>(n);
        for (int i = 0; i < n; i++) {
            out.add(items.get((int) ((long) i * items.size() / n)));
        }
        return out;
    }

    private static PararuleQuestion parse(JsonNode o) {
        return new PararuleQuestion(text(o, "id"), o.path("depth").asInt(0), text(o, "rule_type"),
                o.path("domain").asText(""), text(o, "context"), text(o, "question"),
                bool(o, "label").orElseThrow(() -> new IllegalArgumentException("no boolean \"label\"")),
                bool(o, "naf_label"), bool(o, "plain_sldnf_terminates"), o.path("synthetic").asBoolean(false));
    }

    private static String text(JsonNode o, String key) {
        JsonNode v = o.get(key);
        if (v == null || !v.isTextual()) {
            throw new IllegalArgumentException("no text \"" + key + "\"");
        }
        return v.asText();
    }

    private static Optional<Boolean> bool(JsonNode o, String key) {
        JsonNode v = o.get(key);
        return v != null && v.isBoolean() ? Optional.of(v.asBoolean()) : Optional.empty();
    }
}

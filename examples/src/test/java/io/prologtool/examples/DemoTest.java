package io.prologtool.examples;

import io.prologtool.examples.pararule.PararuleQuestion;
import org.junit.jupiter.api.Test;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Optional;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class DemoTest {

    @Test
    void aShortRunPrintsEverySectionAndTheAttribution() throws Exception {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        int status = Demo.run(new PrintStream(out, true, StandardCharsets.UTF_8),
                new PrintStream(err, true, StandardCharsets.UTF_8), "--limit 8 --parallel 3");
        String text = out.toString(StandardCharsets.UTF_8);
        assertThat(status).isZero();
        assertThat(text.lines().filter(Demo.ATTRIBUTION::equals)).hasSize(2);
        assertThat(text).contains("sample.jsonl (8) sample-counterfactual.jsonl (8) diverging.jsonl (8)")
                .contains("Accuracy against the gold label")
                .containsPattern("diverging.jsonl against naf_label +0\\.000 \\(0/8\\) +1\\.000 \\(8/8\\)")
                .containsPattern("    depth 5 +1\\.000 \\(")
                .contains("Where the semantics part (the paper's Table 6 analysis)")
                .contains("looping or not agrees with plain_sldnf_terminates on 8 of 8")
                .contains("Throughput: 72 questions")
                .containsAnyOf("Proof tree of ", "(no depth-5 question");
    }

    @Test
    void limitSpreadsOverTheFile() {
        assertThat(PararuleQuestion.spread(List.of(0, 1, 2, 3, 4, 5, 6, 7, 8, 9), 4)).containsExactly(0, 2, 5, 7);
        assertThat(PararuleQuestion.spread(List.of(1, 2), 5)).containsExactly(1, 2);
    }

    @Test
    void optionsAreCheckedAndBadOnesExitWithUsage() throws Exception {
        Demo.Options o = Demo.Options.parse(new String[] {"--model=anthropic", "--parallel", "2"});
        assertThat(o.model()).contains("anthropic");
        assertThat(o.limit()).isEqualTo(10);
        assertThat(o.parallel()).isEqualTo(2);
        assertThat(Demo.Options.parse(new String[] {""})).isEqualTo(
                new Demo.Options(Optional.empty(), Optional.empty(), Optional.empty(), Integer.MAX_VALUE, 6));
        assertThatThrownBy(() -> Demo.Options.parse(new String[] {"--model", "gemini"}))
                .hasMessageContaining("openai or anthropic");
        assertThatThrownBy(() -> Demo.Options.parse(new String[] {"--limit", "-3"})).hasMessageContaining("positive");
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        assertThat(Demo.run(new PrintStream(new ByteArrayOutputStream()), new PrintStream(err, true, StandardCharsets.UTF_8),
                "--colour")).isEqualTo(2);
        assertThat(err.toString(StandardCharsets.UTF_8)).contains("unknown option --colour").contains("usage:");
    }
}

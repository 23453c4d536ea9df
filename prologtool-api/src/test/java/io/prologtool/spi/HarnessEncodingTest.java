package io.prologtool.spi;

import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Every harness file states its encoding before anything else, so that a Prolog started without a locale
 * (the C locale, whose default encoding is not UTF-8) reads it as the UTF-8 it is.
 */
class HarnessEncodingTest {

    static final String DECLARATION = ":- encoding(utf8).";

    @Test
    void everyHarnessFileDeclaresUtf8OnItsFirstLine() {
        for (String file : Harness.FILES) {
            String text = Harness.text(file);
            assertThat(text.lines().findFirst().orElse("")).as("first line of %s", file).isEqualTo(DECLARATION);
        }
    }

    @Test
    void theHarnessHoldsNonAsciiTextSoTheDeclarationMatters() {
        boolean nonAscii = Harness.FILES.stream().map(Harness::text)
                .anyMatch(t -> t.length() != t.getBytes(StandardCharsets.UTF_8).length);
        assertThat(nonAscii).as("some harness file holds a character outside ASCII").isTrue();
    }
}

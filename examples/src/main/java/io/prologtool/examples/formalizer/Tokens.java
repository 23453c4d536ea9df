package io.prologtool.examples.formalizer;

/**
 * Tokens a language model spent on one call or on several.
 *
 * @param input  prompt tokens
 * @param output completion tokens
 */
public record Tokens(long input, long output) {

    /** Checks that the counts are not negative. */
    public Tokens {
        if (input < 0 || output < 0) {
            throw new IllegalArgumentException("token counts are not negative: " + input + ", " + output);
        }
    }

    /** Input plus output. */
    public long total() {
        return input + output;
    }

    /** The sum of this and {@code other}. */
    public Tokens plus(Tokens other) {
        return new Tokens(input + other.input, output + other.output);
    }

    @Override
    public String toString() {
        return total() + " tokens (" + input + " in, " + output + " out)";
    }
}

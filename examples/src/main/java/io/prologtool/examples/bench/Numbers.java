package io.prologtool.examples.bench;

import java.math.BigDecimal;
import java.math.MathContext;
import java.math.RoundingMode;

/** How the suite writes numbers: a few significant digits, never in exponent notation. */
final class Numbers {

    private Numbers() {
    }

    /** {@code value} to {@code digits} significant digits, plain ({@code 0.000412}, {@code 1235}). */
    static String significant(double value, int digits) {
        if (value == 0 || !Double.isFinite(value)) {
            return value == 0 ? "0" : String.valueOf(value);
        }
        return new BigDecimal(value).round(new MathContext(digits, RoundingMode.HALF_EVEN)).stripTrailingZeros()
                .toPlainString();
    }

    /** Four significant digits: what the CSV holds. */
    static String csv(double value) {
        return significant(value, 4);
    }

    /** Three significant digits: what the table and the chart show. */
    static String shown(double value) {
        return significant(value, 3);
    }

    /** A bound as written in a target: {@code 50}, {@code 1}, {@code 0.5}. */
    static String plain(double value) {
        return BigDecimal.valueOf(value).stripTrailingZeros().toPlainString();
    }
}

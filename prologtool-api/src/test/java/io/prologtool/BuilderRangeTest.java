package io.prologtool;

import io.prologtool.spi.HarnessSession;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.function.Consumer;

import static org.assertj.core.api.Assertions.assertThatCode;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** Issue 36: an option out of range is an IllegalArgumentException naming it when it is set, never an error at run time. */
class BuilderRangeTest {

    /** About 292 years: more nanoseconds than a long holds. */
    private static final Duration TOO_LONG = Duration.ofDays(300 * 365L);

    private static GoalRequest goal() {
        return new GoalRequest("true", g -> {
            throw new AssertionError("not run");
        });
    }

    private static void refused(String option, Consumer<Duration> set) {
        assertThatThrownBy(() -> set.accept(TOO_LONG)).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining(option).hasMessageContaining("365 days");
        assertThatThrownBy(() -> set.accept(GoalRequest.MAX_TIME_LIMIT.plusNanos(1)))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining(option);
        assertThatCode(() -> set.accept(GoalRequest.MAX_TIME_LIMIT)).doesNotThrowAnyException();
    }

    @Test
    void timeLimitsOverTheMaximumAreRefusedWhenSetNamingTheOption() {
        refused("timeLimit", d -> goal().timeLimit(d));
        refused("timeLimit", d -> new TraceRequest("true", t -> {
            throw new AssertionError("not run");
        }).timeLimit(d));
        refused("timeLimit", d -> new ExecutionRequest("p.", "p", r -> {
            throw new AssertionError("not run");
        }).timeLimit(d));
        refused("consultTimeLimit", d -> SessionOptions.builder().consultTimeLimit(d));
        refused("testTimeLimit", d -> SessionOptions.builder().testTimeLimit(d));
        refused("grace", HarnessSession::checkGrace);
    }

    @Test
    void timeLimitsUnderAMillisecondAreRefusedNamingTheOption() {
        assertThatThrownBy(() -> goal().timeLimit(Duration.ofNanos(999_999)))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("timeLimit");
        assertThatThrownBy(() -> SessionOptions.builder().consultTimeLimit(Duration.ZERO))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("consultTimeLimit");
        assertThatThrownBy(() -> SessionOptions.builder().testTimeLimit(Duration.ZERO))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("testTimeLimit");
        assertThatThrownBy(() -> goal().timeLimit(Duration.ofSeconds(-1)))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("timeLimit");
    }

    @Test
    void longBoundsTakeTheirWholeRange() {
        assertThatCode(() -> goal().maxDepth(Long.MAX_VALUE).maxInferences(Long.MAX_VALUE)).doesNotThrowAnyException();
        assertThatThrownBy(() -> goal().maxDepth(0)).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("maxDepth");
        assertThatThrownBy(() -> goal().maxInferences(0)).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("maxInferences");
    }
}

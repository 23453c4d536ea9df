package io.prologtool;

import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class PrologListenerTest {

    /** Records what it hears, tagged with its name; its call context is its name. */
    static final class Named implements PrologListener {
        final String name;
        final List<String> heard;

        Named(String name, List<String> heard) {
            this.name = name;
            this.heard = heard;
        }

        @Override
        public Object callStarted(String backend, String sessionId, String kind) {
            return name;
        }

        @Override
        public void callFinished(Call call) {
            heard.add(name + " finished with context " + call.context());
        }

        @Override
        public void sessionOpened(String backend, String sessionId) {
            heard.add(name + " opened " + sessionId);
        }
    }

    @Test
    void noListenersIsNoneAndOneIsItself() {
        assertThat(PrologListener.of(List.of())).isSameAs(PrologListener.NONE);
        PrologListener one = new Named("a", new ArrayList<>());
        assertThat(PrologListener.of(List.of(one))).isSameAs(one);
    }

    @Test
    void severalHearEachEventInOrderEachWithItsOwnContextAndAThrowingOneStopsNoOther() {
        List<String> heard = new ArrayList<>();
        PrologListener broken = new PrologListener() {
            @Override
            public Object callStarted(String backend, String sessionId, String kind) {
                throw new IllegalStateException("broken");
            }

            @Override
            public void sessionOpened(String backend, String sessionId) {
                throw new IllegalStateException("broken");
            }
        };
        PrologListener all = PrologListener.of(List.of(broken, new Named("a", heard), new Named("b", heard)));
        all.sessionOpened("jpl", "s1");
        Object context = all.callStarted("jpl", "s1", "goal");
        all.callFinished(new PrologListener.Call("jpl", "s1", "goal", "success", Optional.empty(), Cost.NONE, context));
        assertThat(heard).containsExactly("a opened s1", "b opened s1", "a finished with context a",
                "b finished with context b");
    }

    @Test
    void everyLoggerIsNamedInTheObservabilityGuide() throws Exception {
        String guide = java.nio.file.Files.readString(java.nio.file.Path.of("..", "docs", "observability.md"));
        for (System.Logger logger : List.of(io.prologtool.spi.Logs.BACKEND, io.prologtool.spi.Logs.SESSION,
                io.prologtool.spi.Logs.REGISTRY, io.prologtool.spi.Logs.POOL)) {
            assertThat(guide).contains("| `" + logger.getName() + "` |");
        }
    }

    @Test
    void aCostIsNeverNegativeAndKeepsMicroseconds() {
        Cost c = new Cost(Duration.ofNanos(1_234_567), Duration.ofNanos(1_000), 5);
        assertThat(c.wallTimeMillis()).isEqualTo(1.235);
        assertThat(c.cpuTimeMillis()).isEqualTo(0.001);
        assertThat(c.withWallTime(Duration.ZERO).inferences()).isEqualTo(5);
        assertThatThrownBy(() -> new Cost(Duration.ofMillis(-1), Duration.ZERO, 0))
                .isInstanceOf(IllegalArgumentException.class);
        assertThat(new GoalResult(Outcome.FAILURE, List.of(), "", false, false, Optional.empty()).cost())
                .isEqualTo(Cost.NONE);
    }
}

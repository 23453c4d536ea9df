package io.prologtool.conformance;

import io.prologtool.GoalResult;
import io.prologtool.PrologSession;
import io.prologtool.PrologToolException;
import io.prologtool.SessionCheckpoint;
import io.prologtool.SessionClosedException;
import io.prologtool.SessionOptions;
import io.prologtool.SessionStore;
import io.prologtool.Term;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.time.Instant;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * A checkpoint holds what the session is (program with dynamic facts as they are, operators, flags, plunit
 * units, options), and a session restored from it, here through a folder store read by another store
 * object as another JVM would, answers every goal as the original did.
 */
public abstract class CheckpointConformanceTest extends BackendFixture {

    @TempDir
    Path folder;

    private static final String PROGRAM = """
            :- op(700, xfx, ===>).
            :- set_prolog_flag(double_quotes, codes).
            :- dynamic seen/1, counter/1.
            seen(1).
            counter(0).
            rule(a ===> b).
            word("hi").
            sum(S) :- aggregate_all(sum(X), seen(X), S).
            bump :- retract(counter(N)), N1 is N + 1, assertz(counter(N1)).
            """;

    /** Goals whose answers the restored session must give exactly as the original. */
    private static final List<String> PROBES = List.of("sum(S)", "findall(X, seen(X), L)", "counter(N)",
            "rule(X), X = (_ ===> R)", "word(W)", "X = \"ab\"", "current_op(P, T, ===>)",
            "catch(nope, error(existence_error(procedure, _:PI), _), true)", "bump, counter(N)");

    @Test
    void aRestoredCheckpointAnswersEveryGoalAsTheOriginal() {
        try (PrologSession original = backend.open(SessionOptions.builder().maxOutputChars(5000).build())) {
            assertThat(original.consult(PROGRAM).hasErrors()).isFalse();
            original.goal("assertz(seen(2)), assertz(seen(40)), retract(seen(1)), bump, bump").run();
            original.runTests(":- begin_tests(sums).\ntest(two) :- sum(42).\n:- end_tests(sums).\n");

            SessionCheckpoint taken = original.checkpoint();
            assertThat(taken.sessionId()).isEqualTo(original.id());
            SessionStore.folder(folder).save(taken);
            SessionCheckpoint read = SessionStore.folder(folder).load(original.id()).orElseThrow();

            try (PrologSession restored = backend.restore(read)) {
                assertThat(restored.id()).isNotEqualTo(original.id());
                for (String probe : PROBES) {
                    GoalResult a = original.goal(probe).run();
                    GoalResult b = restored.goal(probe).run();
                    assertThat(b.outcome()).as(probe).isEqualTo(a.outcome());
                    assertThat(b.answers()).as(probe).isEqualTo(a.answers());
                }
                assertThat(restored.goal("counter(N)").run().answers().get(0).get("N")).isEqualTo(Term.integer(3));
                assertThat(restored.runTests().passed()).isEqualTo(1);
                // the same clauses and declarations (a predicate's place in the listing may differ)
                assertThat(restored.source().lines()).containsExactlyInAnyOrderElementsOf(
                        original.source().lines().toList());
            }
        }
    }

    @Test
    void aCheckpointIsOfItsMomentAndKeepsTheSessionsOptions() {
        try (PrologSession s = backend.open(SessionOptions.builder().sandboxed(false).maxOutputChars(777).build())) {
            s.consult(":- dynamic n/1.\nn(1).\n");
            Instant before = Instant.now();
            SessionCheckpoint c = s.checkpoint();
            assertThat(c.takenAt()).isBetween(before.minusSeconds(1), Instant.now());
            s.goal("assertz(n(2))").run();
            try (PrologSession r = backend.restore(c)) {
                assertThat(r.goal("findall(X, n(X), L)").run().answers().get(0).get("L"))
                        .isEqualTo(Term.list(Term.integer(1)));
                // careless, as the original: it may write a file, which a sandboxed session may not
                assertThat(r.goal("tmp_file(t, F), open(F, write, S), close(S), delete_file(F)").run().succeeded())
                        .isTrue();
                assertThat(r.goal("forall(between(1, 1000, _), write(x))").run().output()).hasSize(777);
            }
        }
        session.close();
        assertThatThrownBy(() -> session.checkpoint()).isInstanceOf(SessionClosedException.class);
    }

    /** maxSourceChars bounds what a caller sends, not what a session's goals grew it to: it is restored whole. */
    @Test
    void aSessionGrownPastMaxSourceCharsByItsGoalsIsRestoredWhole() {
        SessionOptions small = SessionOptions.builder().maxSourceChars(2_000).build();
        try (PrologSession s = backend.open(small)) {
            s.consult(":- dynamic f/2.\n");
            assertThat(s.goal("forall(between(1, 300, I), assertz(f(I, 'a fact of some length')))").run()
                    .succeeded()).isTrue();
            SessionCheckpoint c = s.checkpoint();
            assertThat(c.program().length()).isGreaterThan(small.maxSourceChars());
            try (PrologSession back = backend.restore(c)) {
                assertThat(back.goal("aggregate_all(count, f(_, _), N)").run().answers().get(0).get("N"))
                        .isEqualTo(io.prologtool.Term.integer(300));
                assertThat(back.consult("x".repeat(2_001)).errors()).as("a caller's text is still bounded")
                        .anyMatch(d -> d.kind().equals("resource_error"));
            }
        }
    }

    @Test
    void aCheckpointWhoseProgramDoesNotLoadIsATypedError() {
        SessionCheckpoint broken = new SessionCheckpoint("gone", SessionOptions.defaults(), "p(:- .\n", List.of(),
                Instant.now());
        assertThatThrownBy(() -> backend.restore(broken)).isInstanceOf(PrologToolException.class)
                .hasMessageContaining("session gone").hasMessageContaining("did not load");
        // the backend goes on serving
        assertThat(session.goal("X = 1").run().succeeded()).isTrue();
    }
}

package io.prologtool.conformance;

import io.prologtool.Outcome;
import io.prologtool.PrologSession;
import io.prologtool.SessionClosedException;
import io.prologtool.Term;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** Session identity, isolation and lifecycle. */
public abstract class SessionConformanceTest extends BackendFixture {

    @Test
    void sessionHasAnIdAndItsOwnModule() {
        assertThat(session.id()).matches("[A-Za-z0-9_]+");
        assertThat(session.moduleName()).isEqualTo("m_" + session.id());
        assertThat(session.isOpen()).isTrue();
        assertThat(session.goal("context_module(M)").run().answers().get(0).get("M"))
                .isEqualTo(Term.atom(session.moduleName()));
    }

    @Test
    void twoSessionsDoNotSeeEachOthersPredicates() {
        try (PrologSession other = backend.open()) {
            assertThat(other.id()).isNotEqualTo(session.id());
            session.consult("secret(42).");
            other.consult("secret(7).");
            assertThat(session.goal("secret(X)").run().answers()).extracting(a -> a.get("X"))
                    .containsExactly(Term.integer(42));
            assertThat(other.goal("secret(X)").run().answers()).extracting(a -> a.get("X"))
                    .containsExactly(Term.integer(7));
            other.consult("only_other(1).");
            assertThat(session.goal("only_other(X)").run().outcome()).isEqualTo(Outcome.ERROR);
        }
    }

    @Test
    void builtinsAndLibrariesAreAvailable() {
        assertThat(session.goal("append(X, [c], [a, b, c])").run().answers().get(0).get("X"))
                .isEqualTo(Term.list(Term.atom("a"), Term.atom("b")));
        session.consult(":- use_module(library(clpfd)).\npuzzle(X) :- X in 1..10, X * X #= 49.\n");
        assertThat(session.goal("puzzle(X)").run().answers().get(0).get("X")).isEqualTo(Term.integer(7));
    }

    @Test
    void closedSessionRefusesCallsWithATypedException() {
        session.close();
        assertThat(session.isOpen()).isFalse();
        assertThatThrownBy(() -> session.consult("a.")).isInstanceOf(SessionClosedException.class);
        assertThatThrownBy(() -> session.goal("true").run()).isInstanceOf(SessionClosedException.class);
        session.close(); // idempotent
    }

    @Test
    void closingTheBackendClosesItsSessions() {
        var b = createBackend();
        PrologSession s = b.open();
        s.consult("a(1).");
        b.close();
        assertThat(s.isOpen()).isFalse();
        assertThatThrownBy(() -> b.open()).isInstanceOf(IllegalStateException.class);
    }
}

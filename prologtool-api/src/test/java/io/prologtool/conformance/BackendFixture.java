package io.prologtool.conformance;

import io.prologtool.PrologBackend;
import io.prologtool.PrologSession;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.TestInstance;

/**
 * Base of the conformance suite: one backend per test class, a fresh session per test. A backend
 * module subclasses each suite class and says how to make its backend; there is deliberately no skip
 * when SWI-Prolog is missing: the suite then fails.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
public abstract class BackendFixture {

    protected PrologBackend backend;
    protected PrologSession session;

    /** The backend under test; called once per test class. */
    protected abstract PrologBackend createBackend();

    @BeforeAll
    void startBackend() {
        backend = createBackend();
    }

    @AfterAll
    void stopBackend() {
        if (backend != null) {
            backend.close();
        }
    }

    @BeforeEach
    void openSession() {
        session = backend.open();
    }

    @AfterEach
    void closeSession() {
        if (session != null) {
            session.close();
        }
    }
}

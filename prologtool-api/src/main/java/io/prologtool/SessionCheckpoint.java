package io.prologtool;

import java.time.Instant;
import java.util.List;
import java.util.Objects;

/**
 * What a session is, durably: its program as {@link PrologSession#source()} rebuilds it (clauses,
 * declarations, dynamic facts as they were when the checkpoint was taken, and the operators and flags
 * the session set), its plunit units, and the options it was opened with. {@link
 * PrologBackend#restore(SessionCheckpoint)} opens a session from it, in this JVM or another, that
 * answers every goal as the original did at that moment.
 *
 * <p>A checkpoint does not hold what lives outside the session's program: global variables
 * ({@code b_setval/2}, {@code nb_setval/2}), open queries, streams, threads and tables are not carried over
 * (tables are built again on demand), and neither is the options' {@link SessionOptions#ruleBases() rule
 * base store}, which is an object of the application: a checkpoint read back from a {@link SessionStore}
 * has the default store until {@link #withOptions(SessionOptions)} gives it another.
 *
 * <pre>{@code
 * SessionCheckpoint saved = session.checkpoint();
 * try (PrologSession again = backend.restore(saved)) {
 *     again.goal("edge(a, X)").run();   // the same answers as session gave
 * }
 * }</pre>
 *
 * @param sessionId the id of the session it was taken of (a restored session has an id of its own)
 * @param options   the options that session was opened with, which a restore opens with
 * @param program   the program text, loaded by a consult when restored
 * @param tests     the sources of the session's plunit units, loaded (not run) when restored
 * @param takenAt   when the checkpoint was taken
 */
public record SessionCheckpoint(String sessionId, SessionOptions options, String program, List<String> tests,
        Instant takenAt) {

    public SessionCheckpoint {
        Objects.requireNonNull(sessionId, "sessionId");
        Objects.requireNonNull(options, "options");
        Objects.requireNonNull(program, "program");
        tests = List.copyOf(Objects.requireNonNull(tests, "tests"));
        Objects.requireNonNull(takenAt, "takenAt");
    }

    /** This checkpoint with other options (a rule base store of the application's, other limits). */
    public SessionCheckpoint withOptions(SessionOptions newOptions) {
        return new SessionCheckpoint(sessionId, newOptions, program, tests, takenAt);
    }
}

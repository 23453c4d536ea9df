package io.prologtool.jpl;

import io.prologtool.GoalResult;
import io.prologtool.PrologSession;
import io.prologtool.PrologUnavailableException;
import io.prologtool.Query;
import io.prologtool.Term;

/**
 * Run in a plain child JVM ({@code java -cp <classpath> io.prologtool.jpl.JplChildMain [queries]}) by
 * {@link JplBackendTest}: it must reach SWI-Prolog's foreign libraries (library(http/json), the alarm
 * behind call_with_time_limit/2) with nothing set in the environment. With {@code queries} it opens
 * and closes {@value #QUERIES} queries instead, most of them never fetched from (the parent reads what
 * the embedded Prolog printed on the JVM's standard error). With {@code state FOLDER} (or {@code state none})
 * its backend caches the embedded Prolog's saved state in FOLDER (or nowhere), and it prints
 * {@code STATE <the state it started from, or none>} before the answer. With {@code tmp} it makes a temporary
 * file in a session, prints {@code TMP <its path>} and exits with the session open. The exit status says what
 * happened.
 */
public final class JplChildMain {

    static final int ANSWERED = 0;
    static final int WRONG_ANSWER = 3;
    static final int UNAVAILABLE = 10;
    static final int FAILED = 4;

    static final int QUERIES = 300;

    private JplChildMain() {
    }

    public static void main(String[] args) {
        JplBackend.Builder builder = JplBackend.builder();
        boolean state = args.length == 2 && args[0].equals("state");
        if (state) {
            builder.stateCache(args[1].equals("none") ? null : java.nio.file.Path.of(args[1]));
        }
        try (JplBackend backend = builder.build();
             PrologSession s = backend.open()) {
            if (state) {
                System.out.println("STATE " + backend.savedState().map(Object::toString).orElse("none"));
            }
            if (args.length > 0 && args[0].equals("queries")) {
                System.exit(openAndCloseQueries(s));
            }
            if (args.length > 0 && args[0].equals("tmp")) {
                GoalResult made = s.goal("tmp_file_stream(text, F, S), write(S, x), close(S)").run();
                System.out.println("TMP " + ((Term.Atom) made.answers().get(0).get("F")).name());
                System.exit(ANSWERED); // with the session still open: what the JVM's exit leaves is the question
            }
            s.consult(":- use_module(library(http/json)).\n"
                    + "read_a(Text, A) :- atom_json_dict(Text, D, []), get_dict(a, D, A).\n");
            GoalResult r = s.goal("call_with_time_limit(5, read_a('{\"a\": [1, 2]}', A)), "
                    + "catch(call_with_time_limit(0.2, (repeat, fail)), time_limit_exceeded, T = timed_out)").run();
            System.out.println("ANSWER " + r.outcome() + " " + r.answers() + " " + r.error());
            boolean right = r.answers().size() == 1
                    && r.answers().get(0).get("A").toString().equals("[1,2]")
                    && r.answers().get(0).get("T").toString().equals("timed_out");
            System.exit(right ? ANSWERED : WRONG_ANSWER);
        } catch (PrologUnavailableException e) {
            System.out.println("UNAVAILABLE " + e.getMessage());
            System.exit(UNAVAILABLE);
        } catch (RuntimeException e) {
            e.printStackTrace(System.out);
            System.exit(FAILED);
        }
    }

    /** Queries closed before their first fetch, and every tenth after one. */
    private static int openAndCloseQueries(PrologSession s) {
        for (int i = 0; i < QUERIES; i++) {
            try (Query q = s.goal("between(1, 5, X)").query()) {
                if (i % 10 == 0 && !q.next(1).get(0).get("X").equals(Term.integer(1))) {
                    return WRONG_ANSWER;
                }
            }
        }
        System.out.println("CLOSED " + QUERIES);
        return ANSWERED;
    }
}

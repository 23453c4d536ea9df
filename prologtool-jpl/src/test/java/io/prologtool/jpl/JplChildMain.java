package io.prologtool.jpl;

import io.prologtool.GoalResult;
import io.prologtool.PrologSession;
import io.prologtool.PrologUnavailableException;

/**
 * Run in a plain child JVM ({@code java -cp <classpath> io.prologtool.jpl.JplChildMain}) by
 * {@link JplBackendTest}: it must reach SWI-Prolog's foreign libraries (library(http/json), the alarm
 * behind call_with_time_limit/2) with nothing set in the environment. The exit status says what
 * happened.
 */
public final class JplChildMain {

    static final int ANSWERED = 0;
    static final int WRONG_ANSWER = 3;
    static final int UNAVAILABLE = 10;
    static final int FAILED = 4;

    private JplChildMain() {
    }

    public static void main(String[] args) {
        try (JplBackend backend = JplBackend.get();
             PrologSession s = backend.open()) {
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
}

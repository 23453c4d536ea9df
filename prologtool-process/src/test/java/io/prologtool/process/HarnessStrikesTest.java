package io.prologtool.process;

import io.prologtool.spi.Executables;
import io.prologtool.spi.Harness;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The harness's watchdog strikes a thread from outside, by a signal: when a time limit has expired and
 * when the process is over its memory bound. A signal can arrive after the goal it was meant for has
 * ended, while the harness writes that goal's reply; an exception there would lose the reply. So a
 * strike throws only where a harness limit runs on the thread, whatever the watchdog saw when it sent
 * the signal. Shown in a plain {@code swipl} with the harness loaded, where the strikes are called as
 * the watchdog's signal calls them. Nor does an inference limit left on a thread reach a later request,
 * and the watchdog gives closed sessions' memory back while requests run.
 */
class HarnessStrikesTest {

    @TempDir
    Path dir;

    /**
     * For each strike, the thread outside every limit, inside a limit, and after the limit ended; prints
     * one line each: {@code WHERE STRIKE none} or {@code WHERE STRIKE} and the exception thrown.
     */
    private static final String PROBE = """
            % a strike throws through an alarm: the second it is given to land ends at once when it does
            probe(Where, Strike) :-
                catch(( call(prologtool_harness:Strike), sleep(1), R = none ), E, R = E),
                report(Where, Strike, R).
            report(Where, Strike, R) :-
                numbervars(R, 0, _),
                format("~w ~w ~q~n", [Where, Strike, R]).
            % inside: the watchdog itself may strike first when the limit has expired; the same exception
            probes(Strike, Deadline) :-
                probe(outside, Strike),
                catch(setup_call_cleanup(prologtool_harness:watch_deadline(Deadline, Saved),
                                         ( call(prologtool_harness:Strike), sleep(1), R = none ),
                                         prologtool_harness:unwatch_deadline(Saved)),
                      E, R = E),
                report(inside, Strike, R),
                probe(after, Strike).
            main :-
                get_time(Now),
                Later is Now + 3600,
                % the watchdog starts with the first limit and sets the memory bound: start it first
                prologtool_harness:watch_deadline(Later, S0),
                prologtool_harness:unwatch_deadline(S0),
                flag('$pt_memory_bound', _, 0),         % every process is over this bound
                probes(memory_expired, Later),
                Past is Now - 1,                        % a limit that has expired
                probes(watch_expired, Past).
            """;

    @Test
    void aStrikeThrowsOnlyWhereAHarnessLimitRunsOnTheThread() throws Exception {
        assertMainPrints(PROBE,
                "outside memory_expired none",
                "inside memory_expired error(resource_error(memory),context(A,'the session allocated more memory "
                        + "than the process may give it (atoms, findall/3, strings, clauses); what the goal held "
                        + "was freed'))",
                "after memory_expired none",
                "outside watch_expired none",
                "inside watch_expired time_limit_exceeded",
                "after watch_expired none");
    }

    /**
     * An inference limit left on a thread (planted here outside any request, 100,000 inferences away, as
     * a swipl child was seen keeping a time limit's backstop after its request ended) reaches no later
     * request: a goal of a few hundred thousand inferences succeeds under its own limits, and the request
     * leaves the thread with no limit. Without the reset at the start of a request the planted limit, lower
     * than the request's own, ends the goal (outcome inference_limit).
     */
    private static final String LEFT_LIMIT = """
            main :-
                prologtool_harness:handle_request('{"id":1,"op":"open","session":"s","options":{"sandboxed":false}}', _),
                statistics(inferences, I),
                Planted is I + 100000,
                \\+ '$inference_limit_false'(Planted),
                prologtool_harness:handle_request('{"id":2,"op":"goal","session":"s","goal":"numlist(1, 300000, L), sum_list(L, S)","time_limit":10}', R),
                sub_string(R, 0, 37, _, Start),
                format("~w~n", [Start]),
                prologtool_harness:thread_inference_limit(After),
                (   After =:= 9223372036854775807 -> writeln('no limit after') ; format("limit after: ~w~n", [After]) ).
            """;

    @Test
    void anInferenceLimitLeftOnTheThreadReachesNoLaterRequest() throws Exception {
        assertMainPrints(LEFT_LIMIT, "{\"id\":2,\"ok\":true,\"outcome\":\"success\"", "no limit after");
    }

    /**
     * The watchdog gives the memory of closed sessions back to the system (trim_heap/0) within a second or
     * two of a close, also while other requests run under their limits: sessions served back to back
     * were never trimmed while it waited for a moment with no request running. Here a goal runs under
     * a time limit on another thread for the whole test.
     */
    private static final String TRIM_WHILE_BUSY = """
            main :-
                prologtool_harness:handle_request('{"id":1,"op":"open","session":"busy","options":{"sandboxed":false}}', _),
                prologtool_harness:handle_request('{"id":2,"op":"open","session":"done","options":{"sandboxed":false}}', _),
                thread_create(prologtool_harness:handle_request('{"id":3,"op":"goal","session":"busy","goal":"sleep(5)","time_limit":10}', _), T, []),
                sleep(1.5),
                (   prologtool_harness:watched(T, _) -> writeln('a goal runs under a limit') ; writeln('no goal watched') ),
                flag('$pt_last_trim', Before, Before),
                prologtool_harness:handle_request('{"id":4,"op":"close","session":"done"}', _),
                sleep(2.5),
                flag('$pt_last_trim', After, After),
                (   After > Before -> writeln('trimmed after the close') ; writeln('not trimmed') ),
                thread_join(T, _).
            """;

    @Test
    void closedSessionsMemoryIsGivenBackWhileOtherRequestsRun() throws Exception {
        assertMainPrints(TRIM_WHILE_BUSY, "a goal runs under a limit", "trimmed after the close");
    }

    /** Runs {@code main/0} of the program in a plain swipl with the harness loaded; it prints the lines. */
    private void assertMainPrints(String program, String... lines) throws IOException, InterruptedException {
        Path harness = Harness.extractTo(dir);
        Path probe = dir.resolve("probe.pl");
        Path err = dir.resolve("stderr.txt");
        Files.writeString(probe, program, StandardCharsets.UTF_8);
        String swipl = Executables.findOnPath("swipl").orElseThrow(() -> new IllegalStateException(
                "swipl is not on the PATH: apt-get install swi-prolog-nox")).toString();
        Process p = new ProcessBuilder(swipl, "-q", "--no-packs", "--no-tty", "-f", "none", "-g", "main",
                "-t", "halt", harness.toString(), probe.toString()).redirectError(err.toFile()).start();
        String out = readAll(p);
        String said = out + Files.readString(err, StandardCharsets.UTF_8);
        assertThat(p.exitValue()).as(said).isZero();
        assertThat(out.lines()).as(said).containsExactly(lines);
    }

    private static String readAll(Process p) throws IOException, InterruptedException {
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertThat(p.waitFor(60, TimeUnit.SECONDS)).as("swipl ended: %s", out).isTrue();
        return out;
    }
}

package io.prologtool.process;

import io.prologtool.GoalResult;
import io.prologtool.Outcome;
import io.prologtool.PrologSession;
import io.prologtool.SessionOptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

import java.util.stream.Stream;

import static io.prologtool.process.ProcessBackendTest.awaitChildren;
import static io.prologtool.process.ProcessBackendTest.awaitGone;
import static io.prologtool.process.ProcessBackendTest.awaitRecycled;
import static io.prologtool.process.ProcessBackendTest.childPid;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * Which pooled children serve again (issue 36, item 3): a child is reused only when nothing its sessions
 * ran could have changed anything outside their own modules. Unsandboxed (trusted) code that builds a
 * module name at run time walks around the isolation check and can plant a hook in {@code system},
 * {@code user}, {@code prolog} or a library, which would then act on the program of every later session
 * in the same child: such a child must end, and the next session must see a fresh one. A child whose
 * sessions were all sandboxed, or whose unsandboxed sessions touched nothing outside themselves, serves
 * again (the pool keeps its speed). Every test opens a backend of its own.
 */
class ProcessPoolReuseTest {


    /** The program each session loads: what a planted hook would touch or copy. */
    private static final String PROGRAM = "pt_fact(1).\npt_goal.\np :- pt_goal.\n";

    /**
     * Hooks of several kinds, each planted by unsandboxed code the way trusted code reaches them (a module
     * name built at run time), and a probe that succeeds in a fresh child and fails where the hook acts.
     */
    static Stream<Arguments> plants() {
        return Stream.of(
                Arguments.of("system:term_expansion/2 copying every fact",
                        "atom_concat(sys, tem, S), S:assertz((term_expansion(pt_fact(X), [pt_fact(X), pt_copy(X)])))",
                        "\\+ current_predicate(pt_copy/1)"),
                Arguments.of("system:goal_expansion/2",
                        "atom_concat(sys, tem, S), S:assertz(goal_expansion(pt_goal, fail))",
                        "p"),
                // sessions do not inherit from user: the probe looks at user itself
                Arguments.of("user:goal_expansion/2",
                        "atom_concat(us, er, U), U:assertz(goal_expansion(pt_goal, fail))",
                        "atom_concat(us, er, U), \\+ catch(U:goal_expansion(pt_goal, _), _, fail)"),
                Arguments.of("prolog:message//1, a multifile clause loaded from a file",
                        "tmp_file_stream(text, F, Out), format(Out, \"prolog:message(pt_msg) --> [planted].~n\", []), "
                                + "close(Out), atom_concat(us, er, U), U:consult(F)",
                        "atom_concat(pro, log, P), \\+ catch(P:message(pt_msg, _, []), _, fail)"),
                Arguments.of("user:portray/1",
                        "atom_concat(us, er, U), U:assertz((portray(pt_portrayed) :- write(planted)))",
                        "with_output_to(string(S), print(pt_portrayed)), S == \"pt_portrayed\""),
                Arguments.of("add_import_module/3 into user",
                        "atom_concat(us, er, U), add_import_module(U, lists, start)",
                        "atom_concat(us, er, U), findall(I, import_module(U, I), [system])"),
                Arguments.of("a global flag",
                        "atom_concat(set_prolog_, flag, F), atom_concat(sys, tem, S), S:call(F, gc, false)",
                        "current_prolog_flag(gc, true)"),
                Arguments.of("a clause added to library(lists)",
                        "atom_concat(li, sts, L), L:assertz(pt_helper(1))",
                        "atom_concat(li, sts, L), \\+ catch(L:pt_helper(_), _, fail)"));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("plants")
    void aChildWhoseUnsandboxedSessionPlantedAHookDoesNotServeTheNextSession(String kind, String plant, String probe)
            throws Exception {
        try (ProcessBackend backend = ProcessBackend.builder().poolSize(1).isolation(Isolation.none()).build()) {
            awaitChildren(backend, 1);
            long planted;
            try (PrologSession s = backend.open()) {
                planted = childPid(s);
                GoalResult r = s.goal(plant).run();
                assertThat(r.outcome()).as("planting %s: %s", kind, r).isEqualTo(Outcome.SUCCESS);
                // the probe sees the hook where it was planted: it can fail
                s.consult(PROGRAM);
                assertThat(s.goal(probe).run().outcome()).as("the probe, in the child with %s", kind)
                        .isNotEqualTo(Outcome.SUCCESS);
            }
            for (int i = 0; i < 2; i++) { // the session right after the close, and one once the check is over
                try (PrologSession next = backend.open()) {
                    assertThat(childPid(next)).as("session %d after the one that planted %s", i + 1, kind)
                            .isNotEqualTo(planted);
                    assertThat(next.consult(PROGRAM).messages()).isEmpty();
                    GoalResult r = next.goal(probe).run();
                    assertThat(r.outcome()).as("the next session's program is untouched by %s: %s", kind, r)
                            .isEqualTo(Outcome.SUCCESS);
                }
            }
            awaitGone(planted);
        }
    }

    /** A child whose sessions were all sandboxed serves session after session (the pool's speed). */
    @Test
    void aChildAfterSandboxedSessionsServesAgain() throws Exception {
        SessionOptions sandboxed = SessionOptions.builder().sandboxed(true).build();
        try (ProcessBackend backend = ProcessBackend.builder().poolSize(1).isolation(Isolation.none()).build()) {
            awaitChildren(backend, 1);
            long first = -1;
            for (int i = 1; i <= 5; i++) {
                try (PrologSession s = backend.open(sandboxed)) {
                    long pid = childPid(s);
                    first = first == -1 ? pid : first;
                    assertThat(pid).as("sandboxed session %d runs on the first one's child", i).isEqualTo(first);
                    s.consult(PROGRAM + ":- table q/1.\nq(X) :- pt_fact(X).\n");
                    assertThat(s.goal("p, q(1), atom_length(abc, 3)").run().outcome()).isEqualTo(Outcome.SUCCESS);
                }
                assertThat(awaitRecycled(backend, i)).as("the child went back clean after session %d", i).isEqualTo(i);
            }
        }
    }

    /**
     * An unsandboxed session that kept to its own module (consulted, queried, tabled, ran a library that
     * it autoloaded) leaves a child that serves again: the reach check finds nothing.
     */
    @Test
    void aChildAfterUnsandboxedSessionsThatKeptToThemselvesServesAgain() throws Exception {
        try (ProcessBackend backend = ProcessBackend.builder().poolSize(1).isolation(Isolation.none()).build()) {
            awaitChildren(backend, 1);
            long first = -1;
            for (int i = 1; i <= 4; i++) {
                try (PrologSession s = backend.open()) {
                    long pid = childPid(s);
                    first = first == -1 ? pid : first;
                    assertThat(pid).as("unsandboxed session %d runs on the first one's child", i).isEqualTo(first);
                    s.consult(PROGRAM + ":- table q/1.\nq(X) :- pt_fact(X).\n:- dynamic d/1.\n");
                    GoalResult r = s.goal("p, q(1), assertz(d(1)), retract(d(1)), nb_setval(k, 1), "
                            + "split_string(\"a b\", \" \", \"\", [_, _]), sumlist([1, 2], 3)").run();
                    assertThat(r.outcome()).as("%s", r).isEqualTo(Outcome.SUCCESS);
                }
                assertThat(awaitRecycled(backend, i)).as("the child went back clean after session %d", i).isEqualTo(i);
            }
        }
    }
}

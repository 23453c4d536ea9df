package io.prologtool.conformance;

import io.prologtool.ConsultResult;
import io.prologtool.Diagnostic;
import io.prologtool.GoalResult;
import io.prologtool.Outcome;
import io.prologtool.PrologSession;
import io.prologtool.SessionOptions;
import io.prologtool.Term;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;

/** The sandbox and isolation between sessions. */
public abstract class SandboxConformanceTest extends BackendFixture {

    private static final SessionOptions SANDBOXED = SessionOptions.builder().sandboxed(true).build();

    private PrologSession victim;
    private PrologSession sandboxed;

    @BeforeEach
    void openVictimAndSandboxedSession() {
        victim = backend.open();
        victim.consult(":- dynamic secret/1.\nsecret(1).\n");
        sandboxed = backend.open(SANDBOXED);
    }

    @AfterEach
    void closeThem() {
        victim.close();
        sandboxed.close();
    }

    /** Hostile goals; {@code VICTIM} stands for the other session's module. */
    static final List<String> HOSTILE_GOALS = List.of(
            "shell('touch /tmp/pt-hostile-1')",
            "shell('touch /tmp/pt-hostile-2', _)",
            "process_create(path(touch), ['/tmp/pt-hostile-3'], [])",
            "open('/tmp/pt-hostile-4', write, S), write(S, x), close(S)",
            "open('/etc/passwd', read, _)",
            "read_file_to_string('/etc/passwd', _, [])",
            "see('/etc/passwd')",
            "tell('/tmp/pt-hostile-5')",
            "append('/tmp/pt-hostile-6')",
            "consult('/etc/passwd')",
            "ensure_loaded('/tmp/pt-hostile-7')",
            "load_files('/tmp/pt-hostile-7', [])",
            "['/tmp/pt-hostile-7']",
            "halt",
            "halt(1)",
            "'\\x68\\alt'",
            "G =.. [halt], call(G)",
            "atom_concat(ha, lt, H), call(H)",
            "system:halt",
            "call(system:halt)",
            "abort",
            "thread_create(true, _, [])",
            "thread_create(shell(ls), _, [])",
            "assertz(VICTIM:secret(2))",
            "VICTIM:assertz(secret(2))",
            "retract(VICTIM:secret(_))",
            "retractall(VICTIM:secret(_))",
            "VICTIM:secret(X)",
            "call(VICTIM:secret(X))",
            "M = VICTIM, M:secret(X)",
            "@(secret(X), VICTIM)",
            "assertz(user:term_expansion(_, _))",
            "user:assertz(message_hook(_, _, _))",
            "assertz(system:foo)",
            "set_prolog_flag(occurs_check, true)",
            "set_prolog_flag(gc, false)",
            "create_prolog_flag(pt_hostile, bar, [])",
            "op(700, xfx, user:is)",
            "op(200, xfy, system:(^))",
            "abolish(secret/1)",
            "current_module(M)",
            "setenv(pt_hostile, bar)",
            "unsetenv('PATH')",
            "delete_file('/tmp/pt-hostile-7')",
            "make_directory('/tmp/pt-hostile-dir')",
            "tmp_file(x, _)",
            "working_directory(_, '/')",
            "format(atom(A), '~w', [ls]), shell(A)",
            "catch(shell(ls), _, true)",
            "findall(X, shell(ls), _)",
            "\\+ shell(ls)",
            "forall(true, shell(ls))",
            "garbage_collect",
            "trace",
            "asserta((foo :- shell(ls)))",
            "assertz((foo(X) :- call(X)))",
            "thread_send_message(main, x)",
            "tcp_socket(_)",
            "set_stream(user_output, alias(foo))",
            "'$set_source_module'(_, user)");

    /** Hostile texts for consult; each must load nothing harmful. */
    static final List<String> HOSTILE_TEXTS = List.of(
            ":- shell('touch /tmp/pt-hostile-8').\n",
            ":- initialization(shell('touch /tmp/pt-hostile-9')).\n",
            ":- include('/etc/passwd').\n",
            "user:term_expansion(_, []).\n",
            "VICTIM:secret(3).\n",
            ":- assertz(VICTIM:secret(3)).\n",
            ":- VICTIM:retract(secret(1)).\n",
            "peek(X) :- VICTIM:secret(X).\n",
            ":- set_prolog_flag(occurs_check, true).\n",
            ":- halt.\n",
            ":- initialization(halt).\n",
            "user:message_hook(_, _, _) :- true.\n");

    private String withVictim(String text) {
        return text.replace("VICTIM", victim.moduleName());
    }

    @Test
    void hostileGoalsAreSandboxViolationsWithNoEffect() {
        assertThat(HOSTILE_GOALS).hasSizeGreaterThanOrEqualTo(50);
        List<String> accepted = new ArrayList<>();
        for (String goal : HOSTILE_GOALS) {
            GoalResult r = sandboxed.goal(withVictim(goal)).run();
            if (r.outcome() != Outcome.ERROR || !r.error().orElseThrow().kind().equals("sandbox_violation")) {
                accepted.add(goal + " -> " + r);
            }
        }
        assertThat(accepted).as("goals the sandbox let through").isEmpty();
        assertNoEffect();
    }

    @Test
    void hostileTextsLoadNothingHarmful() {
        for (String text : HOSTILE_TEXTS) {
            ConsultResult c = sandboxed.consult(withVictim(text));
            assertThat(c.errors()).as(text).isNotEmpty();
            assertThat(c.errors()).as(text).anySatisfy(d -> assertThat(d.kind()).isEqualTo("sandbox_violation"));
        }
        assertThat(sandboxed.goal("peek(X)").run().outcome()).isEqualTo(Outcome.ERROR);
        assertNoEffect();
        // the sandboxed session still works, and plain output is allowed
        sandboxed.consult("double(X, Y) :- Y is 2 * X.\nshow(X) :- write(X), nl.\n");
        GoalResult r = sandboxed.goal("double(21, Y), show(Y)").run();
        assertThat(r.answers().get(0).get("Y")).isEqualTo(Term.integer(42));
        assertThat(r.output()).isEqualTo("42\n");
    }

    /**
     * Texts the sandbox refuses whatever SWI-Prolog raises underneath (an instantiation error for a
     * load or a goal built at run time, a permission error for a hook clause or a main initialization).
     */
    static final List<String> REFUSED_TEXTS = List.of(
            ":- ensure_loaded('/tmp/pt-hostile-11').\n",
            ":- use_module('/tmp/pt-hostile-11').\n",
            ":- load_files('/tmp/pt-hostile-11', []).\n",
            ":- consult('/tmp/pt-hostile-11').\n",
            ":- ['/tmp/pt-hostile-11'].\n",
            ":- G = true, call(G).\n",
            ":- G =.. [write, x], G.\n",
            ":- initialization(main, main).\nmain :- write(hi).\n",
            "user:portray(_) :- true.\n",
            "prolog:message(pt_hostile) --> [].\n",
            ":- catch(halt, _, true).\n");

    @Test
    void everySandboxRefusalInATextIsASandboxViolationWithSwiPrologsMessage() {
        List<String> wrong = new ArrayList<>();
        for (String text : REFUSED_TEXTS) {
            try (PrologSession s = backend.open(SANDBOXED)) {
                ConsultResult c = s.consult(text);
                if (c.errors().isEmpty() || !c.errors().stream().allMatch(d -> d.kind().equals("sandbox_violation")
                        && d.line() == 1 && !d.message().isBlank())) {
                    wrong.add(text.strip() + " -> " + c.messages());
                }
                assertThat(s.goal("X = 1").run().outcome()).isEqualTo(Outcome.SUCCESS);
            }
        }
        assertThat(wrong).as("refusals of another kind").isEmpty();
        try (PrologSession s = backend.open(SANDBOXED)) {
            // SWI-Prolog's own words stay in the message
            assertThat(s.consult(":- G = true, call(G).\n").errors().get(0).message())
                    .contains("Could not derive which predicate may be called");
            assertThat(s.consult("user:portray(_) :- true.\n").errors().get(0).message()).contains("portray");
        }
    }

    @Test
    void refusingHaltIsNothingSessionCodeCanCatch() {
        List<String> goals = List.of("catch(halt, _, true)", "catch(halt(0), _, true)", "catch(abort, _, true)",
                "catch(call(halt), _, true)", "catch_with_backtrace(halt, _, true)", "ignore(halt)", "\\+ halt");
        List<String> wrong = new ArrayList<>();
        for (String goal : goals) {
            GoalResult r = sandboxed.goal(goal).run();
            GoalResult checked = session.goal(goal).allowSideEffects(false).run();
            for (GoalResult g : List.of(r, checked)) {
                if (g.outcome() != Outcome.ERROR || !g.error().orElseThrow().kind().equals("sandbox_violation")
                        || !g.error().orElseThrow().message().matches("(?s).*\\b(halt|abort)\\b.*")) {
                    wrong.add(goal + " -> " + g);
                }
            }
        }
        assertThat(wrong).as("refusals that were caught or do not name the goal").isEmpty();
        ConsultResult c = sandboxed.consult(":- catch(halt, _, true).\nok.\n");
        assertThat(c.errors()).singleElement().satisfies(d -> {
            assertThat(d.kind()).isEqualTo("sandbox_violation");
            assertThat(d.message()).contains("halt");
        });
        assertThat(sandboxed.goal("ok").run().outcome()).isEqualTo(Outcome.SUCCESS);
    }

    @Test
    void printingIsAllowedInTheSandbox() {
        for (String goal : List.of("format(\"hi~n\")", "format(\"~w~n\", [hi])", "format(atom(A), \"~w\", [hi])",
                "writeln(hi)", "print_message(error, format(\"hi\", []))")) {
            GoalResult r = sandboxed.goal(goal).run();
            assertThat(r.outcome()).as("%s: %s", goal, r).isEqualTo(Outcome.SUCCESS);
        }
        assertThat(sandboxed.goal("format(\"hi~n\")").run().output()).isEqualTo("hi\n");
        assertThat(sandboxed.goal("format(\"~@\", [shell(ls)])").run().error().orElseThrow().kind())
                .isEqualTo("sandbox_violation");
    }

    @Test
    void isolationHoldsWithoutTheSandboxToo() {
        try (PrologSession plain = backend.open()) {
            for (String goal : List.of("VICTIM:secret(X)", "assertz(VICTIM:secret(2))", "VICTIM:assertz(secret(2))",
                    "retract(VICTIM:secret(_))", "assertz(user:term_expansion(_, _))",
                    "set_prolog_flag(occurs_check, true)")) {
                GoalResult r = plain.goal(withVictim(goal)).run();
                assertThat(r.outcome()).as(goal).isEqualTo(Outcome.ERROR);
                assertThat(r.error().orElseThrow().kind()).as(goal).isEqualTo("sandbox_violation");
            }
            ConsultResult c = plain.consult(withVictim("VICTIM:secret(5).\npeek(X) :- VICTIM:secret(X).\nok(1).\n"));
            assertThat(c.errors()).extracting(Diagnostic::kind).containsOnly("sandbox_violation");
            assertThat(c.errors()).extracting(Diagnostic::line).containsExactly(1, 2);
            // flags and operators a session sets are its own
            plain.consult(":- set_prolog_flag(double_quotes, codes).\n:- op(700, xfx, ===>).\nr(a ===> b).\n");
            assertThat(plain.goal("X = \"ab\"").run().answers().get(0).get("X"))
                    .isEqualTo(Term.list(Term.integer(97), Term.integer(98)));
            assertThat(victim.goal("X = \"ab\"").run().answers().get(0).get("X")).isEqualTo(Term.string("ab"));
            assertThat(victim.goal("X = (a ===> b)").run().error().orElseThrow().kind()).isEqualTo("syntax_error");
        }
        assertNoEffect();
    }

    @Test
    void isolationLooksIntoEveryArgumentAndOnlyIntoTerms() {
        try (PrologSession plain = backend.open()) {
            for (String goal : List.of("findall(X, (member(X, [1]) ; [a, f(VICTIM:secret(X))] = _), _)",
                    "forall(member(G, [true]), (G, run_tests))",
                    "call((true, (fail ; create_prolog_flag(pt_hostile, 1, []))))",
                    "X = g(h, [i, j(set_prolog_flag(gc, false))]), call(X)")) {
                GoalResult r = plain.goal(withVictim(goal)).run();
                assertThat(r.error().map(e -> e.kind())).as(goal).contains("sandbox_violation");
            }
            ConsultResult c = plain.consult(withVictim("""
                    ok(G) :- call(G).
                    fine(X) :- X = [a, [b, [c, d:e]]].
                    deep(X) :- X = [a, [b, [c, VICTIM:secret(1)]]].
                    later(X) :- length(L, 2), nth1(2, L, X), call(X).
                    """));
            assertThat(c.errors()).extracting(Diagnostic::line).containsExactly(3);
            // variables are not taken for the names a violation looks for
            assertThat(plain.goal("ok(true), fine(F), later(true)").run().outcome()).isEqualTo(Outcome.SUCCESS);
        }
        assertNoEffect();
    }

    @Test
    void allowSideEffectsFalseChecksOneGoalOfAPlainSession() {
        GoalResult r = session.goal("shell('touch /tmp/pt-hostile-10')").allowSideEffects(false).run();
        assertThat(r.error().orElseThrow().kind()).isEqualTo("sandbox_violation");
        assertThat(Path.of("/tmp/pt-hostile-10")).doesNotExist();
    }

    @Test
    void theProblemsGiveTheirExpectedAnswersInTheSandbox() {
        List<String> wrong = new ArrayList<>();
        for (Problems.Problem p : Problems.all()) {
            try (PrologSession s = backend.open(SANDBOXED)) {
                ConsultResult c = s.consult(p.code());
                assertThat(c.errors()).as(p.id()).isEmpty();
                GoalResult r = s.goal(p.query()).maxAnswers(1000).run();
                if (!Problems.answers(p, r)) {
                    wrong.add(p.id() + ": " + r);
                }
            }
        }
        assertThat(wrong).isEmpty();
    }

    private void assertNoEffect() {
        try (Stream<Path> tmp = Files.list(Path.of("/tmp"))) {
            assertThat(tmp.map(p -> p.getFileName().toString()).filter(n -> n.startsWith("pt-hostile")))
                    .as("files the hostile code made").isEmpty();
        } catch (IOException e) {
            throw new AssertionError(e);
        }
        assertThat(victim.goal("secret(X)").run().answers()).extracting(a -> a.get("X"))
                .containsExactly(Term.integer(1));
        assertThat(victim.goal("current_prolog_flag(occurs_check, F)").run().answers().get(0).get("F"))
                .isEqualTo(Term.atom("false"));
        assertThat(victim.goal("current_prolog_flag(gc, F)").run().answers().get(0).get("F"))
                .isEqualTo(Term.atom("true"));
        assertThat(sandboxed.goal("X = alive").run().outcome()).isEqualTo(Outcome.SUCCESS);
    }

    /**
     * Issue 36: operators and global variables of a sandboxed session are its own (they were refused with an
     * existence error of a guard predicate): the sibling reads and runs as before.
     */
    @Test
    void operatorsAndGlobalVariablesOfASandboxedSessionAreItsOwn() {
        for (String goal : List.of("op(700, xfx, is)", "op(200, xfy, ^)", "op(1200, xfx, :-)", "nb_setval(k, 1)",
                "b_setval(k, 1)", "flag(k, _, 3)", "recorda(k, x)")) {
            GoalResult r = sandboxed.goal(goal).run();
            assertThat(r.outcome()).as(goal + " -> " + r).isEqualTo(Outcome.SUCCESS);
        }
        GoalResult v = victim.goal("X is 1 + 2, Y = (a :- b), Z = 2^3, secret(S), "
                + "catch(nb_getval(k, _), error(existence_error(_, _), _), true), flag(k, F, F), \\+ recorded(k, _)").run();
        assertThat(v.outcome()).as(v.toString()).isEqualTo(Outcome.SUCCESS);
        assertThat(v.answers().get(0).get("F")).isEqualTo(Term.integer(0));
        assertNoEffect();
    }

    /** Found by the fuzzer: the guard of sformat/2,3 writes into a string, bounded as format/3 is. */
    @Test
    void sformatWritesIntoAStringInASandboxedSession() {
        GoalResult r = sandboxed.goal("sformat(S, '~*c', [1000, 0'y]), string_length(S, L), sformat(T, \"ab\")").run();
        assertThat(r.outcome()).as(r.toString()).isEqualTo(Outcome.SUCCESS);
        assertThat(r.answers().get(0).get("L")).isEqualTo(Term.integer(1000));
        GoalResult big = sandboxed.goal("sformat(S, '~*c', [100000000, 0'y])").run();
        assertThat(big.outcome()).as(big.toString()).isEqualTo(Outcome.ERROR);
        assertThat(big.error().orElseThrow().kind()).isEqualTo("resource_error");
    }
}

package io.prologtool.examples;

import io.prologtool.Answer;
import io.prologtool.ConsultResult;
import io.prologtool.Diagnostic;
import io.prologtool.GoalResult;
import io.prologtool.PrologBackend;
import io.prologtool.PrologSession;
import io.prologtool.process.ProcessBackend;

import java.io.PrintStream;
import java.time.Duration;

/**
 * {@code make demo}: loads a small real program with one broken clause, shows the diagnostic, runs
 * goals, shows a bounded runaway goal and an error as data, then repairs the program and runs again:
 * the translate-run-inspect-repair loop an agent goes through.
 */
public final class Demo {

    static final String PROGRAM = """
            % A family and a small scheduling rule.
            parent(tom, bob).
            parent(tom, liz).
            parent(bob, ann).
            parent(bob, pat).
            parent(pat, jim).
            parent(liz, sue).

            ancestor(X, Y) :- parent(X, Y).
            ancestor(X, Y) :- parent(X, Z), ancestor(Z, Y).

            generation(X, Y, 1) :- parent(X, Y).
            generation(X, Y, N) :- parent(X, Z), generation(Z, Y, M), N is M + 1.

            sibling(X, Y) :- parent(P, X), parent(P, Y), X \\== Y.

            % The next clause is broken: a missing closing parenthesis.
            cousin(X, Y) :- parent(A, X), parent(B, Y), sibling(A, B.
            """;

    private Demo() {
    }

    public static void main(String[] args) {
        PrintStream out = System.out;
        long t0 = System.nanoTime();
        try (PrologBackend backend = ProcessBackend.builder().build();
             PrologSession s = backend.open()) {
            out.println("prologtool demo on the " + backend.name() + " backend, session " + s.id());
            out.println();

            out.println("1. consult a program with a broken clause");
            ConsultResult c = s.consult(PROGRAM);
            for (Diagnostic d : c.messages()) {
                out.println("   " + d);
            }
            out.println();

            out.println("2. the clauses that compiled are loaded; run goals");
            show(out, s, "ancestor(tom, Who)", s.goal("ancestor(tom, Who)").run());
            show(out, s, "generation(tom, jim, N)", s.goal("generation(tom, jim, N)").run());
            show(out, s, "X is 2 ** 100", s.goal("X is 2 ** 100").run());
            show(out, s, "atom_length('héllo wörld', L)", s.goal("atom_length('héllo wörld', L)").run());
            out.println();

            out.println("3. bounds are outcomes, errors are data");
            show(out, s, "between(1, inf, X) [maxAnswers 3]", s.goal("between(1, inf, X)").maxAnswers(3).run());
            show(out, s, "repeat, fail [timeLimit 300 ms]",
                    s.goal("repeat, fail").timeLimit(Duration.ofMillis(300)).run());
            show(out, s, "cousin(ann, X)", s.goal("cousin(ann, X)").run());
            show(out, s, "ancestr(tom, X)", s.goal("ancestr(tom, X)").run());
            show(out, s, "halt", s.goal("halt").run());
            out.println();

            out.println("4. repair: consult the fixed clause, run again");
            ConsultResult fix = s.consult(
                    "cousin(X, Y) :- parent(A, X), parent(B, Y), sibling(A, B).\n");
            out.println("   diagnostics: " + (fix.messages().isEmpty() ? "none" : fix.messages()));
            show(out, s, "cousin(ann, X)", s.goal("cousin(ann, X)").run());
        }
        out.printf("%ndone in %d ms%n", (System.nanoTime() - t0) / 1_000_000);
    }

    private static void show(PrintStream out, PrologSession s, String label, GoalResult r) {
        out.printf("   ?- %-36s %s", label, r.outcome());
        r.error().ifPresent(e -> out.print(" " + e.kind() + ": " + e.message()));
        out.println(r.truncated() ? " (more answers exist)" : "");
        for (Answer a : r.answers()) {
            out.println("        " + a);
        }
    }
}

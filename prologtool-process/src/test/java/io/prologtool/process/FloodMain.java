package io.prologtool.process;

import io.prologtool.GoalResult;
import io.prologtool.PrologSession;

import java.time.Duration;

/**
 * Run in a JVM with a small heap by {@link ProcessResilienceTest}: a goal writes to the child's real
 * standard output without ever writing a newline. Prints the outcome, the error and the heap in use.
 */
public final class FloodMain {

    public static void main(String[] args) {
        try (ProcessBackend backend = ProcessBackend.builder().isolation(Isolation.none()).build();
             PrologSession s = backend.open()) {
            s.consult("ok(yes).");
            GoalResult r = s.goal("stream_property(S, file_no(1)), "
                    + "length(L, 65536), maplist(=(0'a), L), atom_codes(A, L), "
                    + "repeat, write(S, A), fail").timeLimit(Duration.ofSeconds(20)).run();
            System.out.println("outcome=" + r.outcome());
            System.out.println("error=" + r.error().map(e -> e.kind() + ": " + e.message()).orElse("none"));
            GoalResult after = s.goal("ok(X)").run();
            System.out.println("after=" + after.outcome() + " " + after.answers());
            Runtime rt = Runtime.getRuntime();
            System.gc();
            System.out.println("heap_used_mib=" + ((rt.totalMemory() - rt.freeMemory()) >> 20));
        }
    }
}

package app;

import io.prologtool.PrologBackend;
import io.prologtool.PrologSession;
import io.prologtool.jpl.JplBackend;
import io.prologtool.process.ProcessBackend;
import io.prologtool.tools.PrologTools;

public final class Main {

    private Main() {
    }

    public static void main(String[] args) {
        try (PrologBackend process = ProcessBackend.builder().build();
             PrologSession s = process.open()) {
            s.consult("p(1). p(2).");
            System.out.println("process " + s.goal("p(X)").run().answers());
            try (PrologTools tools = PrologTools.over(process)) {
                System.out.println("tools " + tools.call("consult_text", "{\"source_text\": \"q(1).\"}"));
            }
        }
        try (PrologBackend jpl = JplBackend.get();
             PrologSession s = jpl.open()) {
            s.consult("p(1). p(2).");
            System.out.println("jpl " + s.goal("p(X)").run().answers());
        }
    }
}

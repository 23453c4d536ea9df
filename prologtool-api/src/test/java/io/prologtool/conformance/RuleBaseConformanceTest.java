package io.prologtool.conformance;

import io.prologtool.ConsultResult;
import io.prologtool.Diagnostic;
import io.prologtool.PrologExecutor;
import io.prologtool.PrologSession;
import io.prologtool.RuleBaseError;
import io.prologtool.RuleBaseInfo;
import io.prologtool.RuleBaseResult;
import io.prologtool.RuleBaseStore;
import io.prologtool.SessionOptions;
import io.prologtool.Severity;
import io.prologtool.Term;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * {@link RuleBaseStore} with a real Prolog behind its syntax check, and sessions that load rule bases by
 * name ({@link PrologSession#useRuleBase(String)}).
 */
public abstract class RuleBaseConformanceTest extends BackendFixture {

    protected Path dir;
    protected RuleBaseStore store;
    private PrologExecutor executor;

    @BeforeAll
    void openStore() throws IOException {
        dir = Files.createTempDirectory("prologtool-rules-");
        executor = PrologExecutor.builder(backend).scratchSessions(1).ruleBases(RuleBaseStore.directory(dir)).build();
        store = executor.ruleBases();
    }

    @AfterAll
    void closeStore() throws IOException {
        executor.close();
        try (var files = Files.walk(dir)) {
            files.sorted(java.util.Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
        }
    }

    @Test
    void saveChecksSyntaxWithProlog() {
        RuleBaseResult<Boolean> r = store.save("broken", "% description: broken\np(1).\nq(X) :- p(X.\nr(1).\n");
        RuleBaseError e = r.error().orElseThrow();
        assertThat(e.code().wireName()).isEqualTo("RULEBASE_003");
        assertThat(e.line()).isEqualTo(3);
        assertThat(e.message()).startsWith("Syntax error at line 3");
        assertThat(dir.resolve("broken.pl")).doesNotExist();
        assertThat(store.save("fine", "p(1).\nq(X) :- p(X).\n").value()).isTrue();
    }

    @Test
    void saveRunsNothing() {
        Path marker = dir.resolve("marker-" + System.nanoTime());
        String quoted = "'" + marker.toString().replace("'", "\\'") + "'";
        String content = ":- open(" + quoted + ", write, S), close(S).\n"
                + ":- initialization((open(" + quoted + ", write, S), close(S))).\n"
                + ":- halt.\np(1).\n";
        assertThat(store.save("inert", content).isOk()).isTrue();
        assertThat(marker).doesNotExist();
    }

    @Test
    void operatorsDeclaredInTheTextAndByLibrariesAreRespected() {
        assertThat(store.save("ops", ":- op(700, xfx, ===>).\na ===> b.\n").isOk()).isTrue();
        assertThat(store.save("clp", ":- use_module(library(clpfd)).\nsmall(X) :- X in 1..3, X #\\= 2.\n").isOk())
                .isTrue();
        // the preloaded libraries' operators need no declaration, as in a session
        assertThat(store.save("clp_plain", "small(X) :- X in 1..3, X #\\= 2.\n").isOk()).isTrue();
        // without the declaration the operator is a syntax error
        assertThat(store.save("noop", "a ===> b.\n").error().orElseThrow().code())
                .isEqualTo(RuleBaseError.Code.SYNTAX_ERROR);
        // and declarations of one check do not leak into the next
        assertThat(store.save("noop2", "c ===> d.\n").isOk()).isFalse();
    }

    @Test
    void singletonWarningsDoNotStopASave() {
        assertThat(store.save("single", "p(X) :- q(Y).\nq(1).\n").isOk()).isTrue();
    }

    @Test
    void theExecutorChecksSyntaxWithoutRunning() {
        List<Diagnostic> ds = executor.checkSyntax("p(1).\nq(:- .\nr(Y).\n");
        assertThat(ds).extracting(Diagnostic::severity, Diagnostic::line)
                .containsExactly(org.assertj.core.groups.Tuple.tuple(Severity.ERROR, 2),
                        org.assertj.core.groups.Tuple.tuple(Severity.WARNING, 3));
    }

    @Test
    void bundledRuleBasesAreListedFromTheClasspath() {
        List<RuleBaseInfo> all = store.list().value();
        assertThat(all).extracting(RuleBaseInfo::name).contains("family", "scheduling");
        assertThat(all).filteredOn(i -> i.name().equals("scheduling")).singleElement()
                .satisfies(i -> assertThat(i.tags()).contains("clpfd", "scheduling"));
    }

    @Test
    void theBundledRuleBasesPassTheSyntaxCheck() {
        for (String name : List.of("family", "scheduling")) {
            assertThat(executor.checkSyntax(store.get(name).value()))
                    .as(name).noneMatch(d -> d.severity() != Severity.INFO);
        }
    }

    @Test
    void aSessionLoadsARuleBaseByName() {
        try (PrologSession s = backend.open(SessionOptions.builder().ruleBases(store).build())) {
            assertThat(s.ruleBases()).isSameAs(store);
            ConsultResult c = s.useRuleBase("family");
            assertThat(c.hasErrors()).as("%s", c.messages()).isFalse();
            s.consult("parent(tom, bob). parent(bob, ann).");
            assertThat(s.goal("grandparent(tom, X)").run().answers()).extracting(a -> a.get("X"))
                    .containsExactly(Term.atom("ann"));
            assertThat(s.source()).contains("grandparent(");
        }
    }

    @Test
    void anUnknownOrBadRuleBaseNameIsADiagnosticAndLoadsNothing() {
        try (PrologSession s = backend.open(SessionOptions.builder().ruleBases(store).build())) {
            ConsultResult missing = s.useRuleBase("famly");
            assertThat(missing.hasErrors()).isTrue();
            assertThat(missing.messages()).singleElement().satisfies(d -> {
                assertThat(d.kind()).isEqualTo("load_error");
                assertThat(d.message()).startsWith("RULEBASE_001: ").contains("Did you mean 'family'?");
            });
            assertThat(s.useRuleBase("No Such").messages().get(0).message()).startsWith("RULEBASE_002");
            assertThat(s.predicates()).isEmpty();
        }
    }

    @Test
    void aRuleBasesDiagnosticsHaveLinesInItsOwnText() throws IOException {
        Files.writeString(dir.resolve("warned.pl"), "ok(1).\nwarn(X) :- ok(Y).\n"); // written by hand
        try (PrologSession s = backend.open(SessionOptions.builder().ruleBases(store).build())) {
            s.consult("a.\nb.\nc.\n");
            ConsultResult w = s.useRuleBase("warned");
            assertThat(w.messages()).extracting(Diagnostic::kind, Diagnostic::line)
                    .contains(org.assertj.core.groups.Tuple.tuple("singleton", 2));
        }
    }
}

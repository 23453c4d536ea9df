package io.prologtool;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.function.Function;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * {@link RuleBaseStore} on temporary directories, without Prolog: the syntax check is a stand-in that
 * calls any text containing {@code SYNTAX-ERROR} a syntax error at its line.
 */
class RuleBaseStoreTest {

    @TempDir
    Path dir;

    private static final Function<String, List<Diagnostic>> FAKE_CHECK = text -> {
        String[] lines = text.split("\n", -1);
        List<Diagnostic> out = new ArrayList<>();
        for (int i = 0; i < lines.length; i++) {
            if (lines[i].contains("SYNTAX-ERROR")) {
                out.add(new Diagnostic(Severity.ERROR, "syntax_error", "Syntax error: Operator expected", i + 1, 3));
            }
        }
        return out;
    };

    private RuleBaseStore store() {
        return RuleBaseStore.directory(dir).checkedWith(FAKE_CHECK);
    }

    private static RuleBaseError.Code code(RuleBaseResult<?> r) {
        return r.error().orElseThrow(() -> new AssertionError("expected a failure, got " + r)).code();
    }

    @Test
    void saveCreatesThenOverwritesAndGetReturnsTheText() {
        RuleBaseStore s = store();
        assertThat(s.save("rules", "p(1).\n").value()).isTrue();
        assertThat(s.get("rules").value()).isEqualTo("p(1).\n");
        assertThat(s.save("rules", "p(2).\n").value()).isFalse();
        assertThat(s.get("rules").value()).isEqualTo("p(2).\n");
        assertThat(dir.resolve("rules.pl")).hasContent("p(2).");
    }

    @Test
    void namesAreLowercaseLettersDigitsUnderscoreAndDashUpTo64() {
        RuleBaseStore s = store();
        for (String ok : List.of("a", "chess_moves", "tax-2024", "x".repeat(64), "0")) {
            assertThat(s.save(ok, "p.").isOk()).as(ok).isTrue();
        }
        for (String bad : List.of("", "Chess", "a.b", "../etc", "a b", "x".repeat(65), "a/b", "é")) {
            assertThat(code(s.save(bad, "p."))).as(bad).isEqualTo(RuleBaseError.Code.INVALID_NAME);
            assertThat(code(s.get(bad))).as(bad).isEqualTo(RuleBaseError.Code.INVALID_NAME);
            assertThat(code(s.delete(bad))).as(bad).isEqualTo(RuleBaseError.Code.INVALID_NAME);
        }
        assertThat(code(s.get(null))).isEqualTo(RuleBaseError.Code.INVALID_NAME);
        assertThat(s.save("Bad", "p.").error().get().code().wireName()).isEqualTo("RULEBASE_002");
    }

    @Test
    void notFoundSuggestsTheClosestName() {
        RuleBaseStore s = store().withoutBundled();
        s.save("chess_moves", "p.");
        s.save("tax_rules", "p.");
        RuleBaseResult<String> r = s.get("chess_move");
        RuleBaseError e = r.error().orElseThrow();
        assertThat(e.code()).isEqualTo(RuleBaseError.Code.NOT_FOUND);
        assertThat(e.code().wireName()).isEqualTo("RULEBASE_001");
        assertThat(e.didYouMean()).contains("chess_moves");
        assertThat(e.message()).contains("'chess_move' not found").contains("Did you mean 'chess_moves'?")
                .contains("chess_moves, tax_rules");
        assertThat(s.get("zzzzzzzz").error().orElseThrow().didYouMean()).isEmpty();
        assertThat(code(s.delete("chess_move"))).isEqualTo(RuleBaseError.Code.NOT_FOUND);
    }

    @Test
    void syntaxErrorsAreRefusedWithTheirLineAndNothingIsWritten() {
        RuleBaseStore s = store();
        RuleBaseResult<Boolean> r = s.save("broken", "p(1).\nq(X) :- SYNTAX-ERROR.\n");
        RuleBaseError e = r.error().orElseThrow();
        assertThat(e.code().wireName()).isEqualTo("RULEBASE_003");
        assertThat(e.line()).isEqualTo(2);
        assertThat(e.message()).contains("line 2, column 3");
        assertThat(dir.resolve("broken.pl")).doesNotExist();
    }

    @Test
    void aStoreWithoutAPrologCannotSave() {
        RuleBaseResult<Boolean> r = RuleBaseStore.directory(dir).save("rules", "p.");
        assertThat(code(r)).isEqualTo(RuleBaseError.Code.SYNTAX_ERROR);
        assertThat(r.error().get().message()).contains("checkedBy");
        assertThat(RuleBaseStore.directory(dir).isChecked()).isFalse();
        assertThat(store().isChecked()).isTrue();
    }

    @Test
    void contentOverTheSizeCapIsRefused() {
        RuleBaseStore s = store().maxSize(100);
        assertThat(s.save("small", "p(" + "a".repeat(90) + ").").isOk()).isTrue();
        RuleBaseResult<Boolean> r = s.save("big", "p(" + "a".repeat(200) + ").");
        assertThat(r.error().get().code().wireName()).isEqualTo("RULEBASE_005");
        assertThat(dir.resolve("big.pl")).doesNotExist();
        // bytes, not characters
        assertThat(code(s.save("wide", "p('" + "é".repeat(60) + "')."))).isEqualTo(RuleBaseError.Code.TOO_LARGE);
        assertThat(RuleBaseStore.directory(dir).maxSize()).isEqualTo(1 << 20);
    }

    @Test
    void aFileOverTheCapOnDiskIsNotRead() throws IOException {
        Files.writeString(dir.resolve("huge.pl"), "p(" + "a".repeat(500) + ").");
        assertThat(code(store().maxSize(100).get("huge"))).isEqualTo(RuleBaseError.Code.TOO_LARGE);
    }

    @Test
    void listGivesNameDescriptionAndTagsSortedByName() {
        RuleBaseStore s = store().withoutBundled();
        s.save("zoo", "% description: Animals and where they live\n% tags: animals, zoo , ,habitat\np(1).\n");
        s.save("alpha", "% just a comment\n%   DESCRIPTION:   First rules  \np.\n% tags: late, ignored\n");
        s.save("bare", "p.\n% description: not leading\n");
        List<RuleBaseInfo> all = s.list().value();
        assertThat(all).extracting(RuleBaseInfo::name).containsExactly("alpha", "bare", "zoo");
        assertThat(all.get(0).description()).isEqualTo("First rules");
        assertThat(all.get(0).tags()).isEmpty();
        assertThat(all.get(1).description()).isEmpty();
        assertThat(all.get(2).description()).isEqualTo("Animals and where they live");
        assertThat(all.get(2).tags()).containsExactly("animals", "zoo", "habitat");
        assertThat(all).allMatch(i -> !i.bundled());
    }

    @Test
    void listIgnoresFilesThatAreNotRuleBases() throws IOException {
        Files.writeString(dir.resolve("README.txt"), "x");
        Files.writeString(dir.resolve("Upper.pl"), "x.");
        Files.writeString(dir.resolve(".tmp.x.pl"), "x.");
        Files.createDirectories(dir.resolve("sub.pl"));
        Files.writeString(dir.resolve("good.pl"), "x.");
        assertThat(store().withoutBundled().list().value()).extracting(RuleBaseInfo::name).containsExactly("good");
    }

    @Test
    void deleteRemovesARuleBase() {
        RuleBaseStore s = store();
        s.save("gone", "p.");
        assertThat(s.delete("gone").value()).isTrue();
        assertThat(code(s.get("gone"))).isEqualTo(RuleBaseError.Code.NOT_FOUND);
        assertThat(dir.resolve("gone.pl")).doesNotExist();
    }

    @Test
    void bundledRuleBasesAreListedAndADirectoryEntryOverridesThem() {
        RuleBaseStore s = store();
        List<RuleBaseInfo> all = s.list().value();
        assertThat(all).extracting(RuleBaseInfo::name).contains("family", "scheduling");
        RuleBaseInfo family = all.stream().filter(i -> i.name().equals("family")).findFirst().orElseThrow();
        assertThat(family.bundled()).isTrue();
        assertThat(family.description()).startsWith("Family relations");
        assertThat(family.tags()).contains("family");
        assertThat(s.get("scheduling").value()).contains("cumulative(");

        assertThat(s.save("family", "% description: mine\nmine.\n").value()).isTrue();
        assertThat(s.get("family").value()).isEqualTo("% description: mine\nmine.\n");
        RuleBaseInfo mine = s.list().value().stream().filter(i -> i.name().equals("family")).findFirst().orElseThrow();
        assertThat(mine.bundled()).isFalse();
        assertThat(mine.description()).isEqualTo("mine");

        assertThat(s.delete("family").value()).isTrue(); // the bundled one is back
        assertThat(s.get("family").value()).contains("grandparent");
        RuleBaseResult<Boolean> again = s.delete("family");
        assertThat(again.error().get().code().wireName()).isEqualTo("RULEBASE_004");
        assertThat(again.error().get().message()).contains("bundled");
        assertThat(s.withoutBundled().list().value()).isEmpty();
        assertThat(code(s.withoutBundled().get("family"))).isEqualTo(RuleBaseError.Code.NOT_FOUND);
    }

    @Test
    void listReadsASavedFileAgainOnlyWhenItChanged() throws IOException {
        RuleBaseStore s = store();
        s.save("kept", "% description: first\nk.\n");
        assertThat(description(s, "kept")).isEqualTo("first");
        Path f = dir.resolve("kept.pl");
        var before = Files.getLastModifiedTime(f);
        // the same file, size and time with other text: remembered, not read again
        Files.writeString(f, "% description: other\nk.\n");
        Files.setLastModifiedTime(f, before);
        assertThat(description(s, "kept")).isEqualTo("first");
        // changed as a save or an editor changes it: read again
        Files.writeString(f, "% description: second one\nk.\n");
        assertThat(description(s, "kept")).isEqualTo("second one");
        s.save("kept", "% description: third\nk.\n");
        assertThat(description(s, "kept")).isEqualTo("third");
        Files.delete(f);
        assertThat(s.list().value()).extracting(RuleBaseInfo::name).doesNotContain("kept");
    }

    private static String description(RuleBaseStore s, String name) {
        return s.list().value().stream().filter(i -> i.name().equals(name)).findFirst().orElseThrow().description();
    }

    @Test
    void bundledRuleBasesAreReadOncePerClassLoader() {
        Map<String, Integer> reads = new ConcurrentHashMap<>();
        ClassLoader counting = new ClassLoader(getClass().getClassLoader()) {
            @Override
            public java.net.URL getResource(String name) {
                reads.merge(name, 1, Integer::sum);
                return super.getResource(name);
            }

            @Override
            public java.util.Enumeration<java.net.URL> getResources(String name) throws IOException {
                reads.merge(name, 1, Integer::sum);
                return super.getResources(name);
            }
        };
        RuleBaseStore s = RuleBaseStore.directory(dir, counting).checkedWith(FAKE_CHECK);
        for (int i = 0; i < 3; i++) {
            assertThat(s.list().value()).extracting(RuleBaseInfo::name).contains("family", "scheduling");
            assertThat(s.get("family").value()).contains("grandparent");
            assertThat(s.maxSize(1 << 16).get("scheduling").value()).contains("cumulative(");
        }
        assertThat(reads).containsEntry(RuleBaseStore.BUNDLED_FOLDER, 1)
                .containsEntry(RuleBaseStore.BUNDLED_FOLDER + "/family.pl", 1)
                .containsEntry(RuleBaseStore.BUNDLED_FOLDER + "/scheduling.pl", 1);
        assertThat(s.maxSize(10).get("family").error()).as("the cap still applies to a text read before")
                .hasValueSatisfying(e -> assertThat(e.code()).isEqualTo(RuleBaseError.Code.TOO_LARGE));
    }

    @Test
    void ioFailuresAreRulebase004() throws IOException {
        Path file = dir.resolve("not-a-dir");
        Files.writeString(file, "x");
        RuleBaseStore s = RuleBaseStore.directory(file).checkedWith(FAKE_CHECK);
        assertThat(s.save("x", "p.").error().get().code().wireName()).isEqualTo("RULEBASE_004");
        assertThat(code(s.get("x"))).isEqualTo(RuleBaseError.Code.IO_ERROR);
    }

    @Test
    void theCheckerFailingIsAnIoErrorNotASyntaxError() {
        RuleBaseStore s = RuleBaseStore.directory(dir).checkedWith(t -> {
            throw new PrologUnavailableException("no swipl here");
        });
        RuleBaseResult<Boolean> r = s.save("x", "p.");
        assertThat(code(r)).isEqualTo(RuleBaseError.Code.IO_ERROR);
        assertThat(r.error().get().message()).contains("no swipl here");
    }

    @Test
    void aByteOrderMarkIsDroppedOnRead() throws IOException {
        Files.write(dir.resolve("bom.pl"), "\uFEFFp(1).".getBytes(java.nio.charset.StandardCharsets.UTF_8));
        assertThat(store().get("bom").value()).isEqualTo("p(1).");
    }

    @Test
    void theDefaultDirectoryIsOverriddenByTheEnvironment() {
        assertThat(RuleBaseStore.defaultDirectory(Map.of(), "/home/u")).isEqualTo(Path.of("/home/u/.prologtool/rules"));
        assertThat(RuleBaseStore.defaultDirectory(Map.of("PROLOGTOOL_RULES_DIR", "/srv/rules"), "/home/u"))
                .isEqualTo(Path.of("/srv/rules"));
        assertThat(RuleBaseStore.defaultDirectory(Map.of("PROLOGTOOL_RULES_DIR", " "), "/home/u"))
                .isEqualTo(Path.of("/home/u/.prologtool/rules"));
        assertThat(RuleBaseStore.defaultStore().directory()).isEqualTo(
                RuleBaseStore.defaultDirectory(System.getenv(), System.getProperty("user.home")).toAbsolutePath());
        assertThat(SessionOptions.defaults().ruleBases()).isSameAs(RuleBaseStore.defaultStore());
    }

    @Test
    void concurrentSavesAndGetsOfOneNameNeverTear() throws Exception {
        RuleBaseStore s = store();
        int threads = 8;
        Set<String> versions = ConcurrentHashMap.newKeySet();
        List<String> texts = new ArrayList<>();
        for (int t = 0; t < threads; t++) {
            // big enough that a torn read would show: 256 KiB, one distinct letter per writer
            String text = "% description: version " + t + "\n" + ("p(" + (char) ('a' + t) + ").\n").repeat(40_000);
            texts.add(text);
            versions.add(text);
        }
        s.save("shared", texts.get(0));
        ExecutorService pool = Executors.newFixedThreadPool(threads);
        CountDownLatch go = new CountDownLatch(1);
        try {
            List<Future<Integer>> fs = new ArrayList<>();
            for (int t = 0; t < threads; t++) {
                int me = t;
                fs.add(pool.submit(() -> {
                    go.await();
                    int reads = 0;
                    for (int i = 0; i < 40; i++) {
                        if ((i + me) % 2 == 0) {
                            assertThat(s.save("shared", texts.get(me)).isOk()).isTrue();
                        } else {
                            String got = s.get("shared").value();
                            assertThat(versions.contains(got)).as("a read saw a mix of versions").isTrue();
                            reads++;
                        }
                    }
                    return reads;
                }));
            }
            go.countDown();
            int reads = 0;
            for (Future<Integer> f : fs) {
                reads += f.get(60, TimeUnit.SECONDS);
            }
            assertThat(reads).isEqualTo(threads * 20);
        } finally {
            pool.shutdownNow();
        }
        assertThat(versions).contains(s.get("shared").value());
        try (var files = Files.list(dir)) {
            assertThat(files.map(p -> p.getFileName().toString())).containsExactly("shared.pl"); // no temp files left
        }
    }

    @Test
    void resultsAreValues() {
        RuleBaseResult<String> ok = RuleBaseResult.ok("x");
        assertThat(ok.isOk()).isTrue();
        assertThat(ok.error()).isEmpty();
        assertThat(ok).isEqualTo(RuleBaseResult.ok("x"));
        RuleBaseResult<String> bad = RuleBaseResult.failure(RuleBaseError.of(RuleBaseError.Code.NOT_FOUND, "gone"));
        assertThat(bad.isOk()).isFalse();
        org.assertj.core.api.Assertions.assertThatThrownBy(bad::value).isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("RULEBASE_001: gone");
        assertThat(RuleBaseError.Code.fromWireName("rulebase_005")).isEqualTo(RuleBaseError.Code.TOO_LARGE);
    }
}

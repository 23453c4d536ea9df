package io.prologtool.examples.readme;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.prologtool.process.ProcessBackend;
import io.prologtool.tools.PrologTools;
import io.prologtool.tools.ToolSpec;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The README and the guides under {@code docs/} state no count that the code or the data does not bear
 * out, link only to files and headings that exist, and tell no project history.
 *
 * <p>Each count the docs state is matched here by a pattern and checked against its source: the tools
 * against {@link PrologTools#specs()}, the prolog-reasoner problems against
 * {@code data/prolog-reasoner/problems.json}, a data file's size ({@code sample.jsonl (200)}) against
 * its lines. A count of something this test cannot check (tests, hostile goals, fuzz cases) is refused,
 * so it is either written with its check here or left out.
 */
class DocCountsTest {

    /** Every Markdown file the checks read: the README and docs/*.md, by their path from the root. */
    static final Map<String, List<String>> DOCS = new LinkedHashMap<>();

    @BeforeAll
    static void read() throws IOException {
        for (Path file : ReadmeSnippetsTest.markdownFiles()) {
            DOCS.put(ReadmeSnippetsTest.relative(file), Files.readAllLines(file, StandardCharsets.UTF_8));
        }
        assertThat(DOCS).containsKeys("README.md", "docs/tool-layer.md", "docs/trust-model.md");
    }

    /** One place in the docs: file, 1-based line, the text matched. */
    record Hit(String file, int line, String text) {
        @Override
        public String toString() {
            return file + ":" + line + ": " + text;
        }
    }

    /** Every match of {@code pattern} in the docs' prose and code alike. */
    static List<Hit> find(Pattern pattern) {
        List<Hit> hits = new ArrayList<>();
        DOCS.forEach((file, lines) -> {
            for (int i = 0; i < lines.size(); i++) {
                Matcher m = pattern.matcher(lines.get(i));
                while (m.find()) {
                    hits.add(new Hit(file, i + 1, m.group()));
                }
            }
        });
        return hits;
    }

    private static final Map<String, Integer> WORDS = Map.ofEntries(
            Map.entry("one", 1), Map.entry("two", 2), Map.entry("three", 3), Map.entry("four", 4),
            Map.entry("five", 5), Map.entry("six", 6), Map.entry("seven", 7), Map.entry("eight", 8),
            Map.entry("nine", 9), Map.entry("ten", 10), Map.entry("eleven", 11), Map.entry("twelve", 12),
            Map.entry("thirteen", 13), Map.entry("fourteen", 14), Map.entry("fifteen", 15),
            Map.entry("sixteen", 16), Map.entry("seventeen", 17));

    private static final String NUMBER = "(\\d[\\d,]*|" + String.join("|", WORDS.keySet()) + ")";

    static int number(String text) {
        String t = text.toLowerCase(Locale.ROOT);
        return WORDS.containsKey(t) ? WORDS.get(t) : Integer.parseInt(t.replace(",", ""));
    }

    static final Pattern TOOL_COUNT = Pattern.compile("(?i)\\b" + NUMBER + " (?:MCP |JSON |Prolog )?tools\\b");

    @Test
    void everyToolCountIsTheNumberOfToolSpecsAndTheToolLayerGuideNamesEachTool() {
        List<ToolSpec> specs;
        try (ProcessBackend backend = ProcessBackend.builder().build();
             PrologTools tools = PrologTools.over(backend)) {
            specs = tools.specs();
        }
        List<Hit> hits = find(TOOL_COUNT);
        List<String> wrong = new ArrayList<>();
        for (Hit h : hits) {
            Matcher m = TOOL_COUNT.matcher(h.text());
            assertThat(m.find()).isTrue();
            String n = m.group(1);
            if (number(n) != specs.size()) {
                wrong.add(h + " (specs(): " + specs.size() + ")");
            }
        }
        assertThat(wrong).as("tool counts that are not PrologTools.specs().size()").isEmpty();
        assertThat(hits).as("the tool layer guide states the number of tools").anyMatch(h -> h.file().equals("docs/tool-layer.md"));
        String guide = String.join("\n", DOCS.get("docs/tool-layer.md"));
        for (ToolSpec spec : specs) {
            assertThat(guide).as("docs/tool-layer.md names the tool %s", spec.name()).contains("`" + spec.name() + "`");
        }
    }

    static final Pattern REASONER_PROBLEMS = Pattern.compile("(?i)\\b" + NUMBER + " prolog-reasoner problems");

    @Test
    void everyCountOfPrologReasonerProblemsIsTheDataSetsSize() throws IOException {
        JsonNode problems = new ObjectMapper().readTree(root().resolve("data/prolog-reasoner/problems.json").toFile()).get("problems");
        assertThat(problems).as("data/prolog-reasoner/problems.json's problems").isNotNull();
        List<String> wrong = new ArrayList<>();
        for (Hit h : find(REASONER_PROBLEMS)) {
            Matcher m = REASONER_PROBLEMS.matcher(h.text());
            assertThat(m.find()).isTrue();
            if (number(m.group(1)) != problems.size()) {
                wrong.add(h + " (problems.json: " + problems.size() + ")");
            }
        }
        assertThat(wrong).isEmpty();
    }

    /** {@code sample.jsonl} (200), or {@code `sample.jsonl` (200)}: a data file and its number of lines. */
    static final Pattern DATA_FILE_SIZE = Pattern.compile("`?([a-z][a-z0-9-]*\\.jsonl)`? \\((\\d[\\d,]*)\\)");

    @Test
    void everyDataFileSizeTheDocsStateIsItsNumberOfLines() throws IOException {
        List<String> wrong = new ArrayList<>();
        int checked = 0;
        for (Hit h : find(DATA_FILE_SIZE)) {
            Matcher m = DATA_FILE_SIZE.matcher(h.text());
            assertThat(m.find()).isTrue();
            List<Path> found;
            try (var walk = Files.walk(root().resolve("data"))) {
                found = walk.filter(p -> p.getFileName().toString().equals(m.group(1))).toList();
            }
            if (found.size() != 1) {
                wrong.add(h + " (" + found.size() + " files of that name under data/)");
                continue;
            }
            long lines;
            try (var l = Files.lines(found.get(0), StandardCharsets.UTF_8)) {
                lines = l.filter(x -> !x.isBlank()).count();
            }
            if (lines != number(m.group(2))) {
                wrong.add(h + " (" + lines + " lines)");
            }
            checked++;
        }
        assertThat(wrong).isEmpty();
        assertThat(checked).as("the demo guide states the sizes of the PARARULE-Plus files").isGreaterThanOrEqualTo(3);
    }

    /** Counts of things no check here can count: write them with a check, or leave them out. */
    static final Pattern UNCHECKED_COUNT = Pattern.compile("(?i)(?<!JUnit )\\b" + NUMBER
            + " (?:hostile (?:goals|texts)|classes of hostile|(?:JUnit |conformance |unit )?tests\\b|test classes"
            + "|goals per backend|fuzz(?:ed)? (?:cases|goals)|random and malformed|LLM-written programs)");

    @Test
    void noDocStatesACountThatNothingChecks() {
        assertThat(find(UNCHECKED_COUNT)).as("counts the docs state that no test checks").isEmpty();
    }

    @Test
    void theCountPatternsMatchWhatTheyAreFor() {
        assertThat(TOOL_COUNT.matcher("exposes 17 tools").find()).isTrue();
        assertThat(TOOL_COUNT.matcher("the fourteen tools").find()).isTrue();
        assertThat(REASONER_PROBLEMS.matcher("on the 30 prolog-reasoner problems").find()).isTrue();
        Matcher m = DATA_FILE_SIZE.matcher("evaluates `sample.jsonl` (200), and");
        assertThat(m.find()).isTrue();
        assertThat(m.group(1)).isEqualTo("sample.jsonl");
        assertThat(UNCHECKED_COUNT.matcher("throw 63 hostile goals at it").find()).isTrue();
        assertThat(UNCHECKED_COUNT.matcher("runs 2,000 random and malformed calls").find()).isTrue();
        assertThat(UNCHECKED_COUNT.matcher("a JUnit test per plunit test").find()).isFalse();
        assertThat(UNCHECKED_COUNT.matcher("plunit tests as JUnit 5 tests").find()).isFalse();
        assertThat(number("2,000")).isEqualTo(2000);
        assertThat(number("Nine")).isEqualTo(9);
    }

    /** No issue numbers, dated rounds or dates in user docs: history goes to CHANGELOG.md. */
    static final Pattern HISTORY = Pattern.compile("(?i)issue [0-9]+|round of 20[0-9][0-9]|\\b20[0-9]{2}-[01][0-9]-[0-3][0-9]\\b");

    @Test
    void theDocsTellNoProjectHistory() {
        assertThat(find(HISTORY)).as("issue numbers and dates in README.md and docs/*.md").isEmpty();
        assertThat(HISTORY.matcher("the targets of issue 16").find()).isTrue();
        assertThat(HISTORY.matcher("measured 2026-12-04").find()).isTrue();
    }

    @Test
    void theReadmeIsShort() {
        assertThat(DOCS.get("README.md")).as("README.md's lines").hasSizeLessThanOrEqualTo(300);
    }

    // ---- links ----

    /** A Markdown link or image: [text](target) or ![alt](target), target without spaces. */
    static final Pattern LINK = Pattern.compile("!?\\[[^\\]]*\\]\\(([^)\\s]+)\\)");

    /** The anchor GitHub gives a heading: lower case, punctuation but hyphens dropped, spaces as hyphens. */
    static String anchor(String heading) {
        String s = heading.strip().toLowerCase(Locale.ROOT);
        s = s.replaceAll("[^\\p{L}\\p{N}_\\- ]", "");
        return s.replace(' ', '-');
    }

    /** The anchors of a Markdown file's headings (outside code blocks); repeated headings get -1, -2, ... */
    static Set<String> anchors(List<String> lines) {
        Set<String> out = new LinkedHashSet<>();
        Map<String, Integer> seen = new LinkedHashMap<>();
        boolean code = false;
        for (String line : lines) {
            if (line.strip().startsWith("```")) {
                code = !code;
                continue;
            }
            if (!code && line.matches("#{1,6} .*")) {
                String a = anchor(line.replaceFirst("^#+ ", ""));
                int n = seen.merge(a, 1, Integer::sum);
                out.add(n == 1 ? a : a + "-" + (n - 1));
            }
        }
        return out;
    }

    /** The links of a Markdown file outside code blocks and code spans, with their lines. */
    static List<Hit> links(String file, List<String> lines) {
        List<Hit> out = new ArrayList<>();
        boolean code = false;
        for (int i = 0; i < lines.size(); i++) {
            String line = lines.get(i);
            if (line.strip().startsWith("```")) {
                code = !code;
                continue;
            }
            if (code) {
                continue;
            }
            String prose = line.replaceAll("``[^`]*``|`[^`]*`", "");
            Matcher m = LINK.matcher(prose);
            while (m.find()) {
                out.add(new Hit(file, i + 1, m.group(1)));
            }
        }
        return out;
    }

    static Path root() {
        return ReadmeSnippetsTest.root();
    }

    /**
     * Guides the README's feature map links to that other work adds: a link to one of them may lead
     * nowhere until it exists. Once it exists it must leave this list, so the check covers it again.
     */
    static final Set<String> GUIDES_TO_COME = Set.of();

    @Test
    void aGuideToComeIsListedOnlyUntilItExists() {
        for (String guide : GUIDES_TO_COME) {
            assertThat(root().resolve(guide)).as("%s exists: take it out of GUIDES_TO_COME", guide).doesNotExist();
        }
    }

    @Test
    void everyRelativeLinkNamesAFileAndAHeadingThatExist() throws IOException {
        List<String> broken = new ArrayList<>();
        int checked = 0;
        for (Map.Entry<String, List<String>> doc : DOCS.entrySet()) {
            Path from = root().resolve(doc.getKey()).getParent();
            for (Hit link : links(doc.getKey(), doc.getValue())) {
                String target = link.text();
                if (target.matches("(?i)[a-z][a-z0-9+.-]*:.*")) {
                    continue;   // https:, mailto:
                }
                checked++;
                int hash = target.indexOf('#');
                String path = hash < 0 ? target : target.substring(0, hash);
                String fragment = hash < 0 ? null : target.substring(hash + 1);
                Path file = path.isEmpty() ? root().resolve(doc.getKey()) : from.resolve(path).normalize();
                if (!Files.exists(file) && hash < 0 && GUIDES_TO_COME.contains(root().relativize(file).toString().replace('\\', '/'))) {
                    continue;
                }
                if (!Files.exists(file)) {
                    broken.add(link + " (no such file: " + root().relativize(file) + ")");
                    continue;
                }
                if (fragment != null) {
                    if (!file.getFileName().toString().endsWith(".md") || Files.isDirectory(file)) {
                        broken.add(link + " (an anchor in a file that is not Markdown)");
                    } else if (!anchors(Files.readAllLines(file, StandardCharsets.UTF_8)).contains(fragment)) {
                        broken.add(link + " (no heading #" + fragment + " in " + root().relativize(file) + ")");
                    }
                }
            }
        }
        assertThat(broken).as("relative links in README.md and docs/*.md that lead nowhere").isEmpty();
        assertThat(checked).as("relative links checked").isGreaterThan(20);
    }

    @Test
    void theLinkCheckFindsWhatABrokenLinkWouldBe() {
        assertThat(anchor("Warm pool, saved state, and restoring what died"))
                .isEqualTo("warm-pool-saved-state-and-restoring-what-died");
        assertThat(anchor("PARARULE-Plus: `make demo`")).isEqualTo("pararule-plus-make-demo");
        assertThat(anchor("The Formalizer agent (PrologMCP section 4.1)")).isEqualTo("the-formalizer-agent-prologmcp-section-41");
        assertThat(anchors(List.of("# A", "```", "# not a heading", "```", "## B c", "## B c")))
                .containsExactly("a", "b-c", "b-c-1");
        assertThat(links("x.md", List.of("see [a](b.md#c) and `[d](e.md)`", "```", "[f](g.md)", "```")))
                .extracting(Hit::text).containsExactly("b.md#c");
    }
}

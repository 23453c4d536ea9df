package io.prologtool.spi;

import io.prologtool.PrologToolException;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

/**
 * The Prolog harness ({@code io/prologtool/harness.pl}), the one Prolog program behind every backend.
 *
 * <p>Protocol: a request is one JSON object with an {@code id}, an {@code op} ({@code open, consult,
 * goal, close, ping}) and the op's arguments; the reply is one JSON object that echoes the
 * {@code id} and has {@code ok}. The process backend sends them as lines on a child's stdin and
 * stdout ({@link #SERVE_GOAL}); an in-process backend calls {@code handle_request/2} with the request
 * text.
 */
public final class Harness {

    /** Classpath location of the harness source. */
    public static final String RESOURCE = "io/prologtool/harness.pl";
    /**
     * The goal that runs the line protocol on stdin/stdout. Run it as the toplevel goal ({@code swipl -t}):
     * SWI-Prolog starts the toplevel goal again when an abort ends it, and the harness then answers the
     * request the abort ended (SWI-Prolog aborts a goal whose error it cannot copy for lack of stack).
     */
    public static final String SERVE_GOAL = "prologtool_harness:serve";
    /** Every file of the harness: the module file first, then the parts it includes. */
    public static final List<String> FILES =
            List.of("harness.pl", "harness_inspect.pl", "harness_plunit.pl", "harness_trace.pl",
                    "harness_limits.pl", "harness_guard.pl", "harness_sandbox.pl", "harness_execute.pl",
                    "harness_recycle.pl", "harness_cursor.pl", "harness_check.pl");
    private static final String DIR = "io/prologtool/";

    private Harness() {
    }

    /** The text of one harness file (one of {@link #FILES}). */
    public static String text(String file) {
        String resource = DIR + file;
        try (InputStream in = Harness.class.getClassLoader().getResourceAsStream(resource)) {
            if (in == null) {
                throw new PrologToolException("the harness resource " + resource + " is missing from the classpath");
            }
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read the harness resource " + resource, e);
        }
    }

    /**
     * The goal that reads the harness from standard input (the text of {@link #bootstrapText()}):
     * pass it with {@code -g}, before {@link #SERVE_GOAL} is run with {@code -t}. UTF-8 is set on standard
     * input first, since a launcher ({@code ssh}, {@code kubectl exec}) may not pass {@code LANG} on.
     */
    public static final String BOOTSTRAP_GOAL = "set_stream(user_input,encoding(utf8)),prompt(_,''),[user]";

    private static volatile String bootstrap;

    /**
     * The whole harness as one text for {@code [user]}: the module file with each of its
     * {@code :- include(...)} directives replaced by the included part, ending in {@code end_of_file.}
     * and a newline. Written to a child's standard input before the first request, it needs no file on
     * the child's side, so the child may run as another user, in another namespace, container or host.
     */
    public static String bootstrapText() {
        String b = bootstrap;
        if (b == null) {
            StringBuilder out = new StringBuilder(512 * 1024);
            for (String line : text(FILES.get(0)).split("\n", -1)) {
                java.util.regex.Matcher m = INCLUDE.matcher(line);
                if (m.matches() && FILES.contains(m.group(1) + ".pl")) {
                    out.append(text(m.group(1) + ".pl"));
                    if (out.charAt(out.length() - 1) != '\n') {
                        out.append('\n');
                    }
                } else {
                    out.append(line).append('\n');
                }
            }
            out.append("end_of_file.\n");
            bootstrap = b = out.toString();
        }
        return b;
    }

    private static final java.util.regex.Pattern INCLUDE =
            java.util.regex.Pattern.compile(":-\\s*include\\((harness_[a-z]+)\\)\\..*");

    /**
     * Writes every harness file into {@code dir} and returns the path of the module file to load
     * ({@code dir/harness.pl}).
     */
    public static Path extractTo(Path dir) throws IOException {
        for (String file : FILES) {
            Files.writeString(dir.resolve(file), text(file), StandardCharsets.UTF_8);
        }
        return dir.resolve(FILES.get(0));
    }
}

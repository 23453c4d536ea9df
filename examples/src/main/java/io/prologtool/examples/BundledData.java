package io.prologtool.examples;

import java.io.BufferedReader;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;

/**
 * The data the demo, the benchmarks and the tests read: the repository's {@code data/} folder, which the
 * build puts on the classpath under {@code prologtool/data/} (each source's licence and attribution are in
 * {@code data/README.md}). Nothing is looked up on the file system, so the examples run from any folder.
 */
public final class BundledData {

    /** Where the data lives on the classpath. */
    public static final String ROOT = "prologtool/data/";

    private BundledData() {
    }

    /**
     * A reader of {@code data/<relative>} (UTF-8), e.g. {@code pararule-plus/sample.jsonl}.
     *
     * @throws IllegalStateException when it is not on the classpath
     */
    public static BufferedReader reader(String relative) {
        InputStream in = BundledData.class.getClassLoader().getResourceAsStream(ROOT + relative);
        if (in == null) {
            throw new IllegalStateException("the resource " + ROOT + relative + " is missing from the classpath "
                    + "(the build copies the repository's data/ folder there)");
        }
        return new BufferedReader(new InputStreamReader(in, StandardCharsets.UTF_8));
    }

    /** The whole text of {@code data/<relative>}. */
    public static String text(String relative) {
        try (BufferedReader r = reader(relative)) {
            StringBuilder sb = new StringBuilder();
            char[] buf = new char[8192];
            for (int n; (n = r.read(buf)) > 0; ) {
                sb.append(buf, 0, n);
            }
            return sb.toString();
        } catch (java.io.IOException e) {
            throw new java.io.UncheckedIOException("cannot read the resource " + ROOT + relative, e);
        }
    }
}

package io.prologtool.examples;

import java.util.ArrayList;
import java.util.List;

/** Command-line words as the example mains take them. */
public final class CommandLine {

    private CommandLine() {
    }

    /**
     * The words of {@code args}, split at white space (Maven's {@code -Dexec.args} and {@code make}
     * variables pass several in one argument), with {@code --option=value} split in two.
     */
    public static List<String> words(String... args) {
        List<String> words = new ArrayList<>();
        for (String a : args) {
            for (String w : a.strip().split("\\s+")) {
                if (w.startsWith("--") && w.contains("=")) {
                    words.add(w.substring(0, w.indexOf('=')));
                    words.add(w.substring(w.indexOf('=') + 1));
                } else if (!w.isEmpty()) {
                    words.add(w);
                }
            }
        }
        return words;
    }
}

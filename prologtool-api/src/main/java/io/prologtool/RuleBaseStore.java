package io.prologtool;

import java.io.IOException;
import java.io.InputStream;
import java.net.JarURLConnection;
import java.net.URISyntaxException;
import java.net.URL;
import java.nio.charset.StandardCharsets;
import java.nio.file.AtomicMoveNotSupportedException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.Enumeration;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.function.Function;
import java.util.jar.JarEntry;
import java.util.jar.JarFile;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

/**
 * Named, reusable Prolog sources ("rule bases"): stable domain rules saved once and loaded by name,
 * by {@link PrologExecutor} ({@code execute(code, query).ruleBases("family")}) or by a session
 * ({@link PrologSession#useRuleBase(String)}).
 *
 * <pre>{@code
 * RuleBaseStore store = RuleBaseStore.directory(Path.of("rules")).checkedBy(backend);
 * store.save("family", familyRules);                  // RuleBaseResult<Boolean>: created?
 * store.list().value();                               // [RuleBaseInfo[name=family, description=..., tags=[...]]]
 * String text = store.get("family").value();
 * }</pre>
 *
 * <ul>
 *   <li>A rule base is the file {@code <directory>/<name>.pl} (UTF-8). Names are {@code [a-z0-9_-]{1,64}}.</li>
 *   <li>Bundled rule bases come from the classpath, {@code prologtool/rules/<name>.pl} (prologtool ships
 *       {@code family} and {@code scheduling}); a saved rule base of the same name overrides one.
 *       Bundled ones cannot be deleted.</li>
 *   <li>{@link #save} checks the content's syntax first, by reading it in Prolog without running
 *       anything (no directive runs), which needs a Prolog: {@link #checkedBy(PrologBackend)}. It then
 *       writes a temporary file in the same directory and moves it over the old one atomically, so a
 *       concurrent {@link #get} sees the old text or the new one, never a mix.</li>
 *   <li>The bundled rule bases are read once per class loader; {@link #list} reads a saved file again only
 *       when it changed (another inode, modification time or size), so listing answers from memory.</li>
 *   <li>Every outcome is a {@link RuleBaseResult}; the errors are prolog-reasoner's codes
 *       {@code RULEBASE_001}-{@code 005} ({@link RuleBaseError.Code}).</li>
 * </ul>
 *
 * Instances are immutable and thread-safe; {@link #checkedBy}, {@link #maxSize} and
 * {@link #withoutBundled()} return new stores.
 */
public final class RuleBaseStore {

    /** Environment variable that overrides the default directory. */
    public static final String DIRECTORY_ENV = "PROLOGTOOL_RULES_DIR";
    /** Default cap on a rule base's size: 1 MiB of UTF-8. */
    public static final long DEFAULT_MAX_SIZE = 1L << 20;
    /** Classpath folder of the bundled rule bases. */
    public static final String BUNDLED_FOLDER = "prologtool/rules";

    private static final Pattern NAME = Pattern.compile("[a-z0-9_-]{1,64}");
    private static final Pattern METADATA = Pattern.compile("^%+\\s*(description|tags)\\s*:\\s*(.*)$",
            Pattern.CASE_INSENSITIVE);
    private static final String SUFFIX = ".pl";
    private static volatile RuleBaseStore defaultStore;
    /**
     * The bundled rule bases of each class loader, read once: a class path does not change under a loader,
     * and listing a jar's entries costs milliseconds. Weak keys: a loader that goes away takes its entry.
     */
    private static final Map<ClassLoader, Bundled> BUNDLED = java.util.Collections.synchronizedMap(
            new java.util.WeakHashMap<>());
    /** Description and tags of saved files, by path, as long as the file is the same one (inode, time, size). */
    private static final Map<Path, SavedInfo> SAVED_INFO = new java.util.concurrent.ConcurrentHashMap<>();
    /** More saved files than this and {@link #SAVED_INFO} starts over (it only saves reading them again). */
    private static final int SAVED_INFO_MAX = 4096;

    private final Path directory;
    private final long maxSize;
    private final boolean bundled;
    private final Function<String, List<Diagnostic>> checker;
    private final ClassLoader loader;

    private RuleBaseStore(Path directory, long maxSize, boolean bundled, Function<String, List<Diagnostic>> checker,
                          ClassLoader loader) {
        this.directory = directory;
        this.maxSize = maxSize;
        this.bundled = bundled;
        this.checker = checker;
        this.loader = loader;
    }

    /**
     * A store whose rule bases are the {@code .pl} files of {@code directory} (created on the first
     * save), plus the bundled ones; 1 MiB cap; no syntax check yet (see {@link #checkedBy}).
     */
    public static RuleBaseStore directory(Path directory) {
        return directory(directory, RuleBaseStore.class.getClassLoader());
    }

    /** {@link #directory(Path)} with the bundled rule bases of {@code loader} (tests count its reads). */
    static RuleBaseStore directory(Path directory, ClassLoader loader) {
        Objects.requireNonNull(directory, "directory");
        return new RuleBaseStore(directory.toAbsolutePath().normalize(), DEFAULT_MAX_SIZE, true, null,
                Objects.requireNonNull(loader, "loader"));
    }

    /**
     * The system store: the directory named by {@value #DIRECTORY_ENV}, else
     * {@code ~/.prologtool/rules}; with the bundled rule bases.
     */
    public static RuleBaseStore defaultStore() {
        RuleBaseStore s = defaultStore;
        if (s == null) {
            s = directory(defaultDirectory(System.getenv(), System.getProperty("user.home")));
            defaultStore = s;
        }
        return s;
    }

    /** The default directory for an environment and a home directory (visible for tests). */
    static Path defaultDirectory(Map<String, String> env, String userHome) {
        String dir = env.get(DIRECTORY_ENV);
        if (dir != null && !dir.isBlank()) {
            return Path.of(dir);
        }
        return Path.of(userHome, ".prologtool", "rules");
    }

    /**
     * This store, checking the syntax of saved content with {@code backend} (a session of it is opened
     * on the first save and kept; it closes with the backend).
     */
    public RuleBaseStore checkedBy(PrologBackend backend) {
        Objects.requireNonNull(backend, "backend");
        PrologExecutor executor = PrologExecutor.builder(backend).scratchSessions(1).ruleBases(this).build();
        return checkedBy(executor);
    }

    /** This store, checking the syntax of saved content with one of {@code executor}'s scratch sessions. */
    public RuleBaseStore checkedBy(PrologExecutor executor) {
        Objects.requireNonNull(executor, "executor");
        return new RuleBaseStore(directory, maxSize, bundled, executor::checkSyntax, loader);
    }

    /** This store, checking syntax with {@code checker} (tests use one without Prolog). */
    RuleBaseStore checkedWith(Function<String, List<Diagnostic>> checker) {
        return new RuleBaseStore(directory, maxSize, bundled, Objects.requireNonNull(checker, "checker"), loader);
    }

    /** This store with another size cap (bytes of UTF-8, at least 1). */
    public RuleBaseStore maxSize(long bytes) {
        if (bytes < 1) {
            throw new IllegalArgumentException("maxSize must be at least 1 byte, was " + bytes);
        }
        return new RuleBaseStore(directory, bytes, bundled, checker, loader);
    }

    /** This store without the bundled rule bases: only the directory's. */
    public RuleBaseStore withoutBundled() {
        return new RuleBaseStore(directory, maxSize, false, checker, loader);
    }

    /** The directory that holds the saved rule bases. */
    public Path directory() {
        return directory;
    }

    /** The size cap in bytes. */
    public long maxSize() {
        return maxSize;
    }

    /** True when {@link #save} can check syntax (see {@link #checkedBy}). */
    public boolean isChecked() {
        return checker != null;
    }

    // ------------------------------------------------------------------ operations

    /** Every rule base (saved and bundled), sorted by name, with description and tags. */
    public RuleBaseResult<List<RuleBaseInfo>> list() {
        Map<String, Boolean> names = new TreeMap<>(); // name -> bundled
        try {
            bundledNames().forEach(n -> names.put(n, true));
            savedNames().forEach(n -> names.put(n, false));
        } catch (IOException e) {
            return ioFailure("cannot list the rule bases in " + directory, e);
        }
        List<RuleBaseInfo> out = new ArrayList<>();
        for (Map.Entry<String, Boolean> e : names.entrySet()) {
            Optional<RuleBaseResult<RuleBaseInfo>> known = savedInfo(e.getKey());
            if (known.isPresent()) {
                if (known.get().error().isPresent()) {
                    return RuleBaseResult.failure(known.get().error().get());
                }
                out.add(known.get().value());
                continue;
            }
            RuleBaseResult<String> text = read(e.getKey());
            if (text.error().isPresent()) {
                if (text.error().get().code() == RuleBaseError.Code.NOT_FOUND) {
                    continue; // deleted meanwhile
                }
                return RuleBaseResult.failure(text.error().get());
            }
            boolean fromClasspath = e.getValue() && !Files.isRegularFile(file(e.getKey()));
            out.add(fromClasspath ? bundled().info(e.getKey(), text.value()) : info(e.getKey(), text.value(), false));
        }
        return RuleBaseResult.ok(List.copyOf(out));
    }

    /** The text of rule base {@code name}. */
    public RuleBaseResult<String> get(String name) {
        Optional<RuleBaseError> bad = checkName(name);
        if (bad.isPresent()) {
            return RuleBaseResult.failure(bad.get());
        }
        return read(name);
    }

    /**
     * Saves {@code content} as rule base {@code name}, creating or replacing it; the value is true when
     * it was created. Checks, in order: the name, the size, the syntax (parse only: nothing runs);
     * then writes atomically.
     */
    public RuleBaseResult<Boolean> save(String name, String content) {
        Objects.requireNonNull(content, "content");
        Optional<RuleBaseError> bad = checkName(name);
        if (bad.isPresent()) {
            return RuleBaseResult.failure(bad.get());
        }
        byte[] bytes = content.getBytes(StandardCharsets.UTF_8);
        if (bytes.length > maxSize) {
            return RuleBaseResult.failure(RuleBaseError.of(RuleBaseError.Code.TOO_LARGE,
                    "Rule base '" + name + "' is " + bytes.length + " bytes; the store accepts at most " + maxSize
                            + " (RuleBaseStore.maxSize). Split it into several rule bases."));
        }
        Optional<RuleBaseError> syntax = checkSyntax(content);
        if (syntax.isPresent()) {
            return RuleBaseResult.failure(syntax.get());
        }
        Path target = file(name);
        Path temp = null;
        try {
            Files.createDirectories(directory);
            boolean existed = Files.exists(target);
            temp = Files.createTempFile(directory, "." + name + ".", ".tmp");
            Files.write(temp, bytes);
            try {
                Files.move(temp, target, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
            } catch (AtomicMoveNotSupportedException e) {
                Files.move(temp, target, StandardCopyOption.REPLACE_EXISTING);
            }
            temp = null;
            return RuleBaseResult.ok(!existed);
        } catch (IOException | SecurityException e) {
            return ioFailure("cannot write rule base '" + name + "' to " + target, e);
        } finally {
            if (temp != null) {
                try {
                    Files.deleteIfExists(temp);
                } catch (IOException ignored) {
                    // a stray temporary file is ignored by list() (its name starts with a dot)
                }
            }
        }
    }

    /**
     * Deletes the saved rule base {@code name}. A bundled rule base cannot be deleted
     * ({@code RULEBASE_004}); deleting a saved one that overrides a bundled one brings the bundled one back.
     */
    public RuleBaseResult<Boolean> delete(String name) {
        Optional<RuleBaseError> bad = checkName(name);
        if (bad.isPresent()) {
            return RuleBaseResult.failure(bad.get());
        }
        Path target = file(name);
        try {
            if (Files.deleteIfExists(target)) {
                return RuleBaseResult.ok(true);
            }
        } catch (IOException | SecurityException e) {
            return ioFailure("cannot delete rule base '" + name + "' (" + target + ")", e);
        }
        if (bundledExists(name)) {
            return RuleBaseResult.failure(RuleBaseError.of(RuleBaseError.Code.IO_ERROR, "Rule base '" + name
                    + "' is bundled with prologtool (a classpath resource) and cannot be deleted; "
                    + "save a rule base of the same name to override it."));
        }
        return RuleBaseResult.failure(notFound(name));
    }

    @Override
    public String toString() {
        return "RuleBaseStore[" + directory + (bundled ? ", bundled" : "") + (checker != null ? ", checked" : "")
                + ", maxSize=" + maxSize + "]";
    }

    // ------------------------------------------------------------------ reading

    private RuleBaseResult<String> read(String name) {
        Path f = file(name);
        try {
            long size = Files.size(f);
            if (size > maxSize) {
                return RuleBaseResult.failure(tooLargeOnDisk(name, size));
            }
            return RuleBaseResult.ok(decode(Files.readAllBytes(f)));
        } catch (NoSuchFileException e) {
            // not saved (or deleted meanwhile): a bundled one, if any
        } catch (IOException | SecurityException e) {
            return ioFailure("cannot read rule base '" + name + "' (" + f + ")", e);
        }
        if (bundled) {
            try {
                Optional<String> text = bundled().text(loader, name);
                if (text.isPresent()) {
                    long size = text.get().getBytes(StandardCharsets.UTF_8).length;
                    if (size > maxSize) {
                        return RuleBaseResult.failure(tooLargeOnDisk(name, size));
                    }
                    return RuleBaseResult.ok(text.get());
                }
            } catch (IOException e) {
                return ioFailure("cannot read the bundled rule base '" + name + "'", e);
            }
        }
        return RuleBaseResult.failure(notFound(name));
    }

    /**
     * The info of saved rule base {@code name} when its file is the one last read (same inode, modification
     * time and size), or a too-large failure from its size alone; empty when it must be read (not saved,
     * changed, or never read), in which case {@link #list} reads it and remembers what it found.
     */
    private Optional<RuleBaseResult<RuleBaseInfo>> savedInfo(String name) {
        Path f = file(name);
        try {
            java.nio.file.attribute.BasicFileAttributes a = Files.readAttributes(f,
                    java.nio.file.attribute.BasicFileAttributes.class);
            if (!a.isRegularFile()) {
                return Optional.empty();
            }
            if (a.size() > maxSize) {
                return Optional.of(RuleBaseResult.failure(tooLargeOnDisk(name, a.size())));
            }
            SavedInfo known = SAVED_INFO.get(f);
            if (known != null && known.sameFile(a)) {
                return Optional.of(RuleBaseResult.ok(known.info()));
            }
            String text = decode(Files.readAllBytes(f));
            RuleBaseInfo info = info(name, text, false);
            if (SAVED_INFO.size() >= SAVED_INFO_MAX) {
                SAVED_INFO.clear();
            }
            SAVED_INFO.put(f, new SavedInfo(a.fileKey(), a.lastModifiedTime(), a.size(), info));
            return Optional.of(RuleBaseResult.ok(info));
        } catch (IOException | SecurityException e) {
            return Optional.empty(); // not saved, or gone meanwhile: read() says which
        }
    }

    /** What {@link #savedInfo} remembers of a saved file. */
    private record SavedInfo(Object fileKey, java.nio.file.attribute.FileTime modified, long size, RuleBaseInfo info) {
        boolean sameFile(java.nio.file.attribute.BasicFileAttributes a) {
            return Objects.equals(fileKey, a.fileKey()) && modified.equals(a.lastModifiedTime()) && size == a.size();
        }
    }

    /** This store's loader's bundled rule bases, read on first use. */
    private Bundled bundled() {
        synchronized (BUNDLED) {
            return BUNDLED.computeIfAbsent(loader, l -> new Bundled());
        }
    }

    /**
     * The bundled rule bases of one class loader: their names, listed once, and their texts, read once each.
     * It holds no reference to the loader (the loader is its key in a weak map), so each call names it.
     */
    private static final class Bundled {
        private volatile List<String> names;
        private final Map<String, Optional<String>> texts = new java.util.concurrent.ConcurrentHashMap<>();
        private final Map<String, RuleBaseInfo> infos = new java.util.concurrent.ConcurrentHashMap<>();

        List<String> names(ClassLoader loader) throws IOException {
            List<String> n = names;
            if (n == null) {
                n = listNames(loader);
                names = n;
            }
            return n;
        }

        Optional<String> text(ClassLoader loader, String name) throws IOException {
            Optional<String> t = texts.get(name);
            if (t == null) {
                try (InputStream in = loader.getResourceAsStream(BUNDLED_FOLDER + "/" + name + SUFFIX)) {
                    t = in == null ? Optional.empty() : Optional.of(decode(in.readAllBytes()));
                }
                texts.put(name, t);
            }
            return t;
        }

        /** The info of bundled rule base {@code name}, whose text is {@code text}. */
        RuleBaseInfo info(String name, String text) {
            return infos.computeIfAbsent(name, n -> RuleBaseStore.info(n, text, true));
        }
    }

    private RuleBaseError tooLargeOnDisk(String name, long size) {
        return RuleBaseError.of(RuleBaseError.Code.TOO_LARGE, "Rule base '" + name + "' is " + size
                + " bytes; the store reads at most " + maxSize + " (RuleBaseStore.maxSize).");
    }

    /** UTF-8, without a leading byte order mark (which Prolog would read as a syntax error). */
    private static String decode(byte[] bytes) {
        String s = new String(bytes, StandardCharsets.UTF_8);
        return s.startsWith("\uFEFF") ? s.substring(1) : s;
    }

    private Path file(String name) {
        return directory.resolve(name + SUFFIX);
    }

    private List<String> savedNames() throws IOException {
        if (!Files.isDirectory(directory)) {
            return List.of();
        }
        List<String> out = new ArrayList<>();
        try (Stream<Path> files = Files.list(directory)) {
            for (Path p : (Iterable<Path>) files::iterator) {
                String file = p.getFileName().toString();
                if (file.endsWith(SUFFIX) && Files.isRegularFile(p)) {
                    String name = file.substring(0, file.length() - SUFFIX.length());
                    if (NAME.matcher(name).matches()) {
                        out.add(name);
                    }
                }
            }
        }
        return out;
    }

    private boolean bundledExists(String name) {
        try {
            return bundled && bundled().text(loader, name).isPresent();
        } catch (IOException e) {
            return false;
        }
    }

    private List<String> bundledNames() throws IOException {
        return bundled ? bundled().names(loader) : List.of();
    }

    /** The bundled names, from every classpath entry that has the folder (directories and jars). */
    private static List<String> listNames(ClassLoader loader) throws IOException {
        TreeSet<String> names = new TreeSet<>();
        Enumeration<URL> roots = loader.getResources(BUNDLED_FOLDER);
        while (roots.hasMoreElements()) {
            URL root = roots.nextElement();
            switch (root.getProtocol()) {
                case "file" -> {
                    try (Stream<Path> files = Files.list(Path.of(root.toURI()))) {
                        files.map(p -> p.getFileName().toString()).forEach(f -> addName(names, f));
                    } catch (URISyntaxException e) {
                        throw new IOException("bad classpath folder " + root, e);
                    }
                }
                case "jar" -> {
                    JarURLConnection c = (JarURLConnection) root.openConnection();
                    c.setUseCaches(false);
                    try (JarFile jar = c.getJarFile()) {
                        String prefix = BUNDLED_FOLDER + "/";
                        for (Enumeration<JarEntry> es = jar.entries(); es.hasMoreElements(); ) {
                            String entry = es.nextElement().getName();
                            if (entry.startsWith(prefix) && entry.indexOf('/', prefix.length()) < 0) {
                                addName(names, entry.substring(prefix.length()));
                            }
                        }
                    }
                }
                default -> {
                    // other class loaders: bundled rule bases are still found by get(name)
                }
            }
        }
        return List.copyOf(names);
    }

    private static void addName(TreeSet<String> names, String file) {
        if (file.endsWith(SUFFIX)) {
            String name = file.substring(0, file.length() - SUFFIX.length());
            if (NAME.matcher(name).matches()) {
                names.add(name);
            }
        }
    }

    /** Description and tags from the leading {@code %} comment lines (up to the first other line). */
    static RuleBaseInfo info(String name, String text, boolean bundled) {
        String description = "";
        List<String> tags = List.of();
        int at = 0;
        while (at <= text.length()) {
            int end = text.indexOf('\n', at);
            String s = (end < 0 ? text.substring(at) : text.substring(at, end)).strip();
            if (s.isEmpty() || !s.startsWith("%")) {
                break;
            }
            Matcher m = METADATA.matcher(s);
            if (m.matches()) {
                String value = m.group(2).strip();
                if (m.group(1).toLowerCase(Locale.ROOT).equals("description")) {
                    description = value;
                } else {
                    tags = Stream.of(value.split(",")).map(String::strip).filter(t -> !t.isEmpty()).toList();
                }
            }
            if (end < 0) {
                break;
            }
            at = end + 1;
        }
        return new RuleBaseInfo(name, description, tags, bundled);
    }

    // ------------------------------------------------------------------ checks

    private static Optional<RuleBaseError> checkName(String name) {
        if (name != null && NAME.matcher(name).matches()) {
            return Optional.empty();
        }
        return Optional.of(RuleBaseError.of(RuleBaseError.Code.INVALID_NAME, "Invalid rule base name "
                + (name == null ? "null" : "'" + name + "'") + ": a name is 1 to 64 characters from a-z, 0-9, "
                + "'_' and '-' (no capitals, dots, slashes or spaces)."));
    }

    private Optional<RuleBaseError> checkSyntax(String content) {
        if (checker == null) {
            return Optional.of(RuleBaseError.of(RuleBaseError.Code.SYNTAX_ERROR, "The syntax of the content "
                    + "cannot be checked: this store has no Prolog to read it with; build it with "
                    + "RuleBaseStore.directory(dir).checkedBy(backend)."));
        }
        List<Diagnostic> diagnostics;
        try {
            diagnostics = checker.apply(content);
        } catch (RuntimeException e) {
            return Optional.of(RuleBaseError.of(RuleBaseError.Code.IO_ERROR,
                    "The syntax of the content could not be checked: " + e.getMessage()));
        }
        List<Diagnostic> errors = diagnostics.stream().filter(d -> d.severity() == Severity.ERROR).toList();
        if (errors.isEmpty()) {
            return Optional.empty();
        }
        Diagnostic first = errors.get(0);
        StringBuilder msg = new StringBuilder("Syntax error");
        if (first.line() > 0) {
            msg.append(" at line ").append(first.line());
            if (first.column() > 0) {
                msg.append(", column ").append(first.column());
            }
        }
        msg.append(": ").append(first.message().replaceFirst("^Syntax error: ", ""));
        if (errors.size() > 1) {
            msg.append(" (and ").append(errors.size() - 1).append(" more: lines ")
                    .append(errors.stream().skip(1).map(d -> String.valueOf(d.line()))
                            .collect(java.util.stream.Collectors.joining(", ")))
                    .append(")");
        }
        msg.append(". Nothing was saved.");
        return Optional.of(new RuleBaseError(RuleBaseError.Code.SYNTAX_ERROR, msg.toString(), first.line(),
                Optional.empty()));
    }

    private RuleBaseError notFound(String name) {
        List<String> available;
        try {
            TreeSet<String> all = new TreeSet<>(bundledNames());
            all.addAll(savedNames());
            available = List.copyOf(all);
        } catch (IOException e) {
            available = List.of();
        }
        Optional<String> best = closest(name, available);
        StringBuilder msg = new StringBuilder("Rule base '").append(name).append("' not found.");
        best.ifPresent(b -> msg.append(" Did you mean '").append(b).append("'?"));
        if (available.isEmpty()) {
            msg.append(" There are no rule bases yet; save_rule_base creates one.");
        } else {
            msg.append(" Available: ").append(String.join(", ", available.subList(0, Math.min(10, available.size()))));
            if (available.size() > 10) {
                msg.append(" (and ").append(available.size() - 10).append(" more)");
            }
            msg.append('.');
        }
        return new RuleBaseError(RuleBaseError.Code.NOT_FOUND, msg.toString(), 0, best);
    }

    /** The name closest to {@code name} by edit distance, if close enough (a third of its length, at least 2). */
    static Optional<String> closest(String name, List<String> names) {
        String best = null;
        int bestDistance = Integer.MAX_VALUE;
        int limit = Math.max(2, name.length() / 3);
        for (String n : names) {
            int d = distance(name, n);
            if (d < bestDistance || (d == bestDistance && best != null && n.compareTo(best) < 0)) {
                best = n;
                bestDistance = d;
            }
        }
        return best != null && bestDistance <= limit ? Optional.of(best) : Optional.empty();
    }

    private static int distance(String a, String b) {
        int[] prev = new int[b.length() + 1];
        int[] cur = new int[b.length() + 1];
        for (int j = 0; j <= b.length(); j++) {
            prev[j] = j;
        }
        for (int i = 1; i <= a.length(); i++) {
            cur[0] = i;
            for (int j = 1; j <= b.length(); j++) {
                int cost = a.charAt(i - 1) == b.charAt(j - 1) ? 0 : 1;
                cur[j] = Math.min(Math.min(cur[j - 1] + 1, prev[j] + 1), prev[j - 1] + cost);
            }
            int[] t = prev;
            prev = cur;
            cur = t;
        }
        return prev[b.length()];
    }

    private static <T> RuleBaseResult<T> ioFailure(String what, Exception e) {
        return RuleBaseResult.failure(RuleBaseError.of(RuleBaseError.Code.IO_ERROR,
                what + ": " + e.getClass().getSimpleName() + (e.getMessage() == null ? "" : " " + e.getMessage())));
    }
}

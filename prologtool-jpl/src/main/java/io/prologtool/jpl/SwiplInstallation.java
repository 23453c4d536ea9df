package io.prologtool.jpl;

import io.prologtool.spi.Executables;

import io.prologtool.PrologUnavailableException;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.zip.ZipFile;

/**
 * Where the SWI-Prolog installation keeps what the embedded Prolog needs: its home directory, the
 * shared library {@code libswipl} and JPL's native library {@code libjpl}. Found by asking
 * {@code swipl --dump-runtime-variables}, so that no environment variable or
 * {@code java.library.path} setting is needed; {@code version} is its {@code PLVERSION} (90004 for 9.0.4),
 * or {@code unknown}.
 */
record SwiplInstallation(Path swipl, Path home, Path libswipl, Path libjpl, String version) {

    /** The version as people write it (9.0.4 for PLVERSION 90004), or {@code unknown}. */
    String dottedVersion() {
        if (!version.matches("\\d{5,}")) {
            return version;
        }
        int v = Integer.parseInt(version);
        return (v / 10000) + "." + (v / 100 % 100) + "." + (v % 100);
    }

    /** The Debian packages that provide SWI-Prolog and JPL. */
    static final String PACKAGES = "swi-prolog-nox swi-prolog-java";

    /** The system property that names JPL's jar, overriding the lookup in the installation. */
    static final String JAR_PROPERTY = "prologtool.jpl.jar";

    /** Where Debian's {@code swi-prolog-java} puts JPL's jar besides the installation's own lib folder. */
    static final Path SYSTEM_JAR = Path.of("/usr/share/java/jpl.jar");

    private static final Pattern VARIABLE = Pattern.compile("^(PL[A-Z]+)=\"(.*)\";\\s*$", Pattern.MULTILINE);

    /**
     * Locates the installation of {@code swipl} (or, when null, of the {@code swipl} on the PATH).
     *
     * @throws PrologUnavailableException in one sentence naming what is missing and the packages
     */
    static SwiplInstallation locate(Path swiplOrNull) {
        Path swipl = swiplOrNull != null ? swiplOrNull : Executables.findOnPath("swipl").orElseThrow(() -> unavailable(
                "SWI-Prolog was not found (no swipl on the PATH)"));
        if (!Files.isExecutable(swipl)) {
            throw unavailable("SWI-Prolog was not found (" + swipl + " is not an executable file)");
        }
        Map<String, String> vars = runtimeVariables(swipl);
        if (!vars.containsKey("PLBASE") && !vars.containsKey("PLVERSION")) {
            throw new PrologUnavailableException(swipl + " is not SWI-Prolog (`" + swipl
                    + " --dump-runtime-variables` named no PLBASE); name SWI-Prolog's swipl with swiplPath(...)"
                    + " or " + PrologUnavailableException.INSTALL_SWIPL_AND_JPL);
        }
        Path home = existing(vars, "PLBASE", swipl);
        Path libswipl = existing(vars, "PLLIBSWIPL", swipl);
        Path libDir = existing(vars, "PLLIBDIR", swipl);
        Path libjpl = libDir.resolve(System.mapLibraryName("jpl"));
        if (!Files.isRegularFile(libjpl)) {
            throw unavailable("SWI-Prolog's JPL library " + libjpl + " is missing");
        }
        return new SwiplInstallation(swipl, home, libswipl, libjpl, vars.getOrDefault("PLVERSION", "unknown"));
    }

    /**
     * JPL's jar for this installation: {@code -Dprologtool.jpl.jar=PATH} when set, else
     * {@code <home>/lib/jpl.jar} (SWI-Prolog's own layout, also on Debian), else
     * {@code /usr/share/java/jpl.jar} (Debian's {@code swi-prolog-java}).
     *
     * @throws PrologUnavailableException in one sentence naming the package to install
     */
    Path jplJar() {
        return findJplJar(System.getProperty(JAR_PROPERTY), home, SYSTEM_JAR);
    }

    /** {@link #jplJar()} with its inputs spelled out, for tests. */
    static Path findJplJar(String property, Path home, Path systemJar) {
        if (property != null && !property.isBlank()) {
            Path named = Path.of(property);
            if (Files.isDirectory(named)) {
                Path inside = named.resolve("jpl.jar");
                throw new PrologUnavailableException("-D" + JAR_PROPERTY + "=" + named + " names a folder, not"
                        + " JPL's jar; name the jar itself" + (Files.isRegularFile(inside)
                        ? ", here -D" + JAR_PROPERTY + "=" + inside : ", usually <swipl home>/lib/jpl.jar"));
            }
            if (!Files.isRegularFile(named)) {
                throw new PrologUnavailableException("JPL's jar " + named + " (named by -D" + JAR_PROPERTY
                        + ") does not exist; " + PrologUnavailableException.INSTALL_JPL
                        + " or name an existing jpl.jar");
            }
            requireJpl(named);
            return named;
        }
        List<Path> tries = List.of(home.resolve("lib").resolve("jpl.jar"), systemJar);
        for (Path p : tries) {
            if (Files.isRegularFile(p)) {
                return p;
            }
        }
        throw new PrologUnavailableException("JPL's jar was not found (looked at " + tries.get(0) + " and "
                + tries.get(1) + "); " + PrologUnavailableException.INSTALL_JPL
                + " or name its jpl.jar with -D" + JAR_PROPERTY + "=PATH");
    }

    /** The class every JPL 7 jar holds. */
    static final String JPL_CLASS_ENTRY = "org/jpl7/JPL.class";

    /**
     * Refuses a file named by {@value #JAR_PROPERTY} that is not JPL's jar: not a zip archive, or one
     * without JPL 7's classes.
     */
    private static void requireJpl(Path jar) {
        boolean jpl;
        try (ZipFile zip = new ZipFile(jar.toFile())) {
            jpl = zip.getEntry(JPL_CLASS_ENTRY) != null;
        } catch (IOException e) {
            throw new PrologUnavailableException("-D" + JAR_PROPERTY + "=" + jar + " names a file that is not a"
                    + " jar (" + e.getMessage() + "); name JPL's jpl.jar, usually <swipl home>/lib/jpl.jar", e);
        }
        if (!jpl) {
            throw new PrologUnavailableException("-D" + JAR_PROPERTY + "=" + jar + " names a jar that is not JPL"
                    + " (it has no " + JPL_CLASS_ENTRY + "); name JPL's jpl.jar, usually <swipl home>/lib/jpl.jar");
        }
    }

    /** One sentence: what is missing, then how to install it. */
    static PrologUnavailableException unavailable(String what) {
        return new PrologUnavailableException(what + "; " + PrologUnavailableException.INSTALL_SWIPL_AND_JPL);
    }

    static PrologUnavailableException unavailable(String what, Throwable cause) {
        return new PrologUnavailableException(what + "; " + PrologUnavailableException.INSTALL_SWIPL_AND_JPL, cause);
    }

    private static Map<String, String> runtimeVariables(Path swipl) {
        Process p;
        try {
            p = new ProcessBuilder(swipl.toString(), "--dump-runtime-variables")
                    .redirectErrorStream(true).start();
        } catch (IOException e) {
            throw unavailable("SWI-Prolog could not be started (" + swipl + ": " + e.getMessage() + ")", e);
        }
        String out;
        try {
            p.getOutputStream().close();
            out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
            if (!p.waitFor(30, TimeUnit.SECONDS)) {
                p.destroyForcibly();
                throw unavailable("SWI-Prolog did not answer `" + swipl + " --dump-runtime-variables`");
            }
        } catch (IOException e) {
            p.destroyForcibly();
            throw unavailable("SWI-Prolog did not answer `" + swipl + " --dump-runtime-variables` ("
                    + e.getMessage() + ")", e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            p.destroyForcibly();
            throw new PrologUnavailableException("interrupted while asking " + swipl + " for its installation", e);
        }
        Map<String, String> vars = new LinkedHashMap<>();
        Matcher m = VARIABLE.matcher(out);
        while (m.find()) {
            vars.put(m.group(1), m.group(2));
        }
        return vars;
    }

    private static Path existing(Map<String, String> vars, String name, Path swipl) {
        String value = vars.get(name);
        if (value == null || value.isEmpty()) {
            throw unavailable("`" + swipl + " --dump-runtime-variables` did not name " + name
                    + " (a SWI-Prolog without a shared libswipl?)");
        }
        Path p = Path.of(value);
        if (!Files.exists(p)) {
            throw unavailable("SWI-Prolog's " + name + " " + p + " does not exist");
        }
        return p;
    }
}

package io.prologtool;

/**
 * SWI-Prolog (or a part of it, such as JPL) is not installed or cannot be started here. The message says
 * what is missing and how to install it on each system ({@link #INSTALL_SWIPL}, {@link #INSTALL_SWIPL_AND_JPL}).
 */
public class PrologUnavailableException extends PrologToolException {

    private static final long serialVersionUID = 1L;

    /** How to install SWI-Prolog, per system, as the backends' messages say it. */
    public static final String INSTALL_SWIPL = "install SWI-Prolog (Debian, Ubuntu: `apt-get install swi-prolog-nox`;"
            + " Fedora: `dnf install pl`; macOS: `brew install swi-prolog`)";

    /** How to install SWI-Prolog with JPL, per system, as the in-process backend's messages say it. */
    public static final String INSTALL_SWIPL_AND_JPL = "install SWI-Prolog and JPL (Debian, Ubuntu: `apt-get install"
            + " swi-prolog-nox swi-prolog-java`; Fedora: `dnf install pl pl-jpl`; macOS: `brew install swi-prolog`,"
            + " which includes JPL)";

    /** How to install JPL alone, per system. */
    public static final String INSTALL_JPL = "install JPL (Debian, Ubuntu: `apt-get install swi-prolog-java`;"
            + " Fedora: `dnf install pl-jpl`; macOS: brew's swi-prolog includes it)";

    public PrologUnavailableException(String message) {
        super(message);
    }

    public PrologUnavailableException(String message, Throwable cause) {
        super(message, cause);
    }
}

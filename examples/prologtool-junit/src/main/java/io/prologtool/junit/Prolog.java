package io.prologtool.junit;

import org.junit.jupiter.api.extension.ExtendWith;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Inherited;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * A JUnit 5 test class (or method) that gets a {@link io.prologtool.PrologSession} as a parameter of its
 * test methods, opened, loaded and closed by {@link PrologExtension}:
 *
 * <pre>{@code
 * @Prolog(resources = "prolog/family.pl")
 * class FamilyTest {
 *     @Test
 *     void grandparents(PrologSession s) {
 *         assertThat(s.goal("grandparent(tom, X)").run().answers()).hasSize(1);
 *     }
 * }
 * }</pre>
 *
 * On a method, it replaces the class's settings for that method's session (with {@link Scope#TEST}).
 */
@Documented
@Inherited
@Retention(RetentionPolicy.RUNTIME)
@Target({ElementType.TYPE, ElementType.METHOD})
@ExtendWith(PrologExtension.class)
public @interface Prolog {

    /** Which backend runs the sessions. */
    enum Backend {
        /** swipl child processes ({@code prologtool-process}, a dependency of this module). */
        PROCESS,
        /** SWI-Prolog inside the JVM ({@code prologtool-jpl}, which the test's classpath must hold). */
        JPL
    }

    /** Whether each test gets a session of its own, or the tests of a class share one. */
    enum Scope {
        /** A fresh session per test method, closed after it. */
        TEST,
        /** One session for the class's tests, closed after the last; what a test asserts stays. */
        CLASS
    }

    /** The backend; one per test class, closed after it. */
    Backend backend() default Backend.PROCESS;

    /** {@link Scope#TEST} (the default) or {@link Scope#CLASS}. */
    Scope scope() default Scope.TEST;

    /** Open the session sandboxed ({@link io.prologtool.SessionOptions#sandboxed()}). */
    boolean sandboxed() default false;

    /**
     * Files to consult into the session, in order, with {@link io.prologtool.PrologSession#consult(java.nio.file.Path)}
     * (relative paths from the working folder, the module's folder under Maven).
     */
    String[] files() default {};

    /** Classpath resources to consult after {@link #files()}, e.g. {@code "prolog/family.pl"}, read as UTF-8. */
    String[] resources() default {};

    /** The session's consult time limit ({@link io.prologtool.SessionOptions#consultTimeLimit()}), in seconds. */
    int timeLimitSeconds() default 30;

    /**
     * When true (the default), a file or resource that loads with an error diagnostic fails the test
     * before it runs, with the diagnostics.
     */
    boolean failOnLoadErrors() default true;
}

package io.prologtool.jpl.internal.jpl7;

import io.prologtool.jpl.internal.JplBridge;
import io.prologtool.jpl.internal.JplCallException;

import java.lang.invoke.MethodHandle;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.MethodType;
import java.lang.reflect.Array;
import java.nio.file.Path;
import java.util.Map;

/**
 * {@link JplBridge} over JPL 7, reached through method handles: the build compiles against no JPL
 * artifact, so it works wherever SWI-Prolog is installed, and the classes that run are those of the
 * installation's own {@code jpl.jar} (the class loader of this class sees them, see {@code JplClasses}).
 * Only one Term crosses in each direction per request: the request text as an atom in, the reply text as
 * an atom out (FACTS, "JPL"); every query is closed in {@code finally}.
 */
public final class Jpl7Bridge implements JplBridge {

    private static final String PACKAGE = "org.jpl7.";

    private final Class<?> termClass;
    private final Class<?> jplException;
    private final MethodHandle setNativeLibraryPath;
    private final MethodHandle setDefaultInitArgs;
    private final MethodHandle init;
    private final MethodHandle queryOfText;
    private final MethodHandle queryOfTerm;
    private final MethodHandle hasSolution;
    private final MethodHandle oneSolution;
    private final MethodHandle close;
    private final MethodHandle atom;
    private final MethodHandle compound;
    private final MethodHandle integer;
    private final MethodHandle variable;
    private final MethodHandle textToTerm;
    private final MethodHandle name;
    private final MethodHandle intValue;
    private final MethodHandle prologExceptionTerm;
    private final Class<?> prologException;
    private final MethodHandle createEngine;
    private final MethodHandle destroyEngine;

    /**
     * Public and without arguments: the backend instantiates it reflectively.
     *
     * @throws IllegalStateException when the classes this class loader sees are not JPL 7's (a jar that is
     *                               not JPL, or a JPL without what this bridge calls), naming what is missing
     */
    public Jpl7Bridge() {
        ClassLoader loader = Jpl7Bridge.class.getClassLoader();
        MethodHandles.Lookup lookup = MethodHandles.publicLookup();
        try {
            Class<?> jpl = Class.forName(PACKAGE + "JPL", true, loader);
            termClass = Class.forName(PACKAGE + "Term", true, loader);
            jplException = Class.forName(PACKAGE + "JPLException", true, loader);
            prologException = Class.forName(PACKAGE + "PrologException", true, loader);
            Class<?> query = Class.forName(PACKAGE + "Query", true, loader);
            Class<?> termArray = termClass.arrayType();
            Class<?> prolog = Class.forName(PACKAGE + "fli.Prolog", true, loader);
            setNativeLibraryPath = lookup.findStatic(jpl, "setNativeLibraryPath",
                    MethodType.methodType(String.class, String.class));
            setDefaultInitArgs = lookup.findStatic(jpl, "setDefaultInitArgs",
                    MethodType.methodType(void.class, String[].class));
            init = lookup.findStatic(jpl, "init", MethodType.methodType(boolean.class));
            queryOfText = lookup.findConstructor(query, MethodType.methodType(void.class, String.class));
            queryOfTerm = lookup.findConstructor(query, MethodType.methodType(void.class, termClass));
            hasSolution = lookup.findVirtual(query, "hasSolution", MethodType.methodType(boolean.class));
            oneSolution = lookup.findVirtual(query, "oneSolution", MethodType.methodType(Map.class));
            close = lookup.findVirtual(query, "close", MethodType.methodType(void.class));
            atom = lookup.findConstructor(Class.forName(PACKAGE + "Atom", true, loader),
                    MethodType.methodType(void.class, String.class));
            compound = lookup.findConstructor(Class.forName(PACKAGE + "Compound", true, loader),
                    MethodType.methodType(void.class, String.class, termArray));
            integer = lookup.findConstructor(Class.forName(PACKAGE + "Integer", true, loader),
                    MethodType.methodType(void.class, long.class));
            variable = lookup.findConstructor(Class.forName(PACKAGE + "Variable", true, loader),
                    MethodType.methodType(void.class, String.class));
            textToTerm = lookup.findStatic(Class.forName(PACKAGE + "Util", true, loader), "textToTerm",
                    MethodType.methodType(termClass, String.class));
            name = lookup.findVirtual(termClass, "name", MethodType.methodType(String.class));
            intValue = lookup.findVirtual(termClass, "intValue", MethodType.methodType(int.class));
            prologExceptionTerm = lookup.findVirtual(prologException, "term", MethodType.methodType(termClass));
            createEngine = lookup.findStatic(prolog, "create_engine", MethodType.methodType(int.class));
            destroyEngine = lookup.findStatic(prolog, "destroy_engine", MethodType.methodType(int.class));
        } catch (ClassNotFoundException e) {
            throw new IllegalStateException("JPL's class " + e.getMessage() + " is missing", e);
        } catch (NoSuchMethodException e) {
            throw new IllegalStateException("this JPL lacks a method the backend calls, " + e.getMessage()
                    + ", as JPL older than SWI-Prolog 9's does", e);
        } catch (IllegalAccessException e) {
            throw new IllegalStateException("JPL's API is not accessible: " + e.getMessage(), e);
        }
    }

    @Override
    public void init(Path libjpl, String[] initArgs) {
        try {
            setNativeLibraryPath.invoke(libjpl.toString());
            setDefaultInitArgs.invoke(initArgs.clone());
            init.invoke();
        } catch (RuntimeException | Error e) {
            throw e;
        } catch (Throwable e) {
            throw new IllegalStateException("JPL did not start: " + e, e);
        }
    }

    @Override
    public boolean hasSolution(String goal) {
        return run(call(() -> queryOfText.invoke(goal)), this::hasSolutionOf);
    }

    @Override
    public boolean loadFile(Path file) {
        Object goal = compound("load_files", atom(file.toString()), call(() -> textToTerm.invoke("[silent(true)]")));
        return run(call(() -> queryOfTerm.invoke(goal)), this::hasSolutionOf);
    }

    @Override
    public Runnable attachEngine() {
        int id = (int) call(() -> createEngine.invoke());
        if (id < 0) {
            throw new JplCallException(null, "SWI-Prolog could not create an engine for this thread ("
                    + id + ")", null);
        }
        return () -> call(() -> destroyEngine.invoke());
    }

    @Override
    public String request(String module, long ticket, String requestText) {
        Object goal = compound(":", atom(module), compound("request",
                call(() -> integer.invoke(ticket)), atom(requestText), variable("Reply")));
        return run(call(() -> queryOfTerm.invoke(goal)), query -> {
            Object reply = solutionValue(query, "Reply");
            if (reply == null || !reply.getClass().getName().equals(PACKAGE + "Atom")) {
                throw new JplCallException(null, "the harness gave no reply text (" + reply + ")", null);
            }
            return (String) call(() -> name.invoke(reply));
        });
    }

    @Override
    public void callQuietly(String module, String predicate, long ticket) {
        Object goal = compound(":", atom(module), compound(predicate, call(() -> integer.invoke(ticket))));
        Object q = call(() -> queryOfTerm.invoke(goal));
        try {
            hasSolutionOf(q);
        } catch (RuntimeException ignored) {
            // the caller tries again if it still matters
        } finally {
            closeQuietly(q);
        }
    }

    @Override
    public int count(String module, String predicate) {
        Object goal = compound(":", atom(module), compound(predicate, variable("Count")));
        return run(call(() -> queryOfTerm.invoke(goal)), query -> {
            Object count = solutionValue(query, "Count");
            if (count == null) {
                throw new JplCallException(null, module + ":" + predicate + "/1 failed", null);
            }
            return (int) call(() -> intValue.invoke(count));
        });
    }

    // ---------------------------------------------------------------- terms and queries

    private Object atom(String text) {
        return call(() -> atom.invoke(text));
    }

    private Object variable(String varName) {
        return call(() -> variable.invoke(varName));
    }

    private Object compound(String functor, Object... args) {
        Object array = Array.newInstance(termClass, args.length);
        for (int i = 0; i < args.length; i++) {
            Array.set(array, i, args[i]);
        }
        return call(() -> compound.invoke(functor, array));
    }

    private boolean hasSolutionOf(Object query) {
        return (boolean) call(() -> hasSolution.invoke(query));
    }

    /** The value of {@code var} in the one solution of {@code query}; null when it has none. */
    private Object solutionValue(Object query, String var) {
        Map<?, ?> solution = (Map<?, ?>) call(() -> oneSolution.invoke(query));
        return solution == null ? null : solution.get(var);
    }

    private void closeQuietly(Object query) {
        try {
            close.invoke(query);
        } catch (Throwable ignored) {
            // closing is best effort; JPL's close does not throw in practice
        }
    }

    /** {@code use} on {@code q}, JPL's exceptions as {@link JplCallException}s; {@code q} closed after. */
    private <T> T run(Object q, java.util.function.Function<Object, T> use) {
        try {
            return use.apply(q);
        } finally {
            call(() -> {
                close.invoke(q);
                return null;
            });
        }
    }

    @FunctionalInterface
    private interface Call {
        Object invoke() throws Throwable;
    }

    /** Runs one JPL call; JPL's exceptions come out as {@link JplCallException}s, others unchanged. */
    private Object call(Call c) {
        try {
            return c.invoke();
        } catch (JplCallException e) {
            throw e;
        } catch (RuntimeException e) {
            throw translate(e);
        } catch (Error e) {
            throw e;
        } catch (Throwable e) {
            throw new IllegalStateException("JPL threw " + e, e);
        }
    }

    private RuntimeException translate(Throwable e) {
        if (prologException.isInstance(e)) {
            String ball;
            try {
                ball = String.valueOf(prologExceptionTerm.invoke(e));
            } catch (Throwable t) {
                ball = String.valueOf(e.getMessage());
            }
            return new JplCallException(ball, "Prolog raised " + ball, e);
        }
        if (jplException.isInstance(e)) {
            return new JplCallException(null, "JPL failed: " + e.getMessage(), e);
        }
        return e instanceof RuntimeException re ? re : new IllegalStateException(e);
    }
}

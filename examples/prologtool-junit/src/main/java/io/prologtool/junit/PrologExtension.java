package io.prologtool.junit;

import io.prologtool.ConsultResult;
import io.prologtool.PrologBackend;
import io.prologtool.PrologSession;
import io.prologtool.PrologUnavailableException;
import io.prologtool.SessionOptions;
import io.prologtool.SourceFiles;
import io.prologtool.process.ProcessBackend;
import org.junit.jupiter.api.extension.ExtensionConfigurationException;
import org.junit.jupiter.api.extension.ExtensionContext;
import org.junit.jupiter.api.extension.ParameterContext;
import org.junit.jupiter.api.extension.ParameterResolutionException;
import org.junit.jupiter.api.extension.ParameterResolver;
import org.opentest4j.AssertionFailedError;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Optional;
import java.util.stream.Collectors;

/**
 * The JUnit 5 extension behind {@link Prolog}: it resolves parameters of type {@link PrologSession} (a
 * session opened with the annotation's settings and loaded with its files and resources) and
 * {@link PrologBackend} (the class's backend), and closes both itself: a {@link Prolog.Scope#TEST}
 * session after its test, a {@link Prolog.Scope#CLASS} session and the backend after the class.
 * Without a {@link Prolog} annotation ({@code @ExtendWith(PrologExtension.class)} alone) the defaults
 * of {@link Prolog} apply.
 */
public final class PrologExtension implements ParameterResolver {

    private static final ExtensionContext.Namespace NS = ExtensionContext.Namespace.create(PrologExtension.class);

    @Override
    public boolean supportsParameter(ParameterContext parameter, ExtensionContext context) {
        Class<?> type = parameter.getParameter().getType();
        return type == PrologSession.class || type == PrologBackend.class;
    }

    @Override
    public Object resolveParameter(ParameterContext parameter, ExtensionContext context) {
        Prolog config = config(context);
        if (parameter.getParameter().getType() == PrologBackend.class) {
            return backend(context, config);
        }
        if (config.scope() == Prolog.Scope.CLASS) {
            ExtensionContext classContext = classContext(context);
            return classContext.getStore(NS).getOrComputeIfAbsent("session",
                    k -> new Closing(open(classContext, config)), Closing.class).session;
        }
        return context.getStore(NS).getOrComputeIfAbsent("session:" + context.getUniqueId(),
                k -> new Closing(open(context, config)), Closing.class).session;
    }

    /** The method's annotation, else the class's (or an enclosing class's), else the defaults. */
    private static Prolog config(ExtensionContext context) {
        Optional<Prolog> onMethod = context.getTestMethod().map(m -> m.getAnnotation(Prolog.class));
        if (onMethod.isPresent()) {
            return onMethod.get();
        }
        for (Optional<ExtensionContext> c = Optional.of(context); c.isPresent(); c = c.get().getParent()) {
            Optional<Prolog> onClass = c.get().getTestClass().map(k -> k.getAnnotation(Prolog.class));
            if (onClass.isPresent()) {
                return onClass.get();
            }
        }
        return Defaults.class.getAnnotation(Prolog.class);
    }

    @Prolog
    private static final class Defaults {
    }

    private static ExtensionContext classContext(ExtensionContext context) {
        ExtensionContext c = context;
        while (c.getTestMethod().isPresent() && c.getParent().isPresent()) {
            c = c.getParent().get();
        }
        return c;
    }

    private static PrologBackend backend(ExtensionContext context, Prolog config) {
        ExtensionContext classContext = classContext(context);
        return classContext.getStore(NS).getOrComputeIfAbsent("backend:" + config.backend(),
                k -> new ClosingBackend(start(config.backend())), ClosingBackend.class).backend;
    }

    private static PrologBackend start(Prolog.Backend which) {
        switch (which) {
            case PROCESS:
                return ProcessBackend.builder().poolSize(1).build();
            case JPL:
                try {
                    Class<?> jpl = Class.forName("io.prologtool.jpl.JplBackend");
                    return (PrologBackend) jpl.getMethod("get").invoke(null);
                } catch (ClassNotFoundException e) {
                    throw new ExtensionConfigurationException("@Prolog(backend = JPL) needs io.prologtool:prologtool-jpl "
                            + "on the test classpath: add it as a test dependency, or use Backend.PROCESS");
                } catch (java.lang.reflect.InvocationTargetException e) {
                    if (e.getCause() instanceof PrologUnavailableException u) {
                        throw u;
                    }
                    throw new ExtensionConfigurationException("the JPL backend did not start: " + e.getCause(), e.getCause());
                } catch (ReflectiveOperationException e) {
                    throw new ExtensionConfigurationException("the JPL backend did not start: " + e, e);
                }
            default:
                throw new IllegalStateException(String.valueOf(which));
        }
    }

    private static PrologSession open(ExtensionContext context, Prolog config) {
        if (config.timeLimitSeconds() <= 0) {
            throw new ExtensionConfigurationException("@Prolog(timeLimitSeconds) must be positive, was "
                    + config.timeLimitSeconds());
        }
        SessionOptions options = SessionOptions.builder().sandboxed(config.sandboxed())
                .consultTimeLimit(Duration.ofSeconds(config.timeLimitSeconds())).build();
        PrologSession s = backend(context, config).open(options);
        try {
            for (String f : config.files()) {
                check(config, f, s.consult(Path.of(f)));
            }
            for (String r : config.resources()) {
                check(config, r, s.consult(resource(r)));
            }
        } catch (RuntimeException | Error e) {
            s.close();
            throw e;
        }
        return s;
    }

    private static String resource(String path) {
        String p = path.startsWith("/") ? path.substring(1) : path;
        ClassLoader loader = Thread.currentThread().getContextClassLoader();
        try (InputStream in = (loader != null ? loader : PrologExtension.class.getClassLoader()).getResourceAsStream(p)) {
            if (in == null) {
                throw new ExtensionConfigurationException("@Prolog(resources): no classpath resource " + p);
            }
            return SourceFiles.decode(in.readAllBytes(), StandardCharsets.UTF_8, "classpath resource " + p);
        } catch (IOException e) {
            throw new ExtensionConfigurationException("cannot read the classpath resource " + p + ": " + e, e);
        }
    }

    private static void check(Prolog config, String what, ConsultResult r) {
        if (config.failOnLoadErrors() && r.hasErrors()) {
            throw new AssertionFailedError(what + " does not load cleanly:\n" + r.messages().stream()
                    .map(d -> "  " + d).collect(Collectors.joining("\n")));
        }
    }

    /** A session the store closes when its context ends. */
    private static final class Closing implements ExtensionContext.Store.CloseableResource {
        final PrologSession session;

        Closing(PrologSession session) {
            this.session = session;
        }

        @Override
        public void close() {
            session.close();
        }
    }

    /** A backend the store closes when its class's context ends. */
    private static final class ClosingBackend implements ExtensionContext.Store.CloseableResource {
        final PrologBackend backend;

        ClosingBackend(PrologBackend backend) {
            this.backend = backend;
        }

        @Override
        public void close() {
            backend.close();
        }
    }
}

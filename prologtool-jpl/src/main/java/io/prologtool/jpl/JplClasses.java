package io.prologtool.jpl;

import io.prologtool.jpl.internal.JplBridge;

import java.io.IOException;
import java.io.InputStream;
import java.net.MalformedURLException;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.file.Path;

/**
 * Where JPL's Java classes come from. They must match the native {@code libjpl} of the SWI-Prolog
 * installation, so they are taken from that installation at run time (see
 * {@link SwiplInstallation#jplJar}), never from a Maven repository: a user needs no JPL dependency.
 * When JPL's classes are already visible to this library's class loader (an application that put a
 * {@code jpl.jar} on its classpath) and no jar is named with {@value SwiplInstallation#JAR_PROPERTY},
 * those are used.
 *
 * <p>The bridge ({@code io.prologtool.jpl.internal.jpl7}, the only code that names {@code org.jpl7}) is
 * defined by a {@link BridgeLoader} from this library's own class files, so it links against the jar's
 * classes; everything else resolves through this library's class loader, so the bridge and the backend
 * share the {@link JplBridge} interface.
 */
final class JplClasses {

    static final String BRIDGE_PACKAGE = "io.prologtool.jpl.internal.jpl7.";
    static final String BRIDGE_CLASS = BRIDGE_PACKAGE + "Jpl7Bridge";
    static final String JPL_PACKAGE = "org.jpl7.";

    private JplClasses() {
    }

    /** The bridge for this JVM: over JPL's classes on the classpath, or over the installation's jar. */
    static JplBridge bridge(SwiplInstallation installation) {
        ClassLoader own = JplClasses.class.getClassLoader();
        if (System.getProperty(SwiplInstallation.JAR_PROPERTY) == null && visible(own)) {
            return instantiate(own);
        }
        Path jar = installation.jplJar();
        return instantiate(loader(jar, own));
    }

    /** A class loader that takes {@code org.jpl7} from {@code jar} and defines the bridge itself. */
    static BridgeLoader loader(Path jar, ClassLoader parent) {
        try {
            return new BridgeLoader(jar.toUri().toURL(), parent);
        } catch (MalformedURLException e) {
            throw new IllegalArgumentException("not a jar path: " + jar, e);
        }
    }

    private static boolean visible(ClassLoader loader) {
        try {
            Class.forName(JPL_PACKAGE + "JPL", false, loader);
            return true;
        } catch (ClassNotFoundException | LinkageError e) {
            return false;
        }
    }

    static JplBridge instantiate(ClassLoader loader) {
        try {
            Class<?> c = Class.forName(BRIDGE_CLASS, true, loader);
            return (JplBridge) c.getConstructor().newInstance();
        } catch (java.lang.reflect.InvocationTargetException e) {
            Throwable why = e.getCause() != null ? e.getCause() : e;
            throw SwiplInstallation.unavailable("JPL's Java classes could not be used (" + why.getMessage() + ")", why);
        } catch (ReflectiveOperationException | LinkageError e) {
            throw SwiplInstallation.unavailable("JPL's Java classes could not be loaded (" + e + ")", e);
        }
    }

    /**
     * Child-first for {@code org.jpl7} (from the jar) and for the bridge package (defined here from the
     * parent's class files, so that its references to {@code org.jpl7} resolve in the jar); parent-first
     * for everything else.
     */
    static final class BridgeLoader extends URLClassLoader {

        static {
            ClassLoader.registerAsParallelCapable();
        }

        BridgeLoader(URL jplJar, ClassLoader parent) {
            super("prologtool-jpl", new URL[]{jplJar}, parent);
        }

        @Override
        protected Class<?> loadClass(String name, boolean resolve) throws ClassNotFoundException {
            synchronized (getClassLoadingLock(name)) {
                Class<?> c = findLoadedClass(name);
                if (c == null) {
                    if (name.startsWith(JPL_PACKAGE)) {
                        c = findClass(name);
                    } else if (name.startsWith(BRIDGE_PACKAGE)) {
                        c = defineFromParent(name);
                    } else {
                        c = super.loadClass(name, false);
                    }
                }
                if (resolve) {
                    resolveClass(c);
                }
                return c;
            }
        }

        private Class<?> defineFromParent(String name) throws ClassNotFoundException {
            String resource = name.replace('.', '/') + ".class";
            try (InputStream in = getParent().getResourceAsStream(resource)) {
                if (in == null) {
                    throw new ClassNotFoundException(name);
                }
                byte[] bytes = in.readAllBytes();
                return defineClass(name, bytes, 0, bytes.length, JplClasses.class.getProtectionDomain());
            } catch (IOException e) {
                throw new ClassNotFoundException(name, e);
            }
        }
    }
}

package io.prologtool.conformance;

import java.util.ArrayList;
import java.util.List;
import java.util.ResourceBundle;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Supplier;

/**
 * A {@link System.LoggerFinder} for tests: while a {@link #capture()} is open, every level of the
 * {@code io.prologtool} loggers is on and each event is recorded; otherwise (and for every other
 * logger) INFO and above go to standard error, as the JDK's default would print them. A backend module
 * registers it in {@code src/test/resources/META-INF/services/java.lang.System$LoggerFinder}: it then
 * serves the whole test JVM.
 */
public final class CapturingLoggerFinder extends System.LoggerFinder {

    /** One event as a logger received it. */
    public record Event(String logger, System.Logger.Level level, String message, Throwable thrown) {
    }

    private static final List<Event> EVENTS = new ArrayList<>();
    private static final AtomicInteger CAPTURES = new AtomicInteger();

    /** True when this finder is the JVM's (the service file is on the classpath). */
    public static boolean installed() {
        return System.LoggerFinder.getLoggerFinder() instanceof CapturingLoggerFinder;
    }

    /** Starts recording the {@code io.prologtool} loggers at every level; close it to stop. */
    public static Capture capture() {
        synchronized (EVENTS) {
            CAPTURES.incrementAndGet();
            return new Capture(EVENTS.size());
        }
    }

    /** What was logged since {@link #capture()}. */
    public static final class Capture implements AutoCloseable {
        private final int from;
        private boolean closed;

        private Capture(int from) {
            this.from = from;
        }

        /** The events since the capture began, in order. */
        public List<Event> events() {
            synchronized (EVENTS) {
                return List.copyOf(EVENTS.subList(from, EVENTS.size()));
            }
        }

        /** The events of {@code logger} at {@code level} whose message contains {@code text}. */
        public List<Event> events(String logger, System.Logger.Level level, String text) {
            return events().stream().filter(e -> e.logger().equals(logger) && e.level() == level
                    && e.message().contains(text)).toList();
        }

        @Override
        public void close() {
            synchronized (EVENTS) {
                if (!closed) {
                    closed = true;
                    if (CAPTURES.decrementAndGet() == 0) {
                        EVENTS.clear();
                    }
                }
            }
        }
    }

    @Override
    public System.Logger getLogger(String name, Module module) {
        return new CapturingLogger(name);
    }

    private static final class CapturingLogger implements System.Logger {
        private final String name;
        private final boolean ours;

        CapturingLogger(String name) {
            this.name = name;
            this.ours = name.startsWith("io.prologtool");
        }

        @Override
        public String getName() {
            return name;
        }

        @Override
        public boolean isLoggable(Level level) {
            return level != Level.OFF && ((ours && CAPTURES.get() > 0) || level.getSeverity() >= Level.INFO.getSeverity());
        }

        @Override
        public void log(Level level, ResourceBundle bundle, String msg, Throwable thrown) {
            record(level, msg, thrown);
        }

        @Override
        public void log(Level level, ResourceBundle bundle, String format, Object... params) {
            record(level, params == null || params.length == 0 ? format
                    : java.text.MessageFormat.format(format, params), null);
        }

        @Override
        public void log(Level level, Supplier<String> msgSupplier) {
            if (isLoggable(level)) {
                record(level, msgSupplier.get(), null);
            }
        }

        private void record(Level level, String msg, Throwable thrown) {
            if (!isLoggable(level)) {
                return;
            }
            if (ours && CAPTURES.get() > 0) {
                synchronized (EVENTS) {
                    if (CAPTURES.get() > 0) {
                        EVENTS.add(new Event(name, level, String.valueOf(msg), thrown));
                    }
                }
            }
            if (level.getSeverity() >= Level.INFO.getSeverity()) {
                System.err.println(level + " " + name + ": " + msg + (thrown == null ? "" : " (" + thrown + ")"));
            }
        }
    }
}

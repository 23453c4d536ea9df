package io.prologtool.spring.boot;

import io.prologtool.Answer;
import io.prologtool.GoalResult;
import io.prologtool.PrologBackend;
import io.prologtool.PrologSession;
import io.prologtool.SessionOptions;
import io.prologtool.SessionRegistry;
import io.prologtool.process.ProcessBackend;
import org.springframework.boot.actuate.health.AbstractHealthIndicator;
import org.springframework.boot.actuate.health.Health;
import org.springframework.util.ClassUtils;

import java.time.Duration;
import java.util.Objects;

/**
 * Spring Boot Actuator's view of prologtool ({@code /actuator/health/prologtool}): UP when the backend opens a
 * session and answers a goal in it within {@link #TIME_LIMIT}, DOWN with the error otherwise. Its details:
 * {@code backend} (process or jpl), {@code swiProlog} (the version the goal reports, e.g. {@code 9.0.4}),
 * {@code isolation} (the OS isolation of sandboxed sessions in effect on this machine, or {@code none}),
 * {@code sessions} (open in the registry), and for the process backend {@code pool.live} and {@code pool.idle}
 * (children started, and those waiting for a session).
 *
 * <p>Each check opens and closes one sandboxed session of its own (on the process backend, a pooled child
 * serves it and goes back to the pool), outside the registry.
 */
public class PrologHealthIndicator extends AbstractHealthIndicator {

    /** How long the check's goal may take before the backend is reported down. */
    public static final Duration TIME_LIMIT = Duration.ofSeconds(5);

    private static final boolean PROCESS_PRESENT = ClassUtils.isPresent(
            PrologToolAutoConfiguration.PROCESS_BACKEND, PrologHealthIndicator.class.getClassLoader());

    private final PrologBackend backend;
    private final SessionRegistry registry;

    /** A check of {@code backend}, with the sessions of {@code registry} counted. */
    public PrologHealthIndicator(PrologBackend backend, SessionRegistry registry) {
        super("prologtool health check failed");
        this.backend = Objects.requireNonNull(backend, "backend");
        this.registry = Objects.requireNonNull(registry, "registry");
    }

    @Override
    protected void doHealthCheck(Health.Builder builder) {
        builder.withDetail("backend", backend.name());
        if (!(PROCESS_PRESENT && ProcessDetails.add(backend, builder))) {
            builder.withDetail("isolation", "none");
        }
        builder.withDetail("sessions", registry.size());
        try (PrologSession s = backend.open(SessionOptions.builder().sandboxed(true).build())) {
            GoalResult r = s.goal("current_prolog_flag(version, V)").timeLimit(TIME_LIMIT).run();
            Answer a = r.firstAnswer().orElse(null);
            if (a == null) {
                builder.down().withDetail("error", "the check's goal did not succeed: " + r);
                return;
            }
            int v = a.getInt("V");
            builder.up().withDetail("swiProlog", (v / 10_000) + "." + (v / 100 % 100) + "." + (v % 100));
        }
    }

    /** What only the process backend has, in a class of its own so that its module is needed only with it. */
    private static final class ProcessDetails {

        private ProcessDetails() {
        }

        static boolean add(PrologBackend backend, Health.Builder builder) {
            if (!(backend instanceof ProcessBackend p)) {
                return false;
            }
            builder.withDetail("isolation", p.isolationInEffect().orElse("none"))
                    .withDetail("pool.live", p.liveChildren()).withDetail("pool.idle", p.idleChildren());
            return true;
        }
    }
}

package io.prologtool.micrometer;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.DistributionSummary;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import io.micrometer.observation.Observation;
import io.micrometer.observation.ObservationRegistry;
import io.prologtool.PrologListener;

import java.time.Duration;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * A {@link PrologListener} that keeps Micrometer meters and wraps each call in an {@link Observation}.
 * Register it on a backend's builder:
 *
 * <pre>{@code
 * MeterRegistry meters = new SimpleMeterRegistry();          // or Spring Boot's, Prometheus, OTLP ...
 * ObservationRegistry observations = ObservationRegistry.create();
 * PrologBackend backend = ProcessBackend.builder()
 *         .listener(MicrometerPrologListener.of(meters, observations))
 *         .build();
 * }</pre>
 *
 * <p>Every meter has the tag {@code backend} ({@code process} or {@code jpl}):
 * <ul>
 *   <li>gauges {@code prologtool.sessions.open} (sessions open now) and {@code prologtool.pool.idle}
 *       (children waiting in a process backend's warm pool);</li>
 *   <li>counters {@code prologtool.calls} (tags {@code kind}: goal, fetch, consult, run_tests, execute;
 *       {@code outcome}: see {@link PrologListener.Call#outcome()}), {@code prologtool.sessions.closed}
 *       (tag {@code reason}: closed, evicted, expired, not_restored, backend_closed),
 *       {@code prologtool.crashes}, {@code prologtool.restores}, {@code prologtool.evictions} and
 *       {@code prologtool.refusals} (sandbox refusals, tag {@code kind});</li>
 *   <li>timers {@code prologtool.goal} (goals and fetches, tags {@code kind} and {@code outcome}),
 *       {@code prologtool.consult}, {@code prologtool.tests}, {@code prologtool.execute} (each with
 *       {@code outcome}) of the wall time of each call, and {@code prologtool.session.cycle}, from a
 *       session's open to its close (tag {@code reason});</li>
 *   <li>distribution summaries {@code prologtool.inferences} (inferences a call counted) and a counter
 *       {@code prologtool.cpu} (seconds of Prolog CPU time), both with tag {@code kind}.</li>
 * </ul>
 *
 * <p>With an {@link ObservationRegistry}, each call is an observation named {@code prologtool.call}
 * (contextual name {@code prolog <kind>}), with low-cardinality keys {@code prologtool.backend},
 * {@code prologtool.kind}, {@code prologtool.outcome} and {@code prologtool.error} (the error kind, or
 * {@code none}) and the high-cardinality key {@code prologtool.session} (the session id): Spring Boot and
 * OpenTelemetry turn it into a span. It starts on the calling thread as the call starts and stops as the
 * call ends. Meters are looked up once per tag combination and reused.
 */
public final class MicrometerPrologListener implements PrologListener {

    /** Name of each call's observation. */
    public static final String OBSERVATION = "prologtool.call";

    private final MeterRegistry meters;
    private final ObservationRegistry observations;
    private final boolean observing;
    private final Map<String, AtomicInteger> openSessions = new ConcurrentHashMap<>();
    private final Map<String, AtomicInteger> idleChildren = new ConcurrentHashMap<>();
    private final Map<String, Long> openedAt = new ConcurrentHashMap<>();
    private final Map<String, CallMeters> callMeters = new ConcurrentHashMap<>();
    private final Map<String, Counter> counters = new ConcurrentHashMap<>();

    private MicrometerPrologListener(MeterRegistry meters, ObservationRegistry observations) {
        this.meters = Objects.requireNonNull(meters, "meters");
        this.observations = Objects.requireNonNull(observations, "observations");
        this.observing = !observations.isNoop();
    }

    /** Meters in {@code meters}, no observations. */
    public static MicrometerPrologListener of(MeterRegistry meters) {
        return new MicrometerPrologListener(meters, ObservationRegistry.NOOP);
    }

    /** Meters in {@code meters}, and an observation per call in {@code observations}. */
    public static MicrometerPrologListener of(MeterRegistry meters, ObservationRegistry observations) {
        return new MicrometerPrologListener(meters, observations);
    }

    /** The meters of one (backend, kind, outcome). */
    private record CallMeters(Counter calls, Timer timer, DistributionSummary inferences, Counter cpu) {
    }

    @Override
    public void sessionOpened(String backend, String sessionId) {
        openSessions(backend).incrementAndGet();
        openedAt.put(sessionId, System.nanoTime());
    }

    @Override
    public void sessionClosed(String backend, String sessionId, CloseReason reason) {
        openSessions(backend).decrementAndGet();
        counter("prologtool.sessions.closed", "Sessions closed, by why", backend, "reason", reason.wireName())
                .increment();
        if (reason == CloseReason.EVICTED) {
            counter("prologtool.evictions", "Sessions a registry closed to make room", backend, null, null)
                    .increment();
        }
        Long opened = openedAt.remove(sessionId);
        if (opened != null) {
            Timer.builder("prologtool.session.cycle").description("A session's life, from its open to its close")
                    .tags("backend", backend, "reason", reason.wireName()).register(meters)
                    .record(System.nanoTime() - opened, TimeUnit.NANOSECONDS);
        }
    }

    @Override
    public Object callStarted(String backend, String sessionId, String kind) {
        if (!observing) {
            return null;
        }
        return Observation.createNotStarted(OBSERVATION, observations)
                .contextualName("prolog " + kind)
                .lowCardinalityKeyValue("prologtool.backend", backend)
                .lowCardinalityKeyValue("prologtool.kind", kind)
                .highCardinalityKeyValue("prologtool.session", sessionId)
                .start();
    }

    @Override
    public void callFinished(Call call) {
        CallMeters m = callMeters.computeIfAbsent(call.backend() + '\u0000' + call.kind() + '\u0000' + call.outcome(),
                k -> callMeters(call.backend(), call.kind(), call.outcome()));
        m.calls().increment();
        m.timer().record(call.cost().wallTime());
        m.inferences().record(call.cost().inferences());
        Duration cpu = call.cost().cpuTime();
        if (!cpu.isZero()) {
            m.cpu().increment(cpu.toNanos() / 1e9);
        }
        if (call.context() instanceof Observation o) {
            o.lowCardinalityKeyValue("prologtool.outcome", call.outcome());
            o.lowCardinalityKeyValue("prologtool.error", call.errorKind().orElse("none"));
            o.stop();
        }
    }

    @Override
    public void sessionCrashed(String backend, String sessionId) {
        counter("prologtool.crashes", "Times the Prolog serving a session died", backend, null, null).increment();
    }

    @Override
    public void sessionRestored(String backend, String sessionId, int droppedEntries) {
        counter("prologtool.restores", "Sessions restored in a fresh Prolog", backend, null, null).increment();
    }

    @Override
    public void sandboxRefused(String backend, String sessionId, String kind, String message) {
        counter("prologtool.refusals", "Calls the sandbox refused", backend, "kind", kind).increment();
    }

    @Override
    public void poolChanged(String backend, int idle) {
        idleChildren.computeIfAbsent(backend, b -> {
            AtomicInteger n = new AtomicInteger();
            Gauge.builder("prologtool.pool.idle", n, AtomicInteger::get)
                    .description("Children waiting in the warm pool").tags("backend", b).register(meters);
            return n;
        }).set(idle);
    }

    private AtomicInteger openSessions(String backend) {
        return openSessions.computeIfAbsent(backend, b -> {
            AtomicInteger n = new AtomicInteger();
            Gauge.builder("prologtool.sessions.open", n, AtomicInteger::get)
                    .description("Sessions open now").tags("backend", b).register(meters);
            return n;
        });
    }

    private Counter counter(String name, String description, String backend, String tag, String value) {
        String key = name + '\u0000' + backend + '\u0000' + value;
        return counters.computeIfAbsent(key, k -> {
            Counter.Builder b = Counter.builder(name).description(description).tag("backend", backend);
            if (tag != null) {
                b.tag(tag, value);
            }
            return b.register(meters);
        });
    }

    private CallMeters callMeters(String backend, String kind, String outcome) {
        String timer = switch (kind) {
            case "goal", "fetch" -> "prologtool.goal";
            case "consult" -> "prologtool.consult";
            case "run_tests" -> "prologtool.tests";
            default -> "prologtool." + kind;
        };
        Timer.Builder t = Timer.builder(timer).description("Wall time of each call, as its caller saw it")
                .tags("backend", backend, "outcome", outcome);
        if (timer.equals("prologtool.goal")) {
            t.tag("kind", kind);
        }
        return new CallMeters(
                Counter.builder("prologtool.calls").description("Calls, by kind and outcome")
                        .tags("backend", backend, "kind", kind, "outcome", outcome).register(meters),
                t.register(meters),
                DistributionSummary.builder("prologtool.inferences").description("Inferences a call counted")
                        .tags("backend", backend, "kind", kind).register(meters),
                Counter.builder("prologtool.cpu").description("Seconds of Prolog CPU time").baseUnit("seconds")
                        .tags("backend", backend, "kind", kind).register(meters));
    }
}

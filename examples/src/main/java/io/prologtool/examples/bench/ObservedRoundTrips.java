package io.prologtool.examples.bench;

import io.micrometer.core.instrument.observation.DefaultMeterObservationHandler;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.micrometer.observation.ObservationRegistry;
import io.prologtool.Outcome;
import io.prologtool.PrologBackend;
import io.prologtool.PrologListener;
import io.prologtool.PrologSession;
import io.prologtool.jpl.JplBackend;
import io.prologtool.micrometer.MicrometerPrologListener;
import io.prologtool.process.ProcessBackend;

import java.io.PrintStream;
import java.util.List;
import java.util.function.Function;
import java.util.function.Supplier;

/**
 * What watching costs: the round trip of {@link RoundTrips} (goal {@code true} on an open session that
 * holds the 20-clause program) with the Micrometer binding registered on the backend, as a ratio to the
 * same round trip on a backend without a listener. Two rows per backend: the binding's meters in a
 * {@code SimpleMeterRegistry} (target at most 1.05x), and the same with an Observation per call handled
 * by Micrometer's {@code DefaultMeterObservationHandler} (a long task timer and a timer per observation,
 * as Spring Boot sets it up; no target: that part is Micrometer's own work). The two sessions take
 * turns call by call, which of them goes first alternating, so that both see the same machine.
 */
final class ObservedRoundTrips {

    private static final String WHAT = "round trip with the Micrometer binding registered";
    private static final String WHAT_TRACED = "round trip with the Micrometer binding and an Observation per call";
    private static final String BASELINE = "the same round trip, no listener";

    private ObservedRoundTrips() {
    }

    static List<Row> measure(Plan plan, PrintStream log) throws Exception {
        Timer.progress(log, "observed round trip, jpl (with and without the binding)", plan.roundTrip());
        Supplier<PrologBackend> jplPlain = JplBackend::get;
        Function<PrologListener, PrologBackend> jplObserved = l -> JplBackend.builder().listener(l).build();
        Row jpl = row(plan, "jpl", jplPlain, jplObserved, "", false);
        Row jplTraced = row(plan, "jpl", jplPlain, jplObserved, "", true);
        Timer.progress(log, "observed round trip, process (with and without the binding)", plan.roundTrip());
        Supplier<PrologBackend> processPlain = () -> ProcessBackend.builder().build();
        Function<PrologListener, PrologBackend> processObserved = l -> ProcessBackend.builder().listener(l).build();
        Row process = row(plan, "process", processPlain, processObserved, "; one child each, no pool", false);
        Row processTraced = row(plan, "process", processPlain, processObserved, "; one child each, no pool", true);
        return List.of(jpl, process, jplTraced, processTraced);
    }

    private static Row row(Plan plan, String name, Supplier<PrologBackend> plainBackend,
                           Function<PrologListener, PrologBackend> observedBackend, String more, boolean traced)
            throws Exception {
        SimpleMeterRegistry meters = new SimpleMeterRegistry();
        ObservationRegistry observations = ObservationRegistry.create();
        if (traced) {
            observations.observationConfig().observationHandler(new DefaultMeterObservationHandler(meters));
        }
        Plan.Iterations it = plan.roundTrip();
        long[] plainNanos = new long[Math.max(2, it.timed())];
        long[] observedNanos = new long[plainNanos.length];
        try (PrologBackend plain = plainBackend.get();
             PrologBackend observed = observedBackend.apply(MicrometerPrologListener.of(meters, observations));
             PrologSession a = open(plain);
             PrologSession b = open(observed)) {
            Plan.Iterations warm = new Plan.Iterations(0, Math.max(1, it.warmup()));
            Timer.time(warm, () -> call(a));
            Timer.time(warm, () -> call(b));
            for (int i = 0; i < plainNanos.length; i++) {
                boolean plainFirst = i % 2 == 0;
                long t0 = System.nanoTime();
                call(plainFirst ? a : b);
                long t1 = System.nanoTime();
                call(plainFirst ? b : a);
                long t2 = System.nanoTime();
                plainNanos[i] = plainFirst ? t1 - t0 : t2 - t1;
                observedNanos[i] = plainFirst ? t2 - t1 : t1 - t0;
            }
        }
        double counted = meters.get("prologtool.calls").tags("kind", "goal", "outcome", "success").counter().count();
        if (counted < observedNanos.length) {
            throw new IllegalStateException("the binding counted " + counted + " goals of " + observedNanos.length);
        }
        String details = "session.goal(\"true\").run() on a session that holds the 20-clause program; "
                + "MicrometerPrologListener on a SimpleMeterRegistry"
                + (traced ? " with an ObservationRegistry whose DefaultMeterObservationHandler times each call" : "")
                + "; against a backend without a listener, the two taking turns call by call (" + plainNanos.length
                + " calls each, which goes first alternating)" + more;
        Row row = Row.of(traced ? "traced_roundtrip" : "observed_roundtrip", traced ? WHAT_TRACED : WHAT, name,
                Summary.ofNanos(observedNanos, Unit.MICROS), Unit.MICROS, details, BASELINE,
                Summary.ofNanos(plainNanos, Unit.MICROS));
        return traced ? row : row.withTarget(Target.timesFloorAtMost(1.05));
    }

    private static PrologSession open(PrologBackend backend) {
        PrologSession s = backend.open();
        if (s.consult(SessionCycles.PROGRAM).hasErrors()) {
            throw new IllegalStateException("the bench program does not load on " + backend.name());
        }
        return s;
    }

    private static void call(PrologSession s) {
        if (s.goal("true").run().outcome() != Outcome.SUCCESS) {
            throw new IllegalStateException("true did not succeed");
        }
    }
}

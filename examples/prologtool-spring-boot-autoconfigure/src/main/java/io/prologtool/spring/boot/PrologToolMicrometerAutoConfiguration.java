package io.prologtool.spring.boot;

import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.observation.ObservationRegistry;
import io.prologtool.micrometer.MicrometerPrologListener;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnProperty;
import org.springframework.context.annotation.Bean;

/**
 * Metrics and observations of every session and call: a {@link MicrometerPrologListener} bean on the
 * application's {@link MeterRegistry} (and its {@link ObservationRegistry}, when there is one), when
 * io.prologtool:prologtool-micrometer is on the class path and a {@code MeterRegistry} bean exists (Spring Boot
 * Actuator makes one). The backend of {@link PrologToolAutoConfiguration} hears every {@code PrologListener}
 * bean, so this one is registered with it. The meters are those of {@link MicrometerPrologListener}
 * ({@code prologtool.sessions.*}, {@code prologtool.calls}, ...); off with {@code prologtool.metrics.enabled=false}.
 */
@AutoConfiguration(before = PrologToolAutoConfiguration.class, afterName = {
        "org.springframework.boot.actuate.autoconfigure.metrics.CompositeMeterRegistryAutoConfiguration",
        "org.springframework.boot.actuate.autoconfigure.metrics.export.simple.SimpleMetricsExportAutoConfiguration",
        "org.springframework.boot.actuate.autoconfigure.observation.ObservationAutoConfiguration"})
@ConditionalOnClass(name = {"io.prologtool.micrometer.MicrometerPrologListener",
        "io.micrometer.core.instrument.MeterRegistry"})
@ConditionalOnProperty(prefix = "prologtool.metrics", name = "enabled", havingValue = "true", matchIfMissing = true)
public class PrologToolMicrometerAutoConfiguration {

    /** The listener, on the application's meter registry. */
    @Bean
    @ConditionalOnBean(MeterRegistry.class)
    @ConditionalOnMissingBean
    public MicrometerPrologListener micrometerPrologListener(MeterRegistry meters,
                                                             ObjectProvider<ObservationRegistry> observations) {
        ObservationRegistry o = observations.getIfUnique();
        return o != null ? MicrometerPrologListener.of(meters, o) : MicrometerPrologListener.of(meters);
    }
}

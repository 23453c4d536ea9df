package io.prologtool.spring.boot;

import io.prologtool.PrologBackend;
import io.prologtool.SessionRegistry;
import org.springframework.boot.actuate.autoconfigure.health.ConditionalOnEnabledHealthIndicator;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.context.annotation.Bean;

/**
 * The {@link PrologHealthIndicator} ({@code prologtool} in {@code /actuator/health}), when Spring Boot
 * Actuator is on the class path and the backend and registry beans exist; off with
 * {@code management.health.prologtool.enabled=false}.
 */
@AutoConfiguration(after = PrologToolAutoConfiguration.class)
@ConditionalOnClass(name = {"org.springframework.boot.actuate.health.HealthIndicator",
        "org.springframework.boot.actuate.autoconfigure.health.ConditionalOnEnabledHealthIndicator"})
public class PrologToolHealthAutoConfiguration {

    /** The indicator; its bean name makes its name in the health endpoint, {@code prologtool}. */
    @Bean(name = "prologtoolHealthIndicator")
    @ConditionalOnEnabledHealthIndicator("prologtool")
    @ConditionalOnBean({PrologBackend.class, SessionRegistry.class})
    @ConditionalOnMissingBean(name = "prologtoolHealthIndicator")
    public PrologHealthIndicator prologtoolHealthIndicator(PrologBackend backend, SessionRegistry registry) {
        return new PrologHealthIndicator(backend, registry);
    }
}

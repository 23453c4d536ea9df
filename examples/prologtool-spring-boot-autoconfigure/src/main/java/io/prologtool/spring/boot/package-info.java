/**
 * Spring Boot auto-configuration of prologtool. {@link io.prologtool.spring.boot.PrologToolAutoConfiguration}
 * makes the backend, the session registry, the executor and the tools from {@link
 * io.prologtool.spring.boot.PrologToolProperties} ({@code prologtool.*});
 * {@link io.prologtool.spring.boot.PrologToolSpringAiAutoConfiguration} the Spring AI tool callbacks,
 * {@link io.prologtool.spring.boot.PrologToolMicrometerAutoConfiguration} the metrics, and
 * {@link io.prologtool.spring.boot.PrologToolHealthAutoConfiguration} the Actuator health indicator, each when
 * what it needs is on the class path. Applications depend on {@code prologtool-spring-boot-starter}.
 */
package io.prologtool.spring.boot;

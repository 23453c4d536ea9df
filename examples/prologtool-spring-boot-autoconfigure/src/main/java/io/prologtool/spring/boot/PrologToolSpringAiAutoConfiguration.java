package io.prologtool.spring.boot;

import io.prologtool.springai.PrologToolCallbacks;
import io.prologtool.tools.PrologTools;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingClass;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/**
 * The tools as Spring AI tool callbacks: a {@link PrologToolCallbacks} bean (a {@code ToolCallbackProvider})
 * over the {@link PrologTools} bean, when io.prologtool:prologtool-spring-ai is on the class path. Give it to a
 * {@code ChatClient} with {@code .defaultToolCallbacks(callbacks)}. The tools that write the rule base folder
 * are offered only with {@code prologtool.rule-bases.model-writes=true}.
 *
 * <p>When Spring AI is on the class path without prologtool-spring-ai, there is no such bean, and the start-up
 * log says which dependency to add.
 */
@AutoConfiguration(after = PrologToolAutoConfiguration.class)
public class PrologToolSpringAiAutoConfiguration {

    /** The callbacks, when the binding is present. */
    @Configuration(proxyBeanMethods = false)
    @ConditionalOnClass(name = {"io.prologtool.springai.PrologToolCallbacks",
            "org.springframework.ai.tool.ToolCallbackProvider"})
    static class Callbacks {

        @Bean
        @ConditionalOnBean(PrologTools.class)
        @ConditionalOnMissingBean
        PrologToolCallbacks prologToolCallbacks(PrologTools tools, PrologToolProperties properties) {
            PrologToolCallbacks callbacks = PrologToolCallbacks.of(tools);
            return properties.getRuleBases().isModelWrites() ? callbacks.withRuleBaseWrites() : callbacks;
        }
    }

    /** Spring AI without the binding: a line in the log that names it, rather than tools that silently lack. */
    @Configuration(proxyBeanMethods = false)
    @ConditionalOnClass(name = "org.springframework.ai.tool.ToolCallbackProvider")
    @ConditionalOnMissingClass("io.prologtool.springai.PrologToolCallbacks")
    static class BindingMissing {

        BindingMissing() {
            System.getLogger(PrologToolSpringAiAutoConfiguration.class.getName()).log(System.Logger.Level.INFO,
                    "Spring AI is on the class path but io.prologtool:prologtool-spring-ai is not: add it for the "
                            + "prologtool tools as Spring AI tool callbacks (a PrologToolCallbacks bean)");
        }
    }
}

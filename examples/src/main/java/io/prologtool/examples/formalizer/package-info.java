/**
 * The Formalizer agent of the PrologMCP paper (section 4.1): a
 * {@link io.prologtool.examples.formalizer.Formalizer} writes a Prolog program and a goal for a yes/no
 * question, and the {@link io.prologtool.examples.formalizer.FormalizerAgent} runs them in a fresh session,
 * feeding parse, load and goal errors back for repair. Formalizers: a language model with the paper's
 * prompt ({@link io.prologtool.examples.formalizer.LlmFormalizer}) and a deterministic translator of
 * PARARULE-Plus's sentence templates ({@link io.prologtool.examples.formalizer.TemplateFormalizer}).
 */
package io.prologtool.examples.formalizer;

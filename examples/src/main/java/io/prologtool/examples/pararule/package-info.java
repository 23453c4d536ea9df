/**
 * PARARULE-Plus questions ({@link io.prologtool.examples.pararule.PararuleQuestion}) and their evaluation
 * through a {@link io.prologtool.examples.formalizer.FormalizerAgent}
 * ({@link io.prologtool.examples.pararule.PararuleEvaluation}): what {@code make demo} runs.
 * Thanks to Qiming Bao for development of the PARARULE Plus dataset and permission to freely utilise it.
 */
package io.prologtool.examples.pararule;

/**
 * The prologtool tools for Spring AI: {@link io.prologtool.springai.PrologToolCallbacks}, a
 * {@code ToolCallbackProvider} for a {@code ChatClient}.
 */
package io.prologtool.springai;

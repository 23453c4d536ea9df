/**
 * prologtool for LangChain4j agents: {@link io.prologtool.langchain4j.PrologToolbox} gives an
 * {@code AiServices} agent the PrologMCP tools of {@link io.prologtool.tools.PrologTools}, with errors
 * returned to the model as tool results.
 */
package io.prologtool.langchain4j;

/**
 * The prologtool MCP server: {@link io.prologtool.mcp.PrologMcpServer} serves every
 * {@link io.prologtool.tools.PrologTools} tool over MCP stdio with the official Java MCP SDK;
 * {@link io.prologtool.mcp.ServerOptions} are its command-line options and {@link io.prologtool.mcp.ToolStack}
 * the backend, registry and tools they describe.
 */
package io.prologtool.mcp;

/**
 * `custodian mcp`: Custodian's MCP tools over stdio, for clients that launch their servers as
 * processes. A relay: tools are listed and called on the server's /api/v1/mcp with the API key
 * (CUSTODIAN_URL and CUSTODIAN_KEY, or the config file), so both transports serve the same tools.
 */
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { Server } from "@modelcontextprotocol/sdk/server/index.js";
import { StdioServerTransport } from "@modelcontextprotocol/sdk/server/stdio.js";
import { CallToolRequestSchema, ListToolsRequestSchema } from "@modelcontextprotocol/sdk/types.js";
import { AppError } from "@/lib/core/errors";
import { loadConnectionConfig } from "./hook-config";

export async function runMcpStdio(): Promise<void> {
  const config = loadConnectionConfig();
  if (!config.url || !config.key)
    throw new AppError("VALIDATION_FAILED", "Set CUSTODIAN_URL and CUSTODIAN_KEY (or the config file) for `custodian mcp`");
  const upstream = new Client({ name: "custodian-mcp-stdio", version: "1" });
  await upstream.connect(
    new StreamableHTTPClientTransport(new URL("/api/v1/mcp", config.url), {
      requestInit: { headers: { Authorization: `Bearer ${config.key}` } },
    }),
  );
  const server = new Server({ name: "custodian", version: "1" }, { capabilities: { tools: {} } });
  server.setRequestHandler(ListToolsRequestSchema, (request) => upstream.listTools(request.params));
  server.setRequestHandler(CallToolRequestSchema, (request) => upstream.callTool(request.params));
  const stdio = new StdioServerTransport();
  stdio.onclose = () => void upstream.close();
  await server.connect(stdio);
}

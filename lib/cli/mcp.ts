/**
 * `custodian mcp`: Custodian's MCP tools over stdio, for clients that launch their servers as
 * processes. A relay: tools are listed and called on the server's /api/v1/mcp with the API key
 * (CUSTODIAN_URL and CUSTODIAN_KEY, or the config file), so both transports serve the same tools.
 * The SDK's v2 stdio entry picks the era from the client's first message: an `initialize` (any
 * revision from 2024-10-07 to 2025-11-25) pins the connection to that handshake, a message with
 * the per-request `_meta` envelope (2026-07-28, `server/discover` first) to the stateless revision;
 * the same relaying server answers both.
 */
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { type CallToolResult, type ListToolsResult, Server } from "@modelcontextprotocol/server";
import { serveStdio, StdioServerTransport } from "@modelcontextprotocol/server/stdio";
import { AppError } from "@/lib/core/errors";
import { loadConnectionConfig } from "./hook-config";

/** A request's `_meta` without the stateless revision's envelope, which the relay's own client does not speak. */
function relayedParams<P extends { _meta?: Record<string, unknown> }>(params: P): P {
  if (!params._meta) return params;
  const meta = Object.fromEntries(Object.entries(params._meta).filter(([key]) => !key.startsWith("io.modelcontextprotocol/")));
  const { _meta, ...rest } = params;
  return (Object.keys(meta).length > 0 ? { ...rest, _meta: meta } : rest) as P;
}

/**
 * The relaying server, of the SDK's v2 (which speaks both eras). The relay's client is of the v1 SDK
 * and asks at 2025-11-25: its answers are JSON of that revision, whose types the two SDKs spell
 * apart, hence the casts; the v2 server then writes them in the era of the stdio client.
 */
function relayServer(upstream: Client): Server {
  const server = new Server({ name: "custodian", version: "1" }, { capabilities: { tools: {} } });
  server.setRequestHandler(
    "tools/list",
    async (request) => (await upstream.listTools(relayedParams(request.params ?? {}))) as ListToolsResult,
  );
  server.setRequestHandler("tools/call", async (request) =>
    server.projectCallToolResult((await upstream.callTool(relayedParams(request.params))) as CallToolResult, undefined),
  );
  return server;
}

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
  const stdio = new StdioServerTransport();
  serveStdio(() => relayServer(upstream), { transport: stdio });
  process.stdin.once("close", () => void upstream.close());
}

/**
 * MCP over streamable HTTP for every revision Custodian serves, on one endpoint and without
 * sessions. A request is routed by the SDK's own era test (`isLegacyRequest`): one that carries no
 * per-request `_meta` envelope (an `initialize`, or a request of a revision negotiated by one) is
 * answered by the SDK 1.x server as before, JSON per POST; one that carries the envelope
 * (2026-07-28: `server/discover`, tools/list, tools/call with MCP-Protocol-Version, Mcp-Method and
 * Mcp-Name headers) by the SDK 2.x handler, which checks the envelope and headers and answers from
 * a server made for that request. Both are built from the same tools, scoped to the caller's project.
 */
import { type AuthInfo, createMcpHandler, isLegacyRequest } from "@modelcontextprotocol/server";
import { WebStandardStreamableHTTPServerTransport } from "@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js";
import { custodianStatelessServer } from "./stateless";
import { custodianMcpServer, type McpCaller } from "./tools";

/** The caller rides the SDK's pass-through auth info from the route to the server factory. */
function authInfo(caller: McpCaller, request: Request): AuthInfo {
  const token = request.headers.get("authorization")?.replace(/^Bearer\s+/i, "") ?? "";
  return { token, clientId: caller.label, scopes: [], extra: { caller } };
}

function callerOf(info: AuthInfo | undefined): McpCaller {
  const caller = info?.extra?.caller as McpCaller | undefined;
  if (!caller) throw new Error("An MCP request reached the server without its caller");
  return caller;
}

/**
 * The stateless revision's handler; `legacy: "reject"` because requests of the other revisions never
 * reach it (the SDK's own stateless fallback would answer them as event streams, not as today).
 */
const stateless = createMcpHandler(({ authInfo: info }) => custodianStatelessServer(callerOf(info)), { legacy: "reject" });

/** A request of a revision negotiated by `initialize`: JSON back, no Mcp-Session-Id. */
async function serveInitializeRevisions(caller: McpCaller, request: Request): Promise<Response> {
  const server = custodianMcpServer(caller);
  const transport = new WebStandardStreamableHTTPServerTransport({ sessionIdGenerator: undefined, enableJsonResponse: true });
  await server.connect(transport);
  try {
    return await transport.handleRequest(request);
  } finally {
    await server.close();
  }
}

export async function serveMcp(caller: McpCaller, request: Request): Promise<Response> {
  if (await isLegacyRequest(request)) return serveInitializeRevisions(caller, request);
  return stateless.fetch(request, { authInfo: authInfo(caller, request) });
}

/**
 * Custodian's MCP tools for clients of the stateless revision (2026-07-28): no `initialize` and no
 * session; every request names its revision and the client's capabilities in `params._meta`
 * (`io.modelcontextprotocol/protocolVersion`, `.../clientCapabilities`), and `server/discover`
 * tells a client which revisions and capabilities the server has. The SDK's v2 server speaks that
 * revision (discover, the envelope, the result fields it adds); the tools are the same definitions
 * the `initialize` revisions list (./tools.ts), answered by the same call handler (./tool-calls.ts).
 */
import { McpServer } from "@modelcontextprotocol/server";
import { type McpCaller, custodianTools } from "./tools";
import { callTool, SERVER_INFO } from "./tool-calls";

/**
 * One request's server. As ./tool-calls.ts explains for the other era, the tools are registered for
 * tools/list and tools/call is answered by Custodian's own handler, so that an argument that does
 * not fit is a tool error with the API's code and fields, not the SDK's protocol text.
 */
export function custodianStatelessServer(caller: McpCaller): McpServer {
  const server = new McpServer(SERVER_INFO, { capabilities: { tools: {} } });
  const tools = custodianTools(caller);
  const byName = new Map(tools.map((tool) => [tool.name, tool]));
  for (const tool of tools)
    server.registerTool(
      tool.name,
      { title: tool.title, description: tool.description, inputSchema: tool.input, annotations: tool.annotations },
      (args: unknown) => callTool(tool, tool.name, args),
    );
  server.server.setRequestHandler("tools/call", async (request) => {
    const { name, arguments: args } = request.params;
    return server.server.projectCallToolResult(await callTool(byName.get(name), name, args), undefined);
  });
  return server;
}

import { WebStandardStreamableHTTPServerTransport } from "@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js";
import { otherMethods } from "@/lib/api/respond";
import { apiRoute } from "@/lib/api/route";
import { custodianMcpServer } from "./tools";

export const dynamic = "force-dynamic";

/**
 * MCP over streamable HTTP, stateless: each POST carries its JSON-RPC messages and gets JSON back;
 * the Bearer key scopes every tool to its project.
 */
export const POST = apiRoute({
  permission: "read",
  handler: async ({ caller, request }) => {
    const server = custodianMcpServer({ projectId: caller.projectId, label: caller.label });
    const transport = new WebStandardStreamableHTTPServerTransport({ sessionIdGenerator: undefined, enableJsonResponse: true });
    await server.connect(transport);
    try {
      return await transport.handleRequest(request);
    } finally {
      await server.close();
    }
  },
});

export const { GET, HEAD, PUT, PATCH, DELETE, OPTIONS } = otherMethods("POST");

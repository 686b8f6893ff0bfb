/**
 * How Custodian's MCP server answers a tool call: the arguments are checked against the tool's own
 * schema here, and every failure, arguments included, is a tool error carrying the API's code and
 * fields. The SDK's own call handler checks arguments first and answers a mismatch with its
 * protocol text ("MCP error -32602: Input validation error ..."), which names neither the code nor
 * the field an agent should fix; so this handler replaces it, and the SDK still lists the tools.
 */
import type { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { CallToolRequestSchema, type CallToolResult, type ToolAnnotations } from "@modelcontextprotocol/sdk/types.js";
import type { z } from "zod";
import { AppError, toAppError } from "@/lib/core/errors";
import { parseWith } from "@/lib/core/validation";

export interface CustodianTool<Input extends z.ZodObject = z.ZodObject> {
  name: string;
  title: string;
  description: string;
  annotations: ToolAnnotations;
  /** The arguments, as listed to clients and checked before `call`. */
  input: Input;
  call: (args: z.output<Input>) => Promise<CallToolResult>;
}

/** Keeps a tool's argument type tied to its schema. */
export const defineTool = <Input extends z.ZodObject>(tool: CustodianTool<Input>): CustodianTool<Input> => tool;

export function toolResult(structured: Record<string, unknown>, text?: string): CallToolResult {
  return { content: [{ type: "text", text: text ?? JSON.stringify(structured) }], structuredContent: structured };
}

/** An error as the API would answer it, as a tool error the model can read. */
export function toolError(error: unknown): CallToolResult {
  const body = toAppError(error).toJSON();
  const fields = body.error.fields?.map((f) => `${f.path}: ${f.message}`).join("; ");
  return {
    isError: true,
    content: [{ type: "text", text: `${body.error.code}: ${body.error.message}${fields ? ` (${fields})` : ""}` }],
    structuredContent: body,
  };
}

/** How Custodian names itself to clients, in every revision. */
export const SERVER_INFO = { name: "custodian", version: "1" } as const;

export async function callTool(tool: CustodianTool | undefined, name: string, args: unknown): Promise<CallToolResult> {
  try {
    if (!tool) throw new AppError("NOT_FOUND", `There is no tool named "${name}"`);
    return await tool.call(parseWith(tool.input, args ?? {}, `The arguments of ${name}`));
  } catch (error) {
    if (!(error instanceof AppError)) console.error("MCP tool failed", error);
    return toolError(error);
  }
}

/**
 * Registers the tools on the server (for tools/list) and answers tools/call as described above. The
 * SDK installs its call handler with the first tool; ours replaces it once every tool is registered,
 * so the callbacks given to registerTool (the same call) serve only should the SDK stop letting it
 * be replaced; route.db.test.ts asks with arguments the SDK would refuse and expects our answer.
 */
export function serveTools(server: McpServer, tools: CustodianTool[]): void {
  const byName = new Map(tools.map((tool) => [tool.name, tool]));
  for (const tool of tools)
    server.registerTool(
      tool.name,
      { title: tool.title, description: tool.description, inputSchema: tool.input, annotations: tool.annotations },
      (args: unknown) => callTool(tool, tool.name, args),
    );
  server.server.setRequestHandler(CallToolRequestSchema, (request) =>
    callTool(byName.get(request.params.name), request.params.name, request.params.arguments),
  );
}

import { otherMethods } from "@/lib/api/respond";
import { apiRoute } from "@/lib/api/route";
import { serveMcp } from "./serve";

export const dynamic = "force-dynamic";

/**
 * MCP over streamable HTTP, stateless: each POST carries its JSON-RPC message and gets JSON back,
 * for clients of the `initialize` revisions and of the stateless one (2026-07-28) alike; the Bearer
 * key scopes every tool to its project.
 */
export const POST = apiRoute({
  permission: "read",
  handler: ({ caller, request }) => serveMcp({ projectId: caller.projectId, label: caller.label }, request),
});

export const { GET, HEAD, PUT, PATCH, DELETE, OPTIONS } = otherMethods("POST");

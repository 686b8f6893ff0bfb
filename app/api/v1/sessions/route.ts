import { apiRoute } from "@/lib/api/route";
import { SessionListQuerySchema, SessionListSchema } from "@/lib/api/read-schemas";
import { SessionCreateSchema, SessionSchema } from "@/lib/api/schemas";
import { listSessionsPage } from "@/lib/server/dashboard";
import { upsertSession } from "@/lib/server/ingest";
import { otherMethods } from "@/lib/api/respond";

export const dynamic = "force-dynamic";

/** Creates a session for a runtime's external id, or updates it (upsert). */
export const POST = apiRoute({
  permission: "spans:write",
  body: SessionCreateSchema,
  response: SessionSchema,
  handler: async ({ caller, body }) => {
    const { session, created } = await upsertSession(caller.projectId, body);
    return {
      id: session.id,
      externalId: session.externalId,
      runtime: session.runtime,
      title: session.title,
      cwd: session.cwd,
      startedAt: session.startedAt?.toISOString() ?? null,
      created,
    };
  },
});

/** The project's sessions, oldest first, a page at a time; filter by runtime or external id. */
export const GET = apiRoute({
  permission: "read",
  query: SessionListQuerySchema,
  response: SessionListSchema,
  handler: async ({ caller, query }) => listSessionsPage(caller.projectId, query),
});

export const { PUT, PATCH, DELETE, OPTIONS } = otherMethods("GET", "POST");

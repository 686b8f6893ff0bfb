import { apiRoute } from "@/lib/api/route";
import { SessionCreateSchema, SessionSchema } from "@/lib/api/schemas";
import { upsertSession } from "@/lib/server/ingest";

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

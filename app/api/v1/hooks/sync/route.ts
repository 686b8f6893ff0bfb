import { otherMethods } from "@/lib/api/respond";
import { apiRoute } from "@/lib/api/route";
import { HookSyncSchema, hookSyncInput } from "@/lib/api/hook-sync-schema";
import { syncHookTranscript } from "@/lib/server/integrations";

export const dynamic = "force-dynamic";

/**
 * A compaction hook's round trip: the transcript's spans it has not sent yet, the compactions it
 * records (linked as observed), and, when asked, the gate's view of the verbatim spans and the
 * evidence ledger.
 */
export const POST = apiRoute({
  permission: "spans:write",
  body: HookSyncSchema,
  handler: async ({ caller, body }) => syncHookTranscript(caller.projectId, hookSyncInput(body), caller.label),
});

export const { GET, HEAD, PUT, PATCH, DELETE, OPTIONS } = otherMethods("POST");

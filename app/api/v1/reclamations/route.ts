import { apiRoute } from "@/lib/api/route";
import { ReclamationResultSchema, ReclamationSchema } from "@/lib/api/schemas";
import { decisionJson } from "@/lib/server/gate";
import { reclaim } from "@/lib/server/gate";
import { otherMethods } from "@/lib/api/respond";

export const dynamic = "force-dynamic";

/** Runs the gate on stored spans and, unless dryRun, records the outcome. */
export const POST = apiRoute({
  permission: "gate:run",
  body: ReclamationSchema,
  response: ReclamationResultSchema,
  handler: async ({ caller, body }) => {
    const outcome = await reclaim({
      projectId: caller.projectId,
      sessionId: body.sessionId,
      selection: body.spanIds ? { spanIds: body.spanIds } : { fromSeq: body.fromSeq!, toSeq: body.toSeq! },
      summary: body.summary,
      dryRun: body.dryRun,
      requester: caller.label,
    });
    return {
      reclamationId: outcome.reclamationId,
      dryRun: outcome.dryRun,
      summarySpanId: outcome.summarySpanId,
      results: outcome.decisions.map(decisionJson),
    };
  },
});

export const { GET, HEAD, PUT, PATCH, DELETE, OPTIONS } = otherMethods("POST");

import { apiRoute } from "@/lib/api/route";
import { RetentionSimulationResultSchema, RetentionSimulationSchema } from "@/lib/api/retention-schemas";
import { otherMethods } from "@/lib/api/respond";
import { simulateRetention } from "@/lib/server/what-if";

export const dynamic = "force-dynamic";

/** What a proposed policy would delete, free and keep, day by day, and which answers it would change; stores nothing. */
export const POST = apiRoute({
  permission: "read",
  body: RetentionSimulationSchema,
  response: RetentionSimulationResultSchema,
  handler: async ({ caller, body }) => {
    const simulation = await simulateRetention(caller.projectId, body.policy, body.horizonDays);
    return {
      ...simulation,
      days: simulation.proposed.days,
      deletions: simulation.proposed.deletions,
      sessions: simulation.proposed.sessions,
      sessionsTruncated: simulation.proposed.sessionsTruncated,
      questionsAffected: simulation.proposed.questionsAffected,
    };
  },
});

export const { GET, HEAD, PUT, PATCH, DELETE, OPTIONS } = otherMethods("POST");

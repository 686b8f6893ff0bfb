import { apiRoute, IdParams } from "@/lib/api/route";
import { otherMethods } from "@/lib/api/respond";
import { getQuestionJob } from "@/lib/server/questions";

export const dynamic = "force-dynamic";

/** An evidence question answered in the background: its progress, then its answer or error. */
export const GET = apiRoute({
  permission: "read",
  params: IdParams,
  handler: async ({ caller, params }) => {
    const job = await getQuestionJob(caller.projectId, params.id);
    return {
      id: job.id,
      status: job.status,
      candidateSpans: job.candidateSpans,
      sessionsDone: job.sessionsDone,
      sessionsTotal: job.sessionsTotal,
      answer: job.answer,
      error: job.error,
      createdAt: job.createdAt.toISOString(),
      updatedAt: job.updatedAt.toISOString(),
    };
  },
});

export const { POST, PUT, PATCH, DELETE, OPTIONS } = otherMethods("GET");

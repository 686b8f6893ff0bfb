import { otherMethods } from "@/lib/api/respond";
import { apiRoute, IdParams } from "@/lib/api/route";
import { QuestionJobSchema } from "@/lib/api/evidence-schemas";
import { readQuestionJob } from "@/lib/server/questions";

export const dynamic = "force-dynamic";

/** An evidence question answered in the background: its progress, then its answer or error. */
export const GET = apiRoute({
  permission: "read",
  params: IdParams,
  response: QuestionJobSchema,
  handler: async ({ caller, params }) => readQuestionJob(caller.projectId, params.id),
});

export const { POST, PUT, PATCH, DELETE, OPTIONS } = otherMethods("GET");

import { apiRoute, IdParams } from "@/lib/api/route";
import { getImportJob, queuePosition } from "@/lib/server/imports";
import { otherMethods } from "@/lib/api/respond";

export const dynamic = "force-dynamic";

/** An import job's progress, then its outcome or error. */
export const GET = apiRoute({
  permission: "read",
  params: IdParams,
  handler: async ({ caller, params }) => {
    const job = await getImportJob(caller.projectId, params.id);
    // Waiting its turn behind the imports this server runs at once (1 = next).
    const position = queuePosition(job.id);
    return {
      id: job.id,
      status: position === null ? job.status : "QUEUED",
      queuePosition: position,
      format: job.format,
      byteLength: job.byteLength,
      spansDone: job.spansDone,
      spansTotal: job.spansTotal,
      outcome: job.outcome,
      error: job.error,
      createdAt: job.createdAt.toISOString(),
      updatedAt: job.updatedAt.toISOString(),
    };
  },
});

export const { POST, PUT, PATCH, DELETE, OPTIONS } = otherMethods("GET");

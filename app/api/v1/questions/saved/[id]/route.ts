import { NextResponse } from "next/server";
import { apiRoute, IdParams } from "@/lib/api/route";
import { otherMethods } from "@/lib/api/respond";
import { deleteSavedQuestion } from "@/lib/server/questions";

export const dynamic = "force-dynamic";

/** Deletes a saved question (404 for one of another project). */
export const DELETE = apiRoute({
  permission: "questions:write",
  params: IdParams,
  handler: async ({ caller, params }) => {
    await deleteSavedQuestion(caller.projectId, params.id, { type: "API_KEY", id: caller.keyId, label: caller.label });
    return new NextResponse(null, { status: 204 });
  },
});

export const { GET, HEAD, POST, PUT, PATCH, OPTIONS } = otherMethods("DELETE");

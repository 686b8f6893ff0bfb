import { apiRoute, IdParams } from "@/lib/api/route";
import { readOriginal } from "@/lib/server/provenance";
import { otherMethods } from "@/lib/api/respond";

export const dynamic = "force-dynamic";

/** The verbatim bytes, with their sha256 in headers; 410 with the reason once expired or lost. */
export const GET = apiRoute({
  permission: "read",
  params: IdParams,
  handler: async ({ caller, params }) => {
    const original = await readOriginal(caller.projectId, params.id);
    return new Response(Buffer.from(original.bytes), {
      headers: {
        "Content-Type": "application/octet-stream",
        "Content-Length": String(original.bytes.byteLength),
        "X-Custodian-Sha256": original.sha256,
        "Repr-Digest": `sha-256=:${Buffer.from(original.sha256, "hex").toString("base64")}:`,
        ...(original.expiresAt ? { "X-Custodian-Expires-At": original.expiresAt.toISOString() } : {}),
        "X-Custodian-Pinned": String(original.pinned),
        "Cache-Control": "private, no-store",
      },
    });
  },
});

export const { POST, PUT, PATCH, DELETE, OPTIONS } = otherMethods("GET");

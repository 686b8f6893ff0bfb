import { apiRoute } from "@/lib/api/route";
import { RetentionPolicyPutSchema, RetentionPolicyResultSchema, RetentionPolicySavedSchema } from "@/lib/api/retention-schemas";
import { otherMethods } from "@/lib/api/respond";
import { applyPolicyPatch, currentPolicy, savePolicyVersion } from "@/lib/server/retention";

export const dynamic = "force-dynamic";

/** The policy in force and its version (send the version back with a change). */
export const GET = apiRoute({
  permission: "read",
  response: RetentionPolicyResultSchema,
  handler: async ({ caller }) => {
    const { policy, version } = await currentPolicy(caller.projectId);
    return { policy, version };
  },
});

/**
 * Saves a change as the next version: 409 when `version` is not the current one, 422 naming
 * `reason` when the change shortens a TTL or the horizon, or narrows the system-config list.
 */
export const PUT = apiRoute({
  permission: "policy:write",
  body: RetentionPolicyPutSchema,
  response: RetentionPolicySavedSchema,
  handler: async ({ caller, body }) => {
    const { policy: current } = await currentPolicy(caller.projectId);
    const policy = applyPolicyPatch(current, body.policy);
    const saved = await savePolicyVersion(
      caller.projectId,
      { policy, expectedVersion: body.version, reason: body.reason },
      { type: "API_KEY", id: caller.keyId, label: caller.label },
    );
    return { policy, version: saved.version, changes: saved.changes, warnings: saved.warnings };
  },
});

export const { POST, PATCH, DELETE, OPTIONS } = otherMethods("GET", "PUT");

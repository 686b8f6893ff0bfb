import { NextResponse } from "next/server";
import { DATABASE_RETRY_AFTER_SECONDS, errorResponse, isDatabaseUnavailable, otherMethods } from "@/lib/api/respond";
import { checkHealth } from "@/lib/server/health";

export const dynamic = "force-dynamic";

/**
 * Health for a load balancer: public on purpose, it names no project, session or person. 200 when
 * the database answers and its schema is current; 503 `{status: "degraded", ...}` otherwise, with
 * `database: "unreachable"` and Retry-After while it cannot be reached. Asked again, it answers
 * from the database again: nothing needs a restart when the database comes back.
 */
export async function GET() {
  try {
    const health = await checkHealth();
    return NextResponse.json(health, { status: health.status === "ok" ? 200 : 503 });
  } catch (error) {
    if (isDatabaseUnavailable(error))
      return NextResponse.json(
        { status: "degraded", database: "unreachable" },
        { status: 503, headers: { "Retry-After": String(DATABASE_RETRY_AFTER_SECONDS) } },
      );
    return errorResponse(error);
  }
}

export const { POST, PUT, PATCH, DELETE, OPTIONS } = otherMethods("GET");

import { NextResponse } from "next/server";
import { errorResponse, otherMethods } from "@/lib/api/respond";
import { checkHealth } from "@/lib/server/health";

export const dynamic = "force-dynamic";

/** Health for a load balancer: public on purpose, it names no project, session or person. */
export async function GET() {
  try {
    const health = await checkHealth();
    return NextResponse.json(health, { status: health.status === "ok" ? 200 : 503 });
  } catch (error) {
    return errorResponse(error);
  }
}

export const { POST, PUT, PATCH, DELETE, OPTIONS } = otherMethods("GET");

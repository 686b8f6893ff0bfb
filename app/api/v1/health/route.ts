import { NextResponse } from "next/server";
import { errorResponse } from "@/lib/api/respond";
import { checkHealth } from "@/lib/server/health";

export const dynamic = "force-dynamic";

export async function GET() {
  try {
    const health = await checkHealth();
    return NextResponse.json(health, { status: health.status === "ok" ? 200 : 503 });
  } catch (error) {
    return errorResponse(error);
  }
}

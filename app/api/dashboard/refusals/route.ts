import { NextResponse } from "next/server";
import { AppError } from "@/lib/core/errors";
import { errorResponse, otherMethods } from "@/lib/api/respond";
import { currentUser } from "@/lib/auth/session";
import { refusalFeed } from "@/lib/server/dashboard";

export const dynamic = "force-dynamic";

/** The live refusal feed the dashboard polls (signed-in people only). */
export async function GET(request: Request) {
  try {
    if (!(await currentUser())) throw new AppError("UNAUTHENTICATED", "Sign in first");
    const params = Object.fromEntries(new URL(request.url).searchParams);
    return NextResponse.json(await refusalFeed(params), { headers: { "Cache-Control": "no-store" } });
  } catch (error) {
    return errorResponse(error);
  }
}

export const { POST, PUT, PATCH, DELETE, OPTIONS } = otherMethods("GET");

import { NextResponse } from "next/server";
import { openApiDocument } from "@/lib/api/openapi";
import { otherMethods } from "@/lib/api/respond";

export const dynamic = "force-static";

/** The API's description: public on purpose, it holds no data. */
export function GET() {
  return NextResponse.json(openApiDocument());
}

export const { POST, PUT, PATCH, DELETE, OPTIONS } = otherMethods("GET");

import { asErrorShape, errorResponse, otherMethods } from "@/lib/api/respond";
import { getAuth } from "@/lib/auth/server";

export const dynamic = "force-dynamic";

/**
 * The sign-in library's own endpoints (sign in, sign out, the session): it checks the caller itself.
 * Its errors are answered in the API's shape, `{error:{code,message}}`.
 */
async function auth(request: Request): Promise<Response> {
  try {
    return await asErrorShape(await getAuth().handler(request));
  } catch (error) {
    return errorResponse(error);
  }
}

export const GET = auth;
export const POST = auth;
export const { PUT, PATCH, DELETE, OPTIONS } = otherMethods("GET", "POST");

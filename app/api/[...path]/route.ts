import { noSuchRoute } from "@/lib/api/respond";

export const dynamic = "force-dynamic";

/**
 * Every path under /api that no route serves: 404 `{error:{code,message}}` for every method, never
 * the HTML 404 page. Public on purpose: it reads nothing and names only the path asked for.
 */
export const GET = noSuchRoute;
export const HEAD = noSuchRoute;
export const POST = noSuchRoute;
export const PUT = noSuchRoute;
export const PATCH = noSuchRoute;
export const DELETE = noSuchRoute;
export const OPTIONS = noSuchRoute;

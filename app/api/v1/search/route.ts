import { otherMethods } from "@/lib/api/respond";
import { apiRoute } from "@/lib/api/route";
import { SearchPageSchema } from "@/lib/api/search-schemas";
import { SearchInputSchema, searchSpans } from "@/lib/server/search";

export const dynamic = "force-dynamic";

/** Search the project's spans: terms, a pattern, filters; a page of hits with byte ranges. */
export const GET = apiRoute({
  permission: "read",
  query: SearchInputSchema,
  response: SearchPageSchema,
  handler: async ({ caller, query }) => searchSpans(caller.projectId, query),
});

export const { POST, PUT, PATCH, DELETE, OPTIONS } = otherMethods("GET");

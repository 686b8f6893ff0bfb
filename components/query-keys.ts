/** React Query keys, one small factory per resource, so fetching and invalidating agree. */
export const refusalKeys = {
  all: ["refusals"] as const,
  feed: (filter: Record<string, string | undefined>) => ["refusals", "feed", filter] as const,
};

export const importKeys = {
  all: ["imports"] as const,
  list: (project: string, query: Record<string, unknown>) => ["imports", "list", project, query] as const,
};

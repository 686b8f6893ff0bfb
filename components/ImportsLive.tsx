"use client";

import { useQuery, useQueryClient } from "@tanstack/react-query";
import { type ReactNode, useState } from "react";
import type { ImportListJson } from "@/lib/server/dashboard";
import { formatTime } from "./format";
import { ImportList } from "./ImportList";
import { ImportUpload } from "./ImportUpload";
import { projectHref } from "./project-href";
import { importKeys } from "./query-keys";

/** How often the list is read again while an import runs or a file is still on its way. */
const POLL_MS = 1_000;
const DEFAULTS: Record<string, unknown> = { page: 1, sort: "newest" };

/** The list's query as search params: defaults and empty values left out. */
function searchOf(query: ImportListJson["query"], page = query.page): URLSearchParams {
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries({ ...query, page })) {
    if (value === undefined || value === DEFAULTS[key]) continue;
    params.set(key, String(value));
  }
  return params;
}

async function fetchImports(slug: string, query: ImportListJson["query"]): Promise<ImportListJson> {
  const response = await fetch(`/api/dashboard/projects/${encodeURIComponent(slug)}/imports?${searchOf(query)}`, {
    cache: "no-store",
  });
  if (!response.ok) throw new Error(`The imports list answered ${response.status}`);
  return response.json() as Promise<ImportListJson>;
}

/**
 * The Imports page's upload and list, server-rendered first, then read again every second while
 * an import of the project runs or an upload is on its way, and not at all otherwise.
 */
export function ImportsLive({
  slug,
  canImport,
  initial,
  filters,
}: {
  slug: string;
  canImport: boolean;
  initial: ImportListJson;
  /** The list's filter form, between the upload and the list. */
  filters: ReactNode;
}) {
  const client = useQueryClient();
  const [uploading, setUploading] = useState(0);
  const key = importKeys.list(slug, initial.query);
  const { data, error, dataUpdatedAt } = useQuery({
    queryKey: key,
    queryFn: () => fetchImports(slug, initial.query),
    initialData: initial,
    refetchInterval: (query) => ((query.state.data?.running ?? false) || uploading > 0 ? POLL_MS : false),
  });
  const jobs = new Map(data.rows.map((r) => [r.id, r]));
  const path = projectHref(slug, "/imports");
  const hrefFor = (page: number) => {
    const text = searchOf(data.query, page).toString();
    return `${path}${text ? `?${text}` : ""}`;
  };
  return (
    <>
      {canImport ? (
        <section className="panel" aria-label="Import" style={{ marginBottom: 16 }}>
          <ImportUpload
            slug={slug}
            jobs={jobs}
            onActivity={(active) => {
              setUploading(active);
              // A file answered: its row is in the list now (or its job is), so read the list at once.
              void client.invalidateQueries({ queryKey: key });
            }}
          />
        </section>
      ) : null}
      {filters}
      <p className="subtitle" aria-live="polite">
        {error ? (
          <span className="error-text">Live updates paused: {(error as Error).message}</span>
        ) : data.running || uploading > 0 ? (
          <>Live: an import is running; refreshed {formatTime(new Date(dataUpdatedAt))}</>
        ) : null}
      </p>
      <ImportList
        slug={slug}
        rows={data.rows}
        window={{
          page: data.page,
          pages: data.pages,
          start: (data.page - 1) * data.pageSize,
          end: (data.page - 1) * data.pageSize + data.rows.length,
          total: data.total,
        }}
        hrefFor={hrefFor}
        filtered={Boolean(data.query.status)}
      />
    </>
  );
}

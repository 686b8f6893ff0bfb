import Link from "next/link";
import type { SearchHit } from "@/lib/server/search";
import { Code } from "./Code";
import { humanize } from "./format";
import { Time } from "./Time";

/**
 * A page of search hits: where each matched (session, seq, kind) and its snippet with the match
 * marked, linking to the span with the match highlighted as a citation. A hit whose original expired
 * is badged so: its snippet is what is kept of the span, with no byte range. Text is rendered escaped.
 */
export function SearchHits({ hits, spanHref }: { hits: readonly SearchHit[]; spanHref: (hit: SearchHit) => string }) {
  return (
    <ol className="search-hits" data-testid="search-hits">
      {hits.map((hit) => (
        <li key={hit.spanId} className="panel">
          <div className="search-hit-head">
            <Link href={spanHref(hit)}>
              {hit.sessionTitle ?? hit.sessionExternalId} · {humanize(hit.kind)}
              {hit.seq !== null ? ` #${hit.seq}` : ""}
              {hit.toolName ? ` ${hit.toolName}` : ""}
            </Link>{" "}
            <span className="subtitle">
              <Code value={hit.class} /> · <Code value={hit.transcriptState} /> · <Time value={new Date(hit.occurredAt)} />
              {hit.byteStart !== null ? ` · bytes ${hit.byteStart}–${hit.byteEnd} of ${hit.byteLength}` : ""}
            </span>
            {hit.original === "EXPIRED" ? (
              <>
                {" "}
                <span className="badge lost" data-testid="search-hit-expired">
                  original expired
                </span>
              </>
            ) : null}
          </div>
          <p className="search-snippet mono">
            {hit.snippet.before}
            <mark className="cited">{hit.snippet.match}</mark>
            {hit.snippet.after}
          </p>
          {hit.original === "EXPIRED" ? (
            <p className="subtitle">
              Its original was deleted when its retention ended: this is what is kept of it (tool name and evidence atoms), not
              its bytes.
            </p>
          ) : null}
          {hit.partlyIndexed ? (
            <p className="subtitle">Only the first 64 KiB of this span are searched; the original is {hit.byteLength} bytes.</p>
          ) : null}
        </li>
      ))}
    </ol>
  );
}

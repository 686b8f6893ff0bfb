import { createElement } from "react";
import { renderToStaticMarkup } from "react-dom/server";
import { describe, expect, it } from "vitest";
import { EVIDENTIAL_CLASSES, PROVENANCE_STATUSES, type EvidentialClass, type ProvenanceStatus } from "@/lib/evidence/types";
import { cellName, ProvenanceGrid } from "./ProvenanceGrid";

function counts(filled: Partial<Record<`${EvidentialClass}:${ProvenanceStatus}`, number>>) {
  const grid = {} as Record<EvidentialClass, Record<ProvenanceStatus, number>>;
  for (const cls of EVIDENTIAL_CLASSES) {
    grid[cls] = {} as Record<ProvenanceStatus, number>;
    for (const status of PROVENANCE_STATUSES) grid[cls][status] = filled[`${cls}:${status}`] ?? 0;
  }
  return grid;
}

const render = (props: Parameters<typeof ProvenanceGrid>[0]) => renderToStaticMarkup(createElement(ProvenanceGrid, props));
const hrefFor = (cls: string, status: string) => `/projects/acme/sessions/s?class=${cls}&provenance=${status}#spans`;

describe("ProvenanceGrid", () => {
  it("names a cell as a person says it", () => {
    expect(cellName(12, "STRUCTURED", "EXPIRING")).toBe("12 structured spans, expiring");
    expect(cellName(1, "SIDE_EFFECTING", "NONE")).toBe("1 side-effecting span, no pointer");
  });

  it("makes every cell holding spans a named link, and no empty cell a keyboard stop", () => {
    const html = render({ counts: counts({ "STRUCTURED:EXPIRING": 12, "SIDE_EFFECTING:LOST": 3 }), hrefFor });
    const links = [...html.matchAll(/<a [^>]*aria-label="([^"]+)"[^>]*>(\d+)<\/a>/g)].map((m) => [m[1], m[2]]);
    expect(links).toEqual([
      ["12 structured spans, expiring", "12"],
      ["3 side-effecting spans, lost", "3"],
    ]);
    expect(html).toContain('href="/projects/acme/sessions/s?class=STRUCTURED&amp;provenance=EXPIRING#spans"');
    // Ten empty cells, each plain text.
    expect(html.match(/<span class="cell-count">0<\/span>/g)).toHaveLength(10);
    expect(html).not.toMatch(/tabindex/i);
  });

  it("marks the listed cell as current", () => {
    const html = render({
      counts: counts({ "STRUCTURED:EXPIRING": 2, "NARRATIVE:DURABLE": 5 }),
      hrefFor,
      current: { class: "STRUCTURED", provenance: "EXPIRING" },
    });
    expect(html).toMatch(/<td class="risk current" data-cell="STRUCTURED:EXPIRING"><a [^>]*aria-current="true"/);
    expect(html.match(/aria-current/g)).toHaveLength(1);
  });
});

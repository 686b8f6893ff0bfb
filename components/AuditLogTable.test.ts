import { createElement } from "react";
import { renderToStaticMarkup } from "react-dom/server";
import { describe, expect, it } from "vitest";
import { type AuditRow, presentAuditEvent, parseAuditQuery } from "@/lib/server/audit";
import { AuditLogFilters } from "./AuditLogFilters";
import { AuditLogTable } from "./AuditLogTable";
import { pageWindow } from "./Pager";

const SPAN = "0b7e9d2c-1111-4a2b-9c3d-000000000001";

function row(over: Partial<AuditRow>): AuditRow {
  return {
    id: "e0e0e0e0-4444-4a2b-9c3d-000000000005",
    at: new Date("2026-12-02T11:20:33.000Z"),
    actorType: "USER",
    actorLabel: "ada@example.com",
    act: "original.pin",
    targetType: "span",
    targetId: SPAN,
    before: { pinned: false },
    after: { pinned: true },
    reason: null,
    ...over,
  };
}

function render(rows: AuditRow[], total = rows.length, page = 1) {
  return renderToStaticMarkup(
    createElement(AuditLogTable, {
      events: rows.map((r) => presentAuditEvent(r, "acme")),
      window: pageWindow(total, page, 50),
      hrefFor: (p: number) => `/projects/acme/audit?page=${p}`,
      filtered: false,
    }),
  );
}

describe("AuditLogTable", () => {
  it("shows where the page is, the act in words with its code on hover, the target linked, before -> after", () => {
    const html = render([row({ reason: "legal hold" })], 581, 3);
    expect(html).toContain("Page 3 of 12 · 581 events");
    expect(html).toContain('href="/projects/acme/audit?page=12"');
    expect(html).toContain('href="/projects/acme/audit?page=1"');
    expect(html).toContain('title="original.pin">Pinned original</span>');
    expect(html).toContain(`href="/projects/acme/spans/${SPAN}"`);
    expect(html).toMatch(
      /<dt title="pinned">Pinned<\/dt><dd><span class="audit-value">no<\/span> .*→.* <span class="audit-value">yes<\/span><\/dd>/,
    );
    // Every cell names itself, for the card layout of narrow screens.
    for (const label of ["When", "Who", "Act", "Target", "Changes", "Reason"]) expect(html).toContain(`data-label="${label}"`);
    expect(html).not.toContain("{&quot;pinned&quot;");
  });

  it("escapes whatever people typed (reason, actor label)", () => {
    const html = render([row({ actorLabel: "<img src=x onerror=alert(1)>", reason: "<script>alert(1)</script>" })]);
    expect(html).not.toContain("<script>");
    expect(html).not.toContain("<img");
    expect(html).toContain("&lt;script&gt;alert(1)&lt;/script&gt;");
  });

  it("a long list of spans is a count that opens to the list, drawn up to 200 entries", () => {
    const spans = Array.from({ length: 250 }, (_, i) => ({
      sessionId: "s",
      spanId: `0b7e9d2c-1111-4a2b-9c3d-${String(i).padStart(12, "0")}`,
    }));
    const html = render([row({ act: "originals.pin", targetType: "project", after: { pinned: true, spans } })]);
    expect(html).toContain("<summary>250 spans</summary>");
    expect(html.match(/<li class="mono">/g)).toHaveLength(200);
    expect(html).toContain("and 50 more (the CSV export lists every one)");
  });

  it("an empty log says whether nothing was recorded or nothing matches", () => {
    expect(render([])).toContain("Nothing recorded yet");
    const filtered = renderToStaticMarkup(
      createElement(AuditLogTable, { events: [], window: pageWindow(0, 1, 50), hrefFor: String, filtered: true }),
    );
    expect(filtered).toContain("No event matches these filters.");
  });
});

describe("AuditLogFilters", () => {
  it("a GET form keeping the URL's filters, acts in words, and the CSV of the same filters", () => {
    const html = renderToStaticMarkup(
      createElement(AuditLogFilters, {
        action: "/projects/acme/audit",
        query: parseAuditQuery({ person: "bo@example.com", act: "original.pin", from: "2026-11-01", sort: "oldest" }),
        people: ["ada@example.com", "bo@example.com"],
        acts: [{ code: "original.pin", words: "Pinned original" }],
        exportHref: "/projects/acme/audit/export.csv?act=original.pin",
      }),
    );
    expect(html).toContain('method="get"');
    expect(html).toContain('<option value="bo@example.com" selected="">bo@example.com</option>');
    expect(html).toContain('<option value="original.pin" title="original.pin" selected="">Pinned original</option>');
    expect(html).toContain('name="from" value="2026-11-01"');
    expect(html).toContain('<option value="oldest" selected="">Oldest first</option>');
    expect(html).toContain('href="/projects/acme/audit/export.csv?act=original.pin"');
  });
});

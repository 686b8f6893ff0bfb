import { createElement } from "react";
import { renderToStaticMarkup } from "react-dom/server";
import { describe, expect, it } from "vitest";
import type { RefusalExplanation as Explanation } from "@/lib/server/compactions";
import { CompactionRow } from "./CompactionRow";
import { RefusalExplanation } from "./RefusalExplanation";

const body = '{"command":"rm -rf /var/cache/app"} <img src=x onerror=alert(1)>';
const enc = new TextEncoder();
const start = enc.encode('{"command":"').byteLength;
const end = start + enc.encode("rm -rf /var/cache/app").byteLength;

const explanation: Explanation = {
  refusal: {
    id: "r1",
    sessionId: "s1",
    sessionTitle: "<b>session</b>",
    spanId: "sp1",
    occurredAt: "2026-03-01T10:00:00.000Z",
    requester: "api-key:cust_1",
    reason: "Side-effecting span; the summary carries no pointer to this span.",
    cell: { class: "SIDE_EFFECTING", provenance: "NONE" },
  },
  compaction: { id: "c1", asked: true, replacedCount: 1, refusedCount: 1, summarySpanId: null },
  summary: { text: "Cleaned up <script>alert(1)</script>", pointers: [], manifest: null },
  spans: [
    {
      id: "sp1",
      seq: 2,
      kind: "TOOL_CALL",
      class: "SIDE_EFFECTING",
      cell: { class: "SIDE_EFFECTING", provenance: "NONE" },
      verdict: "REFUSE",
      reason: "refused",
      focus: true,
      body: enc.encode(body),
      bodyGone: null,
      atomsAtRisk: [
        { kind: "COMMAND", text: "rm -rf /var/cache/app", normalized: "rm -rf /var/cache/app", byteStart: start, byteEnd: end },
      ],
      remedies: {
        verdictNow: "REFUSE",
        remedies: [
          {
            kind: "MANIFEST",
            needsPointer: true,
            names: [{ kind: "COMMAND", count: 1 }],
            text: "an omission manifest naming: 1 command, and a provenance pointer to this span",
          },
        ],
        notes: [],
      },
    },
  ],
  spanTotal: 1,
};

describe("RefusalExplanation", () => {
  const html = renderToStaticMarkup(createElement(RefusalExplanation, { explanation, basePath: "/projects/demo" }));

  it("renders the summary and bodies as text, never as markup", () => {
    expect(html).not.toContain("<script>");
    expect(html).not.toContain("<img");
    expect(html).not.toContain("<b>session");
    expect(html).toContain("Cleaned up &lt;script&gt;alert(1)&lt;/script&gt;");
  });

  it("marks exactly the dropped atom's bytes, and lists the remedy", () => {
    const marks = [...html.matchAll(/<mark[^>]*data-testid="dropped-atom"[^>]*>([^<]*)<\/mark>/g)].map((m) => m[1]);
    expect(marks).toEqual(["rm -rf /var/cache/app"]);
    expect(html).toContain("an omission manifest naming: 1 command, and a provenance pointer to this span");
    expect(html).toContain('href="/projects/demo/spans/sp1"');
  });

  it("a compaction without asking reads as its own event in the feed's table", () => {
    const row = renderToStaticMarkup(
      createElement(
        "table",
        null,
        createElement(
          "tbody",
          null,
          createElement(CompactionRow, {
            basePath: "/projects/demo",
            year: 2026,
            row: {
              id: "c1",
              sessionId: "s1",
              sessionTitle: "imported",
              asked: false,
              summarySpanId: "sum1",
              replacedCount: 3,
              refusedCount: 2,
              requester: "importer:codex",
              occurredAt: "2026-03-01T10:00:00.000Z",
            },
          }),
        ),
      ),
    );
    expect(row).toContain('data-event="compaction"');
    expect(row).toContain("replaced 3 spans without asking the gate; the gate would have refused 2 of them");
    expect(row).toContain('href="/projects/demo/spans/sum1"');
    expect(row).toContain(
      '<td class="when short" data-label="When"><time dateTime="2026-03-01T10:00:00.000Z" title="2026-03-01 10:00 UTC">Mar 1 10:00</time>',
    );
  });
});

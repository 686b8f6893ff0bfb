import { createElement } from "react";
import { renderToStaticMarkup } from "react-dom/server";
import { describe, expect, it } from "vitest";
import type { RefusalGroup } from "@/lib/server/dashboard";
import { RefusalGroupRow } from "./RefusalGroupRow";

const group = (spans: Array<[string, number]>, refused = spans.length): RefusalGroup => ({
  key: "req-1",
  occurredAt: "2026-12-06T14:03:00.000Z",
  sessionId: "s1",
  sessionTitle: "Configure <staging>",
  requester: "runtime:claude",
  refused,
  atomsAtRisk: 6,
  reasons: ["a summary would lose the write"],
  cells: [{ cellClass: "SIDE_EFFECTING", cellProvenance: "EXPIRING" }],
  spans: spans.map(([id, seq]) => ({ refusalId: id, spanId: `span-${id}`, seq })),
});

const render = (g: RefusalGroup) =>
  renderToStaticMarkup(
    createElement(
      "table",
      null,
      createElement("tbody", null, createElement(RefusalGroupRow, { group: g, basePath: "/projects/demo", year: 2026 })),
    ),
  );

describe("a gate request's refusals as one row", () => {
  it("says the reason once and opens to each refused span with its explanation", () => {
    const html = render(
      group([
        ["b", 2],
        ["a", 4],
        ["c", 9],
      ]),
    );
    expect(html.split("a summary would lose the write")).toHaveLength(2);
    expect(html).toContain('data-spans="3"');
    expect(html).toContain("<summary>3 spans</summary>");
    expect([...html.matchAll(/href="\/projects\/demo\/spans\/span-(\w)">(\d+)</g)].map((m) => `${m[1]}${m[2]}`)).toEqual([
      "b2",
      "a4",
      "c9",
    ]);
    for (const id of ["a", "b", "c"]) expect(html).toContain(`href="/projects/demo/refusals/${id}"`);
    expect(html).toContain(">6</td>");
    expect(html).toContain("Dec 6 14:03");
    expect(html).toContain("Configure &lt;staging&gt;");
  });

  it("says how many refused spans it does not list", () => {
    const html = render(group([["a", 1]], 240));
    expect(html).toContain("<summary>240 spans</summary>");
    expect(html).toContain("and 239 more");
  });

  it("shows a lone refusal's span and explanation in the row itself", () => {
    const html = render(group([["a", 4]]));
    expect(html).not.toContain("<details");
    expect(html).toContain('span <a href="/projects/demo/spans/span-a">4</a>');
    expect(html).toContain('href="/projects/demo/refusals/a">Why</a>');
  });
});

import { createElement } from "react";
import { renderToStaticMarkup } from "react-dom/server";
import { describe, expect, it } from "vitest";
import { type GroupableRefusal, groupRefusals } from "./refusal-groups";
import { RefusalGroupRow } from "./RefusalGroupRow";

const refusal = (id: string, seq: number): GroupableRefusal => ({
  id,
  occurredAt: "2026-12-06T14:03:00.000Z",
  sessionId: "s1",
  sessionTitle: "Configure <staging>",
  spanId: `span-${id}`,
  seq,
  cellClass: "SIDE_EFFECTING",
  cellProvenance: "EXPIRING",
  reason: "a summary would lose the write",
  requester: "runtime:claude",
  atomsAtRisk: 2,
  requestId: "req-1",
});

const render = (rows: GroupableRefusal[]) =>
  renderToStaticMarkup(
    createElement(
      "table",
      null,
      createElement(
        "tbody",
        null,
        createElement(RefusalGroupRow, { group: groupRefusals(rows)[0]!, basePath: "/projects/demo", year: 2026 }),
      ),
    ),
  );

describe("a gate request's refusals as one row", () => {
  it("says the reason once and opens to each refused span with its explanation", () => {
    const html = render([refusal("a", 4), refusal("b", 2), refusal("c", 9)]);
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

  it("shows a lone refusal's span and explanation in the row itself", () => {
    const html = render([refusal("a", 4)]);
    expect(html).not.toContain("<details");
    expect(html).toContain('href="/projects/demo/spans/span-a">4</a>');
    expect(html).toContain('href="/projects/demo/refusals/a">Why</a>');
  });
});

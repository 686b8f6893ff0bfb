import { createElement } from "react";
import { renderToStaticMarkup } from "react-dom/server";
import { describe, expect, it } from "vitest";
import type { Blocker } from "@/lib/evidence/questions";
import type { ActionResult } from "@/lib/core/action-result";
import {
  type BlockerFateRow,
  BlockerTable,
  type BlockerRow,
  type CitationRow,
  CitationTable,
  pinOriginalForm,
  sessionLabel,
} from "./EvidenceAnswerTables";

const SESSION = "5e55a0e0-1111-4a2b-9c3d-000000000001";
const OTHER_SESSION = "0de0a0e0-2222-4a2b-9c3d-000000000002";
const SPAN = "0b7e9d2c-1111-4a2b-9c3d-000000000002";
const TITLES = { [SESSION]: '<img src=x onerror="alert(1)"> deploy' };

const CITATION: CitationRow = {
  sessionId: SESSION,
  spanId: SPAN,
  seq: 7,
  byteStart: 3,
  byteEnd: 40,
  sha256: "ab".repeat(32),
  excerpt: '<script>alert("x")</script>/etc/app/conf.yaml',
  outcome: "FAILED",
  exitCode: 2,
};

const BLOCKER: BlockerRow = {
  sessionId: OTHER_SESSION,
  spanId: SPAN,
  seq: 9,
  class: "SIDE_EFFECTING",
  provenance: "LOST",
  reason: "<b>original</b> lost",
};

function full(over: Partial<Blocker>): Blocker {
  return {
    ...BLOCKER,
    class: "SIDE_EFFECTING",
    provenance: "EXPIRING",
    transcriptState: "RECLAIMED_HONEST",
    dropped: [{ kind: "PATH", count: 2 }],
    originalHeld: true,
    unblockBy: "pin",
    ...over,
  };
}

describe("sessionLabel", () => {
  it("is the session's title when known, else its id's first 8 characters (never a prototype key)", () => {
    expect(sessionLabel(TITLES, SESSION)).toBe(TITLES[SESSION]);
    expect(sessionLabel(TITLES, OTHER_SESSION)).toBe("0de0a0e0");
    expect(sessionLabel(TITLES, "constructor")).toBe("construc");
  });
});

describe("CitationTable", () => {
  const html = renderToStaticMarkup(
    createElement(CitationTable, { citations: [CITATION], project: "acme", sessionTitles: TITLES }),
  );

  it("renders transcript text (excerpt, session title) as text, never HTML", () => {
    expect(html).not.toContain("<script>");
    expect(html).toContain("&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt;/etc/app/conf.yaml");
    expect(html).not.toContain("<img");
    expect(html).toContain("&lt;img src=x");
  });

  it("links the session and the cited bytes, and shows the outcome and the hash's first 12 hex", () => {
    expect(html).toContain('aria-label="Citations" id="citations"');
    expect(html).toContain(`href="/projects/acme/sessions/${SESSION}"`);
    expect(html).toContain(`href="/projects/acme/spans/${SPAN}?from=3&amp;to=40#cited">3–40</a>`);
    expect(html).toContain('data-outcome="FAILED"');
    expect(html).toContain("exit 2");
    expect(html).toContain(`>${"ab".repeat(6)}…</td>`);
  });

  it("shows a dash for a citation without an outcome", () => {
    const bare = renderToStaticMarkup(
      createElement(CitationTable, {
        citations: [{ ...CITATION, outcome: null, exitCode: null }],
        project: "acme",
        sessionTitles: {},
      }),
    );
    expect(bare).not.toContain("data-outcome");
    expect(bare).toContain(">5e55a0e0</a>");
  });
});

describe("BlockerTable", () => {
  it("each blocker's session, seq, cell and why, the reason as text", () => {
    const html = renderToStaticMarkup(
      createElement(BlockerTable, {
        blockers: [full({ provenance: "LOST" })],
        project: "acme",
        sessionTitles: TITLES,
        pinForm: null,
      }),
    );
    expect(html).toContain('<h2 id="blockers">Blocking spans</h2>');
    expect(html).toContain(">0de0a0e0</a>");
    expect(html).toContain(`href="/projects/acme/spans/${SPAN}">9</a>`);
    expect(html).toContain('title="SIDE_EFFECTING"');
    expect(html).toContain('title="LOST"');
    expect(html).toContain("&lt;b&gt;original&lt;/b&gt; lost");
  });

  it("a fresh answer's blockers add what was dropped, whether the original is held and what unblocks it", () => {
    const blockers = [
      full({ spanId: "a", seq: 1 }),
      full({ spanId: "b", seq: 2, dropped: [], originalHeld: false, unblockBy: "none" }),
    ];
    const operator = renderToStaticMarkup(
      createElement(BlockerTable, { blockers, project: "acme", sessionTitles: {}, pinForm: null }),
    );
    expect(operator.match(/<th[ >]/g)).toHaveLength(7);
    expect(operator).toContain(
      '<td class="short" data-label="Dropped">2 paths</td><td class="short" data-label="Original">held</td>',
    );
    expect(operator).toContain(
      '<td class="short" data-label="Dropped">not stated</td><td class="short" data-label="Original">gone</td>',
    );
    expect(operator).toContain('<td class="below" data-label="Unblock">pin (operator)</td>');
    expect(operator).toContain('<td class="below" data-label="Unblock">not possible</td>');

    const pinner = renderToStaticMarkup(
      createElement(BlockerTable, {
        blockers,
        project: "acme",
        sessionTitles: {},
        pinForm: (b: BlockerFateRow) => createElement("button", { type: "submit" }, `Pin span ${b.seq}`),
      }),
    );
    expect(pinner).toContain('<button type="submit">Pin span 1</button>');
    expect(pinner).not.toContain("Pin span 2");
    expect(pinner).toContain('<td class="below" data-label="Unblock">not possible</td>');
  });
});

describe("pinOriginalForm", () => {
  const pin = async (): Promise<ActionResult> => ({ ok: true, message: "Pinned" });

  it("is the pin action's form for a held original, its reason naming the question (as text)", () => {
    const html = renderToStaticMarkup(
      createElement(BlockerTable, {
        blockers: [full({ spanId: SPAN, seq: 4 }), full({ spanId: "gone", seq: 5, originalHeld: false, unblockBy: "none" })],
        project: "acme",
        sessionTitles: {},
        pinForm: pinOriginalForm(pin, '<b>Modified</b> "system" config?'),
      }),
    );
    expect(html).toContain('aria-label="Pin span 4"');
    expect(html).toContain(`<input type="hidden" name="spanId" value="${SPAN}"/>`);
    expect(html).toContain(
      '<input type="hidden" name="reason" value="evidence question: &lt;b&gt;Modified&lt;/b&gt; &quot;system&quot; config?"/>',
    );
    expect(html).toContain(">Pin original</button>");
    expect(html).not.toContain('aria-label="Pin span 5"');
  });
});

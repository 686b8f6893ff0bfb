import { QueryClient, QueryClientProvider } from "@tanstack/react-query";
import { createElement } from "react";
import { renderToStaticMarkup } from "react-dom/server";
import { describe, expect, it } from "vitest";
import type { ActionResult } from "@/lib/core/action-result";
import type { EvidenceAnswerJson, QuestionJobJson } from "@/lib/server/questions";
import { QuestionJobProgress } from "./QuestionJobProgress";

const JOB: QuestionJobJson = {
  id: "0b7e9d2c-1111-4a2b-9c3d-000000000001",
  status: "RUNNING",
  candidateSpans: 12_345,
  sessionsDone: 3,
  sessionsTotal: 8,
  answer: null,
  error: null,
  createdAt: "2026-01-01T00:00:00.000Z",
  updatedAt: "2026-01-01T00:00:05.000Z",
};

/** What every answer has besides its words, counts and rows. */
const REST = {
  gaps: [],
  skippedRecords: [],
  outcomes: {},
  completeness: { holds: false, conditions: [] },
} satisfies Partial<EvidenceAnswerJson>;

type Pin = (previous: ActionResult | null, form: FormData) => Promise<ActionResult>;

function render(job: QuestionJobJson, pin: Pin | null = null) {
  const client = new QueryClient();
  return renderToStaticMarkup(
    createElement(
      QueryClientProvider,
      { client },
      createElement(QuestionJobProgress, { project: "acme", initial: job, sessionTitles: { s: "deploy run" }, pin }),
    ),
  );
}

const HELD = "0b7e9d2c-1111-4a2b-9c3d-000000000003";
const LOST = "0b7e9d2c-1111-4a2b-9c3d-000000000004";

/** A job's INSUFFICIENT_EVIDENCE answer: one blocker whose original is held, one whose original is lost. */
const INSUFFICIENT: EvidenceAnswerJson = {
  ...REST,
  question: { id: "modified-system-config", title: "Modified system config?" },
  pages: { citations: { offset: 0, next: null }, blockers: { offset: 0, next: null } },
  answer: "INSUFFICIENT_EVIDENCE",
  citationCount: 0,
  blockerCount: 2,
  checkedSpans: 40,
  sessionsInScope: 1,
  scopeComplete: false,
  noSpansInScope: false,
  outcomeSummary: "",
  citations: [],
  blockers: [
    {
      sessionId: "s",
      spanId: HELD,
      seq: 3,
      class: "SIDE_EFFECTING",
      provenance: "EXPIRING",
      dropped: [{ kind: "PATH", count: 2 }],
      originalHeld: true,
      unblockBy: "pin",
      reason: "its original's TTL passed",
    },
    {
      sessionId: "s",
      spanId: LOST,
      seq: 4,
      class: "SIDE_EFFECTING",
      provenance: "LOST",
      dropped: [],
      originalHeld: false,
      unblockBy: "none",
      reason: "its original is lost",
    },
  ],
};

describe("QuestionJobProgress", () => {
  it("shows a running job's progress: sessions answered of those in scope, candidate spans judged", () => {
    const html = render(JOB);
    expect(html).toContain("Still judging.");
    expect(html).toContain("3 of 8 sessions answered; 12,345 candidate spans judged.");
    expect(html).toMatch(/<progress max="8" value="3"/);
  });

  // The tables' rendering (links, escaping of transcript text) is EvidenceAnswerTables.test.ts's.
  it("shows the answer when done: its words, counts, that only the first rows are shown, and its tables", () => {
    const html = render({
      ...JOB,
      status: "DONE",
      answer: {
        ...REST,
        question: { id: "modified-system-config", title: "Modified system config?" },
        pages: { citations: { offset: 0, next: 1 }, blockers: { offset: 0, next: null } },
        answer: "YES",
        citationCount: 250,
        blockerCount: 0,
        checkedSpans: 900,
        sessionsInScope: 8,
        scopeComplete: true,
        noSpansInScope: false,
        outcomeSummary: "1 attempt: 1 succeeded",
        citations: [
          {
            sessionId: "s",
            spanId: "0b7e9d2c-1111-4a2b-9c3d-000000000002",
            seq: 7,
            byteStart: 3,
            byteEnd: 40,
            sha256: "ab".repeat(32),
            excerpt: "/etc/app/conf.yaml",
            bytesBase64: Buffer.from("/etc/app/conf.yaml").toString("base64"),
            atomKind: "PATH",
            outcome: "SUCCEEDED",
            exitCode: 0,
          },
        ],
        blockers: [],
      },
    });
    expect(html).toContain('data-testid="answer">YES</span>');
    expect(html).toContain("250");
    expect(html).toContain("the export has them all");
    expect(html).toContain('aria-label="Citations"');
    expect(html).toContain(">deploy run</a>");
    expect(html).not.toContain('aria-label="Blockers"');
  });

  it("a done job's blockers say what each dropped, whether its original is held and what unblocks it, as on the page", () => {
    const html = render({ ...JOB, status: "DONE", answer: INSUFFICIENT });
    expect(html).toContain('data-testid="answer">INSUFFICIENT EVIDENCE</span>');
    expect(html).toContain('class="badge lost"');
    // React splits the line's text at each expression: compare it without those markers.
    expect(html.replaceAll("<!-- -->", "")).toContain(
      "0 citations, 2 blocking spans; 40 spans checked in 1 session; scope incomplete.",
    );
    expect(html).toMatch(/<th>Dropped<\/th><th>Original<\/th><th>Why<\/th><th>Unblock<\/th>/);
    expect(html).toContain(
      '<td class="short" data-label="Dropped">2 paths</td><td class="short" data-label="Original">held</td>',
    );
    expect(html).toContain(
      '<td class="short" data-label="Dropped">not stated</td><td class="short" data-label="Original">gone</td>',
    );
    // Without the pin action (a viewer), the act is named for an operator; a lost original cannot be helped.
    expect(html).toContain('<td class="below" data-label="Unblock">pin (operator)</td>');
    expect(html).toContain('<td class="below" data-label="Unblock">not possible</td>');
    expect(html).not.toContain("Pin original");
  });

  it("offers the page's pin form for a held original when the viewer may pin, and none for a lost one", () => {
    const pin: Pin = async () => ({ ok: true, message: "Pinned" });
    const html = render({ ...JOB, status: "DONE", answer: INSUFFICIENT }, pin);
    expect(html).toContain('aria-label="Pin span 3"');
    expect(html).toContain(`<input type="hidden" name="spanId" value="${HELD}"/>`);
    expect(html).toContain('<input type="hidden" name="reason" value="evidence question: Modified system config?"/>');
    expect(html).toContain(">Pin original</button>");
    expect(html).not.toContain('aria-label="Pin span 4"');
    expect(html).not.toContain("pin (operator)");
    expect(html).toContain('<td class="below" data-label="Unblock">not possible</td>');
  });

  it("a done job whose answer was kept in an earlier form says to ask again, and shows no progress or answer", () => {
    const error = "This answer was kept in an earlier form that can no longer be read; ask again";
    const html = render({ ...JOB, status: "DONE", answer: null, error });
    expect(html).toContain(`The question could not be answered: ${error}`);
    expect(html).not.toContain("Still judging.");
    expect(html).not.toContain('aria-label="Answer"');
  });

  it("explains an empty scope as the page does", () => {
    const html = render({
      ...JOB,
      status: "DONE",
      answer: { ...INSUFFICIENT, blockerCount: 0, blockers: [], checkedSpans: 0, sessionsInScope: 0, noSpansInScope: true },
    });
    expect(html).toContain('data-testid="no-spans-in-scope"');
    expect(html).toContain("absence is never concluded from an empty scope");
  });

  it("says why a failed job has no answer", () => {
    const html = render({ ...JOB, status: "FAILED", error: "The server stopped while it was judging; ask again" });
    expect(html).toContain("The question could not be answered: The server stopped while it was judging; ask again");
  });
});

import { QueryClient, QueryClientProvider } from "@tanstack/react-query";
import { createElement } from "react";
import { renderToStaticMarkup } from "react-dom/server";
import { describe, expect, it } from "vitest";
import type { QuestionJobView } from "@/lib/server/questions";
import { QuestionJobProgress } from "./QuestionJobProgress";

const JOB: QuestionJobView = {
  id: "0b7e9d2c-1111-4a2b-9c3d-000000000001",
  status: "RUNNING",
  candidateSpans: 12_345,
  sessionsDone: 3,
  sessionsTotal: 8,
  answer: null,
  error: null,
};

function render(job: QuestionJobView) {
  const client = new QueryClient();
  return renderToStaticMarkup(
    createElement(
      QueryClientProvider,
      { client },
      createElement(QuestionJobProgress, { project: "acme", initial: job, sessionTitles: { s: "deploy run" } }),
    ),
  );
}

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
        question: { title: "Modified system config?" },
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

  it("says why a failed job has no answer", () => {
    const html = render({ ...JOB, status: "FAILED", error: "The server stopped while it was judging; ask again" });
    expect(html).toContain("The question could not be answered: The server stopped while it was judging; ask again");
  });
});

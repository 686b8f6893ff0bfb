/**
 * The sessions list's at-risk sort orders by what each row shows: its grid's amber cells, summaries
 * included (a summary resting on an original that expires before its horizon is amber too).
 */
import { describe, expect, it } from "vitest";
import { db } from "@/lib/db/client";
import { makeTestProject } from "@/lib/server/admin/test-project";
import { candidateSummaryFor } from "@/lib/server/gate/candidate-summary";
import { reclaim } from "@/lib/server/gate/reclaim";
import { appendSpans, upsertSession } from "@/lib/server/ingest/append";
import { listSessionPage } from "./session-list";

const DAY_MS = 86_400_000;

/** A session of one write `daysAgo`, its original then set to expire tomorrow (before its horizon): at risk. */
async function atRiskSession(projectId: string, label: string, daysAgo: number) {
  const { session } = await upsertSession(projectId, { externalId: label, runtime: "test", title: label });
  const body = new TextEncoder().encode(JSON.stringify({ path: `/etc/app/${label}.yaml`, content: "x" }));
  const [span] = await appendSpans(projectId, session.id, [
    { seq: 0, kind: "TOOL_CALL", toolName: "write_file", occurredAt: new Date(Date.now() - daysAgo * DAY_MS), body },
  ]);
  const expireSoon = () =>
    db().spanOriginal.update({
      where: { sessionId_spanId: { sessionId: session.id, spanId: span!.id } },
      data: { expiresAt: new Date(Date.now() + DAY_MS) },
    });
  return { session, span: span!, expireSoon };
}

describe("the sessions list sorted by spans at risk", () => {
  it("counts a summary the grid shows amber, as the row's count does", async () => {
    const project = await makeTestProject("at-risk-sort-summaries");
    // Older: its write replaced by a summary with a pointer, then its original set to expire before
    // the horizon: the write and the summary are both amber (2).
    const summarised = await atRiskSession(project.id, "summarised", 3);
    const summary = await candidateSummaryFor(summarised.session.id, [summarised.span.id], "Wrote the app's config.", {
      pointers: true,
    });
    const reclaimed = await reclaim({
      projectId: project.id,
      sessionId: summarised.session.id,
      selection: { spanIds: [summarised.span.id] },
      summary,
      dryRun: false,
      requester: "test",
    });
    expect(reclaimed.decisions.map((d) => d.verdict)).toEqual(["RECLAIM"]);
    await summarised.expireSoon();
    // Newer, one write at risk and nothing else (1): sorted first when summaries are left out.
    const plain = await atRiskSession(project.id, "plain", 1);
    await plain.expireSoon();

    const page = await listSessionPage(project.id, { sort: "at-risk" });
    expect(page.rows.map((r) => [r.title, r.atRiskCount])).toEqual([
      ["summarised", 2],
      ["plain", 1],
    ]);
  });
});

/**
 * A refusal explains itself from stored rows: the refused summary's text, the spans it would have
 * replaced with the atoms it dropped (their byte ranges read back out of the originals), and the
 * remedies, each of which is then applied and put to the gate again, which must let the span go.
 */
import { describe, expect, it } from "vitest";
import { db } from "@/lib/db/client";
import { countByKind, formatKindCounts } from "@/lib/evidence/manifest";
import { DEFAULT_POLICY } from "@/lib/evidence/policy";
import type { Atom, CandidateSummary } from "@/lib/evidence/types";
import { makeTestProject, TEST_ACTOR } from "@/lib/server/admin/test-project";
import { reclaim } from "@/lib/server/gate";
import { appendSpans, upsertSession } from "@/lib/server/ingest";
import { pinOriginal } from "@/lib/server/provenance";
import { refusalExplanation } from "./index";

const text = (s: string) => new TextEncoder().encode(s);

/** Side-effecting originals expire long before their horizon: EXPIRING even with a pointer. */
const SHORT_TTL = { ...DEFAULT_POLICY, ttlDays: { NARRATIVE: 30, STRUCTURED: 30, SIDE_EFFECTING: 30 } };

async function refusedCompaction(label: string) {
  const project = await makeTestProject(label, SHORT_TTL);
  const { session } = await upsertSession(project.id, { externalId: "s", runtime: "test" });
  const at = new Date();
  const spans = await appendSpans(project.id, session.id, [
    { seq: 0, kind: "MESSAGE", occurredAt: at, body: text("Hello, let us start.") },
    { seq: 1, kind: "TOOL_CALL", toolName: "Bash", occurredAt: at, body: text('{"command":"sudo systemctl restart app"}') },
    { seq: 2, kind: "TOOL_CALL", toolName: "Bash", occurredAt: at, body: text('{"command":"rm -rf /var/cache/app"}') },
  ]);
  const [greeting, restart, removal] = spans as [(typeof spans)[0], (typeof spans)[0], (typeof spans)[0]];
  const rows = await db().span.findMany({
    where: { sessionId: session.id },
    select: { id: true, sha256: true, byteLength: true },
  });
  const pointer = (id: string) => {
    const r = rows.find((x) => x.id === id)!;
    return { spanId: id, byteStart: 0, byteEnd: r.byteLength, sha256: r.sha256 };
  };
  // Points at the greeting and the restart, not the removal; names nothing it drops.
  const summary: CandidateSummary = {
    text: "The agent greeted the user and did some <b>maintenance</b>.",
    pointers: [pointer(greeting.id), pointer(restart.id)],
  };
  const outcome = await reclaim({
    projectId: project.id,
    sessionId: session.id,
    selection: { fromSeq: 0, toSeq: 2 },
    summary,
    dryRun: false,
    requester: "api-key:cust_explain",
  });
  const refusals = await db().refusalEvent.findMany({ where: { sessionId: session.id } });
  return { projectId: project.id, sessionId: session.id, greeting, restart, removal, summary, outcome, refusals, pointer };
}

describe("a refusal's explanation", () => {
  it("shows the refused summary, the spans it would have replaced with their dropped atoms, and remedies the gate accepts", async () => {
    const c = await refusedCompaction("explain");
    expect(c.refusals.map((r) => r.spanId).sort()).toEqual([c.restart.id, c.removal.id].sort());
    const refusal = c.refusals.find((r) => r.spanId === c.removal.id)!;
    const explained = await refusalExplanation(c.projectId, refusal.id);

    expect(explained.refusal).toMatchObject({ id: refusal.id, spanId: c.removal.id, requester: "api-key:cust_explain" });
    expect(explained.compaction).toMatchObject({ id: c.outcome.reclamationId, asked: true, replacedCount: 1, refusedCount: 2 });
    expect(explained.summary).toEqual({ text: c.summary.text, pointers: c.summary.pointers, manifest: null });
    // The refusal's own span first, then the other refused, then what was replaced.
    expect(explained.spans.map((s) => [s.seq, s.verdict, s.focus])).toEqual([
      [2, "REFUSE", true],
      [1, "REFUSE", false],
      [0, "RECLAIM", false],
    ]);
    expect(explained.spanTotal).toBe(3);
    for (const span of explained.spans.filter((s) => s.verdict === "REFUSE")) {
      expect(span.atomsAtRisk.length).toBeGreaterThan(0);
      // Each dropped atom's byte range holds its text in the original.
      for (const a of span.atomsAtRisk)
        expect(new TextDecoder().decode(span.body!.subarray(a.byteStart, a.byteEnd))).toBe(a.text);
    }
    expect(explained.spans[2]!.atomsAtRisk).toEqual([]);
    expect(explained.spans[2]!.remedies).toBeNull();

    const removal = explained.spans[0]!.remedies!;
    expect(removal.verdictNow).toBe("REFUSE");
    expect(removal.remedies.map((r) => r.kind)).toEqual(["KEEP_ORIGINAL", "MANIFEST"]);
    expect(removal.remedies[0]).toMatchObject({ needsPointer: true });
    expect(removal.remedies[0]!.text).toContain("a provenance pointer to this span with the original kept to its horizon");
    const manifest = removal.remedies[1]!;
    if (manifest.kind !== "MANIFEST") throw new Error("expected a manifest remedy");
    // With no manifest at all, it must name every atom the text drops: those the refusal recorded at risk.
    expect(manifest.names).toEqual(countByKind(explained.spans[0]!.atomsAtRisk as Atom[]));
    expect(manifest.names.map((n) => n.kind)).toContain("COMMAND");
    expect(manifest.text).toBe(
      `an omission manifest naming: ${formatKindCounts(manifest.names)}, and a provenance pointer to this span`,
    );
    const restart = explained.spans[1]!.remedies!;
    expect(restart.remedies.map((r) => [r.kind, "needsPointer" in r ? r.needsPointer : null])).toEqual([
      ["KEEP_ORIGINAL", false],
      ["MANIFEST", false],
    ]);

    // The manifest remedy, applied: the gate takes the removal as lossy but honest.
    const honest = await reclaim({
      projectId: c.projectId,
      sessionId: c.sessionId,
      selection: { spanIds: [c.removal.id] },
      summary: {
        ...c.summary,
        pointers: [...c.summary.pointers, c.pointer(c.removal.id)],
        omissions: { omitted: manifest.names },
      },
      dryRun: true,
      requester: "test",
    });
    expect(honest.decisions.map((d) => d.verdict)).toEqual(["RECLAIM_HONEST"]);

    // The pin remedy, applied: the restart (already pointed at) is now accepted as the summary stood.
    await pinOriginal({ projectId: c.projectId, spanId: c.restart.id }, TEST_ACTOR, "keep it");
    const again = await refusalExplanation(c.projectId, c.refusals.find((r) => r.spanId === c.restart.id)!.id);
    expect(again.spans[0]!.remedies).toEqual({ verdictNow: "RECLAIM", remedies: [], notes: [] });
    // Pinning the removal leaves it short of only the pointer.
    await pinOriginal({ projectId: c.projectId, spanId: c.removal.id }, TEST_ACTOR, "keep it");
    const pinned = await refusalExplanation(c.projectId, refusal.id);
    expect(pinned.spans[0]!.remedies!.remedies).toEqual([{ kind: "POINTER", text: "a provenance pointer to this span" }]);
  });

  it("is scoped by project: another project's refusal, or no refusal, is not found", async () => {
    const c = await refusedCompaction("explain-scope");
    const stranger = await makeTestProject("explain-stranger");
    await expect(refusalExplanation(stranger.id, c.refusals[0]!.id)).rejects.toMatchObject({ code: "NOT_FOUND" });
    await expect(refusalExplanation(c.projectId, "not-a-uuid")).rejects.toMatchObject({ code: "NOT_FOUND" });
    await expect(refusalExplanation(c.projectId, c.outcome.reclamationId)).rejects.toMatchObject({ code: "NOT_FOUND" });
  });

  it("says which originals are gone rather than showing them, and offers no pin for them", async () => {
    const c = await refusedCompaction("explain-gone");
    await db().spanOriginal.update({
      where: { sessionId_spanId: { sessionId: c.sessionId, spanId: c.removal.id } },
      data: { bytes: null, deletedAt: new Date(), deleteReason: "swept after its TTL" },
    });
    const explained = await refusalExplanation(c.projectId, c.refusals.find((r) => r.spanId === c.removal.id)!.id);
    const span = explained.spans[0]!;
    expect(span.body).toBeNull();
    expect(span.bodyGone).toContain("swept after its TTL");
    expect(span.remedies!.remedies.map((r) => r.kind)).toEqual(["MANIFEST"]);
    expect(span.remedies!.notes.join(" ")).toContain("no pin or TTL can bring it back");
  });
});

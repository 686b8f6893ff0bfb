import pg from "pg";
import { describe, expect, it } from "vitest";
import { ownerDatabaseUrl } from "@/lib/db/test-database";
import { db } from "@/lib/db/client";
import { makeTestProject } from "@/lib/server/admin/test-project";
import { appendSpans, upsertSession, type SpanSubmission } from "@/lib/server/ingest/append";
import { sweep } from "@/lib/server/retention";
import type { EvidenceQueryInput } from "./ask";
import { exportEvidence } from "./export-answer";
import { canonicalJson } from "./export-canonical";
import { exportHash, exportStream } from "./export-document";
import { generateKeyPairSync } from "node:crypto";
import { describeExportVerification, parseExportDocument, verifyExport } from "./export-verify";

const ownerUrl = ownerDatabaseUrl();
const encode = (text: string) => new TextEncoder().encode(text);
const ASKED_BY = { id: "00000000-0000-4000-8000-0000000000aa", email: "auditor@example.com" };

/** As the owner role, past the application's grants: what someone editing the database behind Custodian's back can do. */
async function asOwner(sql: string, values: unknown[]) {
  const client = new pg.Client({ connectionString: ownerUrl });
  await client.connect();
  try {
    await client.query(sql, values);
  } finally {
    await client.end();
  }
}

/** A session whose calls copy configuration under /etc/app/, one span per call. */
async function scenario(label: string, calls: number) {
  const project = await makeTestProject(label);
  const { session } = await upsertSession(project.id, { externalId: label, runtime: "claude-code", cwd: "/home/dev/app" });
  const spans: SpanSubmission[] = Array.from({ length: calls }, (_, i) => {
    const command = `cp build/app.conf /etc/app/conf-${i}.yaml`;
    return {
      seq: i,
      kind: "TOOL_CALL",
      toolName: "Bash",
      toolInput: { command },
      outcome: "SUCCEEDED",
      occurredAt: new Date(Date.UTC(2026, 10, 20, 8, 0, i)),
      body: encode(JSON.stringify({ command })),
    };
  });
  const written = await appendSpans(project.id, session.id, spans);
  const input: EvidenceQueryInput = { projectId: project.id, question: { predicate: { valuePrefixes: ["/etc/app/"] } } };
  return { project, session, written, input };
}

/** The export as the download writes it, read back as a file would be. */
async function downloaded(stream: ReadableStream<Uint8Array>): Promise<string> {
  return await new Response(stream).text();
}

describe("exports an auditor can file", () => {
  it("verifies, then names the citation whose original was changed by the owner or deleted by the sweeper", async () => {
    const { project, session, written, input } = await scenario("export-verify", 3);
    const { document } = await exportEvidence({ input, project, askedBy: ASKED_BY, format: "json" });
    expect(document.answer.answer).toBe("YES");
    expect(document.citations).toHaveLength(3);
    expect(document.project).toEqual({ id: project.id, slug: project.slug, name: project.name });
    expect(document.askedBy).toEqual(ASKED_BY);
    expect(document.question.inWords).toContain('"/etc/app/" or below it');
    expect(document.policy.version).toBe(0);
    expect(document.citations[0]).toMatchObject({
      sessionId: session.id,
      spanId: written[0]!.id,
      excerpt: "/etc/app/conf-0.yaml",
    });

    // One audit row, naming the export's hash.
    const audits = await db().auditLog.findMany({ where: { projectId: project.id, act: "evidence.export" } });
    expect(audits).toHaveLength(1);
    expect(audits[0]!.after).toMatchObject({ exportSha256: document.exportSha256, format: "json", citations: 3 });
    expect(audits[0]!.actorLabel).toBe(ASKED_BY.email);

    const file = await downloaded(exportStream(document));
    expect(file).toBe(canonicalJson(document));
    const clean = await verifyExport(parseExportDocument(file));
    expect(clean).toMatchObject({ ok: true, citations: 3, failures: [] });
    expect(clean.exportSha256.ok).toBe(true);

    // The owner rewrites the second citation's original (inside its cited range).
    const second = document.citations[1]!;
    await asOwner(
      "update span_original set bytes = overlay(bytes placing 'X'::bytea from $3 for 1) where session_id = $1 and span_id = $2",
      [second.sessionId, second.spanId, second.byteStart + 1],
    );
    const changed = await verifyExport(parseExportDocument(file));
    expect(changed.ok).toBe(false);
    expect(changed.exportSha256.ok).toBe(true);
    expect(changed.failures).toEqual([
      { index: 1, sessionId: second.sessionId, spanId: second.spanId, problems: ["original changed", "cited bytes differ"] },
    ]);
    expect(describeExportVerification(changed)).toEqual([
      `citation 2: span ${second.spanId} (session ${second.sessionId}): original changed, cited bytes differ`,
      "NOT verified: export hash ok; signature by this instance; recorded in the audit log; 2 of 3 citations verify against the stored originals, 1 does not.",
    ]);

    // The sweeper deletes the third one's original once its TTL has passed.
    const third = document.citations[2]!;
    await asOwner("update span_original set expires_at = now() - interval '1 day' where session_id = $1 and span_id = $2", [
      third.sessionId,
      third.spanId,
    ]);
    await sweep(new Date());
    const swept = await verifyExport(parseExportDocument(file));
    expect(swept.failures.map((f) => [f.index, f.problems])).toEqual([
      [1, ["original changed", "cited bytes differ"]],
      [2, ["original deleted"]],
    ]);
  });

  it("finds an edited document by its hash, and edited cited bytes against the original", async () => {
    const { project, input } = await scenario("export-tamper", 2);
    const { document } = await exportEvidence({ input, project, askedBy: ASKED_BY, format: "json" });
    const edited = structuredClone(document);
    edited.answer.answer = "NO";
    const report = await verifyExport(edited);
    expect(report.exportSha256).toMatchObject({ ok: false, stated: document.exportSha256 });
    expect(report.failures).toEqual([]);
    expect(describeExportVerification(report)[0]).toMatch(/^export hash differs/);

    // Bytes swapped and the hashes recomputed to match: the stored original still tells.
    const forged = structuredClone(document);
    forged.citations[0]!.bytesBase64 = Buffer.from("/etc/app/conf-9.yaml").toString("base64");
    const report2 = await verifyExport(forged);
    expect(report2.failures.map((f) => f.problems)).toEqual([["cited bytes differ"]]);
  });

  it("refuses files that are not exports", () => {
    expect(() => parseExportDocument("{not json")).toThrow(expect.objectContaining({ code: "INVALID_JSON" }));
    expect(() => parseExportDocument('{"format":"something-else"}')).toThrow(
      expect.objectContaining({ code: "UNSUPPORTED_FORMAT" }),
    );
  });

  it("carries every citation, not the first 10,000", async () => {
    // 7 results each listing 3,000 paths under /etc/app/: 21,000 citations.
    const project = await makeTestProject("export-all");
    const { session } = await upsertSession(project.id, { externalId: "big", runtime: "claude-code", cwd: "/home/dev/app" });
    const spans: SpanSubmission[] = Array.from({ length: 7 }, (_, s) => ({
      seq: s,
      kind: "TOOL_RESULT",
      occurredAt: new Date(Date.UTC(2026, 10, 20, 8, 0, s)),
      body: encode(Array.from({ length: 3000 }, (_, i) => `/etc/app/f-${s}-${i}.conf`).join("\n")),
    }));
    await appendSpans(project.id, session.id, spans);
    const input: EvidenceQueryInput = { projectId: project.id, question: { predicate: { valuePrefixes: ["/etc/app/"] } } };
    const { document } = await exportEvidence({ input, project, askedBy: ASKED_BY, format: "json" });
    expect(document.answer.citationCount).toBe(21_000);
    const file = await downloaded(exportStream(document));
    const parsed = parseExportDocument(file);
    expect(parsed.citations).toHaveLength(21_000);
    expect(new Set(parsed.citations.map((c) => c.excerpt)).size).toBe(21_000);
    expect(parsed.citations.at(-1)!.excerpt).toBe("/etc/app/f-6-2999.conf");
    const report = await verifyExport(parsed);
    expect(report).toMatchObject({ ok: true, citations: 21_000 });
  }, 120_000);

  it("refuses an export edited and re-hashed, re-signed with another key, stripped of its signature, or never exported", async () => {
    const { project, input } = await scenario("export-forged", 2);
    const { document } = await exportEvidence({ input, project, askedBy: ASKED_BY, format: "json" });
    const genuine = await verifyExport(parseExportDocument(canonicalJson(document)));
    expect(genuine).toMatchObject({ ok: true, signature: "valid", audited: true });

    // The answer turned to NO, its citations emptied, its hash recomputed: the hash agrees, the signature does not.
    const forgedBody = { ...document, answer: { ...document.answer, answer: "NO", citationCount: 0 }, citations: [] };
    const forged = { ...forgedBody, exportSha256: exportHash(forgedBody) };
    const refused = await verifyExport(parseExportDocument(canonicalJson(forged)));
    expect(refused).toMatchObject({ ok: false, signature: "invalid", audited: false, exportSha256: { ok: true } });
    expect(describeExportVerification(refused)[0]).toMatch(/^signature invalid/);

    // Someone else asked it, by their account.
    const renamedBody = { ...document, askedBy: { id: ASKED_BY.id, email: "someone@example.com" } };
    const renamed = { ...renamedBody, exportSha256: exportHash(renamedBody) };
    expect(await verifyExport(parseExportDocument(canonicalJson(renamed)))).toMatchObject({ ok: false, signature: "invalid" });

    // Signed again with a key of the forger's own: a valid signature, but not this instance's.
    const { privateKey, publicKey } = generateKeyPairSync("ed25519");
    const { sign } = await import("node:crypto");
    const { signature: _, ...unsigned } = forged as typeof forged & { signature?: unknown };
    const resigned = {
      ...unsigned,
      signature: {
        ...document.signature!,
        publicKey: publicKey.export({ type: "spki", format: "der" }).toString("base64"),
        value: sign(null, Buffer.from(canonicalJson(unsigned), "utf8"), privateKey).toString("base64"),
      },
    };
    expect(await verifyExport(parseExportDocument(canonicalJson(resigned)))).toMatchObject({
      ok: false,
      signature: "another key",
    });

    // No signature at all, as a version 1 document wrote it.
    const stripped = { ...unsigned, formatVersion: 1 };
    expect(await verifyExport(parseExportDocument(canonicalJson(stripped)))).toMatchObject({ ok: false, signature: "missing" });
  });
});

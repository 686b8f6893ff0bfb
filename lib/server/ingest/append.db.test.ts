import { afterEach, describe, expect, it } from "vitest";
import { db } from "@/lib/db/client";
import { appendSpans, upsertSession, type SpanSubmission } from "./append";
import { makeTestProject } from "@/lib/server/admin/test-project";

const encode = (text: string) => new TextEncoder().encode(text);
const at = new Date("2026-11-20T08:00:00.000Z");

/** Spans whose text fields need escaping in COPY's text format, and bytes that are not UTF-8. */
const TRICKY: SpanSubmission[] = [
  {
    seq: 0,
    kind: "MESSAGE",
    role: "user",
    occurredAt: at,
    body: encode('tab\there, newline\nthere, back\\slash, cr\r, quote " and ünïcödé'),
  },
  {
    seq: 1,
    kind: "TOOL_CALL",
    role: "assistant",
    toolName: "Bash",
    toolInput: { command: "printf 'a\\tb\\n' > /etc/app/conf.yaml", description: "tabs\tand\nnewlines \\ in JSON" },
    occurredAt: new Date(at.getTime() + 1000),
    body: encode(
      JSON.stringify({ command: "printf 'a\\tb\\n' > /etc/app/conf.yaml", description: "tabs\tand\nnewlines \\ in JSON" }),
    ),
  },
  {
    seq: 2,
    kind: "TOOL_RESULT",
    role: "tool",
    exitCode: 1,
    occurredAt: new Date(at.getTime() + 2000),
    body: new Uint8Array([0x00, 0xff, 0xfe, 0x5c, 0x09, 0x0a]),
  },
];

async function stored(sessionId: string) {
  const spans = await db().span.findMany({
    where: { sessionId },
    orderBy: { seq: "asc" },
    include: { original: true },
  });
  const atoms = await db().evidenceAtom.findMany({ where: { sessionId }, orderBy: [{ spanId: "asc" }, { ordinal: "asc" }] });
  return spans.map(({ id, sessionId: _s, createdAt: _c, original, ...span }) => ({
    ...span,
    original: original && {
      bytes: original.bytes,
      sha256: original.sha256,
      expiresAt: original.expiresAt,
      pinned: original.pinned,
      bytesState: original.bytesState,
    },
    atoms: atoms.filter((a) => a.spanId === id).map(({ sessionId: _as, spanId: _ai, ...atom }) => atom),
  }));
}

describe("ingest's two write paths", () => {
  const mode = process.env.CUSTODIAN_DATABASE_MODE;
  afterEach(() => {
    if (mode === undefined) delete process.env.CUSTODIAN_DATABASE_MODE;
    else process.env.CUSTODIAN_DATABASE_MODE = mode;
  });

  it("COPY (Postgres) and INSERT (the embedded server) store the same rows, byte for byte", async () => {
    const project = await makeTestProject("write-paths");
    const viaCopy = (await upsertSession(project.id, { externalId: "copy", runtime: "claude-code", cwd: "/home/dev" })).session;
    const viaInsert = (await upsertSession(project.id, { externalId: "insert", runtime: "claude-code", cwd: "/home/dev" }))
      .session;

    const now = new Date();
    delete process.env.CUSTODIAN_DATABASE_MODE;
    const copied = await appendSpans(project.id, viaCopy.id, TRICKY, { now });
    process.env.CUSTODIAN_DATABASE_MODE = "embedded";
    const inserted = await appendSpans(project.id, viaInsert.id, TRICKY, { now });

    const strip = (r: typeof copied) => r.map(({ id: _id, ...rest }) => rest);
    expect(strip(inserted)).toEqual(strip(copied));
    const a = await stored(viaCopy.id);
    expect(a).toHaveLength(TRICKY.length);
    expect(a.every((s) => s.original?.bytesState === "HELD")).toBe(true);
    expect(new Uint8Array(a[2]!.original!.bytes!)).toEqual(TRICKY[2]!.body);
    expect(a[1]!.toolInput).toEqual(TRICKY[1]!.toolInput);
    expect(a.flatMap((s) => s.atoms).length).toBeGreaterThan(0);
    expect(await stored(viaInsert.id)).toEqual(a);
  });
});

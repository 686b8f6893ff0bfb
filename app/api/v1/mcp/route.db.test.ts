/**
 * The MCP server through the SDK's own client, over streamable HTTP (a local listener hands each
 * request to the route handler) and over stdio (`custodian mcp`, relaying to that listener).
 */
import { createHash } from "node:crypto";
import { readFileSync } from "node:fs";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { db } from "@/lib/db/client";
import { createApiKey } from "@/lib/server/admin/api-keys";
import { makeTestProject } from "@/lib/server/admin/test-project";
import { listenWith, type RouteListener } from "@/lib/fuzz/listen";
import { importTranscriptFile } from "@/lib/server/imports";
import { appendSpans, upsertSession } from "@/lib/server/ingest";
import { POST } from "./route";

let listener: RouteListener;
let base: string;
let key: string;
let sessionId: string;
let externalId: string;
let projectId: string;

beforeAll(async () => {
  listener = await listenWith(POST);
  base = listener.url;
  const project = await makeTestProject("mcp");
  projectId = project.id;
  key = (await createApiKey(project.id, "mcp", "VIEWER", { type: "SYSTEM", label: "test" })).key;
  const outcome = await importTranscriptFile(
    project.id,
    readFileSync("lib/importers/fixtures/claude-code/spotter-tool-heavy.jsonl"),
    {
      requester: "test",
    },
  );
  sessionId = outcome.sessions[0]!.id;
  externalId = outcome.sessions[0]!.externalId;
});

afterAll(() => listener.close());

// biome-ignore lint/suspicious/noExplicitAny: tool results are arbitrary JSON the assertions walk freely
type Structured = Record<string, any>;

async function exercise(client: Client) {
  const { tools } = await client.listTools();
  expect(tools.map((t) => t.name).sort()).toEqual([
    "evidence_job",
    "evidence_query",
    "gate_check",
    "get_original",
    "search_transcripts",
    "side_effect_ledger",
  ]);
  for (const tool of tools) expect(tool.annotations?.readOnlyHint).toBe(true);

  const answer = await client.callTool({
    name: "evidence_query",
    arguments: { question: { canned: "modified-system-config" }, scope: { sessionIds: [sessionId] } },
  });
  expect(answer.isError).toBeFalsy();
  // The session wrote no file and ran nothing touching system config, and every span is held: NO.
  expect(answer.structuredContent).toMatchObject({
    answer: "NO",
    question: { id: "modified-system-config" },
    citationCount: 0,
    blockerCount: 0,
    scopeComplete: true,
    completeness: { holds: true },
  });
  // Its first Bash call started the Phoenix server: YES, citing those bytes of that call.
  const ran = await client.callTool({
    name: "evidence_query",
    arguments: {
      question: { predicate: { toolNames: ["Bash"], commandPattern: "mix phx\\.server" } },
      scope: { sessionIds: [sessionId] },
    },
  });
  const proof = ran.structuredContent as Structured;
  expect(proof).toMatchObject({ answer: "YES", citationCount: 1, blockerCount: 0 });
  const call = await db().span.findFirstOrThrow({ where: { sessionId, seq: proof.citations[0].seq } });
  expect(proof.citations[0]).toMatchObject({ spanId: call.id, spanKind: "TOOL_CALL", excerpt: "mix phx.server" });
  expect(call.toolName).toBe("Bash");

  // Arguments the tool's schema refuses are tool errors with the API's code and the field at fault.
  const tooMany = await client.callTool({
    name: "evidence_query",
    arguments: { question: { canned: "modified-system-config" }, limit: 51 },
  });
  expect(tooMany.isError).toBe(true);
  expect((tooMany.structuredContent as Structured).error).toMatchObject({
    code: "VALIDATION_FAILED",
    fields: [{ path: "limit" }],
  });
  expect((tooMany.content as Array<{ text: string }>)[0]!.text).toMatch(/^VALIDATION_FAILED: .*limit/);
  const notAnId = await client.callTool({ name: "get_original", arguments: { spanId: "not-a-span" } });
  expect((notAnId.structuredContent as Structured).error).toMatchObject({
    code: "VALIDATION_FAILED",
    fields: [{ path: "spanId" }],
  });
  const unknown = await client.callTool({ name: "delete_everything", arguments: {} });
  expect(unknown.isError).toBe(true);
  expect((unknown.structuredContent as Structured).error.code).toBe("NOT_FOUND");

  const ledger = await client.callTool({ name: "side_effect_ledger", arguments: { session: externalId, limit: 5 } });
  const entries = (ledger.structuredContent as Structured).entries as Structured[];
  expect(entries.length).toBeGreaterThan(0);
  expect(entries.length).toBeLessThanOrEqual(5);
  expect((ledger.content as Array<{ text: string }>)[0]!.text).toContain(`[span ${entries[0]!.spanId}]`);

  const spanId = entries[0]!.spanId as string;
  const original = await client.callTool({ name: "get_original", arguments: { spanId } });
  const got = original.structuredContent as Structured;
  const bytes = got.encoding === "utf-8" ? Buffer.from(got.text, "utf8") : Buffer.from(got.base64, "base64");
  const stored = await db().span.findFirstOrThrow({ where: { id: spanId } });
  expect(got.sha256).toBe(stored.sha256);
  expect(createHash("sha256").update(bytes).digest("hex")).toBe(stored.sha256);

  const range = await client.callTool({ name: "get_original", arguments: { spanId, byteStart: 1, byteEnd: 4 } });
  expect((range.structuredContent as Structured).rangeSha256).toBe(
    createHash("sha256").update(bytes.subarray(1, 4)).digest("hex"),
  );

  const verdicts = await client.callTool({
    name: "gate_check",
    arguments: { spanIds: [spanId], summary: { text: "did things" } },
  });
  expect(verdicts.isError).toBeFalsy();
  expect((verdicts.structuredContent as Structured).results[0].id).toBe(spanId);

  const missing = await client.callTool({ name: "get_original", arguments: { spanId: "00000000-0000-4000-8000-000000000000" } });
  expect(missing.isError).toBe(true);
  expect((missing.structuredContent as Structured).error.code).toBe("NOT_FOUND");
}

describe("MCP server", () => {
  it("serves its read-only tools over streamable HTTP with the Bearer key", async () => {
    const client = new Client({ name: "test", version: "1" });
    await client.connect(
      new StreamableHTTPClientTransport(new URL("/api/v1/mcp", base), {
        requestInit: { headers: { Authorization: `Bearer ${key}` } },
      }),
    );
    await exercise(client);
    await client.close();
  });

  it("pages an answer's citations and blockers: every citation read exactly once through `pages.citations.next`", async () => {
    const { session } = await upsertSession(projectId, { externalId: "mcp-many-writes", runtime: "test" });
    const writes = 120;
    await appendSpans(
      projectId,
      session.id,
      Array.from({ length: writes }, (_, i) => {
        const input = { path: `/etc/app/conf-${i}.yaml`, content: "x" };
        return {
          seq: i,
          kind: "TOOL_CALL" as const,
          toolName: "write_file",
          toolInput: input,
          occurredAt: new Date(Date.UTC(2026, 0, 1, 0, 0, i)),
          body: new TextEncoder().encode(JSON.stringify(input)),
        };
      }),
    );
    const client = new Client({ name: "test", version: "1" });
    await client.connect(
      new StreamableHTTPClientTransport(new URL("/api/v1/mcp", base), {
        requestInit: { headers: { Authorization: `Bearer ${key}` } },
      }),
    );
    const question = { canned: "modified-system-config" };
    const scope = { sessionIds: [session.id] };
    const seen: string[] = [];
    let offset: number | undefined = 0;
    let calls = 0;
    while (offset !== undefined) {
      const page = (await client.callTool({ name: "evidence_query", arguments: { question, scope, offset } }))
        .structuredContent as Structured;
      calls += 1;
      expect(page.answer).toBe("YES");
      expect(page.citationCount).toBe(writes);
      expect(page.citations.length).toBeLessThanOrEqual(50);
      seen.push(...page.citations.map((c: Structured) => c.spanId as string));
      expect(page.pages.citations.offset).toBe(offset);
      offset = page.pages.citations.next === null ? undefined : (page.pages.citations.next as number);
    }
    expect(calls).toBe(3);
    expect(seen).toHaveLength(writes);
    expect(new Set(seen).size).toBe(writes);
    const small = (await client.callTool({ name: "evidence_query", arguments: { question, scope, offset: 110, limit: 5 } }))
      .structuredContent as Structured;
    expect(small.citations).toHaveLength(5);
    expect(small.pages.citations).toEqual({ offset: 110, next: 115 });
    expect(small.pages.blockers).toEqual({ offset: 110, next: null });
    const beyond = await client.callTool({ name: "evidence_query", arguments: { question, scope, limit: 51 } });
    expect(beyond.isError).toBe(true);
    expect((beyond.structuredContent as Structured).error.code).toBe("VALIDATION_FAILED");
    await client.close();
  });

  it("refuses a client without a key", async () => {
    const client = new Client({ name: "test", version: "1" });
    await expect(client.connect(new StreamableHTTPClientTransport(new URL("/api/v1/mcp", base)))).rejects.toThrow();
  });

  it("serves the same tools over stdio, started with the README's command", async () => {
    const client = new Client({ name: "test", version: "1" });
    await client.connect(
      new StdioClientTransport({
        // As "Connect your runtime" has an MCP client start it (npm's -s keeps its banner off stdout).
        command: "npm",
        args: ["--prefix", process.cwd(), "run", "-s", "custodian", "--", "mcp"],
        env: { ...(process.env as Record<string, string>), CUSTODIAN_URL: base, CUSTODIAN_KEY: key },
        stderr: "inherit",
      }),
    );
    await exercise(client);
    await client.close();
  }, 60_000);
});

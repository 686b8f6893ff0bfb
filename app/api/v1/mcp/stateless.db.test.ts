/**
 * The stateless revision (2026-07-28) through the SDK's own client of that revision (v2,
 * `@modelcontextprotocol/client`), over streamable HTTP (a local listener hands each request to the
 * route handler) and over stdio (`custodian mcp`): `server/discover` instead of `initialize`, every
 * request on its own, and the same tools answering as they answer a client of 2025-11-25.
 */
import { readFileSync } from "node:fs";
import { Client as StatelessClient, StreamableHTTPClientTransport } from "@modelcontextprotocol/client";
import { StdioClientTransport } from "@modelcontextprotocol/client/stdio";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport as InitializeHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { listenWith, type RouteListener } from "@/lib/fuzz/listen";
import { createApiKey } from "@/lib/server/admin/api-keys";
import { makeTestProject } from "@/lib/server/admin/test-project";
import { importTranscriptFile } from "@/lib/server/imports";
import { POST } from "./route";

let listener: RouteListener;
let key: string;
let sessionId: string;
let externalId: string;
/** The headers of each POST the HTTP endpoint got, in order (a v1 client also tries a GET, refused). */
const seen: Array<{ version: string | null; method: string | null; name: string | null; session: string | null }> = [];

beforeAll(async () => {
  listener = await listenWith(POST, (request, response) => {
    if (request.method !== "POST") return;
    seen.push({
      version: request.headers.get("mcp-protocol-version"),
      method: request.headers.get("mcp-method"),
      name: request.headers.get("mcp-name"),
      session: response.headers.get("mcp-session-id"),
    });
  });
  const project = await makeTestProject("mcp-stateless");
  key = (await createApiKey(project.id, "mcp", "VIEWER", { type: "SYSTEM", label: "test" })).key;
  const outcome = await importTranscriptFile(
    project.id,
    readFileSync("lib/importers/fixtures/claude-code/spotter-tool-heavy.jsonl"),
    { requester: "test" },
  );
  sessionId = outcome.sessions[0]!.id;
  externalId = outcome.sessions[0]!.externalId;
});

afterAll(() => listener.close());

const endpoint = () => new URL("/api/v1/mcp", listener.url);
const bearer = () => ({ requestInit: { headers: { Authorization: `Bearer ${key}` } } });

/** Either SDK's client, as far as these tests use it. */
interface ToolClient {
  listTools(): Promise<{ tools: Array<Record<string, unknown>> }>;
  callTool(params: { name: string; arguments: Record<string, unknown> }): Promise<Record<string, unknown>>;
}

/** What a client sees of every read-only tool, one call each (the spans named come from the ledger). */
async function observe(client: ToolClient) {
  const { tools } = await client.listTools();
  const call = async (name: string, args: Record<string, unknown>) => {
    const { content, structuredContent, isError } = await client.callTool({ name, arguments: args });
    return { content, structuredContent, isError: isError ?? false };
  };
  const ledger = await call("side_effect_ledger", { session: externalId, limit: 5 });
  const spanId = (ledger.structuredContent as { entries: Array<{ spanId: string }> }).entries[0]!.spanId;
  return {
    tools,
    evidence: await call("evidence_query", {
      question: { canned: "modified-system-config" },
      scope: { sessionIds: [sessionId] },
    }),
    ledger,
    original: await call("get_original", { spanId, byteStart: 0, byteEnd: 64 }),
    gate: await call("gate_check", { spanIds: [spanId], summary: { text: "did things" } }),
    search: await call("search_transcripts", { q: "phx.server" }),
    refused: await call("evidence_query", { question: { canned: "modified-system-config" }, limit: 51 }),
  };
}

/** The same answers through a client of 2025-11-25 (the SDK's v1 client, negotiating with initialize). */
async function throughInitialize() {
  const client = new Client({ name: "initialize-client", version: "1" });
  await client.connect(new InitializeHTTPClientTransport(endpoint(), bearer()));
  try {
    return await observe(client as unknown as ToolClient);
  } finally {
    await client.close();
  }
}

/**
 * A tool as listed: the same in both eras but for two things the SDKs add. The v2 SDK names the JSON
 * Schema dialect of each input schema (`$schema`, draft 2020-12, the dialect MCP assumes when none is
 * named); the v1 SDK lists `execution: {taskSupport: "forbidden"}`, vocabulary of 2025-11-25's tasks,
 * which 2026-07-28 took out of the core protocol.
 */
function comparable(tools: Array<Record<string, unknown>>) {
  return tools.map(({ inputSchema, execution: _, ...tool }) => {
    const { $schema: __, ...schema } = inputSchema as Record<string, unknown>;
    return { ...tool, inputSchema: schema };
  });
}

function expectSameAnswers(stateless: Awaited<ReturnType<typeof observe>>, initialize: Awaited<ReturnType<typeof observe>>) {
  expect(stateless.tools.map((t) => t.name)).toEqual(initialize.tools.map((t) => t.name));
  expect(comparable(stateless.tools)).toEqual(comparable(initialize.tools));
  expect(stateless.evidence).toEqual(initialize.evidence);
  expect(stateless.evidence.structuredContent).toMatchObject({ answer: "NO", scopeComplete: true });
  expect(stateless.ledger).toEqual(initialize.ledger);
  expect(stateless.original).toEqual(initialize.original);
  expect(stateless.gate).toEqual(initialize.gate);
  expect(stateless.search).toEqual(initialize.search);
  expect((stateless.search.structuredContent as { hits: unknown[] }).hits.length).toBeGreaterThan(0);
  // Arguments a tool refuses: a tool error with the API's code and field, not the SDK's protocol text.
  expect(stateless.refused).toEqual(initialize.refused);
  expect(stateless.refused).toMatchObject({ isError: true, structuredContent: { error: { code: "VALIDATION_FAILED" } } });
}

describe("MCP stateless revision (2026-07-28)", () => {
  it("serves a v2 client over streamable HTTP: server/discover, then each request on its own, the same answers", async () => {
    const initialize = await throughInitialize();
    for (const mode of ["auto", { pin: "2026-07-28" }] as const) {
      seen.length = 0;
      const client = new StatelessClient({ name: "stateless-client", version: "1" }, { versionNegotiation: { mode } });
      await client.connect(new StreamableHTTPClientTransport(endpoint(), bearer()));
      try {
        expect(client.getNegotiatedProtocolVersion()).toBe("2026-07-28");
        expect(client.getDiscoverResult()).toMatchObject({
          supportedVersions: ["2026-07-28"],
          capabilities: { tools: {} },
        });
        expect(client.getServerVersion()).toMatchObject({ name: "custodian" });
        expectSameAnswers(await observe(client as unknown as ToolClient), initialize);
      } finally {
        await client.close();
      }
      // Discover first; no initialize, no session; every request names the revision, its method,
      // and for a tool call the tool, in headers.
      expect(seen[0]).toMatchObject({ method: "server/discover", version: "2026-07-28" });
      expect(new Set(seen.map((s) => s.version))).toEqual(new Set(["2026-07-28"]));
      expect(new Set(seen.map((s) => s.method))).toEqual(new Set(["server/discover", "tools/list", "tools/call"]));
      expect(seen.filter((s) => s.method === "tools/call").every((s) => s.name !== null)).toBe(true);
      expect(seen.every((s) => s.session === null)).toBe(true);
    }
  }, 120_000);

  it("still negotiates 2025-11-25 with a v2 client left in its default (initialize) mode", async () => {
    seen.length = 0;
    const client = new StatelessClient({ name: "v2-initialize-client", version: "1" });
    await client.connect(new StreamableHTTPClientTransport(endpoint(), bearer()));
    try {
      expect(client.getNegotiatedProtocolVersion()).toBe("2025-11-25");
      const { tools } = await client.listTools();
      expect(tools.map((t) => t.name)).toContain("evidence_query");
    } finally {
      await client.close();
    }
    expect(seen.every((s) => s.method === null && s.version !== "2026-07-28")).toBe(true);
  });

  it("serves a v2 client over stdio (custodian mcp): discover, the envelope on each request, the same answers", async () => {
    const initialize = await throughInitialize();
    const transport = new StdioClientTransport({
      command: "npm",
      args: ["--prefix", process.cwd(), "run", "-s", "custodian", "--", "mcp"],
      env: { ...(process.env as Record<string, string>), CUSTODIAN_URL: listener.url, CUSTODIAN_KEY: key },
      stderr: "inherit",
    });
    const sent: Array<{ method: string; version: unknown }> = [];
    const send = transport.send.bind(transport);
    transport.send = (message) => {
      if ("method" in message) {
        const meta = (message.params as { _meta?: Record<string, unknown> } | undefined)?._meta;
        sent.push({ method: message.method, version: meta?.["io.modelcontextprotocol/protocolVersion"] });
      }
      return send(message);
    };
    const client = new StatelessClient(
      { name: "stateless-stdio-client", version: "1" },
      { versionNegotiation: { mode: { pin: "2026-07-28" } } },
    );
    await client.connect(transport);
    try {
      expect(client.getNegotiatedProtocolVersion()).toBe("2026-07-28");
      expect(client.getDiscoverResult()).toMatchObject({ supportedVersions: ["2026-07-28"], capabilities: { tools: {} } });
      expectSameAnswers(await observe(client as unknown as ToolClient), initialize);
    } finally {
      await client.close();
    }
    // The SDK's stdio client probes with server/discover on a sibling process of the same command,
    // then starts this one: its first message already carries the envelope, and none is initialize.
    expect(new Set(sent.map((m) => m.method))).toEqual(new Set(["tools/list", "tools/call"]));
    expect(new Set(sent.map((m) => m.version))).toEqual(new Set(["2026-07-28"]));
  }, 240_000);
});

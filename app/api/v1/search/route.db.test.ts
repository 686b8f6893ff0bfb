/**
 * GET /api/v1/search and the MCP tool search_transcripts return the same hits, whose byte ranges
 * the original confirms (get_original and GET /api/v1/spans/{id}/original); and a key of one
 * project never sees another project's spans, in any response body.
 */
import { randomBytes } from "node:crypto";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { POST as mcp } from "@/app/api/v1/mcp/route";
import { GET as original } from "@/app/api/v1/spans/[id]/original/route";
import { callRoute } from "@/lib/fuzz/call";
import { listenWith, type RouteListener } from "@/lib/fuzz/listen";
import { createApiKey } from "@/lib/server/admin/api-keys";
import { makeTestProject, TEST_ACTOR } from "@/lib/server/admin/test-project";
import { appendSpans, upsertSession } from "@/lib/server/ingest";
import { GET as search } from "./route";

const utf8 = (s: string) => new TextEncoder().encode(s);
const secret = `zq${randomBytes(8).toString("hex")}`;
let listener: RouteListener;
let keyA: string;

async function project(label: string, bodies: string[]) {
  const p = await makeTestProject(label);
  const { session } = await upsertSession(p.id, { externalId: `${label}-session`, runtime: "claude-code", title: label });
  const at = Date.now() - 60_000;
  await appendSpans(
    p.id,
    session.id,
    bodies.map((body, seq) => ({
      seq,
      kind: "TOOL_RESULT" as const,
      role: "tool",
      occurredAt: new Date(at + seq),
      body: utf8(body),
    })),
  );
  return p;
}

beforeAll(async () => {
  listener = await listenWith(mcp);
  const a = await project("search-api-a", [
    '{"command":"curl -fsS https://localhost:8443/health"}',
    "Ünïcödé first, then the port: 8443 answered",
    "nothing here",
  ]);
  await project("search-api-b", [`the vault token is ${secret} (port 8443)`, `${secret}/health`]);
  keyA = (await createApiKey(a.id, "search viewer", "VIEWER", TEST_ACTOR)).key;
});

afterAll(() => listener.close());

async function mcpClient(key: string): Promise<Client> {
  const client = new Client({ name: "search-test", version: "1" });
  await client.connect(
    new StreamableHTTPClientTransport(new URL(`${listener.url}/api/v1/mcp`), {
      requestInit: { headers: { authorization: `Bearer ${key}` } },
    }),
  );
  return client;
}

const api = (query: string, key = keyA) => callRoute(search, { method: "GET", key, path: `/api/v1/search?${query}` });

describe("search through the API and MCP", () => {
  it("returns the same hits both ways, with byte ranges the original confirms", async () => {
    const viaApi = await api("q=8443");
    expect(viaApi.status).toBe(200);
    expect(viaApi.json.total).toEqual({ count: 2, relation: "eq" });
    const client = await mcpClient(keyA);
    try {
      const viaMcp = await client.callTool({ name: "search_transcripts", arguments: { q: "8443" } });
      expect(viaMcp.isError).toBeFalsy();
      expect(viaMcp.structuredContent).toEqual(viaApi.json);
      for (const hit of viaApi.json.hits) {
        const page = await client.callTool({
          name: "get_original",
          arguments: { spanId: hit.spanId, byteStart: hit.byteStart, byteEnd: hit.byteEnd },
        });
        expect((page.structuredContent as { text: string }).text).toBe("8443");
        const served = await callRoute(original, {
          method: "GET",
          key: keyA,
          params: { id: hit.spanId },
          headers: { range: `bytes=${hit.byteStart}-${hit.byteEnd - 1}` },
          path: `/api/v1/spans/${hit.spanId}/original`,
        });
        expect(served.status).toBe(206);
        expect(served.text).toBe("8443");
      }
    } finally {
      await client.close();
    }
  });

  it("never shows another project's spans, in any response body", async () => {
    const client = await mcpClient(keyA);
    try {
      const queries: Array<Record<string, string>> = [
        { q: secret },
        { q: `${secret.slice(0, 8)}*` },
        { regex: "zq[0-9a-f]{16}" },
        { q: "health" },
        { q: "8443" },
      ];
      for (const query of queries) {
        const viaApi = await api(new URLSearchParams(query).toString());
        expect(viaApi.status).toBe(200);
        expect(viaApi.text).not.toContain(secret);
        expect(viaApi.text).not.toContain("vault");
        const viaMcp = await client.callTool({ name: "search_transcripts", arguments: query });
        expect(JSON.stringify(viaMcp)).not.toContain(secret);
        expect(JSON.stringify(viaMcp)).not.toContain("vault");
      }
      expect((await api(`q=${secret}`)).json.hits).toEqual([]);
    } finally {
      await client.close();
    }
  });

  it("refuses a request without a key, and explains a bad one", async () => {
    expect((await callRoute(search, { method: "GET", path: "/api/v1/search?q=8443" })).status).toBe(401);
    const bad = await api("q=8443&regex=(a)%5C1");
    expect(bad.status).toBe(422);
    expect(bad.json.error.fields[0].path).toBe("regex");
    expect((await api("")).status).toBe(422);
  });
});

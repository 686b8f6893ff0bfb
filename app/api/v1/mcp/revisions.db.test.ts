/**
 * Every MCP protocol revision negotiated by `initialize` that the SDK supports, through the SDK's own
 * client over both transports, answers as the newest of them does; a request with no session (no
 * initialize, no Mcp-Session-Id) is answered, since the HTTP endpoint is stateless; and a probe of
 * the stateless revision (2026-07-28) is answered as that revision's server answers it
 * (stateless.db.test.ts drives that revision with the SDK's v2 client).
 */
import { readFileSync } from "node:fs";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import type { Transport } from "@modelcontextprotocol/sdk/shared/transport.js";
import { type JSONRPCMessage, LATEST_PROTOCOL_VERSION, SUPPORTED_PROTOCOL_VERSIONS } from "@modelcontextprotocol/sdk/types.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { listenWith, type RouteListener } from "@/lib/fuzz/listen";
import { createApiKey } from "@/lib/server/admin/api-keys";
import { makeTestProject } from "@/lib/server/admin/test-project";
import { importTranscriptFile } from "@/lib/server/imports";
import { POST } from "./route";

let listener: RouteListener;
let key: string;
let sessionId: string;
/** The protocol version each request to the HTTP endpoint named in its MCP-Protocol-Version header. */
const headerVersions: Array<string | null> = [];

beforeAll(async () => {
  listener = await listenWith(POST, (request) => headerVersions.push(request.headers.get("mcp-protocol-version")));
  const project = await makeTestProject("mcp-revisions");
  key = (await createApiKey(project.id, "mcp", "VIEWER", { type: "SYSTEM", label: "test" })).key;
  const outcome = await importTranscriptFile(
    project.id,
    readFileSync("lib/importers/fixtures/claude-code/spotter-tool-heavy.jsonl"),
    { requester: "test" },
  );
  sessionId = outcome.sessions[0]!.id;
});

afterAll(() => listener.close());

/**
 * The SDK's client always asks for its newest revision; a client of an older revision asks for
 * that one. This pins what the client's initialize asks for and records what the server agreed to,
 * leaving the rest (the header it then sends, the requests) to the SDK.
 */
function askingFor<T extends Transport>(transport: T, version: string): { transport: T; agreed: () => string | undefined } {
  let agreed: string | undefined;
  let initializeId: string | number | undefined;
  const send = transport.send.bind(transport);
  transport.send = (message: JSONRPCMessage, options) => {
    if ("method" in message && message.method === "initialize" && "id" in message) {
      initializeId = message.id;
      const receive = transport.onmessage;
      transport.onmessage = (reply, extra) => {
        if ("id" in reply && reply.id === initializeId && "result" in reply)
          agreed = (reply.result as { protocolVersion?: string }).protocolVersion;
        receive?.(reply, extra);
      };
      return send({ ...message, params: { ...message.params, protocolVersion: version } }, options);
    }
    return send(message, options);
  };
  return { transport, agreed: () => agreed };
}

function httpTransport() {
  return new StreamableHTTPClientTransport(new URL("/api/v1/mcp", listener.url), {
    requestInit: { headers: { Authorization: `Bearer ${key}` } },
  });
}

function stdioTransport() {
  return new StdioClientTransport({
    command: "npm",
    args: ["--prefix", process.cwd(), "run", "-s", "custodian", "--", "mcp"],
    env: { ...(process.env as Record<string, string>), CUSTODIAN_URL: listener.url, CUSTODIAN_KEY: key },
    stderr: "inherit",
  });
}

/** What one client sees: the tools and one read-only tool's answer. */
async function observe(client: Client) {
  const { tools } = await client.listTools();
  const answer = await client.callTool({
    name: "evidence_query",
    arguments: { question: { canned: "modified-system-config" }, scope: { sessionIds: [sessionId] } },
  });
  return { tools, answer: answer.structuredContent };
}

async function throughRevision(transport: Transport, version: string) {
  const pinned = askingFor(transport, version);
  const client = new Client({ name: `client-${version}`, version: "1" });
  await client.connect(pinned.transport);
  try {
    return { agreed: pinned.agreed(), seen: await observe(client) };
  } finally {
    await client.close();
  }
}

describe("MCP protocol revisions", () => {
  it("knows which revisions it serves", () => {
    expect(SUPPORTED_PROTOCOL_VERSIONS[0]).toBe(LATEST_PROTOCOL_VERSION);
    expect(SUPPORTED_PROTOCOL_VERSIONS).toEqual(["2025-11-25", "2025-06-18", "2025-03-26", "2024-11-05", "2024-10-07"]);
  });

  it("negotiates every supported revision over streamable HTTP and answers as the current one", async () => {
    const current = await throughRevision(httpTransport(), LATEST_PROTOCOL_VERSION);
    expect(current.agreed).toBe(LATEST_PROTOCOL_VERSION);
    expect(current.seen.answer).toMatchObject({ answer: "NO", question: { id: "modified-system-config" } });
    for (const version of SUPPORTED_PROTOCOL_VERSIONS) {
      headerVersions.length = 0;
      const { agreed, seen } = await throughRevision(httpTransport(), version);
      expect(agreed).toBe(version);
      // After initialize (which has no header yet) every request names the agreed revision.
      expect(headerVersions.slice(1).length).toBeGreaterThan(0);
      expect(new Set(headerVersions.slice(1))).toEqual(new Set([version]));
      expect(seen.tools).toEqual(current.seen.tools);
      expect(seen.answer).toEqual(current.seen.answer);
    }
  });

  it("offers its newest revision to a client asking for one it does not know", async () => {
    const { agreed } = await throughRevision(httpTransport(), "2023-01-01");
    expect(agreed).toBe(LATEST_PROTOCOL_VERSION);
  });

  it("negotiates every supported revision over stdio and answers as the current one", async () => {
    // One server process a client (a stdio server serves one session), all at once: each spends
    // seconds starting, and one after another they were the longest test of their layer.
    const older = SUPPORTED_PROTOCOL_VERSIONS.filter((v) => v !== LATEST_PROTOCOL_VERSION);
    const [current, ...others] = await Promise.all(
      [LATEST_PROTOCOL_VERSION, ...older].map((version) => throughRevision(stdioTransport(), version)),
    );
    // The relay's server (the SDK's v2, which picks the era per connection) lists and answers
    // exactly what the HTTP endpoint does in this era.
    expect(current!.agreed).toBe(LATEST_PROTOCOL_VERSION);
    expect(current!.seen).toEqual((await throughRevision(httpTransport(), LATEST_PROTOCOL_VERSION)).seen);
    older.forEach((version, i) => {
      const { agreed, seen } = others[i]!;
      expect(agreed).toBe(version);
      expect(seen.tools).toEqual(current!.seen.tools);
      expect(seen.answer).toEqual(current!.seen.answer);
    });
  }, 240_000);

  it("answers a stateless-revision (2026-07-28) server/discover probe as a server of that revision, on both transports", async () => {
    // The revision's probe: the version, client and capabilities in _meta; over HTTP also the
    // MCP-Protocol-Version and Mcp-Method headers, which the revision requires on every request.
    const discover = (version: string) => ({
      jsonrpc: "2.0",
      id: 1,
      method: "server/discover",
      params: {
        _meta: {
          "io.modelcontextprotocol/protocolVersion": version,
          "io.modelcontextprotocol/clientInfo": { name: "probe", version: "1" },
          "io.modelcontextprotocol/clientCapabilities": {},
        },
      },
    });
    const probe = (body: unknown, headers: Record<string, string>) =>
      fetch(new URL("/api/v1/mcp", listener.url), {
        method: "POST",
        headers: {
          Authorization: `Bearer ${key}`,
          "Content-Type": "application/json",
          Accept: "application/json, text/event-stream",
          ...headers,
        },
        body: JSON.stringify(body),
      });
    const discovered = {
      id: 1,
      result: {
        supportedVersions: ["2026-07-28"],
        capabilities: { tools: {} },
        resultType: "complete",
        _meta: { "io.modelcontextprotocol/serverInfo": { name: "custodian", version: "1" } },
      },
    };
    const answered = await probe(discover("2026-07-28"), {
      "MCP-Protocol-Version": "2026-07-28",
      "Mcp-Method": "server/discover",
    });
    expect(answered.status).toBe(200);
    expect(answered.headers.get("mcp-session-id")).toBeNull();
    expect(await answered.json()).toMatchObject(discovered);

    // Without the headers the revision requires: its header-mismatch error (-32020), HTTP 400.
    const headless = await probe(discover("2026-07-28"), {});
    expect(headless.status).toBe(400);
    expect(await headless.json()).toMatchObject({ id: 1, error: { code: -32020 } });
    // A later revision: the unsupported-version error naming the one served, so the client can ask again.
    const later = await probe(discover("2099-01-01"), { "MCP-Protocol-Version": "2099-01-01", "Mcp-Method": "server/discover" });
    expect(later.status).toBe(400);
    expect(await later.json()).toMatchObject({
      id: 1,
      error: { code: -32022, data: { supported: ["2026-07-28"], requested: "2099-01-01" } },
    });
    // A request of the initialize revisions named server/discover (no envelope) is theirs: no such method.
    const { _meta: _, ...bare } = discover("2026-07-28").params;
    expect(await (await probe({ ...discover("2026-07-28"), params: bare }, {})).json()).toMatchObject({
      id: 1,
      error: { code: -32601 },
    });

    const stdio = stdioTransport();
    const reply = new Promise<JSONRPCMessage>((resolve) => {
      stdio.onmessage = resolve;
    });
    await stdio.start();
    await stdio.send(discover("2026-07-28") as JSONRPCMessage);
    expect(await reply).toMatchObject(discovered);
    await stdio.close();
  }, 60_000);

  it("answers a request that carries no session: no initialize, no Mcp-Session-Id", async () => {
    const post = (body: unknown, version: string) =>
      fetch(new URL("/api/v1/mcp", listener.url), {
        method: "POST",
        headers: {
          Authorization: `Bearer ${key}`,
          "Content-Type": "application/json",
          Accept: "application/json, text/event-stream",
          "MCP-Protocol-Version": version,
        },
        body: JSON.stringify(body),
      });
    const listed = await post({ jsonrpc: "2.0", id: 1, method: "tools/list" }, LATEST_PROTOCOL_VERSION);
    expect(listed.status).toBe(200);
    expect(listed.headers.get("mcp-session-id")).toBeNull();
    const tools = ((await listed.json()) as { result: { tools: Array<{ name: string }> } }).result.tools;
    expect(tools.map((t) => t.name)).toContain("evidence_query");

    const called = await post(
      {
        jsonrpc: "2.0",
        id: 2,
        method: "tools/call",
        params: {
          name: "evidence_query",
          arguments: { question: { canned: "modified-system-config" }, scope: { sessionIds: [sessionId] } },
        },
      },
      "2025-06-18",
    );
    expect(called.status).toBe(200);
    const result = ((await called.json()) as { result: { structuredContent: Record<string, unknown> } }).result;
    expect(result.structuredContent).toMatchObject({ answer: "NO", scopeComplete: true });

    // A revision of that era it does not serve is refused, naming those it does.
    const unknown = await post({ jsonrpc: "2.0", id: 3, method: "tools/list" }, "2025-01-01");
    expect(unknown.status).toBe(400);
    expect(JSON.stringify(await unknown.json())).toContain(SUPPORTED_PROTOCOL_VERSIONS.join(", "));
    // A header of the stateless era (2026-07-28 and later) asks for its per-request envelope, which
    // this request lacks: invalid params naming what is missing.
    const later = await post({ jsonrpc: "2.0", id: 4, method: "tools/list" }, "2099-01-01");
    expect(later.status).toBe(400);
    expect(await later.json()).toMatchObject({ id: 4, error: { code: -32602, data: { envelope: { missing: ["_meta"] } } } });
  });
});

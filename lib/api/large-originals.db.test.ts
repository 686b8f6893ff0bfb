/**
 * Reading back an original as large as the cap allows is bounded on every path: the API streams it
 * in chunks (and serves one byte range), MCP `get_original` pages it, and the span page reads an
 * excerpt, never the whole, with citations deep inside it still opening where they point.
 */
import { createHash } from "node:crypto";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { POST as mcp } from "@/app/api/v1/mcp/route";
import { GET as readOriginal } from "@/app/api/v1/spans/[id]/original/route";
import { MAX_SPAN_BODY_BYTES, ORIGINAL_PAGE_BYTES } from "@/lib/core/limits";
import { listenWith, type RouteListener } from "@/lib/fuzz/listen";
import { inRequestScope } from "@/lib/fuzz/request-scope";
import { createApiKey } from "@/lib/server/admin/api-keys";
import { makeTestProject } from "@/lib/server/admin/test-project";
import { getSpanDetail } from "@/lib/server/dashboard";
import { appendSpans, upsertSession } from "@/lib/server/ingest";
import { ORIGINAL_CHUNK_BYTES } from "@/lib/server/provenance";

/** Where in the body the command sits: far past any first page or excerpt. */
const MARK_AT = 7 * 1024 * 1024;
const MARK = "rm -rf /etc/app/conf.yaml ";

/** The largest body the cap allows: two-byte characters, with a command 7 MiB in. */
function largeBody(): Uint8Array {
  const body = new Uint8Array(MAX_SPAN_BODY_BYTES);
  for (let i = 0; i < body.length; i += 2) body.set([0xc3, 0xa9], i); // "é"
  body.set(new TextEncoder().encode(MARK), MARK_AT);
  return body;
}

const body = largeBody();
const sha256 = createHash("sha256").update(body).digest("hex");
let projectId: string;
let key: string;
let spanId: string;
let listener: RouteListener;

beforeAll(async () => {
  const project = await makeTestProject("large-originals");
  projectId = project.id;
  key = (await createApiKey(project.id, "reader", "VIEWER", { type: "SYSTEM", label: "test" })).key;
  const { session } = await upsertSession(project.id, { externalId: "large", runtime: "claude-code" });
  const [stored] = await appendSpans(project.id, session.id, [
    { seq: 0, kind: "TOOL_RESULT", toolName: "Bash", occurredAt: new Date("2026-11-30T10:00:00Z"), body },
  ]);
  spanId = stored!.id;
  listener = await listenWith(mcp);
});

afterAll(() => listener?.close());

/** GET the original in process, reading its body as a client would, chunk by chunk. */
async function get(headers: Record<string, string> = {}) {
  const request = new Request(`http://custodian.test/api/v1/spans/${spanId}/original`, {
    headers: { authorization: `Bearer ${key}`, ...headers },
  });
  const response = await inRequestScope(request, "/api/v1/spans/x/original", () =>
    readOriginal(request, { params: Promise.resolve({ id: spanId }) }),
  );
  const chunks: Uint8Array[] = [];
  if (response.body) for await (const chunk of response.body) chunks.push(chunk);
  return { response, chunks, bytes: Buffer.concat(chunks) };
}

describe("GET /api/v1/spans/{id}/original", () => {
  it("streams the bytes a chunk at a time, never as one buffer of the original's size", async () => {
    const { response, chunks, bytes } = await get();
    expect(response.status).toBe(200);
    expect(response.headers.get("content-length")).toBe(String(body.length));
    expect(response.headers.get("accept-ranges")).toBe("bytes");
    expect(response.headers.get("x-custodian-sha256")).toBe(sha256);
    expect(Math.max(...chunks.map((c) => c.byteLength))).toBeLessThanOrEqual(ORIGINAL_CHUNK_BYTES);
    expect(createHash("sha256").update(bytes).digest("hex")).toBe(sha256);
  });

  it("serves one byte range (206 with Content-Range), a suffix, and 416 past the end", async () => {
    const ranged = await get({ range: `bytes=${MARK_AT}-${MARK_AT + MARK.length - 1}` });
    expect(ranged.response.status).toBe(206);
    expect(ranged.response.headers.get("content-range")).toBe(`bytes ${MARK_AT}-${MARK_AT + MARK.length - 1}/${body.length}`);
    expect(ranged.bytes.toString("utf8")).toBe(MARK);
    // The whole original's hash still travels with a part of it.
    expect(ranged.response.headers.get("x-custodian-sha256")).toBe(sha256);

    const suffix = await get({ range: "bytes=-4" });
    expect(suffix.response.status).toBe(206);
    expect([...suffix.bytes]).toEqual([...body.subarray(body.length - 4)]);

    const past = await get({ range: `bytes=${body.length}-` });
    expect(past.response.status).toBe(416);
    expect(past.response.headers.get("content-range")).toBe(`bytes */${body.length}`);
    expect(JSON.parse(past.bytes.toString("utf8")).error.code).toBe("RANGE_NOT_SATISFIABLE");

    // Several ranges are not served as such: the whole original comes back (RFC 9110 allows it).
    expect((await get({ range: "bytes=0-1,4-5" })).response.status).toBe(200);
  });
});

describe("MCP get_original", () => {
  // biome-ignore lint/suspicious/noExplicitAny: tool results are arbitrary JSON the assertions walk freely
  type Structured = Record<string, any>;
  const call = async (args: Record<string, unknown>) => {
    const client = new Client({ name: "test", version: "1" });
    await client.connect(
      new StreamableHTTPClientTransport(new URL(`${listener.url}/api/v1/mcp`), {
        requestInit: { headers: { authorization: `Bearer ${key}` } },
      }),
    );
    try {
      return await client.callTool({ name: "get_original", arguments: { spanId, ...args } });
    } finally {
      await client.close();
    }
  };

  it("without a range returns one page at most, and says where the next starts", async () => {
    const first = await call({});
    const page = first.structuredContent as Structured;
    expect(page).toMatchObject({ byteStart: 0, byteEnd: ORIGINAL_PAGE_BYTES, nextByteStart: ORIGINAL_PAGE_BYTES, sha256 });
    expect(page.byteLength).toBe(body.length);
    expect(Buffer.byteLength(page.text, "utf8")).toBe(ORIGINAL_PAGE_BYTES);
    expect((first.content as Array<{ text: string }>)[0]!.text).toContain(`byteStart=${ORIGINAL_PAGE_BYTES}`);
  });

  it("pages to the command deep in the original, and a range past a page is cut to one", async () => {
    const at = (await call({ byteStart: MARK_AT, byteEnd: MARK_AT + MARK.length })).structuredContent as Structured;
    expect(at).toMatchObject({ text: MARK, byteStart: MARK_AT, byteEnd: MARK_AT + MARK.length });
    expect(at.nextByteStart).toBeUndefined();
    expect(at.rangeSha256).toBe(createHash("sha256").update(MARK).digest("hex"));

    const wide = (await call({ byteStart: 1, byteEnd: body.length })).structuredContent as Structured;
    expect(wide.byteEnd - wide.byteStart).toBeLessThanOrEqual(ORIGINAL_PAGE_BYTES);
    expect(wide.nextByteStart).toBe(wide.byteEnd);

    const last = (await call({ byteStart: body.length - 10 })).structuredContent as Structured;
    expect(last).toMatchObject({ byteEnd: body.length });
    expect(last.nextByteStart).toBeUndefined();
  });
});

describe("the span page's read", () => {
  it("holds an excerpt, not the original, with what is not shown and a verified hash", async () => {
    const detail = await getSpanDetail(projectId, spanId);
    expect(detail.excerpt).toMatchObject({ start: 0, end: ORIGINAL_PAGE_BYTES, byteLength: body.length });
    expect(detail.excerpt!.bytes.byteLength).toBe(ORIGINAL_PAGE_BYTES);
    expect(detail.hashCheck).toBe("verified");
  });

  it("opens a citation deep in the original on the excerpt that holds it", async () => {
    const cited = { byteStart: MARK_AT, byteEnd: MARK_AT + MARK.length };
    const { excerpt } = await getSpanDetail(projectId, spanId, new Date(), cited);
    expect(excerpt!.start).toBeLessThanOrEqual(cited.byteStart);
    expect(excerpt!.end).toBeGreaterThanOrEqual(cited.byteEnd);
    expect(excerpt!.end - excerpt!.start).toBe(ORIGINAL_PAGE_BYTES);
    const shown = Buffer.from(excerpt!.bytes.subarray(cited.byteStart - excerpt!.start, cited.byteEnd - excerpt!.start));
    expect(shown.toString("utf8")).toBe(MARK);
  });
});

/**
 * The API under hostile input: property-based requests (fast-check) against every route handler
 * under app/ (found on disk, so none is forgotten), with hostile values for sizes, encodings,
 * types, boundaries and nesting, wrong and missing credentials, duplicate and concurrent
 * submissions. A response 5xx is a finding; the server must still serve afterwards.
 * `npm test` runs a slice (fuzz.db.test.ts); `npm run fuzz -- --requests 20000` the full run.
 */
import { randomBytes, randomUUID } from "node:crypto";
import { readdirSync, readFileSync, statSync } from "node:fs";
import path from "node:path";
import { pathToFileURL } from "node:url";
import fc from "fast-check";
import { stringBytes } from "@/lib/api/span-body";
import { createApiKey, createProject } from "@/lib/server/admin";
import { appendSpans, upsertSession } from "@/lib/server/ingest";
import { type CallResult, callRoute, type RouteHandler } from "./call";
import { hostileValue, mutate, type Rng } from "./hostile";

const METHODS = ["GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS"] as const;

/** One route file: its URL pattern ("/api/v1/sessions/[id]/spans") and the methods it exports. */
export interface FuzzRoute {
  file: string;
  pattern: string;
  handlers: Partial<Record<(typeof METHODS)[number], RouteHandler>>;
  /** The methods it serves (its OPTIONS answer's Allow), as opposed to those it answers 405 for. */
  served: Array<(typeof METHODS)[number]>;
}

/** Every route.ts under app/, as URL patterns (route groups such as "(dashboard)" are not in the URL). */
export function routeFiles(root = process.cwd()): Array<{ file: string; pattern: string }> {
  const found: Array<{ file: string; pattern: string }> = [];
  const walk = (dir: string) => {
    for (const entry of readdirSync(dir)) {
      const full = path.join(dir, entry);
      if (statSync(full).isDirectory()) walk(full);
      else if (entry === "route.ts") {
        const segments = path
          .relative(path.join(root, "app"), dir)
          .split(path.sep)
          .filter((s) => s && !/^\(.*\)$/.test(s));
        found.push({ file: full, pattern: `/${segments.join("/")}` });
      }
    }
  };
  walk(path.join(root, "app"));
  return found.sort((a, b) => a.pattern.localeCompare(b.pattern));
}

export async function loadRoutes(root = process.cwd()): Promise<FuzzRoute[]> {
  const routes: FuzzRoute[] = [];
  for (const { file, pattern } of routeFiles(root)) {
    const mod = (await import(pathToFileURL(file).href)) as Record<string, unknown>;
    const handlers: FuzzRoute["handlers"] = {};
    for (const m of METHODS) if (typeof mod[m] === "function") handlers[m] = mod[m] as RouteHandler;
    const exported = Object.keys(handlers) as FuzzRoute["served"];
    let served = exported;
    if (handlers.OPTIONS) {
      const allow = (await callRoute(handlers.OPTIONS, { method: "OPTIONS", path: pattern })).headers.get("allow");
      if (allow)
        served = allow
          .split(",")
          .map((m) => m.trim())
          .filter((m): m is (typeof METHODS)[number] => m in handlers && m !== "OPTIONS" && m !== "HEAD");
    }
    routes.push({ file, pattern, handlers, served: served.length > 0 ? served : exported });
  }
  return routes;
}

/** What the requests work on: a project with keys of every role, a session with spans, another project. */
export interface FuzzFixture {
  keys: { admin: string; operator: string; viewer: string; other: string };
  sessionIds: string[];
  spanIds: string[];
  transcripts: Uint8Array[];
}

export async function makeFixture(label = "fuzz"): Promise<FuzzFixture> {
  const suffix = randomBytes(4).toString("hex");
  const project = await createProject({ slug: `${label}-${suffix}`, name: `Fuzz ${suffix}` });
  const other = await createProject({ slug: `${label}-other-${suffix}`, name: `Fuzz other ${suffix}` });
  const actor = { type: "SYSTEM" as const, label: "fuzz" };
  const keys = {
    admin: (await createApiKey(project.id, "fuzz-admin", "ADMIN", actor)).key,
    operator: (await createApiKey(project.id, "fuzz-operator", "OPERATOR", actor)).key,
    viewer: (await createApiKey(project.id, "fuzz-viewer", "VIEWER", actor)).key,
    other: (await createApiKey(other.id, "fuzz-other", "OPERATOR", actor)).key,
  };
  const { session } = await upsertSession(project.id, {
    externalId: `fuzz-${suffix}`,
    runtime: "claude-code",
    cwd: "/home/dev/app",
  });
  const enc = new TextEncoder();
  const spans = await appendSpans(project.id, session.id, [
    { seq: 0, kind: "MESSAGE", role: "user", occurredAt: new Date(), body: enc.encode("Please fix the config.") },
    {
      seq: 1,
      kind: "TOOL_CALL",
      toolName: "write_file",
      toolInput: { path: "/etc/app/conf.yaml" },
      occurredAt: new Date(),
      body: enc.encode('{"path":"/etc/app/conf.yaml","content":"x: 1"}'),
    },
    {
      seq: 2,
      kind: "TOOL_CALL",
      toolName: "Bash",
      toolInput: { command: "sudo apt-get install nginx" },
      exitCode: 0,
      occurredAt: new Date(),
      body: enc.encode('{"command":"sudo apt-get install nginx"}'),
    },
  ]);
  return {
    keys,
    sessionIds: [session.id],
    spanIds: spans.map((s) => s.id),
    transcripts: sampleTranscripts(),
  };
}

/** A few small transcript files of the supported formats, to import whole or damaged. */
function sampleTranscripts(root = process.cwd()): Uint8Array[] {
  const dir = path.join(root, "lib", "importers", "fixtures");
  const files: string[] = [];
  const walk = (d: string) => {
    for (const entry of readdirSync(d)) {
      const full = path.join(d, entry);
      if (statSync(full).isDirectory()) walk(full);
      else if (statSync(full).size < 200_000) files.push(full);
    }
  };
  try {
    walk(dir);
  } catch {
    return [new TextEncoder().encode('{"type":"user","message":{"role":"user","content":"hi"}}\n')];
  }
  return files.sort().map((f) => new Uint8Array(readFileSync(f)));
}

/** One request as generated: what is sent, and the route it is counted under. */
interface FuzzRequest {
  route: FuzzRoute;
  method: (typeof METHODS)[number];
  params: Record<string, string>;
  path: string;
  headers: Record<string, string>;
  body?: BodyInit;
  /** A short description of the body for a finding's report. */
  bodyNote: string;
}

/** Valid bodies per route, from which hostile ones are mutated. */
function templateBody(pattern: string, fx: FuzzFixture, rng: Rng): unknown {
  const session = rng.pick(fx.sessionIds);
  const at = new Date(Date.UTC(2026, 10, 30, 10, rng.int(0, 59))).toISOString();
  const span = (seq: number) =>
    rng.chance(0.5)
      ? { seq, kind: "MESSAGE", role: "assistant", occurredAt: at, body: `step ${seq}: edited /etc/hosts` }
      : {
          seq,
          kind: "TOOL_CALL",
          toolName: rng.pick(["Bash", "write_file", "Edit", "Read"]),
          toolInput: { command: "rm -rf /tmp/x", path: "/etc/x" },
          exitCode: rng.int(-1, 2),
          outcome: rng.pick(["SUCCEEDED", "FAILED", "UNKNOWN"]),
          occurredAt: at,
          body: rng.chance(0.3) ? Buffer.from(`bytes ${seq}\u0000\u00ff`).toString("base64") : `{"command":"rm -rf /tmp/${seq}"}`,
          ...(rng.chance(0.3) ? { bodyEncoding: "base64" } : {}),
        };
  if (pattern.endsWith("/sessions")) return { externalId: `fz-${rng.int(0, 20)}`, runtime: "claude-code", title: "t", cwd: "/w" };
  if (pattern.endsWith("/spans")) return { spans: Array.from({ length: rng.int(1, 4) }, () => span(rng.int(0, 40))) };
  if (pattern.endsWith("/evidence/query"))
    return {
      question: rng.chance(0.5)
        ? { canned: rng.pick(["modified-system-config", "deleted-files", "nope"]) }
        : { predicate: { valuePrefixes: ["/etc/"], commandPattern: "sudo|apt", atomKinds: ["PATH"] } },
      scope: rng.chance(0.5) ? { sessionIds: [session] } : {},
      page: { citations: { offset: 0, limit: 10 } },
    };
  if (pattern.endsWith("/gate/evaluate"))
    return {
      spans: [
        {
          id: "a",
          content: "wrote /etc/hosts",
          kind: "TOOL_CALL",
          toolName: "write_file",
          hasPointer: true,
          originalRetrievable: true,
        },
      ],
      summary: { text: "configured things", pointers: [], omissions: { omitted: [{ kind: "PATH", count: 1 }] } },
      policy: { evidenceHorizonDays: 400 },
    };
  if (pattern.endsWith("/reclamations"))
    return rng.chance(0.5)
      ? { sessionId: session, fromSeq: 0, toSeq: rng.int(0, 3), summary: { text: "did things" }, dryRun: rng.chance(0.5) }
      : {
          sessionId: session,
          spanIds: fx.spanIds.slice(0, rng.int(1, 3)),
          summary: { text: "did things", pointers: [] },
          dryRun: true,
        };
  if (pattern.includes("/auth/"))
    return {
      email: rng.pick(["fuzz@example.com", "nobody@example.com", "x"]),
      password: rng.pick(["wrong-password", "", "p".repeat(200)]),
      name: "Fuzz",
    };
  if (pattern.includes("/retention"))
    return {
      policy: { ttlDays: { NARRATIVE: 30 }, evidenceHorizonDays: 400 },
      reason: "fuzz",
      version: rng.int(0, 3),
      horizonDays: 30,
    };
  return { value: rng.int(0, 10) };
}

/** The value of a path parameter: a real id, a random one, or something hostile. */
function paramValue(name: string, pattern: string, fx: FuzzFixture, rng: Rng): string | string[] {
  if (name === "id" && rng.chance(0.6)) return rng.pick(pattern.startsWith("/api/v1/spans/") ? fx.spanIds : fx.sessionIds);
  if (name === "...all" && rng.chance(0.7))
    return rng.pick([["sign-in", "email"], ["sign-up", "email"], ["get-session"], ["sign-out"], ["list-sessions"], ["ok"]]);
  if (name.startsWith("..."))
    return Array.from({ length: rng.int(0, 4) }, () => rng.pick(["x", "v1", "..", "%00", "a".repeat(300), "sessions"]));
  return rng.pick([
    ...fx.sessionIds,
    ...fx.spanIds,
    randomUUID(),
    "00000000-0000-0000-0000-000000000000",
    "not-a-uuid",
    "",
    "\u0000",
    "../..",
    "x".repeat(5000),
    asText(hostileValue(rng)),
  ]);
}

/** JSON text of a generated value; one that cannot be written as JSON (a cycle) is sent as null. */
function safeJson(value: unknown): string {
  try {
    return JSON.stringify(value) ?? "null";
  } catch {
    return "null";
  }
}

/** A hostile value as text for a URL (an object may have a "toString" key that is not a function). */
function asText(value: unknown): string {
  return typeof value === "string" ? value : safeJson(value);
}

/** Percent-encoding of any string, lone surrogates included (as their WTF-8 bytes, which no server decodes as text). */
function percentEncode(s: string): string {
  let out = "";
  for (const byte of stringBytes(s)) {
    const c = String.fromCharCode(byte);
    out += /[A-Za-z0-9\-_.~]/.test(c) ? c : `%${byte.toString(16).toUpperCase().padStart(2, "0")}`;
  }
  return out;
}

function queryString(rng: Rng): string {
  if (rng.chance(0.4)) return "";
  const names = ["limit", "cursor", "runtime", "externalId", "class", "provenance", "format", "ttlFrom", "offset", "x"];
  const parts: string[] = [];
  for (let i = rng.int(1, 4); i > 0; i--) {
    const value = rng.chance(0.5)
      ? rng.pick([
          "0",
          "-1",
          "1",
          "1000",
          "1001",
          "1e9",
          "NaN",
          "abc",
          "STRUCTURED",
          "LOST",
          "claude-code",
          "occurred",
          "",
          "%00",
          "%ZZ",
        ])
      : asText(hostileValue(rng)).slice(0, 2000);
    parts.push(`${percentEncode(rng.pick(names))}=${value.startsWith("%") ? value : percentEncode(value)}`);
  }
  return `?${parts.join("&")}`;
}

/** A body for the request: a mutated template, any JSON, raw bytes, or nothing. */
function makeBody(pattern: string, fx: FuzzFixture, rng: Rng): { body?: BodyInit; note: string; contentType?: string } {
  const roll = rng.next();
  if (pattern.endsWith("/imports") || pattern.includes("/otlp/")) {
    if (roll < 0.5) {
      const file = rng.pick(fx.transcripts);
      const bytes = new Uint8Array(file);
      const damaged = new Uint8Array(rng.chance(0.5) ? bytes : damage(bytes, rng));
      return {
        body: damaged,
        note: `transcript ${damaged.byteLength} bytes`,
        contentType: rng.pick(["application/octet-stream", "application/json", "application/x-protobuf"]),
      };
    }
  }
  if (roll < 0.55) {
    const value = mutate(templateBody(pattern, fx, rng), rng);
    const text = safeJson(value);
    return { body: text, note: text.length > 300 ? `${text.slice(0, 300)}... (${text.length} chars)` : text };
  }
  if (roll < 0.7) {
    const value = hostileValue(rng);
    const text = safeJson(value);
    return { body: text, note: text.slice(0, 300) };
  }
  if (roll < 0.85) {
    const raw = rng.pick([
      "",
      "{",
      '{"spans": [',
      "null",
      "[]",
      "\u0000",
      '{"a":1,"a":2}',
      '"\\ud800"',
      `${"[".repeat(200_000)}${"]".repeat(200_000)}`,
      `{"spans":[{"seq":1,"body":"${"A".repeat(rng.int(0, 5_000_000))}"}]}`,
    ]);
    return { body: raw, note: `raw ${raw.length} chars: ${raw.slice(0, 60)}` };
  }
  if (roll < 0.95) {
    const bytes = randomBytes(rng.int(0, 4096));
    return {
      body: bytes,
      note: `${bytes.byteLength} random bytes`,
      contentType: rng.pick(["application/json", "application/octet-stream", "text/plain"]),
    };
  }
  return { note: "no body" };
}

/** Bytes of a file damaged: cut short, a byte flipped, NUL or invalid UTF-8 inserted. */
function damage(bytes: Uint8Array, rng: Rng): Uint8Array<ArrayBuffer> {
  const copy: Uint8Array<ArrayBuffer> = new Uint8Array(bytes);
  switch (rng.int(0, 3)) {
    case 0:
      return copy.slice(0, rng.int(0, copy.length));
    case 1:
      if (copy.length > 0) copy[rng.int(0, copy.length - 1)] = rng.int(0, 255);
      return copy;
    case 2:
      return new Uint8Array([...copy.slice(0, 100), 0, 0xff, 0xfe, ...copy.slice(100)]);
    default:
      return new Uint8Array([...copy, ...copy]);
  }
}

function makeRequest(routes: FuzzRoute[], fx: FuzzFixture, rng: Rng): FuzzRequest {
  const route = rng.pick(routes);
  // Mostly what the route serves; the other methods answer 405 and need fewer tries.
  const exported = Object.keys(route.handlers) as Array<(typeof METHODS)[number]>;
  const method = rng.chance(0.9) ? rng.pick(route.served) : rng.pick(exported);
  const params: Record<string, string> = {};
  const names = [...route.pattern.matchAll(/\[([^\]]+)\]/g)].map((m) => m[1]!);
  let urlPath = route.pattern;
  for (const name of names) {
    const value = paramValue(name, route.pattern, fx, rng);
    const key = name.replace(/^\.\.\./, "");
    (params as Record<string, unknown>)[key] = value;
    urlPath = urlPath.replace(`[${name}]`, Array.isArray(value) ? value.map(percentEncode).join("/") : percentEncode(value));
  }
  const headers: Record<string, string> = {};
  const who = rng.pick(["admin", "operator", "operator", "operator", "viewer", "other", "none", "bad"] as const);
  if (who === "bad")
    headers.authorization = rng.pick([
      "Bearer cust_nope",
      "Bearer",
      "Basic eDp5",
      `Bearer ${"k".repeat(10_000)}`,
      "Bearer \u00ff",
    ]);
  else if (who !== "none") headers.authorization = `Bearer ${fx.keys[who]}`;
  const { body, note, contentType } =
    method === "GET" || method === "HEAD" ? { note: "no body" } : makeBody(route.pattern, fx, rng);
  headers["content-type"] =
    contentType ??
    (rng.chance(0.7)
      ? "application/json"
      : rng.pick([
          "application/json",
          "application/json",
          "text/plain",
          "application/x-www-form-urlencoded",
          "multipart/form-data; boundary=x",
          "application/merge-patch+json",
          "garbage/!!",
        ]));
  if (rng.chance(0.05)) headers["content-length"] = rng.pick(["0", "-1", "99999999999", "abc"]);
  if (rng.chance(route.pattern.includes("/auth/") ? 0.7 : 0.05))
    headers.origin = rng.pick(["https://evil.example", "null", "http://custodian.test"]);
  return { route, method, params, path: `${urlPath}${queryString(rng)}`, headers, body, bodyNote: note };
}

export interface Finding {
  route: string;
  status: number;
  path: string;
  body: string;
  response: string;
}

export interface FuzzReport {
  requests: number;
  byStatus: Record<number, number>;
  byRoute: Record<string, Record<number, number>>;
  findings: Finding[];
  serverErrors: number;
  routes: string[];
}

async function send(request: FuzzRequest): Promise<CallResult> {
  const handler = request.route.handlers[request.method]!;
  try {
    const { "content-type": contentType, ...rest } = request.headers;
    return await callRoute(handler, {
      method: request.method,
      path: request.path,
      params: request.params,
      headers: { ...rest, ...(contentType ? { "content-type": contentType } : {}) },
      raw: request.body ?? undefined,
    });
  } catch (error) {
    // A handler that throws instead of answering: what Next.js would answer 500 for.
    return { status: 599, headers: new Headers(), json: null, text: `threw: ${(error as Error)?.stack ?? String(error)}` };
  }
}

/**
 * Runs `requests` generated requests (deterministic for a seed), `concurrency` at a time; a batch
 * is sometimes one request submitted several times at once (duplicate submissions).
 */
export async function runFuzz(options: {
  requests: number;
  seed?: number;
  concurrency?: number;
  routes: FuzzRoute[];
  fixture: FuzzFixture;
  onProgress?: (done: number) => void;
}): Promise<FuzzReport> {
  const rng = seededRng(options.seed ?? 1);
  const concurrency = options.concurrency ?? 8;
  const report: FuzzReport = {
    requests: 0,
    byStatus: {},
    byRoute: {},
    findings: [],
    serverErrors: 0,
    routes: options.routes.map((r) => r.pattern),
  };
  // Every route and every method it serves at least once, then at random.
  const first: FuzzRequest[] = options.routes.flatMap((route) =>
    (Object.keys(route.handlers) as Array<(typeof METHODS)[number]>).map((method) => ({
      ...makeRequest([{ ...route, handlers: { [method]: route.handlers[method] }, served: [method] }], options.fixture, rng),
    })),
  );
  while (report.requests < options.requests) {
    const batch: FuzzRequest[] = [];
    if (rng.chance(0.15)) {
      const one = first.shift() ?? makeRequest(options.routes, options.fixture, rng);
      for (let i = Math.min(rng.int(2, concurrency), options.requests - report.requests); i > 0; i--) batch.push(one);
    } else {
      for (let i = Math.min(concurrency, options.requests - report.requests); i > 0; i--)
        batch.push(first.shift() ?? makeRequest(options.routes, options.fixture, rng));
    }
    const results = await Promise.all(batch.map(send));
    results.forEach((result, i) => {
      const request = batch[i]!;
      const key = `${request.method} ${request.route.pattern}`;
      report.requests++;
      report.byStatus[result.status] = (report.byStatus[result.status] ?? 0) + 1;
      const row = (report.byRoute[key] ??= {});
      row[result.status] = (row[result.status] ?? 0) + 1;
      if (result.status >= 500 && !(result.status === 503 && result.json?.error?.code === "DATABASE_UNAVAILABLE")) {
        report.serverErrors++;
        if (report.findings.filter((f) => f.route === key).length < 3)
          report.findings.push({
            route: key,
            status: result.status,
            path: request.path,
            body: request.bodyNote,
            response: result.text.slice(0, 500),
          });
      }
    });
    options.onProgress?.(report.requests);
  }
  return report;
}

/** The report as a table: counts by status, then by route and status. */
export function formatReport(report: FuzzReport): string {
  const statuses = Object.keys(report.byStatus)
    .map(Number)
    .sort((a, b) => a - b);
  const lines = [
    `${report.requests} requests over ${report.routes.length} route files; ${report.serverErrors} responses 5xx`,
    `by status: ${statuses.map((s) => `${s}: ${report.byStatus[s]}`).join(", ")}`,
    "",
    "by route:",
  ];
  for (const key of Object.keys(report.byRoute).sort()) {
    const row = report.byRoute[key]!;
    const cells = Object.keys(row)
      .map(Number)
      .sort((a, b) => a - b)
      .map((s) => `${s}: ${row[s]}`);
    lines.push(`  ${key.padEnd(52)} ${cells.join(", ")}`);
  }
  for (const f of report.findings)
    lines.push("", `5xx ${f.status} ${f.route} ${f.path}`, `  body: ${f.body}`, `  answer: ${f.response}`);
  return lines.join("\n");
}

/** A seeded random source (xorshift32), so a run repeats for its seed; arbitraries are sampled with seeds drawn from it. */
export function seededRng(seed: number): Rng {
  let state = seed >>> 0 || 0x9e3779b9;
  const next = () => {
    state ^= state << 13;
    state >>>= 0;
    state ^= state >>> 17;
    state ^= state << 5;
    state >>>= 0;
    return state / 0x100000000;
  };
  return {
    next,
    int: (min, max) => min + Math.floor(next() * (max - min + 1)),
    chance: (p) => next() < p,
    pick: <T>(xs: readonly T[]) => xs[Math.floor(next() * xs.length)]!,
    arbitrary: <T>(arb: fc.Arbitrary<T>) => fc.sample(arb, { seed: Math.floor(next() * 2 ** 31), numRuns: 1 })[0]!,
  };
}

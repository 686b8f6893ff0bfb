/**
 * The fuzz run's request generators: path parameters, query strings, headers and bodies (mutated
 * templates, hostile JSON, raw text and bytes, damaged transcripts) for one route at a time.
 */
import { randomBytes, randomUUID } from "node:crypto";
import { stringBytes } from "@/lib/api/span-body";
import type { FuzzFixture } from "./fixture";
import { hostileValue, mutate, type Rng } from "./hostile";
import { hostileOtlpBody } from "./hostile-otlp";
import { hostileRange, overCapSpanBatch, overCapTranscript } from "./hostile-sizes";
import type { FuzzRoute, METHODS } from "./routes";

/** One request as generated: what is sent, and the route it is counted under. */
export interface FuzzRequest {
  route: FuzzRoute;
  method: (typeof METHODS)[number];
  params: Record<string, string>;
  path: string;
  headers: Record<string, string>;
  body?: BodyInit;
  /** A short description of the body for a finding's report. */
  bodyNote: string;
  /** The connection's own address (the server stamps the client's address from it). */
  peer: string;
}

/**
 * Where the fuzz run's connections come from: plain clients, and FUZZ_TRUSTED_PROXY, which the run
 * trusts as a proxy, so both ways of reading an address are exercised.
 */
export const FUZZ_PEERS = ["10.66.0.1", "10.66.0.2", "::ffff:10.66.0.3", "::1"] as const;
export const FUZZ_TRUSTED_PROXY = "10.66.0.254";

/** What a forger writes to pass for someone else: rotating, malformed and oversized forwarding headers. */
export function forgedForwarding(rng: Rng): Record<string, string> {
  const address = () => `${rng.int(1, 223)}.${rng.int(0, 255)}.${rng.int(0, 255)}.${rng.int(1, 254)}`;
  return rng.pick<Record<string, string>>([
    { "x-forwarded-for": address() },
    { "x-forwarded-for": `${address()}, ${address()}` },
    // No NUL: HTTP cannot carry one in a header (Node.js refuses the request before any handler).
    { "x-forwarded-for": rng.pick(["", ",", "unknown", "::ffff:", "1.2.3.4.5", "%00", "\\x00", `${"9.".repeat(5000)}9`]) },
    { "x-real-ip": address() },
    { "x-custodian-client-address": address() },
    { "x-custodian-client-address": "", "x-forwarded-for": address() },
    { forwarded: `for=${address()};proto=https` },
  ]);
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
function makeBody(
  pattern: string,
  fx: FuzzFixture,
  rng: Rng,
): { body?: BodyInit; note: string; contentType?: string; headers?: Record<string, string> } {
  const roll = rng.next();
  if (pattern.includes("/otlp/") && roll >= 0.5 && roll < 0.6) return hostileOtlpBody(rng);
  if (pattern.endsWith("/imports") && roll >= 0.5 && roll < 0.53) {
    const bytes = overCapTranscript();
    return { body: bytes, note: `transcript with a record over the span cap, ${bytes.byteLength} bytes` };
  }
  if (pattern.endsWith("/spans") && roll >= 0.55 && roll < 0.58) {
    const text = overCapSpanBatch();
    return { body: text, note: `a span body over the cap (${text.length} chars)` };
  }
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

export function makeRequest(routes: FuzzRoute[], fx: FuzzFixture, rng: Rng): FuzzRequest {
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
  const {
    body,
    note,
    contentType,
    headers: bodyHeaders,
  } = method === "GET" || method === "HEAD" ? { note: "no body" } : makeBody(route.pattern, fx, rng);
  Object.assign(headers, bodyHeaders);
  if (method === "GET" && rng.chance(0.2)) headers.range = hostileRange(rng);
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
  if (rng.chance(0.2)) Object.assign(headers, forgedForwarding(rng));
  const peer = rng.chance(0.2) ? FUZZ_TRUSTED_PROXY : rng.pick(FUZZ_PEERS);
  return { route, method, params, path: `${urlPath}${queryString(rng)}`, headers, body, bodyNote: note, peer };
}

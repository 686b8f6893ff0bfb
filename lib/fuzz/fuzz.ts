/**
 * The API under hostile input: property-based requests (fast-check) against every route handler
 * under app/ (found on disk, so none is forgotten), with hostile values for sizes, encodings,
 * types, boundaries and nesting, wrong and missing credentials, duplicate and concurrent
 * submissions. A response 5xx is a finding; the server must still serve afterwards.
 * `npm test` runs a slice (fuzz.db.test.ts); `npm run fuzz -- --requests 20000` the full run.
 */
import { type CallResult, callRoute } from "./call";
import { makeRequest, type FuzzRequest } from "./request-generators";
import type { FuzzFixture } from "./fixture";
import type { FuzzReport } from "./report";
import type { FuzzRoute, METHODS } from "./routes";
import { seededRng } from "./seeded-rng";

export { type FuzzFixture, makeFixture } from "./fixture";
export { type Finding, type FuzzReport, formatReport } from "./report";
export { type FuzzRoute, loadRoutes, routeFiles } from "./routes";
export { seededRng } from "./seeded-rng";

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
      peer: request.peer,
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

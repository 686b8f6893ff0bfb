import { randomBytes } from "node:crypto";
import { readdirSync, readFileSync } from "node:fs";
import { join, relative, sep } from "node:path";
import { type APIRequestContext, type APIResponse, expect, test } from "@playwright/test";
import { seedApiKey, seedImportJob, seedQuestionJob, seedPin, seedSession } from "./support/seed";
import { PASSWORD, signIn, USERS } from "./support/sign-in";

/**
 * Nothing a stranger (or a person whose role does not allow a page) receives may carry data: not
 * the status code alone, the body. A secret is planted in a session's external id, its title, its
 * project's name, a span's body and an import job's error; every page and route handler under app/
 * is found on disk (a new one cannot be forgotten) and fetched raw, redirects not followed.
 */
const SECRET = `PLANTED-SECRET-${randomBytes(6).toString("hex")}`;
const METHODS = ["GET", "POST", "PUT", "PATCH", "DELETE"] as const;
type Method = (typeof METHODS)[number];
/** Pages only admins may open: a project's settings (its admins), the instance admin's page. */
const adminOnlyPages = () => [`${project()}/settings`, "/admin"];
/** The seeded project's pages start here. */
const project = () => `/projects/${seeded.projectSlug}`;

interface Endpoint {
  file: string;
  kind: "page" | "route";
  /** The URL path with its dynamic segments filled. */
  path: string;
  /** For route handlers, the methods the file exports a handler for (from its source). */
  served: Method[];
}

function walk(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) =>
    entry.isDirectory() ? walk(join(dir, entry.name)) : [join(dir, entry.name)],
  );
}

/** Methods a route file serves: the names in its `export const|function GET…` lines. */
function servedMethods(source: string): Method[] {
  return METHODS.filter((m) => new RegExp(`export\\s+(const|(async\\s+)?function)\\s+${m}\\b`).test(source));
}

function endpoints(fill: (parent: string, segment: string) => string): Endpoint[] {
  return walk("app")
    .filter((file) => /(^|\/)(page\.tsx|route\.ts)$/.test(file.split(sep).join("/")))
    .map((file) => {
      const parts = relative("app", file).split(sep).slice(0, -1);
      const segments: string[] = [];
      for (const [i, part] of parts.entries()) {
        if (/^\(.*\)$/.test(part)) continue;
        segments.push(part.startsWith("[") ? fill(parts[i - 1] ?? "", part) : part);
      }
      const kind = file.endsWith("page.tsx") ? "page" : "route";
      return {
        file,
        kind,
        path: `/${segments.join("/")}`,
        served: kind === "route" ? servedMethods(readFileSync(file, "utf8")) : ["GET"],
      } satisfies Endpoint;
    });
}

let seeded: Awaited<ReturnType<typeof seedSession>>;
let importJobId: string;
let questionJobId: string;
let operatorKey: string;
let viewerKey: string;
let all: Endpoint[];

test.beforeAll(async () => {
  seeded = await seedSession(
    "leaks",
    [
      { kind: "TOOL_CALL", toolName: "write_file", body: `{"path":"/etc/app/${SECRET}.yaml","content":"${SECRET}"}` },
      { kind: "TOOL_RESULT", body: `Wrote /etc/app/${SECRET}.yaml` },
    ],
    { externalId: SECRET, title: `Title ${SECRET}`, projectName: `Project ${SECRET}` },
  );
  importJobId = await seedImportJob(seeded.projectId, `import failed: ${SECRET}`);
  questionJobId = await seedQuestionJob(seeded.projectId, `question failed: ${SECRET}`);
  operatorKey = await seedApiKey(seeded.projectId, "OPERATOR");
  viewerKey = await seedApiKey(seeded.projectId, "VIEWER");
  // An audit row and a refusal event that name the secret: the gate refuses a summary without a pointer.
  await seedPin(seeded.projectId, seeded.spanIds[1]!, `hold ${SECRET}`);
  const refused = await fetch(`http://127.0.0.1:${process.env.E2E_PORT}/api/v1/reclamations`, {
    method: "POST",
    headers: { authorization: `Bearer ${operatorKey}`, "content-type": "application/json" },
    body: JSON.stringify({ sessionId: seeded.sessionId, spanIds: [seeded.spanIds[0]], summary: { text: "configured the app" } }),
  });
  if (!refused.ok) throw new Error(`Seeding a refusal failed: ${refused.status} ${await refused.text()}`);
  const fills: Record<string, string> = {
    "sessions/[id]": seeded.sessionId,
    "spans/[id]": seeded.spanIds[0]!,
    "imports/[id]": importJobId,
    "jobs/[id]": questionJobId,
    "auth/[...all]": "get-session",
    "projects/[slug]": seeded.projectSlug,
    // Ids of things the planted data does not hold: their pages and routes answer not found.
    "saved/[id]": "00000000-0000-0000-0000-000000000000",
    "refusals/[id]": "00000000-0000-0000-0000-000000000000",
    // An old link from before projects had URLs: it redirects into the project holding the session.
    "/[section]": "sessions",
    "[section]/[[...rest]]": seeded.sessionId,
    "api/[...path]": "no-such/route",
  };
  all = endpoints((parent, segment) => {
    const value = fills[`${parent}/${segment}`];
    if (!value) throw new Error(`No value for the dynamic segment ${parent}/${segment}: add one to no-leaks.spec.ts`);
    return value;
  });
});

/** The query that would make a page or route show the planted data, were it to render. */
function withQuery(path: string): string {
  const question = `q=modified-system-config&session=${seeded.sessionId}`;
  const queries: Record<string, string> = {
    // A part of the secret, so that a page echoing its query does not count as a leak.
    [`${project()}/sessions`]: `q=${SECRET.slice(0, -4)}`,
    [`${project()}/evidence`]: question,
    [`${project()}/evidence/export`]: `${question}&format=csv`,
    [`${project()}/evidence/export/print`]: question,
    [`${project()}/refusals`]: `session=${seeded.sessionId}`,
    [`/api/dashboard${project()}/refusals`]: `session=${seeded.sessionId}`,
    [`${project()}/audit`]: `target=${seeded.spanIds[1]}`,
  };
  return queries[path] ? `${path}?${queries[path]}` : path;
}

async function send(request: APIRequestContext, method: Method, url: string, headers: Record<string, string> = {}) {
  return request.fetch(url, {
    method,
    headers,
    maxRedirects: 0,
    ...(method === "GET" ? {} : { data: JSON.stringify({ externalId: "x", runtime: "claude-code", spans: [] }) }),
  });
}

async function expectNoSecret(response: APIResponse, what: string) {
  const body = await response.text();
  expect.soft(body.includes(SECRET), `${what} (${response.status()}) carries the planted secret`).toBe(false);
}

async function signedIn(request: APIRequestContext, who: keyof typeof USERS, baseURL: string) {
  const response = await request.post("/api/auth/sign-in/email", {
    data: { email: USERS[who], password: PASSWORD },
    headers: { origin: baseURL },
  });
  expect(response.ok(), `sign-in as ${who}`).toBe(true);
}

test("the planted secret is there to leak: an admin sees it on the pages and routes that show it", async ({
  playwright,
  baseURL,
}) => {
  const admin = await playwright.request.newContext({ baseURL });
  await signedIn(admin, "admin", baseURL!);
  const shown = [
    "/sessions",
    `/sessions/${seeded.sessionId}`,
    `/spans/${seeded.spanIds[0]}`,
    "/evidence",
    "/evidence/export",
    "/settings",
    "/audit",
    "/refusals",
  ].map((path) => `${project()}${path}`);
  for (const path of [...shown, `/api/dashboard${project()}/refusals`]) {
    const endpoint = all.find((e) => e.path === path);
    expect(endpoint, path).toBeDefined();
    const response = await admin.get(withQuery(endpoint!.path));
    expect(response.status(), path).toBe(200);
    expect(await response.text(), path).toContain(SECRET);
  }
  const original = await admin.get(`/api/v1/spans/${seeded.spanIds[0]}/original`, {
    headers: { authorization: `Bearer ${viewerKey}` },
  });
  expect(await original.text()).toContain(SECRET);
  await admin.dispose();
});

test("a stranger gets no data from any page: a redirect to sign in, its body empty of data", async ({ playwright, baseURL }) => {
  const stranger = await playwright.request.newContext({ baseURL });
  const pages = all.filter((e) => e.kind === "page");
  expect(pages.map((p) => p.path)).toEqual(
    expect.arrayContaining([`${project()}/sessions`, `${project()}/settings`, "/login", "/admin", "/"]),
  );
  for (const page of pages) {
    const url = withQuery(page.path);
    const html = await send(stranger, "GET", url);
    await expectNoSecret(html, `GET ${url}`);
    if (page.path !== "/login") {
      expect.soft(html.status(), `GET ${url}`).toBe(307);
      expect.soft(html.headers().location, `GET ${url}`).toMatch(/\/login$/);
    }
    // The same page as the client router fetches it (its RSC payload).
    const flight = await send(stranger, "GET", `${url}${url.includes("?") ? "&" : "?"}_rsc=leak`, { rsc: "1" });
    await expectNoSecret(flight, `GET ${url} (RSC)`);
  }
  await stranger.dispose();
});

test("a stranger gets no data from any route handler, whatever the method", async ({ playwright, baseURL }) => {
  const stranger = await playwright.request.newContext({ baseURL });
  const routes = all.filter((e) => e.kind === "route");
  expect(routes.length).toBeGreaterThan(5);
  for (const route of routes) {
    for (const method of METHODS) {
      const response = await send(stranger, method, withQuery(route.path));
      await expectNoSecret(response, `${method} ${route.path}`);
    }
  }
  await stranger.dispose();
});

test("a signed-in viewer gets nothing from admin pages, nor from the API with a cookie for a key", async ({
  playwright,
  baseURL,
}) => {
  const viewer = await playwright.request.newContext({ baseURL });
  await signedIn(viewer, "viewer", baseURL!);
  for (const path of adminOnlyPages()) {
    expect(all.some((e) => e.kind === "page" && e.path === path)).toBe(true);
    const html = await send(viewer, "GET", path);
    // The viewer is a member of the project: its name (which holds the secret) in the layout is
    // theirs to see. Nothing else of the page may reach them.
    const body = (await html.text()).replaceAll(`Project ${SECRET}`, "");
    expect.soft(body.includes(SECRET), `viewer GET ${path} (${html.status()}) carries the planted secret`).toBe(false);
    expect.soft(html.status(), `viewer GET ${path}`).toBe(404);
    const flight = (await (await send(viewer, "GET", `${path}?_rsc=leak`, { rsc: "1" })).text()).replaceAll(
      `Project ${SECRET}`,
      "",
    );
    expect.soft(flight.includes(SECRET), `viewer GET ${path} (RSC) carries the planted secret`).toBe(false);
  }
  for (const route of all.filter((e) => e.kind === "route" && e.path.startsWith("/api/v1/"))) {
    for (const method of route.served) {
      const response = await send(viewer, method, withQuery(route.path));
      await expectNoSecret(response, `viewer ${method} ${route.path}`);
    }
  }
  // A viewer's API key may read, never write: refused before the body is looked at.
  const refused = await viewer.post(`/api/v1/imports`, {
    headers: { authorization: `Bearer ${viewerKey}` },
    data: SECRET,
  });
  expect(refused.status()).toBe(403);
  await expectNoSecret(refused, "viewer key POST /api/v1/imports");
  await viewer.dispose();
});

function expectSecurityHeaders(response: APIResponse, what: string) {
  const headers = response.headers();
  const csp = headers["content-security-policy"] ?? "";
  expect(csp, `${what}: Content-Security-Policy`).toMatch(/frame-ancestors 'none'/);
  expect(csp, what).toMatch(/default-src '(self|none)'/);
  expect(csp, what).toMatch(/object-src 'none'/);
  expect(csp, what).not.toMatch(/script-src[^;]*'unsafe-(inline|eval)'/);
  expect(headers["x-frame-options"], what).toBe("DENY");
  expect(headers["x-content-type-options"], what).toBe("nosniff");
  expect(["strict-origin-when-cross-origin", "no-referrer"], what).toContain(headers["referrer-policy"]);
  expect(headers["permissions-policy"], what).toMatch(/camera=\(\)/);
}

test("security headers on pages, API routes and error responses; pages' scripts carry the request's nonce", async ({
  playwright,
  baseURL,
}) => {
  const stranger = await playwright.request.newContext({ baseURL });
  const cases: Array<[string, Method, number]> = [
    ["/login", "GET", 200],
    ["/sessions", "GET", 307],
    ["/no-such-page", "GET", 404],
    ["/api/v1/health", "GET", 200],
    ["/api/v1/sessions", "POST", 401],
    ["/api/v1/no-such-route", "GET", 404],
    ["/api/v1/health", "DELETE", 405],
  ];
  for (const [path, method, status] of cases) {
    const response = await send(stranger, method, path);
    expect(response.status(), `${method} ${path}`).toBe(status);
    expectSecurityHeaders(response, `${method} ${path}`);
  }
  const nonces = [];
  for (let i = 0; i < 2; i++) {
    const response = await stranger.get("/login");
    const csp = response.headers()["content-security-policy"] ?? "";
    const nonce = /script-src[^;]*'nonce-([^']+)'/.exec(csp)?.[1];
    expect(nonce, csp).toBeTruthy();
    const html = await response.text();
    const scripts = [...html.matchAll(/<script\b[^>]*>/g)].map((m) => m[0]);
    expect(scripts.length).toBeGreaterThan(0);
    for (const tag of scripts) expect(tag).toContain(`nonce="${nonce}"`);
    nonces.push(nonce);
  }
  expect(nonces[0]).not.toBe(nonces[1]);
  await stranger.dispose();
});

async function expectJsonError(response: APIResponse, status: number, code: string, what: string) {
  expect(response.status(), what).toBe(status);
  expect(response.headers()["content-type"], what).toMatch(/^application\/json/);
  const body = (await response.json()) as { error?: { code?: unknown; message?: unknown } };
  expect(body.error?.code, what).toBe(code);
  expect(typeof body.error?.message, what).toBe("string");
}

test("every answer under /api is JSON {error:{code,message}}: unknown routes, methods, oversized and non-JSON bodies", async ({
  playwright,
  baseURL,
}) => {
  const api = await playwright.request.newContext({ baseURL });
  for (const path of ["/api/no-such", "/api/v1/no-such/route", `/api/v1/sessions/${seeded.sessionId}/nope`, "/api/v2"]) {
    for (const method of METHODS) await expectJsonError(await send(api, method, path), 404, "NOT_FOUND", `${method} ${path}`);
  }
  for (const route of all.filter((e) => e.kind === "route" && e.path.startsWith("/api/") && !e.path.includes("no-such"))) {
    expect(route.served.length, route.file).toBeGreaterThan(0);
    for (const method of METHODS.filter((m) => !route.served.includes(m))) {
      const response = await send(api, method, route.path);
      await expectJsonError(response, 405, "METHOD_NOT_ALLOWED", `${method} ${route.path}`);
      const allow = (response.headers().allow ?? "").split(/,\s*/);
      for (const m of route.served) expect(allow, `${method} ${route.path}`).toContain(m);
      expect(allow, `${method} ${route.path}`).not.toContain(method);
    }
    // HEAD is answered from GET where there is one, else refused like any other method.
    const head = await api.fetch(route.path, { method: "HEAD", maxRedirects: 0 });
    if (route.served.includes("GET")) expect(head.status(), `HEAD ${route.path}`).not.toBe(405);
    else expect(head.headers().allow, `HEAD ${route.path}`).toContain(route.served[0]);
  }
  const auth = { authorization: `Bearer ${operatorKey}` };
  await expectJsonError(
    await api.post("/api/v1/sessions", {
      headers: { ...auth, "content-type": "application/json" },
      data: Buffer.from("{not json"),
    }),
    400,
    "INVALID_JSON",
    "malformed JSON",
  );
  await expectJsonError(
    await api.post("/api/v1/sessions", {
      headers: { ...auth, "content-type": "application/x-www-form-urlencoded" },
      data: "externalId=x&runtime=claude-code",
    }),
    415,
    "UNSUPPORTED_MEDIA_TYPE",
    "a form body",
  );
  const huge = Buffer.alloc(32 * 1024 * 1024 + 1, 0x20);
  await expectJsonError(
    await api.post("/api/v1/sessions", { headers: { ...auth, "content-type": "application/json" }, data: huge }),
    413,
    "PAYLOAD_TOO_LARGE",
    "an oversized body",
  );
  await expectJsonError(
    await api.post("/api/auth/sign-in/email", {
      headers: { origin: baseURL! },
      data: { email: USERS.viewer, password: "wrong password" },
    }),
    401,
    "INVALID_EMAIL_OR_PASSWORD",
    "a failed sign-in",
  );
  await expectJsonError(await api.get("/api/auth/no-such-endpoint"), 404, "NOT_FOUND", "an unknown auth endpoint");
  await api.dispose();
});

test("pages run under the policy: no violation reported while an admin walks every page", async ({ page }) => {
  const violations: string[] = [];
  page.on("console", (message) => {
    if (/Content[- ]Security[- ]Policy/i.test(message.text())) violations.push(message.text());
  });
  await page.addInitScript(() => {
    document.addEventListener("securitypolicyviolation", (event) => {
      console.error(`Content-Security-Policy violation: ${event.violatedDirective} ${event.blockedURI}`);
    });
  });
  await signIn(page, "admin");
  for (const endpoint of all.filter((e) => e.kind === "page" && e.path !== "/login")) {
    await page.goto(withQuery(endpoint.path));
    // Rendered (a printable page has its heading outside a <main>).
    await expect(page.locator("h1").first(), endpoint.path).toBeVisible();
  }
  // The client runtime runs: a link navigates without reloading the document.
  await page.goto(`${project()}/sessions`);
  await page.evaluate(() => {
    (window as unknown as { stayed?: boolean }).stayed = true;
  });
  await page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "Audit log" }).click();
  await expect(page).toHaveURL(/\/audit$/);
  await expect(page.locator("main h1")).toHaveText("Audit log");
  expect(await page.evaluate(() => (window as unknown as { stayed?: boolean }).stayed)).toBe(true);
  expect(violations).toEqual([]);
});

import { expect, test } from "@playwright/test";
import { seedSession } from "./support/seed";
import { signIn } from "./support/sign-in";

// Every filter any page reads (and a few it does not), each holding a NUL.
const FILTERS = [
  "q",
  "runtime",
  "status",
  "kind",
  "class",
  "provenance",
  "outcome",
  "agent",
  "session",
  "from",
  "to",
  "page",
  "sort",
  "cursor",
  "limit",
  "show",
  "state",
  "days",
  "act",
  "person",
  "requester",
  "targetId",
  "targetType",
  "keys",
  "keysPage",
  "keysSort",
  "cellClass",
  "cellProvenance",
  "externalId",
  "command",
  "format",
  "tool",
  "negated",
  "question",
];

test("a NUL in any page's filters is a bad filter or ignored, never a 500", async ({ page }) => {
  // 11 pages, 35 addresses each: four at a time, and room for a busy machine's slower renders.
  test.setTimeout(240_000);
  const seeded = await seedSession("nul-filters", [{ kind: "TOOL_CALL", body: "ran ls", toolName: "bash" }]);
  await signIn(page, "admin");
  const base = `/projects/${seeded.projectSlug}`;
  const pages = [
    base,
    `${base}/sessions`,
    `${base}/sessions/${seeded.sessionId}`,
    `${base}/spans/${seeded.spanIds[0]}`,
    `${base}/refusals`,
    `${base}/retention`,
    `${base}/audit`,
    `${base}/settings`,
    `${base}/imports`,
    `${base}/evidence`,
    `${base}/evidence/export/print`,
  ];
  const failures: string[] = [];
  const urls = pages.flatMap((path) => [
    `${path}?${FILTERS.map((f) => `${f}=%00`).join("&")}`,
    ...FILTERS.map((f) => `${path}?${f}=a%00b`),
  ]);
  for (let i = 0; i < urls.length; i += 4) {
    await Promise.all(
      urls.slice(i, i + 4).map(async (url) => {
        const answer = await page.request.get(url, { maxRedirects: 0 });
        if (answer.status() >= 500) failures.push(`${answer.status()} ${url}`);
      }),
    );
  }
  expect(failures).toEqual([]);
});

test("a server action posted from another site, or with an Origin that is no URL, is a 403 before the framework sees it", async ({
  request,
}) => {
  for (const origin of ["https://evil.example", "null", "garbage", "http://127.0.0.1:1"]) {
    const answer = await request.post("/login", {
      headers: {
        origin,
        "next-action": "7f00000000000000000000000000000000000000aa",
        "content-type": "text/plain;charset=UTF-8",
      },
      data: "[]",
      maxRedirects: 0,
    });
    expect(answer.status(), origin).toBe(403);
    expect((await answer.json()).error.code).toBe("FORBIDDEN");
  }
  // From the site itself the request reaches the framework, which answers an unknown action without a 5xx.
  const own = await request.post("/login", {
    headers: {
      origin: `http://127.0.0.1:${process.env.E2E_PORT}`,
      "next-action": "7f00000000000000000000000000000000000000aa",
      "content-type": "text/plain;charset=UTF-8",
    },
    data: "[]",
    maxRedirects: 0,
  });
  expect(own.status()).toBeLessThan(500);
});

import { randomBytes } from "node:crypto";
import { type Browser, expect, test } from "@playwright/test";
import { originalOf, refusalIdsOf, seedApiKey, seedImportJob, seedMember, seedQuestionJob, seedSession } from "./support/seed";
import { signIn, signInAs } from "./support/sign-in";

test("a viewer sees no pin control, and a forged pin action from a viewer is refused", async ({ browser }) => {
  const seeded = await seedSession("roles", [
    { kind: "TOOL_CALL", toolName: "Bash", body: '{"command":"sudo systemctl restart app"}' },
  ]);
  const target = seeded.spanIds[0]!;

  // Record what a legitimate pin request looks like, from an operator, on another span.
  const other = await seedSession("roles-op", [{ kind: "MESSAGE", body: "hello" }]);
  const operator = await browser.newContext();
  const operatorPage = await operator.newPage();
  await signIn(operatorPage, "operator");
  await operatorPage.goto(`/projects/${other.projectSlug}/spans/${other.spanIds[0]}`);
  const [pinRequest] = await Promise.all([
    operatorPage.waitForRequest((r) => r.method() === "POST" && r.headers()["next-action"] !== undefined),
    operatorPage.getByRole("button", { name: "Pin original" }).click(),
  ]);
  const actionId = pinRequest.headers()["next-action"]!;
  await operator.close();

  const viewer = await browser.newContext();
  const page = await viewer.newPage();
  await signIn(page, "viewer");
  await page.goto(`/projects/${seeded.projectSlug}/spans/${target}`);
  await expect(page.getByRole("heading", { name: /tool call/i })).toBeVisible();
  await expect(page.getByRole("button", { name: "Pin original" })).toHaveCount(0);

  // Replay the operator's action as the viewer, aimed at the viewer's span in its project: refused.
  const body = (pinRequest.postData() ?? "")
    .replaceAll(other.spanIds[0]!, target)
    .replaceAll(other.projectSlug, seeded.projectSlug);
  const forged = await page.request.post(`/projects/${seeded.projectSlug}/spans/${target}`, {
    headers: {
      "next-action": actionId,
      "content-type": pinRequest.headers()["content-type"]!,
      accept: "text/x-component",
      origin: new URL(page.url()).origin,
    },
    data: body,
  });
  // Refused for the role, not for want of an Origin: the request is what a same-site form sends.
  expect(await forged.text()).toContain('"code":"FORBIDDEN","message":"This needs the \\"originals:pin\\" permission');
  expect((await originalOf(target)).pinned).toBe(false);
  await viewer.close();
});

/**
 * A project only its own people see: a session whose paths carry the project's secret, a refusal of
 * it (its summary naming the secret too), a failed import and a question job naming it, and one
 * member, an operator.
 */
async function seedWalledProject(label: string) {
  const secret = `${label}-ONLY-SECRET-${randomBytes(6).toString("hex")}`;
  const seeded = await seedSession(
    `roles-${label.toLowerCase()}`,
    [
      { kind: "TOOL_CALL", toolName: "write_file", body: `{"path":"/etc/app/${secret}.yaml"}` },
      { kind: "TOOL_RESULT", body: `Wrote /etc/app/${secret}.yaml` },
    ],
    { title: `${label} ${secret}`, projectName: `Project ${secret}`, demoMembers: false },
  );
  // A refusal (the feed has something to show), asked with the project's own key.
  const key = await seedApiKey(seeded.projectId, "OPERATOR");
  const refused = await fetch(`http://127.0.0.1:${process.env.E2E_PORT}/api/v1/reclamations`, {
    method: "POST",
    headers: { authorization: `Bearer ${key}`, "content-type": "application/json" },
    body: JSON.stringify({
      sessionId: seeded.sessionId,
      spanIds: [seeded.spanIds[0]],
      summary: { text: `configured the app (${secret})` },
    }),
  });
  expect(refused.ok).toBe(true);
  const [refusalId] = await refusalIdsOf(seeded.projectId);
  expect(refusalId).toBeTruthy();
  await seedImportJob(seeded.projectId, `could not read ${secret}.jsonl`);
  const jobId = await seedQuestionJob(seeded.projectId, secret);
  const member = await seedMember(seeded.projectId, "OPERATOR");
  return { ...seeded, secret, refusalId: refusalId!, jobId, member };
}

type Walled = Awaited<ReturnType<typeof seedWalledProject>>;

/**
 * Signed in as `own`'s member: every page, feed, export and job of `other` is 404 (JSON for the
 * routes), `other`'s ids inside `own` are not found either, nothing of `other` reaches any of `own`'s
 * answers, and a pin recorded in `own` replayed at `other`'s span is refused.
 */
async function expectNoCrossing(browser: Browser, own: Walled, other: Walled) {
  const context = await browser.newContext();
  const page = await context.newPage();
  await signInAs(page, own.member);
  await expect(page).toHaveURL(new RegExp(`/projects/${own.projectSlug}(/sessions)?$`));
  const get = (path: string) => page.request.get(path, { maxRedirects: 0 });

  const O = `/projects/${other.projectSlug}`;
  const question = `q=modified-system-config&session=${other.sessionId}`;
  const otherPages = [
    "",
    "/sessions",
    `/sessions/${other.sessionId}`,
    `/spans/${other.spanIds[0]}`,
    "/refusals",
    `/refusals/${other.refusalId}`,
    `/evidence?${question}`,
    `/evidence/export/print?${question}`,
    "/imports",
    "/retention",
    "/retention/history",
    "/audit",
    "/settings",
  ];
  for (const path of otherPages) {
    const response = await get(`${O}${path}`);
    expect.soft(response.status(), `other${path}`).toBe(404);
    expect.soft(await response.text(), `other${path}`).not.toContain(other.secret);
  }
  // The other project's export, live refusal feed, overview and question job: 404 JSON, as for a
  // project that does not exist.
  for (const path of [
    `${O}/evidence/export?${question}&format=json`,
    `/api/dashboard${O}/refusals`,
    `/api/dashboard${O}/overview`,
    `/api/dashboard${O}/evidence/jobs/${other.jobId}`,
  ]) {
    const response = await get(path);
    expect.soft(response.status(), path).toBe(404);
    const body = await response.text();
    expect.soft(JSON.parse(body).error?.code, path).toBe("NOT_FOUND");
    expect.soft(body, path).not.toContain(other.secret);
  }

  // The other project's ids inside this one are not found, and an old link to them goes nowhere near it.
  const M = `/projects/${own.projectSlug}`;
  for (const path of [
    `${M}/sessions/${other.sessionId}`,
    `${M}/spans/${other.spanIds[0]}`,
    `${M}/refusals/${other.refusalId}`,
    `${M}/evidence/export?${question}`,
    `/api/dashboard${M}/evidence/jobs/${other.jobId}`,
  ]) {
    const response = await get(path);
    expect.soft(response.status(), path).toBe(404);
    expect.soft(await response.text(), path).not.toContain(other.secret);
  }
  for (const path of [`/sessions/${other.sessionId}`, `/spans/${other.spanIds[0]}`])
    expect.soft((await get(path)).headers().location ?? "", path).not.toContain(O);

  // Everything the member can fetch of their own project answers, the other's secret absent from every body.
  const ownPaths = [
    ...[
      "",
      "/sessions",
      `/sessions/${own.sessionId}`,
      `/spans/${own.spanIds[0]}`,
      "/refusals",
      `/refusals/${own.refusalId}`,
      "/evidence?q=modified-system-config",
      "/evidence/export/print?q=modified-system-config",
      "/imports",
      "/retention",
      "/retention/history",
      "/audit",
    ].map((p) => `${M}${p}`),
    `${M}/evidence/export?q=modified-system-config&format=json`,
    `${M}/evidence/export?q=modified-system-config&format=csv`,
    `/api/dashboard${M}/refusals`,
    `/api/dashboard${M}/overview`,
    `/api/dashboard${M}/evidence/jobs/${own.jobId}`,
    `${M}/refusals?session=${other.sessionId}`,
    `/api/dashboard${M}/refusals?session=${other.sessionId}`,
  ];
  for (const path of ownPaths) {
    const response = await get(path);
    expect.soft(response.status(), path).toBe(200);
    expect.soft(await response.text(), path).not.toContain(other.secret);
  }
  // The home page sends the member to their project, and says nothing of the other.
  expect.soft((await get("/")).headers().location ?? "", "/").not.toContain(O);
  // A secret does show where it belongs: the check above would see one that leaked.
  expect(await (await get(`${M}/sessions/${own.sessionId}`)).text()).toContain(own.secret);

  await page.goto(`${M}/sessions`);
  await expect(page.getByRole("table", { name: "Sessions" }).getByRole("link")).not.toHaveCount(0);
  await expect(page.locator("body")).not.toContainText(other.secret);
  // The switcher offers only the member's own project.
  await expect(page.getByRole("link", { name: new RegExp(other.projectSlug) })).toHaveCount(0);

  // No act crosses either: a pin recorded here, replayed at the other's span (bound to this project,
  // then to the other), is refused.
  await page.goto(`${M}/spans/${own.spanIds[0]}`);
  const [pinRequest] = await Promise.all([
    page.waitForRequest((r) => r.method() === "POST" && r.headers()["next-action"] !== undefined),
    page.getByRole("button", { name: "Pin original" }).click(),
  ]);
  await expect(page.getByRole("status").filter({ hasText: "Pinned" })).toBeVisible();
  const headers = {
    "next-action": pinRequest.headers()["next-action"]!,
    "content-type": pinRequest.headers()["content-type"]!,
    accept: "text/x-component",
    origin: new URL(page.url()).origin,
  };
  const atOther = (pinRequest.postData() ?? "").replaceAll(own.spanIds[0]!, other.spanIds[1]!);
  for (const data of [atOther, atOther.replaceAll(own.projectSlug, other.projectSlug)]) {
    const forged = await page.request.post(`${M}/spans/${own.spanIds[0]}`, { headers, data });
    expect(await forged.text()).toContain("NOT_FOUND");
  }
  expect((await originalOf(other.spanIds[1]!)).pinned).toBe(false);
  await context.close();
}

for (const [ownLabel, otherLabel] of [
  ["A", "B"],
  ["B", "A"],
] as const) {
  test(`a member of project ${ownLabel} only gets 404 for all of project ${otherLabel}, and nothing of ${otherLabel} reaches any of ${ownLabel}'s answers`, async ({
    browser,
  }) => {
    // Two projects, each with a page, feed, export and job to protect; about a hundred requests.
    test.setTimeout(180_000);
    const projects = { A: await seedWalledProject("A"), B: await seedWalledProject("B") };
    await expectNoCrossing(browser, projects[ownLabel], projects[otherLabel]);
  });
}

import { randomBytes } from "node:crypto";
import { expect, test } from "@playwright/test";
import { originalOf, seedApiKey, seedMember, seedSession } from "./support/seed";
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

test("a member of project A only gets 404 for all of project B, and nothing of B reaches any of A's answers", async ({
  browser,
}) => {
  const SECRET = `B-ONLY-SECRET-${randomBytes(6).toString("hex")}`;
  const a = await seedSession(
    "roles-a",
    [
      { kind: "TOOL_CALL", toolName: "write_file", body: '{"path":"/etc/app/a.yaml"}' },
      { kind: "TOOL_RESULT", body: "Wrote /etc/app/a.yaml" },
    ],
    { demoMembers: false },
  );
  const b = await seedSession(
    "roles-b",
    [
      { kind: "TOOL_CALL", toolName: "write_file", body: `{"path":"/etc/app/${SECRET}.yaml"}` },
      { kind: "TOOL_RESULT", body: `Wrote /etc/app/${SECRET}.yaml` },
    ],
    { title: `B ${SECRET}`, projectName: `Project ${SECRET}`, demoMembers: false },
  );
  // A refusal in B (its feed has something to show), asked with B's own key.
  const bKey = await seedApiKey(b.projectId, "OPERATOR");
  const refused = await fetch(`http://127.0.0.1:${process.env.E2E_PORT}/api/v1/reclamations`, {
    method: "POST",
    headers: { authorization: `Bearer ${bKey}`, "content-type": "application/json" },
    body: JSON.stringify({ sessionId: b.sessionId, spanIds: [b.spanIds[0]], summary: { text: "configured the app" } }),
  });
  expect(refused.ok).toBe(true);

  const member = await seedMember(a.projectId, "OPERATOR");
  const context = await browser.newContext();
  const page = await context.newPage();
  await signInAs(page, member);
  await expect(page).toHaveURL(new RegExp(`/projects/${a.projectSlug}(/sessions)?$`));
  const get = (path: string) => page.request.get(path, { maxRedirects: 0 });

  const B = `/projects/${b.projectSlug}`;
  const question = `q=modified-system-config&session=${b.sessionId}`;
  const bPages = [
    "",
    "/sessions",
    `/sessions/${b.sessionId}`,
    `/spans/${b.spanIds[0]}`,
    "/refusals",
    `/evidence?${question}`,
    "/retention",
    "/retention/history",
    "/audit",
    "/settings",
  ];
  for (const path of bPages) {
    const response = await get(`${B}${path}`);
    expect.soft(response.status(), `B${path}`).toBe(404);
    expect.soft(await response.text(), `B${path}`).not.toContain(SECRET);
  }
  // B's export and B's live refusal feed: 404 JSON, as for a project that does not exist.
  for (const path of [`${B}/evidence/export?${question}&format=json`, `/api/dashboard${B}/refusals`]) {
    const response = await get(path);
    expect.soft(response.status(), path).toBe(404);
    const body = await response.text();
    expect.soft(JSON.parse(body).error?.code, path).toBe("NOT_FOUND");
    expect.soft(body, path).not.toContain(SECRET);
  }

  // B's ids inside A's own project are not found either, and an old link to them goes nowhere near B.
  const A = `/projects/${a.projectSlug}`;
  const aAnswers = [
    `${A}/sessions/${b.sessionId}`,
    `${A}/spans/${b.spanIds[0]}`,
    `${A}/evidence/export?${question}`,
    `${A}/refusals?session=${b.sessionId}`,
    `/api/dashboard${A}/refusals?session=${b.sessionId}`,
    `/sessions/${b.sessionId}`,
    `/spans/${b.spanIds[0]}`,
  ];
  for (const path of aAnswers.slice(0, 3)) expect.soft((await get(path)).status(), path).toBe(404);
  for (const path of aAnswers.slice(5)) expect.soft((await get(path)).headers().location ?? "", path).not.toContain(B);

  // Everything A's member can fetch of A, B's secret absent from every body.
  const aPages = [
    "",
    "/sessions",
    `/sessions/${a.sessionId}`,
    `/spans/${a.spanIds[0]}`,
    "/refusals",
    "/evidence?q=modified-system-config",
    "/retention",
    "/retention/history",
    "/audit",
  ];
  for (const path of [
    ...aPages.map((p) => `${A}${p}`),
    ...aAnswers,
    `${A}/evidence/export?q=modified-system-config&format=json`,
    `${A}/evidence/export?q=modified-system-config&format=csv`,
    `/api/dashboard${A}/refusals`,
    "/",
  ]) {
    const response = await get(path);
    expect.soft(await response.text(), path).not.toContain(SECRET);
  }
  await page.goto(`${A}/sessions`);
  await expect(page.getByRole("table", { name: "Sessions" }).getByRole("link")).not.toHaveCount(0);
  await expect(page.locator("body")).not.toContainText(SECRET);
  // The switcher offers only A.
  await expect(page.getByRole("link", { name: new RegExp(b.projectSlug) })).toHaveCount(0);

  // No act crosses either: a pin recorded in A, replayed at B's span (bound to A, then to B), is refused.
  await page.goto(`${A}/spans/${a.spanIds[0]}`);
  const [pinRequest] = await Promise.all([
    page.waitForRequest((r) => r.method() === "POST" && r.headers()["next-action"] !== undefined),
    page.getByRole("button", { name: "Pin original" }).click(),
  ]);
  await expect(page.getByRole("status")).toContainText("Pinned");
  const headers = {
    "next-action": pinRequest.headers()["next-action"]!,
    "content-type": pinRequest.headers()["content-type"]!,
    accept: "text/x-component",
    origin: new URL(page.url()).origin,
  };
  const atB = (pinRequest.postData() ?? "").replaceAll(a.spanIds[0]!, b.spanIds[1]!);
  for (const data of [atB, atB.replaceAll(a.projectSlug, b.projectSlug)]) {
    const forged = await page.request.post(`${A}/spans/${a.spanIds[0]}`, { headers, data });
    expect(await forged.text()).toContain("NOT_FOUND");
  }
  expect((await originalOf(b.spanIds[1]!)).pinned).toBe(false);
  await context.close();
});

import { expect, test } from "@playwright/test";
import { originalOf, seedSession } from "./support/seed";
import { signIn } from "./support/sign-in";

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
  await operatorPage.goto(`/spans/${other.spanIds[0]}`);
  const [pinRequest] = await Promise.all([
    operatorPage.waitForRequest((r) => r.method() === "POST" && r.headers()["next-action"] !== undefined),
    operatorPage.getByRole("button", { name: "Pin original" }).click(),
  ]);
  const actionId = pinRequest.headers()["next-action"]!;
  await operator.close();

  const viewer = await browser.newContext();
  const page = await viewer.newPage();
  await signIn(page, "viewer");
  await page.goto(`/spans/${target}`);
  await expect(page.getByRole("heading", { name: /tool call/i })).toBeVisible();
  await expect(page.getByRole("button", { name: "Pin original" })).toHaveCount(0);

  // Replay the operator's action as the viewer, aimed at the viewer's span: the server refuses it.
  const body = (pinRequest.postData() ?? "").replaceAll(other.spanIds[0]!, target);
  const forged = await page.request.post(`/spans/${target}`, {
    headers: { "next-action": actionId, "content-type": pinRequest.headers()["content-type"]!, accept: "text/x-component" },
    data: body,
  });
  expect(await forged.text()).toContain("FORBIDDEN");
  expect((await originalOf(target)).pinned).toBe(false);
  await viewer.close();
});

import { readFileSync } from "node:fs";
import { type ClientRequest, request as httpRequest } from "node:http";
import path from "node:path";
import { expect, test } from "@playwright/test";
import { seedSession } from "./support/seed";
import { signIn } from "./support/sign-in";

/**
 * An upload to the project's import route that keeps arriving (a slow client): it holds its place
 * in the import queue until it is cut off.
 */
function slowUpload(slug: string, cookie: string): ClientRequest {
  const origin = `http://127.0.0.1:${process.env.E2E_PORT}`;
  const req = httpRequest(new URL(`/api/dashboard/projects/${slug}/imports`, origin), {
    method: "POST",
    headers: { cookie, origin, "transfer-encoding": "chunked", "content-type": "application/octet-stream" },
  });
  req.on("error", () => {});
  req.write('{"type":"session_meta"}\n');
  return req;
}

test("the import form says plainly when the import queue is full, keeps nothing, and imports once there is room", async ({
  page,
  context,
}) => {
  const seeded = await seedSession("import-form", [{ kind: "MESSAGE", body: "hello" }]);
  await signIn(page, "operator");
  const cookie = (await context.cookies()).map((c) => `${c.name}=${c.value}`).join("; ");
  // The project's four places in the queue (the default per-project limit), held by uploads still arriving.
  const slow = Array.from({ length: 4 }, () => slowUpload(seeded.projectSlug, cookie));
  await page.waitForTimeout(1500);

  await page.goto(`/projects/${seeded.projectSlug}/imports`);
  const form = page.getByRole("form", { name: "Import transcript files" });
  // Over the size imported within the request (2 MiB), so it would wait in the queue.
  const large = Buffer.alloc(3 * 1024 * 1024, "x");
  await form
    .getByLabel("Transcript file")
    .setInputFiles({ name: "big.jsonl", mimeType: "application/octet-stream", buffer: large });
  await form.getByRole("button", { name: "Import" }).click();
  await expect(form.getByRole("alert")).toContainText(
    "Not imported: The import queue is full (this project's 4 waiting imports)",
  );
  await expect(form.getByRole("alert")).toContainText("Nothing was kept; send the file again in 1 minute(s).");

  for (const req of slow) req.destroy();
  const transcript = readFileSync(path.resolve("lib/importers/fixtures/claude-code-session.jsonl"));
  await expect(async () => {
    await form
      .getByLabel("Transcript file")
      .setInputFiles({ name: "session.jsonl", mimeType: "application/octet-stream", buffer: transcript });
    await form.getByRole("button", { name: "Import" }).click();
    await expect(form.getByRole("status")).toContainText(/Imported \d+ spans in 1 session\(s\) \(claude-code\)/, {
      timeout: 5_000,
    });
  }).toPass({ timeout: 30_000 });
});

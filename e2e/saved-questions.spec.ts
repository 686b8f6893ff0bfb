import { randomBytes } from "node:crypto";
import { expect, test } from "@playwright/test";
import { seedDemoProject } from "./support/seed";
import { signIn } from "./support/sign-in";

test("an operator saves a custom question, asks it again from the list, and deletes it; a viewer only asks", async ({
  page,
  browser,
}) => {
  // Its own copy of the demo: the demo's Evidence page stays as other tests expect it.
  const base = `/projects/${(await seedDemoProject("saved-questions")).projectSlug}`;
  const title = `Config writes ${randomBytes(3).toString("hex")}`;
  await signIn(page, "operator");
  await page.goto(`${base}/evidence?q=custom&prefix=%2Fetc%2Fapp%2F`);
  await expect(page.getByTestId("answer")).toHaveText("YES");

  const save = page.getByRole("form", { name: "Save this question" });
  await save.getByLabel("Title").fill(title);
  await save.getByRole("button", { name: "Save this question" }).click();
  await expect(save.getByRole("status")).toContainText(`Saved as “${title}”`);

  // Saving the same title again is refused on the title, and the typed title stays.
  await save.getByLabel("Title").fill(title);
  await save.getByRole("button", { name: "Save this question" }).click();
  await expect(save.getByRole("alert")).toContainText("already saved");
  await expect(save.getByLabel("Title")).toHaveValue(title);

  await page.goto(`${base}/evidence`);
  await page.getByRole("region", { name: "Saved questions" }).getByRole("link", { name: title }).click();
  await expect(page.getByRole("heading", { level: 2, name: new RegExp(title) })).toBeVisible();
  await expect(page.getByTestId("answer")).toHaveText("YES");

  const viewer = await browser.newPage();
  await signIn(viewer, "viewer");
  await viewer.goto(`${base}/evidence`);
  const list = viewer.getByRole("region", { name: "Saved questions" });
  await expect(list.getByRole("link", { name: title })).toBeVisible();
  await expect(list.getByRole("button", { name: "Delete" })).toHaveCount(0);
  await viewer.close();

  await page.goto(`${base}/evidence`);
  await page
    .getByRole("form", { name: `Delete saved question ${title}` })
    .getByRole("button", { name: "Delete" })
    .click();
  await expect(page.getByRole("region", { name: "Saved questions" }).getByRole("link", { name: title })).toHaveCount(0);
});

import { type Browser, expect, type Page, test } from "@playwright/test";
import { seedPerson } from "./support/seed";
import { signIn, signInAs } from "./support/sign-in";

type Person = { email: string; password: string };

/** A browser of its own (its own cookies), signed in as the person: they have no project, so land on the home page. */
async function signedInBrowser(browser: Browser, person: Person): Promise<Page> {
  const page = await (await browser.newContext()).newPage();
  await signInAs(page, person, /\/$/);
  return page;
}

/** Whether the browser is still signed in: a signed-out one is sent to the sign-in page. */
async function stillSignedIn(page: Page): Promise<boolean> {
  await page.goto("/account");
  return !/\/login/.test(page.url());
}

test("changing one's password signs out the person's other browsers, and this one stays signed in", async ({ browser }) => {
  const person = await seedPerson();
  const here = await signedInBrowser(browser, person);
  const elsewhere = await signedInBrowser(browser, person);
  expect(await stillSignedIn(elsewhere)).toBe(true);

  await here.goto("/account");
  const form = here.getByRole("form", { name: "Change your password" });
  await form.getByLabel("Current password").fill("not the password");
  await form.getByLabel("New password").fill("a brand new password");
  await form.getByRole("button", { name: "Change password" }).click();
  await expect(form.getByRole("alert").or(form.getByRole("status"))).toContainText("current password is wrong");
  expect(await stillSignedIn(elsewhere)).toBe(true);

  await here.goto("/account");
  await form.getByLabel("Current password").fill(person.password);
  await form.getByLabel("New password").fill("a brand new password");
  await form.getByRole("button", { name: "Change password" }).click();
  await expect(form.getByRole("status").or(form.getByRole("alert"))).toContainText(
    "Password changed. Signed out 1 other session.",
  );

  expect(await stillSignedIn(elsewhere)).toBe(false);
  await expect(elsewhere).toHaveURL(/\/login/);
  expect(await stillSignedIn(here)).toBe(true);
  // The new password is the one that signs in now.
  await signedInBrowser(browser, { email: person.email, password: "a brand new password" });
});

test("sign out everywhere else ends the other browsers' sessions", async ({ browser }) => {
  const person = await seedPerson();
  const here = await signedInBrowser(browser, person);
  const elsewhere = await signedInBrowser(browser, person);
  await here.goto("/account");
  const form = here.getByRole("form", { name: "Sign out everywhere else" });
  await form.getByRole("button", { name: "Sign out everywhere else" }).click();
  await expect(form.getByRole("status").or(form.getByRole("alert"))).toContainText("Signed out 1 other session.");
  expect(await stillSignedIn(elsewhere)).toBe(false);
  expect(await stillSignedIn(here)).toBe(true);
});

test("an instance admin sets a person's password: every browser of theirs is signed out, and the new password signs in", async ({
  page,
  browser,
}) => {
  const person = await seedPerson();
  const theirs = await signedInBrowser(browser, person);
  await signIn(page, "admin");
  await page.goto("/admin");
  const form = page.getByRole("form", { name: `Set the password of ${person.email}` });
  await form.getByLabel(`New password for ${person.email}`).fill("set by the instance admin");
  await form.getByRole("button", { name: "Set password" }).click();
  await expect(form.getByRole("status").or(form.getByRole("alert"))).toContainText(`Password of ${person.email} set; 1 session`);
  expect(await stillSignedIn(theirs)).toBe(false);
  await signedInBrowser(browser, { email: person.email, password: "set by the instance admin" });
});

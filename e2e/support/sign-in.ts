import { expect, type Page } from "@playwright/test";

export const PASSWORD = "custodian-demo";
export const USERS = { admin: "admin@demo.local", operator: "operator@demo.local", viewer: "viewer@demo.local" } as const;

export async function signIn(page: Page, who: keyof typeof USERS): Promise<void> {
  await page.goto("/login");
  await page.getByLabel("Email").fill(USERS[who]);
  await page.getByLabel("Password").fill(PASSWORD);
  await page.getByRole("button", { name: "Sign in" }).click();
  // Signed in, a person lands on their first project (its overview, or its sessions).
  await expect(page).toHaveURL(/\/projects\/[^/?#]+(\/sessions)?$/);
}

/**
 * Signs in as a person of a test's own (seedMember), who lands on their one project; one of no
 * project (seedPerson) lands on the home page, which says so (`lands` is where they arrive).
 */
export async function signInAs(
  page: Page,
  person: { email: string; password: string },
  lands: RegExp = /\/projects\/[^/?#]+(\/sessions)?$/,
): Promise<void> {
  await page.goto("/login");
  await page.getByLabel("Email").fill(person.email);
  await page.getByLabel("Password").fill(person.password);
  await page.getByRole("button", { name: "Sign in" }).click();
  await expect(page).toHaveURL(lands);
}

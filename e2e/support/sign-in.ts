import { expect, type Page } from "@playwright/test";

export const PASSWORD = "custodian-demo";
export const USERS = { admin: "admin@demo.local", operator: "operator@demo.local", viewer: "viewer@demo.local" } as const;

export async function signIn(page: Page, who: keyof typeof USERS): Promise<void> {
  await page.goto("/login");
  await page.getByLabel("Email").fill(USERS[who]);
  await page.getByLabel("Password").fill(PASSWORD);
  await page.getByRole("button", { name: "Sign in" }).click();
  await expect(page).toHaveURL(/\/sessions$/);
}

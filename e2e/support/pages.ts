import AxeBuilder from "@axe-core/playwright";
import { expect, type Page } from "@playwright/test";

export const P = "/projects/demo";

/** The first link on a page matching `selector` (a session, a span, a refusal), its address. */
export async function firstLink(page: Page, from: string, selector: string): Promise<string> {
  await page.goto(from);
  const href = await page.locator(selector).first().getAttribute("href");
  expect(href).toBeTruthy();
  return href!;
}

/** The demo's first session, found through the sessions list. */
export function firstSession(page: Page): Promise<string> {
  return firstLink(page, `${P}/sessions`, `table[aria-label="Sessions"] a[href^="${P}/sessions/"]`);
}

/**
 * Every page of the dashboard, each with how to reach it: a fixed address, or one found by following
 * the first link of its list (a session, a span, a refusal, the printable export).
 */
export const PAGES: Array<{ name: string; signedIn: boolean; path: (page: Page) => Promise<string> }> = [
  { name: "sign-in", signedIn: false, path: async () => "/login" },
  { name: "overview", signedIn: true, path: async () => P },
  { name: "sessions", signedIn: true, path: async () => `${P}/sessions` },
  { name: "a session", signedIn: true, path: firstSession },
  {
    name: "a span",
    signedIn: true,
    path: async (page) => firstLink(page, await firstSession(page), `a[href^="${P}/spans/"]`),
  },
  { name: "refusals", signedIn: true, path: async () => `${P}/refusals` },
  { name: "a refusal", signedIn: true, path: (page) => firstLink(page, `${P}/refusals`, `a[href^="${P}/refusals/"]`) },
  { name: "evidence before a question", signedIn: true, path: async () => `${P}/evidence` },
  { name: "evidence with an answer", signedIn: true, path: async () => `${P}/evidence?q=modified-system-config` },
  {
    name: "the printable export",
    signedIn: true,
    path: (page) => firstLink(page, `${P}/evidence?q=modified-system-config`, 'a[href*="/evidence/export/print"]'),
  },
  { name: "search before a query", signedIn: true, path: async () => `${P}/search` },
  { name: "search results", signedIn: true, path: async () => `${P}/search?q=8443` },
  // The seed's lost write: its original expired, its hits badged and cut from what is kept.
  { name: "search results with an expired original", signedIn: true, path: async () => `${P}/search?q=conf.yaml` },
  { name: "retention", signedIn: true, path: async () => `${P}/retention` },
  { name: "retention history", signedIn: true, path: async () => `${P}/retention/history` },
  { name: "audit log", signedIn: true, path: async () => `${P}/audit` },
  { name: "imports", signedIn: true, path: async () => `${P}/imports` },
  { name: "settings", signedIn: true, path: async () => `${P}/settings` },
  { name: "instance admin", signedIn: true, path: async () => "/admin" },
  { name: "your account", signedIn: true, path: async () => "/account" },
  { name: "not found", signedIn: true, path: async () => `${P}/no-such-page` },
];

/**
 * axe finds nothing on the page as it stands (call it after whatever the test did to reach a state;
 * `rules` runs only those, and an empty list skips axe),
 * and the page is no wider than the screen (wide tables scroll inside their own box). With
 * E2E_SCREENSHOTS set, its full-page screenshot is kept in e2e/artifacts for a person to look at;
 * the suite leaves them out (they assert nothing, and four full-page screenshots a page are slow); a
 * failing test keeps its screenshot anyway.
 */
export async function expectAccessible(
  page: Page,
  name: string,
  width: number,
  scheme: "light" | "dark" = "light",
  rules?: string[],
) {
  if (rules?.length !== 0) {
    const results = await (rules ? axe(page).withRules(rules) : axe(page)).analyze();
    const where = `${name} at ${width} px in ${scheme} (E2E_A11Y_ROTATION=${a11yRotation()})`;
    expect(
      results.violations.map((v) => `${where}: ${v.id} (${v.impact}, ${v.nodes.length}) ${v.nodes[0]?.target ?? ""}`),
    ).toEqual([]);
  }
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(width);
  if (!process.env.E2E_SCREENSHOTS) return;
  const suffix = scheme === "dark" ? "-dark" : "";
  await page.screenshot({ path: `e2e/artifacts/page-${name.replaceAll(" ", "-")}-${width}${suffix}.png`, fullPage: true });
}

/**
 * axe over the page, every rule it runs by default, reporting violations only. Legacy mode runs axe in
 * the page itself: the default mode finishes each run in a fresh blank page (for cross-origin
 * frames, which these pages have none of), which cost more than the rules themselves. Passes and
 * inapplicable rules are not collected (`resultTypes`): the check reads violations only, which axe
 * still reports in full. Together about a third of the time per check, measured on the overview and
 * the audit log (2.3-3.5 s down to 0.5-1.6 s).
 */
export function axe(page: Page): AxeBuilder {
  return new AxeBuilder({ page }).setLegacyMode(true).options({ resultTypes: ["violations"] });
}

/**
 * The page as it stands, at both widths in both colour schemes. The page is loaded once: the server
 * renders the same HTML whatever the screen (nothing it sends depends on width or scheme), so what
 * changes between the four is layout and colour, which the browser recomputes on resize and on a
 * scheme change as it does on a fresh load; charts follow their container through a resize
 * observer. Narrow first, as a phone opens it.
 *
 * In every run, at both widths: the page no wider than the screen, and in dark the dark palette.
 * axe runs on a rotating half of the matrix (a11ySample): every default rule in light at one width,
 * and in dark the rules that read colour (DARK_RULES) at the other. The dark scheme changes nothing
 * but the values of colour custom properties (app/color-scheme.test.ts holds the stylesheets to
 * that), so the layout, the markup and every rule that does not read colour come out as they do in
 * light at the same width.
 */
export async function everyWidthAndScheme(page: Page, name: string) {
  const sample = a11ySample(name);
  for (const width of WIDTHS) {
    await page.setViewportSize({ width, height: 900 });
    for (const scheme of ["light", "dark"] as const) {
      await page.emulateMedia({ colorScheme: scheme });
      await settled(page);
      const withAxe = sample.some((s) => s.width === width && s.scheme === scheme);
      if (scheme === "light") await expectAccessible(page, name, width, scheme, withAxe ? undefined : NO_AXE);
      else {
        await expectAccessible(page, name, width, scheme, withAxe ? DARK_RULES : NO_AXE);
        await expectDarkPalette(page);
      }
    }
  }
}

const WIDTHS = [390, 1280] as const;

/** For expectAccessible: the page's width alone, axe not run. */
const NO_AXE: string[] = [];

/**
 * Where axe runs on a page in this run: every default rule in light at one width, the colour rules
 * in dark at the other; which width gets which turns with the rotation, and is split between pages
 * by their names. What that holds, run by run:
 *
 * - every page is checked in every run: all of axe's default rules in light, axe's colour rules in
 *   dark, no sideways scroll and the dark palette at both widths;
 * - every run checks each width in each scheme on about half the pages (a page's half is fixed by a
 *   hash of its name), so a fault that shows on every page at one width or in one scheme fails
 *   every run;
 * - two runs of consecutive rotations check every page at every width in every scheme: the
 *   rotation is the UTC day unless E2E_A11Y_ROTATION sets it, so the daily runs of any two days in
 *   a row cover the whole matrix, and a failure names its rotation to be run again as it was;
 * - E2E_A11Y_FULL=1 (or E2E_SCREENSHOTS) runs axe on the whole matrix, every page, every time.
 *
 * The whole matrix ran axe four times a page, about a quarter of the browser tests' time; the
 * rotation runs it twice.
 */
export function a11ySample(name: string): Array<{ width: number; scheme: "light" | "dark" }> {
  if (process.env.E2E_A11Y_FULL || process.env.E2E_SCREENSHOTS)
    return WIDTHS.flatMap((width) => [
      { width, scheme: "light" as const },
      { width, scheme: "dark" as const },
    ]);
  const turn = (a11yRotation() + nameHash(name)) % 2;
  return [
    { width: WIDTHS[turn]!, scheme: "light" },
    { width: WIDTHS[1 - turn]!, scheme: "dark" },
  ];
}

/** This run's rotation: E2E_A11Y_ROTATION, else the number of the UTC day. */
export function a11yRotation(): number {
  const set = process.env.E2E_A11Y_ROTATION;
  return set !== undefined && /^\d+$/.test(set) ? Number(set) : Math.floor(Date.now() / 86_400_000);
}

/** A stable hash of a page's name (FNV-1a), to split pages between the two halves of a rotation. */
function nameHash(name: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < name.length; i++) h = Math.imul(h ^ name.charCodeAt(i), 0x01000193) >>> 0;
  return h;
}

/** axe's default rules whose outcome depends on colours: contrast, and links told apart by colour. */
export const DARK_RULES = ["color-contrast", "link-in-text-block"];

/** Two animation frames: the layout and paint that follow a resize or a scheme change are done. */
async function settled(page: Page) {
  await page.evaluate(() => new Promise((done) => requestAnimationFrame(() => requestAnimationFrame(done))));
}

async function expectDarkPalette(page: Page) {
  const [background, ink] = await page.evaluate(() => {
    const style = getComputedStyle(document.documentElement);
    return [style.backgroundColor, style.color];
  });
  expect(luminance(background!)).toBeLessThan(0.1);
  expect(luminance(ink!)).toBeGreaterThan(0.5);
}

/** Relative luminance (WCAG) of a computed `rgb(r, g, b)` colour. */
function luminance(rgb: string): number {
  const [r, g, b] = (rgb.match(/\d+(\.\d+)?/g) ?? []).slice(0, 3).map((c) => {
    const v = Number(c) / 255;
    return v <= 0.03928 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4;
  });
  return 0.2126 * r! + 0.7152 * g! + 0.0722 * b!;
}

import { expect, test } from "@playwright/test";
import { checkPage, PAGES } from "./support/pages";
import { signIn } from "./support/sign-in";

// The system asks for dark: the stylesheet follows prefers-color-scheme, and every page is checked again.
test.use({ colorScheme: "dark" });

for (const width of [390, 1280]) {
  for (const { name, signedIn, path } of PAGES) {
    test(`${name} at ${width} px in dark mode: axe finds nothing and nothing scrolls sideways`, async ({ page }) => {
      await page.setViewportSize({ width, height: 900 });
      if (signedIn) await signIn(page, "admin");
      await checkPage(page, await path(page), name, width, "dark");
      // The dark palette is the one checked: the page's background is dark, its text light.
      const [background, ink] = await page.evaluate(() => {
        const style = getComputedStyle(document.documentElement);
        return [style.backgroundColor, style.color];
      });
      expect(luminance(background)).toBeLessThan(0.1);
      expect(luminance(ink)).toBeGreaterThan(0.5);
    });
  }
}

/** Relative luminance (WCAG) of a computed `rgb(r, g, b)` colour. */
function luminance(rgb: string): number {
  const [r, g, b] = (rgb.match(/\d+(\.\d+)?/g) ?? []).slice(0, 3).map((c) => {
    const v = Number(c) / 255;
    return v <= 0.03928 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4;
  });
  return 0.2126 * r! + 0.7152 * g! + 0.0722 * b!;
}

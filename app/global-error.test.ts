import { createElement } from "react";
import { renderToStaticMarkup } from "react-dom/server";
import { describe, expect, it } from "vitest";
import GlobalError from "./global-error";

/** The root layout failed: the last-resort page stands alone and gives away nothing of the error. */
describe("GlobalError", () => {
  const render = (error: Error & { digest?: string }) =>
    renderToStaticMarkup(createElement(GlobalError, { error, retry: () => {} }));

  it("is a whole document with the reference the server logged and a retry, never the error's message", () => {
    const error = Object.assign(new Error("connect ECONNREFUSED 10.0.0.5:5432 password=hunter2"), { digest: "1234567890" });
    const html = render(error);
    expect(html).toMatch(/^<html lang="en"><head><\/head><body><main id="main"/);
    expect(html).toContain("Custodian could not show this page");
    expect(html).toContain("Reference: <code>1234567890</code>");
    expect(html).toContain('<button type="button" class="button">Try again</button>');
    expect(html).not.toContain("hunter2");
    expect(html).not.toContain("ECONNREFUSED");
  });

  it("shows no reference when the error has none, and escapes one that holds markup", () => {
    expect(render(new Error("x"))).not.toContain("Reference");
    expect(render(Object.assign(new Error("x"), { digest: "<img src=x onerror=alert(1)>" }))).toContain(
      "<code>&lt;img src=x onerror=alert(1)&gt;</code>",
    );
  });
});

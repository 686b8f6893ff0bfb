import { describe, expect, it } from "vitest";
import { hasLoneSurrogate, textCannotHold, unstorableChar } from "./text";

describe("what Postgres text cannot hold", () => {
  it("names NUL and lone surrogates, and lets pairs and plain text through", () => {
    expect(unstorableChar("plain text, émoji 😀")).toBeNull();
    expect(unstorableChar("a\u0000b")).toBe("nul");
    expect(unstorableChar("a\ud800b")).toBe("lone-surrogate");
    expect(unstorableChar("a\udc00")).toBe("lone-surrogate");
    expect(unstorableChar("end\ud83d")).toBe("lone-surrogate");
    expect(textCannotHold("\u0000")).toBe(true);
    expect(textCannotHold("😀")).toBe(false);
    expect(hasLoneSurrogate("a\u0000b")).toBe(false);
    expect(hasLoneSurrogate("\ud800")).toBe(true);
  });
});

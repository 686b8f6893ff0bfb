import { describe, expect, it } from "vitest";
import { hasLoneSurrogate, storableWords, textCannotHold, unstorableChar } from "./text";

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

describe("our own words quoting hostile input", () => {
  it("show NUL as an escape and a lone surrogate as a replacement character, and keep the rest", () => {
    expect(storableWords("install nginx\u0000 now")).toBe("install nginx\\u0000 now");
    expect(storableWords("a\ud800b\udfffc\ud83d\ude00")).toBe("a\ufffdb\ufffdc\ud83d\ude00");
    expect(storableWords("plain")).toBe("plain");
    expect(textCannotHold(storableWords("\u0000\ud800"))).toBe(false);
  });
});

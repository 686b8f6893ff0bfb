import { describe, expect, it } from "vitest";
import { normalizeEmail } from "./email";

describe("an email as people are keyed", () => {
  it("folds case, surrounding space, fullwidth letters and ligatures to the plain address", () => {
    expect(normalizeEmail("  Admin@Demo.Local ")).toBe("admin@demo.local");
    expect(normalizeEmail("ａdmin@demo.local")).toBe("admin@demo.local");
    expect(normalizeEmail("ﬁnance@demo.local")).toBe("finance@demo.local");
  });

  it.each([
    ["аdmin@demo.local", "mixes letters"], // Cyrillic а among Latin letters
    ["admin@dеmo.local", "mixes letters"], // Cyrillic е in the domain
    ["admin\u200b@demo.local", "invisible"],
    ["\u202eadmin@demo.local", "invisible"],
    ["admin@demo.local.", "stray dot"],
    ["admin@demo..local", "stray dot"],
    ["admin", "not an email"],
  ])("refuses %j naming why", (raw, why) => {
    expect(() => normalizeEmail(raw)).toThrow(
      expect.objectContaining({ code: "VALIDATION_FAILED", message: expect.stringContaining(why) }),
    );
  });

  it("keeps addresses written in one script, whatever it is", () => {
    expect(normalizeEmail("иван@пример.рф")).toBe("иван@пример.рф");
    expect(normalizeEmail("たなか@例え.jp")).toBe("たなか@例え.jp");
    expect(normalizeEmail("ana.o'neil+ci@example.co.uk")).toBe("ana.o'neil+ci@example.co.uk");
  });
});

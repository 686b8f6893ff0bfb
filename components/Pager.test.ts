import { describe, expect, it } from "vitest";
import { pageWindow } from "./Pager";

describe("pageWindow", () => {
  it("shows the requested page of a long list", () => {
    expect(pageWindow(28_963, 3, 100)).toEqual({ page: 3, pages: 290, start: 200, end: 300, total: 28_963 });
    expect(pageWindow(28_963, 290, 100)).toEqual({ page: 290, pages: 290, start: 28_900, end: 28_963, total: 28_963 });
  });

  it("keeps a page out of range, or not a number, within the list", () => {
    expect(pageWindow(250, 9, 100).page).toBe(3);
    expect(pageWindow(250, 0, 100).page).toBe(1);
    expect(pageWindow(250, -4, 100).page).toBe(1);
    expect(pageWindow(250, Number.NaN, 100).page).toBe(1);
    expect(pageWindow(250, 2.7, 100).page).toBe(2);
  });

  it("an empty list is one empty page", () => {
    expect(pageWindow(0, 5, 100)).toEqual({ page: 1, pages: 1, start: 0, end: 0, total: 0 });
  });
});

import { describe, expect, it, vi } from "vitest";
import { db, disconnectDb, rawTransaction } from "./client";

describe("disconnectDb", () => {
  it("waits for the pool to close when every connection has come back", async () => {
    await db().$queryRaw`select 1`;
    expect(await disconnectDb(5_000)).toBe(true);
  });

  it("stops waiting after its grace period for a connection still in use, and says how many", async () => {
    let finish!: () => void;
    const held = new Promise<void>((resolve) => {
      finish = resolve;
    });
    let started!: () => void;
    const inside = new Promise<void>((resolve) => {
      started = resolve;
    });
    await db().$queryRaw`select 1`;
    const transaction = rawTransaction(async (client) => {
      await client.query("select 1");
      started();
      await held;
    });
    await inside;
    const warn = vi.spyOn(console, "warn").mockImplementation(() => {});
    try {
      expect(await disconnectDb(200)).toBe(false);
      expect(warn).toHaveBeenCalledWith(expect.stringContaining("1 connection(s) still in use 200 ms"));
    } finally {
      warn.mockRestore();
      finish();
    }
    // The transaction left running still ends cleanly on its connection.
    await transaction;
  });
});

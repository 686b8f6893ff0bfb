import { describe, expect, it } from "vitest";
import { AppError, isTransactionConflict, toAppError } from "./errors";

/** As Prisma's client reports a deadlock through the pg driver adapter. */
const deadlock = Object.assign(
  new Error("Transaction failed due to a write conflict or a deadlock. Please retry your transaction"),
  {
    code: "P2034",
    meta: {
      modelName: "SpanOriginal",
      driverAdapterError: { cause: { kind: "TransactionWriteConflict", originalCode: "40P01" } },
    },
  },
);

describe("errors as the API and actions answer them", () => {
  it("a deadlock or serialization failure is a CONFLICT to retry, not an internal error", () => {
    for (const error of [
      deadlock,
      { cause: { originalCode: "40001" } },
      { meta: { driverAdapterError: { kind: "TransactionWriteConflict" } } },
    ]) {
      expect(isTransactionConflict(error)).toBe(true);
      const mapped = toAppError(error);
      expect([mapped.code, mapped.status, mapped.options.headers?.["Retry-After"]]).toEqual(["CONFLICT", 409, "1"]);
    }
  });

  it("anything else unknown stays an opaque INTERNAL error, and an AppError is kept", () => {
    for (const error of [new Error("boom"), { code: "P2002" }, { originalCode: "23505" }, "text", null]) {
      expect(isTransactionConflict(error)).toBe(false);
      expect([toAppError(error).code, toAppError(error).message]).toEqual(["INTERNAL", "Internal error"]);
    }
    const own = new AppError("GONE", "gone");
    expect(toAppError(own)).toBe(own);
  });
});

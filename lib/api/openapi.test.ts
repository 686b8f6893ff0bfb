import { Validator } from "@seriousme/openapi-schema-validator";
import { describe, expect, it } from "vitest";
import { openApiDocument } from "./openapi";

describe("the OpenAPI document", () => {
  it("validates against the OpenAPI 3.1 schema", async () => {
    const validator = new Validator();
    const result = await validator.validate(openApiDocument() as unknown as Parameters<Validator["validate"]>[0]);
    expect(result.errors ?? []).toEqual([]);
    expect(result.valid).toBe(true);
    expect(validator.version).toBe("3.1");
  });
});

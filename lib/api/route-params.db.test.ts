import { describe, expect, it } from "vitest";
import { z } from "zod";
import { createApiKey } from "@/lib/server/admin/api-keys";
import { TEST_ACTOR } from "@/lib/server/admin/test-project";
import { makeTestProject } from "@/lib/server/admin/test-project";
import { GET as importJob } from "@/app/api/v1/imports/[id]/route";
import { POST as importFile } from "@/app/api/v1/imports/route";
import { apiRoute, IdParams } from "./route";

async function keyFor(label: string) {
  const project = await makeTestProject(label);
  return (await createApiKey(project.id, label, "OPERATOR", TEST_ACTOR)).key;
}

function request(url: string, key: string, method = "GET", body?: string) {
  return new Request(url, { method, headers: { authorization: `Bearer ${key}` }, body });
}

describe("route parameters and query strings", () => {
  it("validates the path and the query before the handler runs", async () => {
    const key = await keyFor("route-params");
    let ran = 0;
    const route = apiRoute({
      permission: "read",
      params: IdParams,
      query: z.object({ limit: z.coerce.number().int().min(1).max(100).default(10), tag: z.array(z.string()).optional() }),
      handler: async ({ params, query }) => {
        ran += 1;
        return { id: params.id, limit: query.limit, tag: query.tag ?? null };
      },
    });
    const id = "7f0c1a52-4c1e-4a7e-9c57-2d7f7c1d2e3f";

    const badPath = await route(request("http://t/x", key), { params: Promise.resolve({ id: "not-a-uuid" }) });
    expect(badPath.status).toBe(404);
    expect((await badPath.json()).error.fields[0].path).toBe("id");

    const badQuery = await route(request("http://t/x?limit=1000", key), { params: Promise.resolve({ id }) });
    expect(badQuery.status).toBe(422);
    expect((await badQuery.json()).error).toMatchObject({ code: "VALIDATION_FAILED", fields: [{ path: "limit" }] });
    expect(ran).toBe(0);

    const ok = await route(request("http://t/x?limit=5&tag=a&tag=b", key), { params: Promise.resolve({ id }) });
    expect(await ok.json()).toEqual({ id, limit: 5, tag: ["a", "b"] });
  });

  it("the import routes use them: an unknown format or ttlFrom is a 422 naming it, a bad job id a 404", async () => {
    const key = await keyFor("route-imports");
    const format = await importFile(request("http://t/api/v1/imports?format=nope", key, "POST", "{}"), {
      params: Promise.resolve({}),
    });
    expect(format.status).toBe(422);
    expect((await format.json()).error.fields[0].path).toBe("format");
    const ttl = await importFile(request("http://t/api/v1/imports?ttlFrom=later", key, "POST", "{}"), {
      params: Promise.resolve({}),
    });
    expect((await ttl.json()).error.fields[0].path).toBe("ttlFrom");
    const job = await importJob(request("http://t/api/v1/imports/x", key), { params: Promise.resolve({ id: "x" }) });
    expect(job.status).toBe(404);
  });
});

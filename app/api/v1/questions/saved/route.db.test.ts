import { beforeAll, describe, expect, it } from "vitest";
import { GET as openApi } from "@/app/api/v1/openapi.json/route";
import { db } from "@/lib/db/client";
import { callRoute } from "@/lib/fuzz/call";
import { createApiKey } from "@/lib/server/admin/api-keys";
import { makeTestProject, TEST_ACTOR } from "@/lib/server/admin/test-project";
import { DELETE as deleteSaved } from "./[id]/route";
import { GET as listSaved, POST as save } from "./route";

const paths = (json: { error: { fields?: Array<{ path: string }> } }) => (json.error.fields ?? []).map((f) => f.path);

describe("saved evidence questions: GET/POST /api/v1/questions/saved, DELETE /api/v1/questions/saved/{id}", () => {
  let projectId: string;
  let operator: string;
  let viewer: string;
  let stranger: string;

  beforeAll(async () => {
    const project = await makeTestProject("saved-questions");
    projectId = project.id;
    operator = (await createApiKey(projectId, "operator", "OPERATOR", TEST_ACTOR)).key;
    viewer = (await createApiKey(projectId, "viewer", "VIEWER", TEST_ACTOR)).key;
    const other = await makeTestProject("saved-questions-other");
    stranger = (await createApiKey(other.id, "admin", "ADMIN", TEST_ACTOR)).key;
  });

  it("saves a question (201), lists it by title, audits the save with who saved it", async () => {
    const predicate = { valuePrefixes: ["/etc/app/"], effectKinds: ["FILE_WRITE"] };
    const created = await callRoute(save, { key: operator, body: { title: "  Touched the app config?  ", predicate } });
    expect(created.status).toBe(201);
    expect(created.json).toMatchObject({
      title: "Touched the app config?",
      predicate,
      createdBy: `api-key:${operator.slice(0, 12)}`,
    });
    const second = await callRoute(save, {
      key: operator,
      body: { title: "Any sudo?", predicate: { commandPattern: "^sudo " } },
    });
    expect(second.status).toBe(201);

    const listed = await callRoute(listSaved, { key: viewer, method: "GET" });
    expect(listed.status).toBe(200);
    expect(listed.json.questions.map((q: { title: string }) => q.title)).toEqual(["Any sudo?", "Touched the app config?"]);
    expect(listed.json.questions[1]).toEqual(created.json);

    const audit = await db().auditLog.findFirstOrThrow({ where: { projectId, act: "question.save", targetId: created.json.id } });
    expect(audit.targetType).toBe("saved_question");
    expect(audit.actorLabel).toBe(created.json.createdBy);
    expect(audit.after).toEqual({ title: "Touched the app config?", predicate });
  });

  it("a title already saved in the project is a 409 naming title; another project may use it", async () => {
    const body = { title: "Deleted anything?", predicate: { effectKinds: ["FILE_DELETE"] } };
    expect((await callRoute(save, { key: operator, body })).status).toBe(201);
    const again = await callRoute(save, { key: operator, body: { ...body, title: " Deleted anything? " } });
    expect(again.status).toBe(409);
    expect(again.json.error.code).toBe("CONFLICT");
    expect(paths(again.json)).toEqual(["title"]);
    expect(await db().savedQuestion.count({ where: { projectId, title: body.title } })).toBe(1);
    expect((await callRoute(save, { key: stranger, body })).status).toBe(201);
  });

  it("bad input is a 422 naming the field, and nothing is saved", async () => {
    const before = await db().savedQuestion.count({ where: { projectId } });
    const cases: Array<[unknown, string]> = [
      [{ title: "Bad pattern", predicate: { valuePattern: "(" } }, "predicate.valuePattern"],
      [{ title: "Backreference", predicate: { commandPattern: "(a)\\1" } }, "predicate.commandPattern"],
      [{ title: "Unknown field", predicate: { secret: true } }, "predicate"],
      [{ title: "Unknown kind", predicate: { atomKinds: ["SECRET"] } }, "predicate.atomKinds.0"],
      [{ title: "   ", predicate: {} }, "title"],
      [{ title: "x".repeat(201), predicate: {} }, "title"],
      [{ title: "NUL \u0000", predicate: {} }, "title"],
      [{ predicate: {} }, "title"],
      [{ title: "No predicate" }, "predicate"],
      [{ title: "Extra", predicate: {}, owner: "me" }, "(body)"],
    ];
    for (const [body, field] of cases) {
      const response = await callRoute(save, { key: operator, body });
      expect(response.status, JSON.stringify(body)).toBe(422);
      expect(response.json.error.code).toBe("VALIDATION_FAILED");
      expect(paths(response.json), JSON.stringify(body)).toContain(field);
    }
    expect(await db().savedQuestion.count({ where: { projectId } })).toBe(before);
  });

  it("a viewer lists but cannot save or delete; a key of another project sees none of them", async () => {
    const refused = await callRoute(save, { key: viewer, body: { title: "Viewer's", predicate: {} } });
    expect(refused.status).toBe(403);
    const [one] = await db().savedQuestion.findMany({ where: { projectId }, take: 1 });
    const deleteByViewer = await callRoute(deleteSaved, { key: viewer, method: "DELETE", params: { id: one!.id } });
    expect(deleteByViewer.status).toBe(403);
    const foreign = await callRoute(listSaved, { key: stranger, method: "GET" });
    expect(foreign.json.questions.map((q: { title: string }) => q.title)).toEqual(["Deleted anything?"]);
    const deleteByStranger = await callRoute(deleteSaved, { key: stranger, method: "DELETE", params: { id: one!.id } });
    expect(deleteByStranger.status).toBe(404);
    expect(await db().savedQuestion.count({ where: { id: one!.id } })).toBe(1);
  });

  it("deletes a question (204), then 404; the delete is audited with what was deleted", async () => {
    const created = await callRoute(save, { key: operator, body: { title: "To delete", predicate: { toolNames: ["Bash"] } } });
    const gone = await callRoute(deleteSaved, { key: operator, method: "DELETE", params: { id: created.json.id } });
    expect(gone.status).toBe(204);
    const again = await callRoute(deleteSaved, { key: operator, method: "DELETE", params: { id: created.json.id } });
    expect(again.status).toBe(404);
    const notUuid = await callRoute(deleteSaved, { key: operator, method: "DELETE", params: { id: "not-a-uuid" } });
    expect(notUuid.status).toBe(404);
    const listed = await callRoute(listSaved, { key: operator, method: "GET" });
    expect(listed.json.questions.map((q: { id: string }) => q.id)).not.toContain(created.json.id);
    const audit = await db().auditLog.findFirstOrThrow({
      where: { projectId, act: "question.delete", targetId: created.json.id },
    });
    expect(audit.before).toEqual({ title: "To delete", predicate: { toolNames: ["Bash"] } });
  });

  it("the OpenAPI document describes the three operations", async () => {
    const doc = await (await openApi()).json();
    expect(Object.keys(doc.paths["/api/v1/questions/saved"])).toEqual(["get", "post"]);
    expect(doc.paths["/api/v1/questions/saved"].post.requestBody.content["application/json"].schema.required).toEqual([
      "title",
      "predicate",
    ]);
    expect(Object.keys(doc.paths["/api/v1/questions/saved/{id}"])).toEqual(["delete"]);
  });
});

import { describe, expect, it } from "vitest";
import { makeTestProject, TEST_ACTOR } from "@/lib/server/admin/test-project";
import { evidenceQueryFromParams } from "./params";
import { saveQuestion } from "./saved";
import { evidenceQueryFromUrl, SAVED_PREFIX } from "./url-query";

describe("the Evidence page's URL with saved questions", () => {
  it("asks a saved question of the project by id, keeping the page's scope", async () => {
    const project = await makeTestProject("url-saved");
    const saved = await saveQuestion(project.id, { title: "Bash calls", predicate: { toolNames: ["Bash"] } }, TEST_ACTOR);
    const params = new URLSearchParams({ q: `${SAVED_PREFIX}${saved.id}`, from: "2026-11-01", to: "2026-11-02" });
    expect(await evidenceQueryFromUrl(project.id, params)).toEqual({
      projectId: project.id,
      question: { predicate: { toolNames: ["Bash"] }, title: "Bash calls" },
      scope: { from: new Date("2026-11-01T00:00:00Z"), to: new Date("2026-11-03T00:00:00Z") },
    });
  });

  it("another project's saved question, or none, is a field error on q; other questions parse as before", async () => {
    const [mine, theirs] = [await makeTestProject("url-saved-mine"), await makeTestProject("url-saved-theirs")];
    const foreign = await saveQuestion(theirs.id, { title: "Theirs", predicate: { atomKinds: ["URL"] } }, TEST_ACTOR);
    for (const id of [foreign.id, "00000000-0000-4000-8000-000000000000", "not-a-uuid"]) {
      await expect(evidenceQueryFromUrl(mine.id, new URLSearchParams({ q: `${SAVED_PREFIX}${id}` }))).rejects.toMatchObject({
        code: "VALIDATION_FAILED",
        fields: [{ path: "q" }],
      });
    }
    const custom = new URLSearchParams({ q: "custom", tool: "Bash", session: foreign.id });
    expect(await evidenceQueryFromUrl(mine.id, custom)).toEqual(evidenceQueryFromParams(mine.id, custom));
    expect(await evidenceQueryFromUrl(mine.id, new URLSearchParams())).toBeNull();
  });
});

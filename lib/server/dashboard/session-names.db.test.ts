import { randomUUID } from "node:crypto";
import { describe, expect, it } from "vitest";
import { makeTestProject } from "@/lib/server/admin/test-project";
import { upsertSession } from "@/lib/server/ingest/append";
import { sessionNames } from "./session-names";

describe("sessionNames", () => {
  it("names the project's sessions by title, else by the runtime's id, and leaves out other projects' and unknown ids", async () => {
    const [mine, theirs] = await Promise.all([makeTestProject("names-mine"), makeTestProject("names-theirs")]);
    const titled = await upsertSession(mine.id, {
      externalId: "ext-titled",
      runtime: "claude-code",
      title: "Deploy the staging config",
    });
    const untitled = await upsertSession(mine.id, { externalId: "ext-untitled", runtime: "codex" });
    const other = await upsertSession(theirs.id, { externalId: "ext-other", runtime: "codex", title: "Not yours" });
    const names = await sessionNames(mine.id, [
      titled.session.id,
      untitled.session.id,
      other.session.id,
      randomUUID(),
      "not-a-uuid",
      titled.session.id,
    ]);
    expect(names).toEqual({ [titled.session.id]: "Deploy the staging config", [untitled.session.id]: "ext-untitled" });
    expect(await sessionNames(mine.id, [])).toEqual({});
  });
});

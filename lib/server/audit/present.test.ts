import { describe, expect, it } from "vitest";
import { actInWords, KNOWN_ACTS } from "./acts";
import type { AuditRow } from "./page";
import { presentAuditEvent } from "./present";

const SPAN = "0b7e9d2c-1111-4a2b-9c3d-000000000001";
const SPAN2 = "0b7e9d2c-1111-4a2b-9c3d-000000000002";
const SESSION = "5e55e55e-2222-4a2b-9c3d-000000000003";
const PROJECT = "9f9f9f9f-3333-4a2b-9c3d-000000000004";

function row(over: Partial<AuditRow>): AuditRow {
  return {
    id: "e0e0e0e0-4444-4a2b-9c3d-000000000005",
    at: new Date("2026-12-02T11:20:33.000Z"),
    actorType: "USER",
    actorLabel: "ada@example.com",
    act: "original.pin",
    targetType: "span",
    targetId: SPAN,
    before: { pinned: false },
    after: { pinned: true },
    reason: null,
    ...over,
  };
}

describe("acts in words", () => {
  it("every act the log's typed union knows has its own words, not its code", () => {
    expect(KNOWN_ACTS.length).toBeGreaterThanOrEqual(16);
    for (const act of KNOWN_ACTS) {
      const words = actInWords(act);
      expect(words, act).not.toBe(act);
      expect(words, act).toMatch(/^[A-Z][a-z]/);
    }
    expect(new Set(KNOWN_ACTS.map(actInWords)).size).toBe(KNOWN_ACTS.length);
  });

  it("a code this build does not know still reads as words", () => {
    expect(actInWords("widget.frob_all")).toBe("Widget frob all");
    expect(actInWords("original.pin")).toBe("Pinned original");
  });
});

describe("presentAuditEvent", () => {
  it("a pin: who, the act in words with its code, the span linked under the project, before -> after", () => {
    const view = presentAuditEvent(row({ reason: "legal hold" }), "acme");
    expect(view.who).toEqual({ label: "ada@example.com", type: "USER", typeInWords: "person" });
    expect(view.act).toEqual({ code: "original.pin", words: "Pinned original" });
    expect(view.target).toEqual({ type: "span", id: SPAN, label: "span 0b7e9d2c", href: `/projects/acme/spans/${SPAN}` });
    expect(view.changes).toEqual([{ field: "pinned", before: { text: "no" }, after: { text: "yes" } }]);
    expect(view.reason).toBe("legal hold");
    expect(view.when.toISOString()).toBe("2026-12-02T11:20:33.000Z");
  });

  it("times read as the dashboard writes them; a missing expiry is 'none'", () => {
    const view = presentAuditEvent(
      row({ act: "original.extend", before: { expiresAt: null }, after: { expiresAt: "2027-01-05T08:00:00.000Z" } }),
      "acme",
    );
    expect(view.act.words).toBe("Extended original's expiry");
    expect(view.changes).toEqual([{ field: "expiresAt", before: { text: "none" }, after: { text: "2027-01-05 08:00 UTC" } }]);
  });

  it("a bulk pin names its spans as a count, every span listed and linked behind it", () => {
    const view = presentAuditEvent(
      row({
        act: "originals.pin",
        targetType: "project",
        targetId: PROJECT,
        after: {
          pinned: true,
          spans: [
            { sessionId: SESSION, spanId: SPAN },
            { sessionId: SESSION, spanId: SPAN2 },
          ],
        },
      }),
      "acme",
    );
    expect(view.target).toMatchObject({ label: "this project", href: "/projects/acme" });
    const spans = view.changes.find((c) => c.field === "spans")!;
    expect(spans.before).toBeNull();
    expect(spans.after!.text).toBe("2 spans");
    expect(spans.after!.items).toEqual([
      { text: SPAN, href: `/projects/acme/spans/${SPAN}` },
      { text: SPAN2, href: `/projects/acme/spans/${SPAN2}` },
    ]);
  });

  it("a bulk extend keeps each span's earlier expiry in its list", () => {
    const view = presentAuditEvent(
      row({
        act: "originals.extend",
        targetType: "project",
        targetId: PROJECT,
        before: { spans: [{ sessionId: SESSION, spanId: SPAN, expiresAt: "2026-12-10T00:00:00.000Z" }] },
        after: { expiresAt: "2027-03-01T00:00:00.000Z", spans: [{ sessionId: SESSION, spanId: SPAN }] },
      }),
      "acme",
    );
    const spans = view.changes.find((c) => c.field === "spans")!;
    expect(spans.before!.items![0]!.text).toBe(`${SPAN} (expiry was 2026-12-10 00:00 UTC)`);
    expect(spans.after!.text).toBe("1 span");
  });

  it("the sweeper and a damaged original: system actor, spans moved to LOST summarised", () => {
    const view = presentAuditEvent(
      row({
        act: "original.sweep",
        actorType: "SYSTEM",
        actorLabel: "sweeper",
        before: { expiresAt: "2026-12-01T00:00:00.000Z", present: true },
        after: { present: false, movedToLost: [SPAN, SPAN2] },
      }),
      "acme",
    );
    expect(view.who.typeInWords).toBe("system");
    expect(view.act.words).toBe("Deleted expired original");
    expect(view.changes.map((c) => c.field)).toEqual(["expiresAt", "present", "movedToLost"]);
    expect(view.changes[2]!.after!.text).toBe("2 spans");
    const damaged = presentAuditEvent(
      row({ act: "original.hash_mismatch", before: { verified: true }, after: { verified: false, movedToLost: [] } }),
      "acme",
    );
    expect(damaged.changes).toEqual([
      { field: "verified", before: { text: "yes" }, after: { text: "no" } },
      { field: "movedToLost", before: null, after: { text: "no spans" } },
    ]);
  });

  it("a policy change lists only the fields that changed, dotted, and links the policy history", () => {
    const policy = { evidenceHorizonDays: 30, ttlDays: { NARRATIVE: 7, STRUCTURED: 30, SIDE_EFFECTING: 90 } };
    const view = presentAuditEvent(
      row({
        act: "policy.update",
        targetType: "project",
        targetId: PROJECT,
        before: { ...policy, version: 3, systemConfigPrefixes: ["/etc"] },
        after: {
          ...policy,
          ttlDays: { ...policy.ttlDays, SIDE_EFFECTING: 120 },
          version: 4,
          systemConfigPrefixes: ["/etc", "~/.ssh"],
          changes: [{ field: "ttlDays.SIDE_EFFECTING", before: 90, after: 120, narrowing: false }],
          redated: 1200,
        },
      }),
      "acme",
    );
    expect(view.target).toEqual({
      type: "project",
      id: PROJECT,
      label: "retention policy version 4",
      href: "/projects/acme/retention/history",
    });
    expect(view.changes).toEqual([
      { field: "ttlDays.SIDE_EFFECTING", before: { text: "90" }, after: { text: "120" } },
      { field: "version", before: { text: "3" }, after: { text: "4" } },
      {
        field: "systemConfigPrefixes",
        before: { text: "/etc", items: [{ text: "/etc" }] },
        after: { text: "/etc, ~/.ssh", items: [{ text: "/etc" }, { text: "~/.ssh" }] },
      },
      { field: "redated", before: null, after: { text: "1,200" } },
    ]);
    expect(presentAuditEvent(row({ act: "policy.rollback", targetType: "project", after: {} }), "acme").act.words).toBe(
      "Rolled back retention policy",
    );
  });

  it("keys and people link to settings, named by prefix and email", () => {
    const key = presentAuditEvent(
      row({
        act: "api_key.create",
        targetType: "api_key",
        targetId: "k1",
        before: null,
        after: { name: "ci", prefix: "cus_ab12", role: "OPERATOR" },
      }),
      "acme",
    );
    expect(key.target).toEqual({ type: "api_key", id: "k1", label: "API key cus_ab12", href: "/projects/acme/settings" });
    expect(key.changes.map((c) => [c.field, c.before, c.after?.text])).toEqual([
      ["name", null, "ci"],
      ["prefix", null, "cus_ab12"],
      ["role", null, "OPERATOR"],
    ]);
    const revoked = presentAuditEvent(
      row({
        act: "api_key.revoke",
        targetType: "api_key",
        targetId: "k1",
        before: { revokedAt: null },
        after: { revokedAt: "2026-12-03T09:00:00Z" },
      }),
      "acme",
    );
    expect(revoked.target.label).toBe("API key k1");
    expect(revoked.changes[0]!.after!.text).toBe("2026-12-03 09:00 UTC");
    const invited = presentAuditEvent(
      row({
        act: "user.invite",
        targetType: "user",
        targetId: "u1",
        before: null,
        after: { email: "bo@example.com", role: "VIEWER" },
      }),
      "acme",
    );
    expect(invited.target).toEqual({ type: "user", id: "u1", label: "bo@example.com", href: "/projects/acme/settings" });
    const role = presentAuditEvent(
      row({ act: "user.role", targetType: "user", targetId: "u1", before: { role: "VIEWER" }, after: { role: "ADMIN" } }),
      "acme",
    );
    expect(role.target.label).toBe("person u1");
    expect(role.changes).toEqual([{ field: "role", before: { text: "VIEWER" }, after: { text: "ADMIN" } }]);
  });

  it("projects, members and saved questions: named from the event, linked where they are managed", () => {
    const created = presentAuditEvent(
      row({
        act: "project.create",
        targetType: "project",
        targetId: PROJECT,
        before: null,
        after: { slug: "acme", name: "Acme" },
      }),
      "acme",
    );
    expect(created.target).toMatchObject({ label: "project acme", href: "/projects/acme" });
    expect(created.act.words).toBe("Created project");
    const added = presentAuditEvent(
      row({
        act: "member.add",
        targetType: "user",
        targetId: "u1",
        before: null,
        after: { email: "bo@example.com", role: "VIEWER", created: true },
      }),
      "acme",
    );
    expect(added.target).toEqual({ type: "user", id: "u1", label: "bo@example.com", href: "/projects/acme/settings" });
    expect(added.changes.find((c) => c.field === "created")!.after).toEqual({ text: "yes" });
    const removed = presentAuditEvent(
      row({
        act: "member.remove",
        targetType: "user",
        targetId: "u1",
        before: { email: "bo@example.com", role: "VIEWER" },
        after: null,
      }),
      "acme",
    );
    expect(removed.target.label).toBe("bo@example.com");
    expect(removed.changes).toEqual([
      { field: "email", before: { text: "bo@example.com" }, after: null },
      { field: "role", before: { text: "VIEWER" }, after: null },
    ]);
    const saved = presentAuditEvent(
      row({
        act: "question.save",
        targetType: "saved_question",
        targetId: "q1",
        before: null,
        after: { title: "Touched /etc?", predicate: { kind: "PATH", prefix: "/etc" } },
      }),
      "acme",
    );
    expect(saved.target).toEqual({
      type: "saved_question",
      id: "q1",
      label: "question “Touched /etc?”",
      href: "/projects/acme/evidence",
    });
    expect(saved.changes.map((c) => c.field)).toEqual(["title", "predicate.kind", "predicate.prefix"]);
  });

  it("an evidence export and a compaction: nested fields dotted, session lists linked", () => {
    const exported = presentAuditEvent(
      row({
        act: "evidence.export",
        actorType: "API_KEY",
        actorLabel: "cus_ab12",
        targetType: "project",
        targetId: PROJECT,
        before: null,
        after: {
          question: { id: "q1", title: "Touched system config?", anyOf: [{ kind: "PATH", prefix: "/etc" }] },
          scope: { sessionIds: [SESSION], from: "2026-11-01T00:00:00.000Z" },
          format: "json",
          answer: "YES",
          citations: 3,
        },
      }),
      "acme",
    );
    expect(exported.who.typeInWords).toBe("API key");
    expect(exported.target).toMatchObject({ label: "evidence answer", href: "/projects/acme/evidence" });
    const fields = Object.fromEntries(exported.changes.map((c) => [c.field, c.after]));
    expect(fields["question.title"]).toEqual({ text: "Touched system config?" });
    expect(fields["question.anyOf"]!.text).toBe('{"kind":"PATH","prefix":"/etc"}');
    expect(fields["scope.sessionIds"]).toEqual({
      text: "1 session",
      items: [{ text: SESSION, href: `/projects/acme/sessions/${SESSION}` }],
    });
    expect(fields["scope.from"]).toEqual({ text: "2026-11-01 00:00 UTC" });
    expect(fields.citations).toEqual({ text: "3" });

    const compaction = presentAuditEvent(
      row({
        act: "reclamation.commit",
        targetType: "session",
        targetId: SESSION,
        before: null,
        after: {
          reclamationId: "r1",
          observed: true,
          summarySpanId: null,
          verdicts: { ALLOW: 2 },
          replacedSpanIds: [SPAN, SPAN2],
          refusedSpanIds: [],
        },
      }),
      "acme",
    );
    expect(compaction.target).toEqual({
      type: "session",
      id: SESSION,
      label: "session 5e55e55e",
      href: `/projects/acme/sessions/${SESSION}`,
    });
    const after = Object.fromEntries(compaction.changes.map((c) => [c.field, c.after?.text]));
    expect(after).toMatchObject({
      observed: "yes",
      summarySpanId: "none",
      "verdicts.ALLOW": "2",
      replacedSpanIds: "2 spans",
      refusedSpanIds: "no spans",
    });
  });

  it("an unknown target type reads as words without a link; slugs and ids are escaped in links", () => {
    const view = presentAuditEvent(
      row({ act: "member.add", targetType: "project_member", targetId: "m1", before: null, after: null }),
      "a b",
    );
    expect(view.target).toEqual({ type: "project_member", id: "m1", label: "project member m1", href: null });
    expect(view.changes).toEqual([]);
    expect(presentAuditEvent(row({ targetId: "x/../y" }), "a b").target.href).toBe("/projects/a%20b/spans/x%2F..%2Fy");
  });
});

describe("every act the code writes", () => {
  it("has its words: each act named in the typed union or at an audit call", async () => {
    const { readdir, readFile } = await import("node:fs/promises");
    const { join } = await import("node:path");
    const written = new Set<string>();
    const walk = async (dir: string): Promise<void> => {
      for (const entry of await readdir(dir, { withFileTypes: true })) {
        const path = join(dir, entry.name);
        if (entry.isDirectory() && entry.name !== "generated" && entry.name !== "node_modules") await walk(path);
        else if (/\.tsx?$/.test(entry.name) && !/\.test\.tsx?$/.test(entry.name)) {
          for (const match of (await readFile(path, "utf8")).matchAll(/\bact:\s*([^,;\n]+)/g))
            for (const code of match[1]!.matchAll(/"([a-z_]+\.[a-z_]+)"/g)) written.add(code[1]!);
        }
      }
    };
    await walk("lib");
    await walk("app");
    expect(written.has("original.pin") && written.has("policy.rollback") && written.has("reclamation.commit")).toBe(true);
    const known = new Set<string>(KNOWN_ACTS);
    expect([...written].filter((act) => !known.has(act))).toEqual([]);
  });
});

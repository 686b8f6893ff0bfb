import { createElement } from "react";
import { renderToStaticMarkup } from "react-dom/server";
import { describe, expect, it } from "vitest";
import type { Simulation } from "@/lib/server/what-if";
import { RetentionWhatIfByClass } from "./RetentionWhatIfByClass";

const by = (NARRATIVE: number, STRUCTURED: number, SIDE_EFFECTING: number) => ({ NARRATIVE, STRUCTURED, SIDE_EFFECTING });
const day = (date: string, freed: number, turned: number, held: number) => ({
  date,
  originalsDeleted: freed > 0 ? 1 : 0,
  bytesFreed: freed,
  bytesStored: 1000 - freed,
  storedByClass: by(0, 0, 1000 - freed),
  deletedByClass: by(0, 0, freed > 0 ? 1 : 0),
  freedByClass: by(0, 0, freed),
  turnedExpiring: by(0, 0, turned),
  expiringHeld: by(0, 0, held),
  lost: by(0, 0, freed > 0 ? 1 : 0),
  lostSessions: by(0, 0, freed > 0 ? 1 : 0),
});
const session = "0b5a3f8e-1c2d-4e5f-8a9b-0c1d2e3f4a5b";

describe("the what-if's table by class", () => {
  it("shows each class's bytes freed and spans turning EXPIRING per day, and the sessions they belong to", () => {
    const outlook = (days: ReturnType<typeof day>[], sessionsTruncated: boolean) => ({
      days,
      sessions: [{ date: "2026-12-03", sessionId: session, class: "SIDE_EFFECTING", turnedExpiring: 1, lost: 0 }],
      sessionsTruncated,
    });
    const simulation = {
      current: outlook([day("2026-12-03", 0, 0, 0), day("2026-12-04", 0, 0, 0)], false),
      proposed: outlook([day("2026-12-03", 0, 1, 1), day("2026-12-04", 740, 0, 0)], true),
    } as unknown as Simulation;
    const html = renderToStaticMarkup(
      createElement(RetentionWhatIfByClass, {
        simulation,
        sessionName: (id: string) => (id === session ? "Rotate the staging keys" : id),
        sessionHref: (id: string) => `/projects/p/sessions/${id}`,
      }),
    );
    const rows = [
      ...html.matchAll(
        /<tr><td class="when"><time[^>]*>([^<]+)<\/time><\/td><td class="one-line">([^<]+)<\/td>((?:<td class="num">[^<]*<\/td>){10})<\/tr>/g,
      ),
    ].map((m) => [m[1], m[2], [...m[3]!.matchAll(/<td class="num">([^<]*)<\/td>/g)].map((c) => c[1])]);
    expect(rows).toContainEqual(["Dec 3", "Side-effecting", ["0 B", "0", "0", "0", "1.0 kB", "0 B", "0", "1", "1", "1.0 kB"]]);
    expect(rows).toContainEqual(["Dec 4", "Side-effecting", ["0 B", "0", "0", "0", "1.0 kB", "740 B", "1", "0", "0", "260 B"]]);
    expect(html).toContain(`href="/projects/p/sessions/${session}">Rotate the staging keys</a>`);
    expect(html).not.toContain("SIDE_EFFECTING");
    expect(html).toContain("the soonest only");
  });
});

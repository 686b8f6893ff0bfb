import { EVIDENTIAL_CLASSES, type EvidentialClass, PROVENANCE_STATUSES, type ProvenanceStatus } from "./types";

export type Safety = "safe" | "neutral" | "risk" | "lost";

/**
 * How a grid cell reads at a glance: safe where the evidence is held (a durable original, or a
 * narrative one still kept), at risk where evidence is still retrievable but will not outlive its
 * horizon, lost where evidence-bearing spans can no longer be checked. Narrative spans whose original
 * is gone are neutral: the gate lets them go and no question needs them, but nothing about them is
 * kept, so they are not shown as safe either.
 */
export function cellSafety(cls: EvidentialClass, provenance: ProvenanceStatus): Safety {
  if (provenance === "DURABLE") return "safe";
  if (cls === "NARRATIVE") return provenance === "EXPIRING" ? "safe" : "neutral";
  return provenance === "EXPIRING" ? "risk" : "lost";
}

/**
 * What a session's grid shows in amber (at risk) and red (lost), by cellSafety: the numbers every
 * list of sessions gives, so that a list and the grid it summarises cannot disagree.
 */
export function gridTally(grid: Record<EvidentialClass, Record<ProvenanceStatus, number>>): { atRisk: number; lost: number } {
  const tally = { atRisk: 0, lost: 0 };
  for (const cls of EVIDENTIAL_CLASSES)
    for (const status of PROVENANCE_STATUSES) {
      const tone = cellSafety(cls, status);
      if (tone === "risk") tally.atRisk += grid[cls][status];
      if (tone === "lost") tally.lost += grid[cls][status];
    }
  return tally;
}

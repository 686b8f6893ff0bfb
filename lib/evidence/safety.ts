import type { EvidentialClass, ProvenanceStatus } from "./types";

export type Safety = "safe" | "risk" | "lost";

/**
 * How a grid cell reads at a glance: safe where the gate would reclaim (narrative anywhere, or a
 * durable original), at risk where evidence is still retrievable but will not outlive its horizon,
 * lost where evidence-bearing spans can no longer be checked.
 */
export function cellSafety(cls: EvidentialClass, provenance: ProvenanceStatus): Safety {
  if (cls === "NARRATIVE" || provenance === "DURABLE") return "safe";
  return provenance === "EXPIRING" ? "risk" : "lost";
}

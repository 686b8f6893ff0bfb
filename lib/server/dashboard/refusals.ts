import type { EvidentialClass, ProvenanceStatus } from "@/lib/evidence/types";

/** Refusals on one UTC day in one cell: the refusals chart's data. */
export interface RefusalDayCount {
  day: string;
  cellClass: EvidentialClass;
  cellProvenance: ProvenanceStatus;
  count: number;
}

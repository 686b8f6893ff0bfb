import Link from "next/link";
import { cellSafety } from "@/lib/evidence/safety";
import { EVIDENTIAL_CLASSES, PROVENANCE_STATUSES, type EvidentialClass, type ProvenanceStatus } from "@/lib/evidence/types";

const CLASS_LABEL: Record<EvidentialClass, string> = {
  NARRATIVE: "Narrative",
  STRUCTURED: "Structured",
  SIDE_EFFECTING: "Side-effecting",
};

const STATUS_LABEL: Record<ProvenanceStatus, string> = {
  DURABLE: "Durable",
  EXPIRING: "Expiring",
  LOST: "Lost",
  NONE: "No pointer",
};

export interface ProvenanceGridProps {
  counts: Record<EvidentialClass, Record<ProvenanceStatus, number>>;
  /** Where a cell links: its span list. */
  hrefFor: (cls: EvidentialClass, provenance: ProvenanceStatus) => string;
}

/** The two-axis grid: evidential class (rows) by provenance status (columns), coloured by safety. */
export function ProvenanceGrid({ counts, hrefFor }: ProvenanceGridProps) {
  return (
    <table className="grid" aria-label="Spans by evidential class and provenance status">
      <thead>
        <tr>
          <td />
          {PROVENANCE_STATUSES.map((status) => (
            <th key={status} scope="col">
              {STATUS_LABEL[status]}
            </th>
          ))}
        </tr>
      </thead>
      <tbody>
        {EVIDENTIAL_CLASSES.map((cls) => (
          <tr key={cls}>
            <th scope="row">{CLASS_LABEL[cls]}</th>
            {PROVENANCE_STATUSES.map((status) => {
              const count = counts[cls][status];
              const tone = count === 0 ? "zero" : cellSafety(cls, status);
              return (
                <td key={status} className={tone} data-cell={`${cls}:${status}`}>
                  <Link href={hrefFor(cls, status)} aria-label={`${count} ${CLASS_LABEL[cls]} spans, ${STATUS_LABEL[status]}`}>
                    {count}
                  </Link>
                </td>
              );
            })}
          </tr>
        ))}
      </tbody>
    </table>
  );
}

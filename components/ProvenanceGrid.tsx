import Link from "next/link";
import { cellSafety } from "@/lib/evidence/safety";
import { EVIDENTIAL_CLASSES, PROVENANCE_STATUSES, type EvidentialClass, type ProvenanceStatus } from "@/lib/evidence/types";

const CLASS_LABEL: Record<EvidentialClass, string> = {
  NARRATIVE: "Narrative",
  STRUCTURED: "Structured",
  SIDE_EFFECTING: "Side-effecting",
};

/** A provenance status as the grid's columns name it; the span lists and their headings say the same. */
export const STATUS_LABEL: Record<ProvenanceStatus, string> = {
  DURABLE: "Durable",
  EXPIRING: "Expiring",
  LOST: "Lost",
  NONE: "No pointer",
};

/** "12 structured spans, expiring": what a screen reader says on reaching a cell. */
export function cellName(count: number, cls: EvidentialClass, status: ProvenanceStatus): string {
  return `${count} ${CLASS_LABEL[cls].toLowerCase()} span${count === 1 ? "" : "s"}, ${STATUS_LABEL[status].toLowerCase()}`;
}

export interface ProvenanceGridProps {
  counts: Record<EvidentialClass, Record<ProvenanceStatus, number>>;
  /** Where a cell links: its span list. */
  hrefFor: (cls: EvidentialClass, provenance: ProvenanceStatus) => string;
  /** The cell whose spans the page lists now, if any. */
  current?: { class?: EvidentialClass; provenance?: ProvenanceStatus };
}

/**
 * The two-axis grid: evidential class (rows) by provenance status (columns), coloured by safety.
 * Each cell holding spans is a link, so Tab walks the cells that matter (row by row) and Enter opens
 * one; an empty cell is plain text and no stop for the keyboard.
 */
export function ProvenanceGrid({ counts, hrefFor, current }: ProvenanceGridProps) {
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
              const here = current?.class === cls && current.provenance === status;
              return (
                <td key={status} className={here ? `${tone} current` : tone} data-cell={`${cls}:${status}`}>
                  {count === 0 ? (
                    <span className="cell-count">0</span>
                  ) : (
                    <Link
                      href={hrefFor(cls, status)}
                      aria-label={cellName(count, cls, status)}
                      aria-current={here ? "true" : undefined}
                    >
                      {count}
                    </Link>
                  )}
                </td>
              );
            })}
          </tr>
        ))}
      </tbody>
    </table>
  );
}

import { humanize, provenanceWords } from "./format";

/**
 * An enum code as people read it ("side-effecting", "reclaimed honest"), with the code itself on
 * hover and to assistive technology, so the words and the API's value stay one look apart. NONE is
 * only ever a provenance status, and reads as the grid's column does ("no pointer").
 */
export function Code({ value, label }: { value: string; label?: string }) {
  return (
    <abbr className="code" title={value}>
      {label ?? (value === "NONE" ? provenanceWords(value) : humanize(value))}
    </abbr>
  );
}

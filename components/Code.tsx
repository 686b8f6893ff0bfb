import { humanize } from "./format";

/**
 * An enum code as people read it ("side-effecting", "reclaimed honest"), with the code itself on
 * hover and to assistive technology, so the words and the API's value stay one look apart.
 */
export function Code({ value, label }: { value: string; label?: string }) {
  return (
    <abbr className="code" title={value}>
      {label ?? humanize(value)}
    </abbr>
  );
}

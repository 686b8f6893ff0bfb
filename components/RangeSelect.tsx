import { RANGES, rangeWords } from "./charts/overview-series";

/**
 * The project views' time range in a filter form (?range=7d): the overview's presets, or any time.
 * Whole days (From, To) are finer and win when a form has both.
 */
export function RangeSelect({
  value,
  label = "Within",
  stacked = true,
}: {
  value: string | undefined;
  label?: string;
  /** The label on a line of its own (forms whose labels do not stack themselves). */
  stacked?: boolean;
}) {
  return (
    <label>
      {label}
      {stacked ? <br /> : null}
      <select name="range" defaultValue={value ?? ""}>
        <option value="">Any time</option>
        {RANGES.map((r) => (
          <option key={r} value={r}>
            {rangeWords(r).replace("the last ", "Last ")}
          </option>
        ))}
      </select>
    </label>
  );
}

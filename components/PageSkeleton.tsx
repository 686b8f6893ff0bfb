/**
 * What a page shows while its data loads: its heading's place, a filter bar and rows as calm grey
 * blocks (.skeleton), announced once to assistive technology. `variant` picks the page's shape so
 * nothing jumps when it arrives.
 */
/** Row widths of the placeholder list: a little uneven, as real rows are. */
const ROWS = ["100%", "92%", "84%", "99%", "91%", "83%", "98%", "90%"];
const CHARTS = ["first", "second", "third", "fourth"];

export function PageSkeleton({ label, variant = "list" }: { label: string; variant?: "list" | "detail" | "charts" }) {
  const rows = variant === "list" ? ROWS : ROWS.slice(0, 4);
  return (
    <div role="status" aria-live="polite" aria-busy="true">
      <span className="visually-hidden">{label}</span>
      <div aria-hidden="true">
        <div className="skeleton" style={{ width: "40%", height: 28 }} />
        <div className="skeleton" style={{ width: "65%", height: 16, marginBottom: 20 }} />
        {variant === "charts" ? (
          <div className="skeleton-charts">
            {CHARTS.map((chart) => (
              <div key={chart} className="skeleton" style={{ height: 180 }} />
            ))}
          </div>
        ) : (
          <>
            <div className="skeleton" style={{ height: variant === "detail" ? 180 : 56 }} />
            {rows.map((width) => (
              <div key={width} className="skeleton" style={{ height: 32, width }} />
            ))}
          </>
        )}
      </div>
    </div>
  );
}

"use client";

import { type ReactNode, useEffect, useRef } from "react";
import { filterSummary } from "./filter-count";

/** Wide enough for a list's filters to stay open above it: the phone layout's breakpoint (globals.css). */
const WIDE = "(min-width: 761px)";

/**
 * A list's filter form behind a "Filters" disclosure that says how many filters are set: closed on
 * a phone, where the open form filled the first screen, open on wider screens. The page arrives
 * closed and opens on a wide screen once its script runs; until then CSS shows the form there, so
 * a wide page does not jump.
 */
export function FilterDisclosure({ active, children }: { active: number; children: ReactNode }) {
  const details = useRef<HTMLDetailsElement>(null);
  useEffect(() => {
    const element = details.current;
    if (!element) return;
    if (window.matchMedia(WIDE).matches) element.open = true;
    element.dataset.ready = "";
  }, []);
  return (
    <details ref={details} className="filter-disclosure">
      <summary>{filterSummary(active)}</summary>
      {children}
    </details>
  );
}

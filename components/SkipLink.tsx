"use client";

import type { MouseEvent } from "react";

/**
 * The first stop for a keyboard: past the navigation, straight to the page. Every page's main content
 * carries id="main". Following a bare "#main" scrolls but leaves focus where it was (a <main> cannot
 * take focus), so the next Tab would land in the navigation again: the link focuses the main content
 * itself. Before the page's script has loaded it is still an ordinary link to #main.
 */
export function SkipLink() {
  function skip(event: MouseEvent<HTMLAnchorElement>) {
    const main = document.getElementById("main");
    if (!main) return;
    event.preventDefault();
    // Focusable by script only: it does not become a Tab stop of its own.
    if (!main.hasAttribute("tabindex")) main.setAttribute("tabindex", "-1");
    main.focus();
  }
  return (
    // biome-ignore lint/a11y/useValidAnchor: a link to #main that also moves focus there; without script it is still that link
    <a className="skip-link" href="#main" onClick={skip}>
      Skip to content
    </a>
  );
}

"use client";
import { useEffect, useRef } from "react";

/** Whether a key press was meant for a field being typed in (then `/` is just a character). */
function typing(target: EventTarget | null): boolean {
  if (!(target instanceof HTMLElement)) return false;
  return target.isContentEditable || ["INPUT", "TEXTAREA", "SELECT"].includes(target.tagName);
}

/**
 * The project's search box, on every project page: a GET form to the results page. `/` anywhere
 * outside a field puts the cursor in it.
 */
export function SearchBox({ action, defaultValue }: { action: string; defaultValue?: string }) {
  const input = useRef<HTMLInputElement>(null);
  useEffect(() => {
    function onKey(event: KeyboardEvent) {
      if (event.key !== "/" || event.ctrlKey || event.metaKey || event.altKey || typing(event.target)) return;
      event.preventDefault();
      input.current?.focus();
      input.current?.select();
    }
    window.addEventListener("keydown", onKey);
    return () => window.removeEventListener("keydown", onKey);
  }, []);
  return (
    <form method="get" action={action} className="search-box" aria-label="Search transcripts">
      <label htmlFor="project-search" className="visually-hidden">
        Search transcripts
      </label>
      <input
        ref={input}
        id="project-search"
        name="q"
        type="search"
        defaultValue={defaultValue}
        placeholder="Search transcripts (press /)"
        aria-keyshortcuts="/"
        maxLength={500}
        autoComplete="off"
      />
      <button type="submit" className="button">
        Search
      </button>
    </form>
  );
}

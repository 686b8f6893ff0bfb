import Link from "next/link";
import type { AuditEventView, ChangeValue } from "@/lib/server/audit";
import { Code } from "./Code";
import { formatCount } from "./format";
import { changeFieldLabel } from "./policy-labels";
import { type PageWindow, Pager } from "./Pager";
import { Time } from "./Time";
import "./audit-log.css";

/** A value the log holds as an enum code rather than as free text. */
const ENUM_CODE = /^[A-Z][A-Z0-9]*(?:_[A-Z0-9]+)*$/;

/** Entries of a summarised list drawn on the page; the CSV export carries every one. */
const LIST_SHOWN = 200;

/**
 * A page of the audit log: when, who, the act in words (its code on hover), the target linked,
 * what changed field by field (before -> after), and why. A table on wide screens, one card per
 * event on narrow ones (audit-log.css), with where the page is in the whole log above and below.
 */
export function AuditLogTable({
  events,
  window,
  hrefFor,
  filtered,
}: {
  events: AuditEventView[];
  window: PageWindow;
  hrefFor: (page: number) => string;
  /** Filters are set: an empty page says nothing matches rather than nothing was recorded. */
  filtered: boolean;
}) {
  if (events.length === 0)
    return (
      <div className="panel empty-state">
        {filtered ? "No event matches these filters." : "Nothing recorded yet: acts on this project will appear here."}
      </div>
    );
  return (
    <>
      <PageSummary window={window} hrefFor={hrefFor} />
      <table className="data audit-log stacked" aria-label="Audit log">
        <thead>
          <tr>
            <th scope="col">When</th>
            <th scope="col">Who</th>
            <th scope="col">Act</th>
            <th scope="col">Target</th>
            <th scope="col">Changes</th>
            <th scope="col">Reason</th>
          </tr>
        </thead>
        <tbody>
          {events.map((event) => (
            <tr key={event.id}>
              <td data-label="When" className="when">
                <Time value={event.when} />
              </td>
              <td data-label="Who">
                {event.who.label} <span className="audit-who-type">{event.who.typeInWords}</span>
              </td>
              <td data-label="Act">
                <span className="audit-act" title={event.act.code}>
                  {event.act.words}
                </span>
              </td>
              <td data-label="Target">
                {event.target.href ? (
                  <Link href={event.target.href} title={`${event.target.type} ${event.target.id}`}>
                    {event.target.label}
                  </Link>
                ) : (
                  <span title={`${event.target.type} ${event.target.id}`}>{event.target.label}</span>
                )}
              </td>
              <td data-label="Changes">
                {event.changes.length === 0 ? (
                  <span className="audit-absent">—</span>
                ) : (
                  <dl className="audit-changes">
                    {event.changes.map((change) => (
                      <div key={change.field}>
                        <dt title={change.field}>{changeFieldLabel(change.field)}</dt>
                        <dd>
                          <Value value={change.before} /> <span aria-hidden="true">→</span>
                          <span className="visually-hidden">changed to</span> <Value value={change.after} />
                        </dd>
                      </div>
                    ))}
                  </dl>
                )}
              </td>
              <td data-label="Reason">{event.reason ?? <span className="audit-absent">—</span>}</td>
            </tr>
          ))}
        </tbody>
      </table>
      <Pager label="Audit log pages" noun="Events" window={window} hrefFor={hrefFor} />
    </>
  );
}

/** "Page 3 of 12 · 581 events", with the first and last pages a click away. */
function PageSummary({ window, hrefFor }: { window: PageWindow; hrefFor: (page: number) => string }) {
  return (
    <div className="audit-log-summary">
      <p aria-live="polite">
        Page {formatCount(window.page)} of {formatCount(window.pages)} · {formatCount(window.total)}{" "}
        {window.total === 1 ? "event" : "events"}
      </p>
      {window.pages > 1 ? (
        <nav aria-label="First and last pages of the audit log">
          {window.page > 1 ? <Link href={hrefFor(1)}>First page</Link> : null}
          {window.page < window.pages ? <Link href={hrefFor(window.pages)}>Last page</Link> : null}
        </nav>
      ) : null}
    </div>
  );
}

function Value({ value }: { value: ChangeValue | null }) {
  if (!value) return <span className="audit-absent">—</span>;
  const items = value.items;
  // A list shown in full already (short prefixes) needs no second copy.
  if (!items || items.map((i) => i.text).join(", ") === value.text)
    return (
      <span className="audit-value">
        {/* A role, state or class (VIEWER, HELD) in words, its code on hover. */}
        {ENUM_CODE.test(value.text) ? <Code value={value.text} /> : value.text}
      </span>
    );
  return (
    <details className="audit-list">
      <summary>{value.text}</summary>
      <ul>
        {items.slice(0, LIST_SHOWN).map((item, i) => (
          // biome-ignore lint/suspicious/noArrayIndexKey: a list may name the same id twice
          <li key={i} className="mono">
            {item.href ? <Link href={item.href}>{item.text}</Link> : item.text}
          </li>
        ))}
        {items.length > LIST_SHOWN ? (
          <li>and {formatCount(items.length - LIST_SHOWN)} more (the CSV export lists every one)</li>
        ) : null}
      </ul>
    </details>
  );
}

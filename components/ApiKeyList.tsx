import Link from "next/link";
import type { FormAction } from "@/lib/auth/define-action";
import type { KeyListRow } from "@/lib/server/dashboard";
import { ActionForm } from "./ActionForm";
import { Code } from "./Code";
import { formatCount } from "./format";
import { type PageWindow, Pager } from "./Pager";
import { Time } from "./Time";

const STATUS_LABEL = { all: "All keys", active: "Active", revoked: "Revoked" } as const;

/**
 * A project's API keys, a page at a time with the total: filtered to active or revoked keys and
 * ordered through the URL (a GET form), each active key with a revoke button for those who may.
 */
export function ApiKeyList({
  project,
  action,
  rows,
  window,
  status,
  sort,
  hrefFor,
  revoke,
}: {
  project: string;
  /** The settings page's path. */
  action: string;
  rows: KeyListRow[];
  window: PageWindow;
  status: keyof typeof STATUS_LABEL;
  sort: "oldest" | "newest";
  hrefFor: (page: number) => string;
  /** Bound revoke action, when the person may manage keys. */
  revoke?: FormAction;
}) {
  return (
    <>
      <form
        method="get"
        action={action}
        aria-label="Filter API keys"
        style={{ display: "flex", gap: 12, alignItems: "end", margin: "8px 0" }}
      >
        <label>
          Keys
          <br />
          <select name="keys" defaultValue={status}>
            {(Object.keys(STATUS_LABEL) as Array<keyof typeof STATUS_LABEL>).map((s) => (
              <option key={s} value={s}>
                {STATUS_LABEL[s]}
              </option>
            ))}
          </select>
        </label>
        <label>
          Order
          <br />
          <select name="keysSort" defaultValue={sort}>
            <option value="oldest">Oldest first</option>
            <option value="newest">Newest first</option>
          </select>
        </label>
        <button type="submit" className="button">
          Filter
        </button>
        {status !== "all" || sort !== "oldest" ? <Link href={action}>Clear</Link> : null}
      </form>
      <p data-testid="key-total">
        {formatCount(window.total)} {status === "all" ? "" : `${status} `}key{window.total === 1 ? "" : "s"}
      </p>
      {/* Six columns scroll inside this box on a phone; a box that scrolls is reachable by keyboard. */}
      {/* biome-ignore lint/a11y/noNoninteractiveTabindex: a scrolling region must take focus to be scrolled by keyboard */}
      <section className="table-scroll" aria-label="API keys" tabIndex={0}>
        <table className="data" aria-label={`API keys of ${project}`}>
          <thead>
            <tr>
              <th>Key</th>
              <th>Name</th>
              <th>Role</th>
              <th>Created</th>
              <th>Last used</th>
              <th>Status</th>
            </tr>
          </thead>
          <tbody>
            {rows.length === 0 ? (
              <tr>
                <td colSpan={6} className="empty-state">
                  {status === "all" ? "No API keys." : `No ${status} API keys.`}
                </td>
              </tr>
            ) : (
              rows.map((k) => (
                <tr key={k.id}>
                  <td className="mono">{k.prefix}…</td>
                  <td>{k.name}</td>
                  <td>
                    <Code value={k.role} />
                  </td>
                  <td>
                    <Time value={k.createdAt} />
                  </td>
                  <td>{k.lastUsedAt ? <Time value={k.lastUsedAt} /> : "never"}</td>
                  <td>
                    {k.revokedAt ? (
                      <span className="badge lost">revoked</span>
                    ) : revoke ? (
                      <ActionForm action={revoke} label={`Revoke ${k.name}`} inline>
                        <input type="hidden" name="keyId" value={k.id} />
                        <span className="badge safe">active</span>
                        <button type="submit" className="link-button">
                          Revoke
                        </button>
                      </ActionForm>
                    ) : (
                      <span className="badge safe">active</span>
                    )}
                  </td>
                </tr>
              ))
            )}
          </tbody>
        </table>
      </section>
      <Pager label="API key pages" noun="Keys" window={window} hrefFor={hrefFor} />
    </>
  );
}

import Link from "next/link";
import { formatKindCounts, type KindCount } from "@/lib/evidence/manifest";
import { excerptText, oneLine } from "./excerpt-text";
import styles from "./SpanSays.module.css";

/** What a list row is given of a span's content: prefixes of its original and of the summary that replaced it. */
export interface SpanSaysFacts {
  toolName: string | null;
  head: Uint8Array | null;
  byteLength: number | null;
  deleteReason: string | null;
  replacedBy: { summaryId: string; head: Uint8Array | null; byteLength: number | null; dropped: KindCount[] | null } | null;
}

/**
 * A span list's "What it says" cell: one line of the span's original (a call's tool name first),
 * expandable in place to the excerpt read; for a span whose original is gone, what the summary that
 * replaced it kept and what it dropped. Everything is rendered as text (React escapes it).
 */
export function SpanSays({ facts, spanHref }: { facts: SpanSaysFacts | undefined; spanHref: string }) {
  if (!facts) return <span className={styles.none}>—</span>;
  const own = facts.head !== null && facts.byteLength !== null ? excerptText(facts.head, facts.byteLength) : null;
  const summary =
    facts.replacedBy?.head && facts.replacedBy.byteLength !== null
      ? excerptText(facts.replacedBy.head, facts.replacedBy.byteLength)
      : null;
  const dropped = facts.replacedBy ? facts.replacedBy.dropped : null;
  const tool = facts.toolName ? (
    <>
      <span className={styles.tool}>{facts.toolName}</span>{" "}
    </>
  ) : null;

  if (own) {
    const plain = !own.truncated && own.text === own.line && !facts.replacedBy;
    const line = own.line === "" ? <span className={styles.none}>(empty)</span> : own.line;
    if (plain)
      return (
        <span className={styles.line}>
          {tool}
          {line}
        </span>
      );
    return (
      <details className={styles.says}>
        <summary>
          <span className={styles.line}>
            {tool}
            {line}
          </span>
        </summary>
        <pre className={styles.text}>{own.text}</pre>
        {own.truncated ? (
          <p className={styles.note}>
            The first {own.text.length.toLocaleString("en")} characters of {facts.byteLength!.toLocaleString("en")} bytes.{" "}
            <Link href={spanHref}>Open the span</Link> for all of it.
          </p>
        ) : null}
        {facts.replacedBy ? <Replaced summary={summary} dropped={dropped} /> : null}
      </details>
    );
  }

  // No original held: what is left is what the summary that replaced the span says of it.
  const gone = facts.deleteReason ? `Original deleted (${oneLine(facts.deleteReason)})` : "No original held";
  if (!facts.replacedBy)
    return (
      <span className={styles.line}>
        {tool}
        <span className={styles.gone}>{gone}</span>
      </span>
    );
  return (
    <details className={styles.says}>
      <summary>
        <span className={styles.line}>
          {tool}
          <span className={styles.gone}>{gone}.</span>{" "}
          {summary?.line ? `Summary kept: “${summary.line}”` : "The summary's text is not held either."}
        </span>
      </summary>
      <Replaced summary={summary} dropped={dropped} />
    </details>
  );
}

function Replaced({ summary, dropped }: { summary: ReturnType<typeof excerptText> | null; dropped: KindCount[] | null }) {
  return (
    <dl className={styles.replaced}>
      {summary ? (
        <>
          <dt>The summary that replaced it says</dt>
          <dd>
            <pre className={styles.text}>{summary.text}</pre>
          </dd>
        </>
      ) : null}
      <dt>The summary dropped</dt>
      <dd data-testid="says-dropped">
        {dropped === null
          ? "not recorded"
          : dropped.length > 0
            ? formatKindCounts(dropped)
            : "nothing: its text holds every atom of the span"}
      </dd>
    </dl>
  );
}

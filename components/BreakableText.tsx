import { Fragment } from "react";

/**
 * An identifier ("runtime:claude-code", "admin@demo.local") that may wrap after its separators
 * (":", "@", "/") when its column is narrow, and nowhere else: unbroken, it held a list's column
 * wide enough to push the table past the page; broken anywhere, it read as two words.
 */
export function BreakableText({ text }: { text: string }) {
  const parts = text.split(/(?<=[:@/])/);
  return (
    <>
      {parts.map((part, i) => (
        // biome-ignore lint/suspicious/noArrayIndexKey: the parts of one fixed string, in order
        <Fragment key={i}>
          {i > 0 ? <wbr /> : null}
          {part}
        </Fragment>
      ))}
    </>
  );
}

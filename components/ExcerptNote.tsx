/**
 * Above a span's body: what part of the original is shown, how much is not, and where all of it is.
 * An original longer than one excerpt is never rendered whole into a page.
 */
export function ExcerptNote({ excerpt, href }: { excerpt: { start: number; end: number; byteLength: number }; href: string }) {
  const { start, end, byteLength } = excerpt;
  const shown = end - start;
  if (shown >= byteLength) return null;
  return (
    <p className="subtitle" data-testid="excerpt-note">
      Showing bytes {start.toLocaleString("en")}–{end.toLocaleString("en")} of {byteLength.toLocaleString("en")}:{" "}
      {(byteLength - shown).toLocaleString("en")} bytes are not shown here.{" "}
      <a href={href} download>
        Download all {byteLength.toLocaleString("en")} bytes
      </a>
    </p>
  );
}

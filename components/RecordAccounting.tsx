import { formatCount } from "./format";

/** A file's records as its import counted them: read = used + ignored + skipped. */
export function RecordAccounting({ records }: { records: { read: number; used: number; ignored: number; skipped: number } }) {
  return (
    <span data-testid="record-accounting">
      {formatCount(records.read)} records read = {formatCount(records.used)} used + {formatCount(records.ignored)} ignored +{" "}
      {records.skipped > 0 ? <span className="badge risk">{formatCount(records.skipped)} skipped</span> : "0 skipped"}
    </span>
  );
}

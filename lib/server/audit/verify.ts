import { type DbTx, db } from "@/lib/db/client";

/**
 * Checks the audit log's hash chain (a trigger builds it as rows are written: see the migration
 * `audit_chain`): rows numbered 1, 2, 3... without a gap, each row's prev_hash equal to the hash of
 * the row before it, each hash equal to sha256 over the row's canonical content recomputed now, and
 * the chain's head (kept by the same trigger) at the last row. Reads the log in batches, all in one
 * snapshot (a repeatable-read transaction), so writers meanwhile cannot make the head and the rows
 * disagree.
 */

export interface BrokenLink {
  /** The row's place in the chain (null: a row the chain never took in). */
  seq: bigint | null;
  id: string;
  act: string;
  at: Date;
  problem: string;
}

export interface ChainReport {
  rows: number;
  /** The last row's place and hash: note it elsewhere to detect later removal of the chain's tail. */
  head: { seq: bigint; hash: string } | null;
  broken: BrokenLink | null;
}

interface ChainRow {
  chain_seq: bigint | null;
  id: string;
  act: string;
  at: Date;
  prev_hash: string | null;
  hash: string | null;
  recomputed: string;
}

const BATCH = 5_000;

export async function verifyAuditChain(batch = BATCH): Promise<ChainReport> {
  return db().$transaction((tx) => verifyIn(tx, batch), {
    isolationLevel: "RepeatableRead",
    timeout: 3_600_000,
    maxWait: 30_000,
  });
}

async function verifyIn(tx: DbTx, batch: number): Promise<ChainReport> {
  let expected = 1n;
  let previous = "";
  let last: ChainRow | null = null;
  let rows = 0;
  for (;;) {
    const page = await tx.$queryRaw<ChainRow[]>`
      select a.chain_seq, a.id::text as id, a.act, a."at", a.prev_hash, a.hash, audit_log_row_hash(a) as recomputed
        from audit_log a
       where a.chain_seq >= ${expected}
       order by a.chain_seq
       limit ${batch}`;
    for (const row of page) {
      const seq = row.chain_seq!;
      if (seq !== expected) {
        const missing = seq - 1n === expected ? `row ${expected} is` : `rows ${expected} to ${seq - 1n} are`;
        return report(rows, last, row, `${missing} missing from the chain: removed after they were written`);
      }
      if (row.prev_hash !== previous) {
        return report(
          rows,
          last,
          row,
          `its link to row ${seq - 1n} does not hold (prev_hash ${short(row.prev_hash)}, row ${seq - 1n} hashes to ${short(previous)}): row ${seq - 1n} was rewritten, or rows were removed or inserted`,
        );
      }
      if (row.hash !== row.recomputed) {
        return report(
          rows,
          last,
          row,
          `its content was changed after it was written (stored hash ${short(row.hash)}, content hashes to ${short(row.recomputed)})`,
        );
      }
      previous = row.hash;
      expected = seq + 1n;
      last = row;
      rows += 1;
    }
    if (page.length < batch) break;
  }
  const [stray] = await tx.$queryRaw<ChainRow[]>`
    select chain_seq, id::text as id, act, "at", prev_hash, hash, '' as recomputed
      from audit_log where chain_seq is null or hash is null or prev_hash is null
     order by "at", id limit 1`;
  if (stray) return report(rows, last, stray, "it is not in the chain: written past the chain's trigger");
  const [head] = await tx.$queryRaw<Array<{ seq: bigint; hash: string }>>`select seq, hash from audit_chain_head where id = 1`;
  const lastSeq = last?.chain_seq ?? 0n;
  if (!head || head.seq !== lastSeq || head.hash !== previous) {
    return {
      rows,
      head: last ? { seq: lastSeq, hash: previous } : null,
      broken: {
        seq: lastSeq + 1n,
        id: "",
        act: "",
        at: last?.at ?? new Date(0),
        problem: head
          ? `the chain ends at row ${lastSeq} but its head records row ${head.seq}: rows after ${lastSeq} were removed`
          : "the chain's head is missing",
      },
    };
  }
  return { rows, head: last ? { seq: lastSeq, hash: previous } : null, broken: null };
}

function report(rows: number, last: ChainRow | null, row: ChainRow, problem: string): ChainReport {
  return {
    rows,
    head: last ? { seq: last.chain_seq!, hash: last.hash! } : null,
    broken: { seq: row.chain_seq, id: row.id, act: row.act, at: row.at, problem },
  };
}

function short(hash: string | null): string {
  return hash === null ? "none" : hash === "" ? "(start)" : `${hash.slice(0, 12)}…`;
}

/** The report in the lines `custodian audit verify` prints. */
export function describeChainReport(report: ChainReport): string {
  if (!report.broken) {
    return report.head
      ? `Audit log intact: ${report.rows} rows in one chain; head row ${report.head.seq}, sha256 ${report.head.hash}.`
      : "Audit log intact: no rows yet.";
  }
  const b = report.broken;
  const where = b.id
    ? `row ${b.seq ?? "(unchained)"} (${b.act}, id ${b.id}, at ${b.at.toISOString()})`
    : `after row ${(b.seq ?? 1n) - 1n}`;
  return `Audit log chain BROKEN at ${where}: ${b.problem}.\n${report.rows} rows before it verified.`;
}

import { randomUUID } from "node:crypto";
import pg from "pg";
import { describe, expect, it } from "vitest";
import { ownerDatabaseUrl } from "@/lib/db/test-database";
import { db } from "@/lib/db/client";
import { type AuditEntry, writeAudit, writeAudits } from "./write";
import { describeChainReport, verifyAuditChain } from "./verify";

const ownerUrl = ownerDatabaseUrl();

async function withClient<T>(url: string, fn: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return await fn(client);
  } finally {
    await client.end();
  }
}

/** Runs `sql` and gives back the error Postgres answered with (or null if it ran). */
async function refusal(client: pg.Client, sql: string): Promise<string | null> {
  try {
    await client.query(sql);
    return null;
  } catch (error) {
    return (error as Error).message;
  }
}

function entry(label: string): AuditEntry {
  return {
    projectId: null,
    actor: { type: "SYSTEM", label },
    act: "user.role",
    targetType: "user",
    targetId: randomUUID(),
    before: { role: "VIEWER" },
    after: { role: "OPERATOR" },
    reason: `chain test ${label}`,
  };
}

/** As the owner, past every trigger, as someone covering their tracks would. */
async function asOwnerQuietly(sql: string, values: unknown[] = []) {
  await withClient(ownerUrl, async (owner) => {
    await owner.query("begin");
    await owner.query("set local session_replication_role = replica");
    await owner.query(sql, values);
    await owner.query("commit");
  });
}

describe("the audit log at the database", () => {
  it("the application's role cannot erase, rewrite or unprotect the audit log", async () => {
    await writeAudit(db(), entry("before-attacks"));
    await withClient(process.env.DATABASE_URL!, async (app) => {
      const { rows } = await app.query(
        "select current_user as role, (select rolsuper from pg_roles where rolname = current_user) as super",
      );
      expect(rows[0]).toEqual({ role: "custodian_test_app", super: false });
      const attacks = [
        "truncate audit_log",
        "truncate audit_log cascade",
        "update audit_log set reason = 'rewritten'",
        "delete from audit_log",
        "alter table audit_log disable trigger audit_log_append_only",
        "alter table audit_log disable trigger all",
        "drop trigger audit_log_append_only on audit_log",
        "drop trigger audit_log_chain on audit_log",
        "create trigger quiet before insert on audit_log for each row execute function audit_log_chain()",
        "drop table audit_log",
        "alter table audit_log rename to audit_log_old",
        "update audit_chain_head set seq = 0, hash = ''",
        "delete from audit_chain_head",
        "create or replace function audit_log_row_hash(r audit_log) returns text language sql as $$ select r.hash $$",
      ];
      for (const sql of attacks) expect(await refusal(app, sql), sql).toMatch(/permission denied|must be owner/);
      // What it may do: append and read.
      expect(await refusal(app, "select count(*) from audit_log")).toBeNull();
    });
    // The owner is stopped by the triggers too, short of switching them off.
    await withClient(ownerUrl, async (owner) => {
      expect(await refusal(owner, "truncate audit_log cascade")).toMatch(/append-only/);
      expect(await refusal(owner, "delete from audit_log")).toMatch(/append-only/);
    });
    expect((await verifyAuditChain()).broken).toBeNull();
  });

  it("concurrent writers extend one chain: no fork, no gap", async () => {
    const writers = Array.from({ length: 24 }, (_, i) =>
      db().$transaction(
        async (tx) => {
          await writeAudit(tx, entry(`concurrent-${i}`));
          // Hold the transaction open a moment so writers overlap.
          await tx.$executeRaw`select pg_sleep(0.01)`;
          await writeAudit(tx, entry(`concurrent-${i}-second`));
        },
        { maxWait: 30_000, timeout: 30_000 },
      ),
    );
    // One statement of many rows, as the sweeper writes them, at the same time.
    const bulk = writeAudits(db(), [entry("bulk-1"), entry("bulk-2"), entry("bulk-3")]);
    await Promise.all([...writers, bulk]);
    const forks = await db().$queryRaw<Array<{ n: bigint }>>`
      select count(*) as n from (select prev_hash from audit_log group by prev_hash having count(*) > 1) f`;
    expect(forks[0]!.n).toBe(0n);
    const report = await verifyAuditChain(7);
    expect(report.broken).toBeNull();
    expect(BigInt(report.rows)).toBe(report.head!.seq);
    expect(await db().auditLog.count()).toBe(report.rows);
  });

  it("audit verify names the first row the owner edited, and a row the owner removed", async () => {
    await writeAudit(db(), entry("edited"));
    await writeAudit(db(), entry("removed"));
    await writeAudit(db(), entry("after"));
    const edited = await db().auditLog.findFirstOrThrow({ where: { actorLabel: "edited" } });
    const removed = await db().auditLog.findFirstOrThrow({ where: { actorLabel: "removed" } });
    expect((await verifyAuditChain()).broken).toBeNull();

    await asOwnerQuietly("update audit_log set reason = 'nothing to see' where id = $1", [edited.id]);
    const afterEdit = await verifyAuditChain();
    expect(afterEdit.broken).toMatchObject({ seq: edited.chainSeq, id: edited.id });
    expect(afterEdit.broken!.problem).toMatch(/content was changed/);
    expect(describeChainReport(afterEdit)).toMatch(new RegExp(`BROKEN at row ${edited.chainSeq} \\(user.role, id ${edited.id}`));

    // Rehashing the edited row does not help: the next row's link no longer holds.
    await asOwnerQuietly("update audit_log set hash = audit_log_row_hash(audit_log) where id = $1", [edited.id]);
    const rehashed = await verifyAuditChain();
    expect(rehashed.broken).toMatchObject({ seq: removed.chainSeq });
    expect(rehashed.broken!.problem).toMatch(/link to row/);

    // Put the edited row back as it was, then remove the next one.
    await asOwnerQuietly("update audit_log set reason = $2, hash = $3 where id = $1", [edited.id, edited.reason, edited.hash]);
    expect((await verifyAuditChain()).broken).toBeNull();
    await asOwnerQuietly("delete from audit_log where id = $1", [removed.id]);
    const afterDelete = await verifyAuditChain();
    expect(afterDelete.broken!.seq).toBe(removed.chainSeq! + 1n);
    expect(afterDelete.broken!.problem).toMatch(new RegExp(`row ${removed.chainSeq} is missing`));

    // Restored, the chain holds again (the rest of the run writes on).
    await asOwnerQuietly(
      `insert into audit_log (id, project_id, actor_type, actor_id, actor_label, act, target_type, target_id, before, after, reason, at, chain_seq, prev_hash, hash)
       values ($1, $2, $3::"ActorType", $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15)`,
      [
        removed.id,
        removed.projectId,
        removed.actorType,
        removed.actorId,
        removed.actorLabel,
        removed.act,
        removed.targetType,
        removed.targetId,
        JSON.stringify(removed.before),
        JSON.stringify(removed.after),
        removed.reason,
        removed.at.toISOString(),
        removed.chainSeq,
        removed.prevHash,
        removed.hash,
      ],
    );
    expect((await verifyAuditChain()).broken).toBeNull();
  });
});

/**
 * Database clients: DB_WRITE when the statements they run write (INSERT, UPDATE, DELETE, DDL...),
 * read-only when every statement we can see only reads. Statements we cannot see (a script
 * file, a pipe from another program) count as writes: not known to be read-only.
 */
import { optionValue, parseArgs } from "../options";
import type { Word } from "../tokenize";
import { effect, type CommandCall, type CommandResult, type Handler } from "../types";

/** SQL that writes. "SELECT ... FOR UPDATE" also matches: a lock is close enough to a write. */
export const SQL_WRITE =
  /\b(?:INSERT|UPDATE|DELETE|MERGE|UPSERT|REPLACE\s+INTO|CREATE|DROP|ALTER|TRUNCATE|GRANT|REVOKE|RENAME|COPY\s+[\w."]+\s*(?:\([^)]*\)\s*)?FROM|VACUUM|REINDEX|CLUSTER|COMMENT\s+ON|ATTACH|DETACH|LOAD\s+DATA|CALL|EXEC(?:UTE)?|SET\s+(?!search_path|statement_timeout|timezone)\w+)\b|\\(?:copy\s+\S+\s+from|i|ir|include)\b|^\s*\.(?:import|read|restore)\b/im;

export function sqlWrites(sql: string): boolean {
  return SQL_WRITE.test(sql);
}

interface ClientSpec {
  short: string;
  long: string[];
  /** Options whose value is SQL ("c", "command", "e", "execute"). */
  sql: string[];
  /** Options whose value is a script file. */
  file: string[];
  /** Options that only list or print (no statements run). */
  list: string[];
}

const PSQL: ClientSpec = {
  short: "cdfhpUvoPFRTLSW",
  long: [
    "command",
    "dbname",
    "file",
    "host",
    "port",
    "username",
    "set",
    "variable",
    "output",
    "pset",
    "field-separator",
    "record-separator",
    "table-attr",
    "log-file",
  ],
  sql: ["c", "command"],
  file: ["f", "file"],
  list: ["l", "list", "V", "version"],
};
const MYSQL: ClientSpec = {
  short: "eDhPuSpB",
  long: ["execute", "database", "host", "port", "user", "socket", "password", "defaults-file", "init-command"],
  sql: ["e", "execute", "init-command"],
  file: [],
  list: ["V", "version", "help"],
};

function client(spec: ClientSpec): Handler {
  return (c) => {
    const p = parseArgs(c.args, { short: spec.short, long: spec.long });
    if (spec.list.some((n) => p.opts.has(n))) return { findings: [], consumed: c.args };
    const sql: string[] = [];
    const consumed: Word[] = [...p.operands];
    for (const o of p.all) {
      if (!o.value) continue;
      if (spec.sql.includes(o.name)) {
        const v = optionValue(o.value, o.name)!;
        sql.push(v.word.value.slice(v.offset));
        consumed.push(o.value);
      } else if (spec.file.includes(o.name)) {
        return { findings: [effect("DB_WRITE", "shell.db-script")], reads: [o.value] };
      } else if (o.name !== "o" && o.name !== "output" && o.name !== "L" && o.name !== "log-file") consumed.push(o.value);
    }
    return judge(c, sql, consumed);
  };
}

function judge(c: CommandCall, sql: string[], consumed: Word[], reads: Word[] = []): CommandResult {
  const stdin = stdinSql(c);
  if (stdin === undefined && sql.length === 0) return { findings: [], consumed, reads };
  if (stdin === null || [...sql, stdin ?? ""].some(sqlWrites)) {
    return { findings: [effect("DB_WRITE", stdin === null ? "shell.db-script" : "shell.db-write")], consumed, reads };
  }
  return { findings: [], consumed, reads };
}

/** SQL arriving on stdin: its text, null when it cannot be seen, undefined when there is none. */
function stdinSql(c: CommandCall): string | null | undefined {
  const s = c.stdin;
  if (!s) return undefined;
  if (s.kind === "heredoc") {
    s.consume();
    return s.text.s;
  }
  if (s.kind === "herestring") return s.word.value;
  return s.literal;
}

export const psql = client(PSQL);
export const mysql = client(MYSQL);

/** sqlite3 [options] DB [SQL...]: the database file, then statements. */
export const sqlite3: Handler = (c) => {
  const p = parseArgs(c.args, { short: "", long: ["cmd", "init", "separator", "nullvalue", "newline"] });
  const [db, ...stmts] = p.operands;
  const sql = stmts.map((w) => w.value);
  for (const o of p.all) if ((o.name === "cmd" || o.name === "init") && o.value) sql.push(o.value.value);
  return judge(c, sql, stmts, db ? [db] : []);
};

const MONGO_WRITE =
  /\.(?:insert\w*|update\w*|delete\w*|drop\w*|create\w*|replace\w*|save|remove|rename\w*|bulkWrite|findOneAnd\w+)\s*\(/;

export const mongosh: Handler = (c) => {
  const p = parseArgs(c.args, {
    short: "hpu",
    long: ["eval", "host", "port", "username", "password", "file", "authenticationDatabase"],
  });
  const code = p.all.filter((o) => o.name === "eval" && o.value).map((o) => o.value!.value);
  if (p.opts.has("file") || p.operands.some((w) => w.value.endsWith(".js")))
    return { findings: [effect("DB_WRITE", "shell.db-script")] };
  const stdin = stdinSql(c);
  if (stdin === null || [...code, stdin ?? ""].some((s) => MONGO_WRITE.test(s)))
    return { findings: [effect("DB_WRITE", "shell.db-write")], consumed: c.args };
  return { findings: [], consumed: c.args };
};

const REDIS_WRITES = new Set(
  "SET SETEX PSETEX SETNX MSET MSETNX GETSET GETDEL APPEND INCR INCRBY INCRBYFLOAT DECR DECRBY DEL UNLINK EXPIRE EXPIREAT PEXPIRE PERSIST RENAME RENAMENX HSET HSETNX HMSET HDEL HINCRBY LPUSH RPUSH LPOP RPOP LSET LREM LTRIM LINSERT SADD SREM SPOP SMOVE ZADD ZREM ZINCRBY ZPOPMIN ZPOPMAX XADD XDEL XTRIM FLUSHALL FLUSHDB RESTORE MIGRATE MOVE COPY CONFIG EVAL EVALSHA FUNCTION SCRIPT PUBLISH SWAPDB SHUTDOWN".split(
    " ",
  ),
);

export const redisCli: Handler = (c) => {
  const p = parseArgs(c.args, { short: "hpansu", long: ["user", "pass", "tls", "cacert"] });
  const cmd = p.operands[0]?.value.toUpperCase();
  if (cmd === undefined) {
    const stdin = stdinSql(c);
    if (stdin === undefined) return { findings: [], consumed: c.args };
    const writes = stdin === null || stdin.split("\n").some((l) => REDIS_WRITES.has(l.trim().split(/\s+/)[0]!.toUpperCase()));
    return writes ? { findings: [effect("DB_WRITE", "shell.db-write")], consumed: c.args } : { findings: [], consumed: c.args };
  }
  return REDIS_WRITES.has(cmd)
    ? { findings: [effect("DB_WRITE", "shell.db-write")], consumed: c.args }
    : { findings: [], consumed: c.args };
};

/**
 * CPU time spent by a run, which a machine loaded by others disturbs far less than wall time: the
 * server's (this process through process.cpuUsage, or a server process and its children through
 * /proc/<pid>/stat) and the database's (every backend of the database but the one asking, through
 * /proc/<pid>/stat; Linux only, and only where the database runs on this machine).
 */
import { readdirSync, readFileSync } from "node:fs";
import type pg from "pg";

/** Clock ticks per second of /proc/<pid>/stat (USER_HZ: 100 on every Linux build in use). */
const TICKS_PER_SECOND = 100;

export interface CpuSnapshot {
  /** Milliseconds of CPU of the server so far. */
  server: number;
  /** Milliseconds of CPU of each database backend so far, by pid. */
  backends: Map<number, number>;
}

export interface CpuSpent {
  server: number;
  /** Null where the database's backends cannot be read (another machine, or no /proc). */
  db: number | null;
}

/** utime + stime of a process, in ms; null when it is gone or unreadable. */
function processCpuMs(pid: number): number | null {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
    // The command name (field 2) is in parentheses and may hold spaces: count fields after it.
    const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
    return ((Number(fields[11]) + Number(fields[12])) * 1000) / TICKS_PER_SECOND;
  } catch {
    return null;
  }
}

/** The CPU of a process and every process below it, in ms. */
function treeCpuMs(root: number): number {
  const parents = new Map<number, number>();
  for (const name of readdirSync("/proc")) {
    if (!/^\d+$/.test(name)) continue;
    try {
      const stat = readFileSync(`/proc/${name}/stat`, "utf8");
      parents.set(Number(name), Number(stat.slice(stat.lastIndexOf(")") + 2).split(" ")[1]));
    } catch {
      // gone meanwhile
    }
  }
  const inTree = new Set([root]);
  for (let grew = true; grew; ) {
    grew = false;
    for (const [pid, parent] of parents)
      if (!inTree.has(pid) && inTree.has(parent)) {
        inTree.add(pid);
        grew = true;
      }
  }
  let ms = 0;
  for (const pid of inTree) ms += processCpuMs(pid) ?? 0;
  return ms;
}

/**
 * Reads CPU snapshots: `client` is a connection of its own to the measured database (its backend is
 * left out; none for a database inside this process, such as the embedded one, whose CPU is then the
 * server's); `serverPid` a server process to read instead of this one.
 */
export class CpuMeter {
  private readable = true;

  constructor(
    private readonly client: pg.ClientBase | undefined,
    private readonly serverPid?: number,
  ) {
    this.readable = client !== undefined;
  }

  async snapshot(): Promise<CpuSnapshot> {
    const server = this.serverPid ? treeCpuMs(this.serverPid) : cpuOfThisProcess();
    const backends = new Map<number, number>();
    if (this.readable && this.client) {
      const { rows } = await this.client.query<{ pid: number }>(
        "select pid from pg_stat_activity where datname = current_database() and pid <> pg_backend_pid()",
      );
      for (const { pid } of rows) {
        const ms = processCpuMs(pid);
        if (ms === null) continue;
        backends.set(pid, ms);
      }
      if (rows.length > 0 && backends.size === 0) this.readable = false; // the database is elsewhere
    }
    return { server, backends };
  }

  /** What was spent between two snapshots; a backend that started between them counts from zero. */
  spent(before: CpuSnapshot, after: CpuSnapshot): CpuSpent {
    let db = 0;
    for (const [pid, ms] of after.backends) db += ms - (before.backends.get(pid) ?? 0);
    return { server: after.server - before.server, db: this.readable ? db : null };
  }
}

function cpuOfThisProcess(): number {
  const u = process.cpuUsage();
  return (u.user + u.system) / 1000;
}

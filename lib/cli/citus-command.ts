import { parseArgs } from "node:util";
import pg from "pg";
import { AppError } from "@/lib/core/errors";
import { type CitusNode, distribute } from "@/lib/db/citus";
import { parseDatabaseUrl } from "@/lib/db/pg-pool";

export const CITUS_USAGE = `  citus distribute [--worker <host:port>]... [--shard-count <n>]
                      On a Citus coordinator (DATABASE_URL, as the schema's owner, migrated): the
                      distributed layout, by session (docs/citus.md). Adds the workers named that
                      this database does not know yet. Idempotent.
`;

function nodeOf(text: string): CitusNode {
  const match = /^(.+):(\d+)$/.exec(text);
  if (!match) throw new AppError("VALIDATION_FAILED", `--worker must be host:port, got "${text}"`);
  return { host: match[1] as string, port: Number(match[2]) };
}

/** `custodian citus distribute`: needs a PostgreSQL DATABASE_URL (the embedded database is one node). */
export async function runCitusCommand(action: string | undefined, args: string[]): Promise<void> {
  if (action !== "distribute") throw new AppError("INVALID_REQUEST", `Usage:\n${CITUS_USAGE}`);
  const { values } = parseArgs({
    args,
    options: { worker: { type: "string", multiple: true }, "shard-count": { type: "string" } },
  });
  const url = process.env.DATABASE_URL;
  if (!url) throw new AppError("VALIDATION_FAILED", "citus distribute needs DATABASE_URL: the coordinator's database.");
  const fields = parseDatabaseUrl(url);
  const client = new pg.Client(fields);
  await client.connect();
  try {
    const done = await distribute(
      client,
      { host: fields.host, port: fields.port },
      {
        workers: (values.worker ?? []).map(nodeOf),
        shardCount: values["shard-count"] ? Number(values["shard-count"]) : undefined,
        log: (line) => console.log(line),
      },
    );
    console.log(done.length === 0 ? "Already distributed: nothing to do." : "Distributed.");
  } finally {
    await client.end();
  }
}

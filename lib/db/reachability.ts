import pg from "pg";
import { parseDatabaseUrl } from "./pg-pool";
import { StartupError } from "./startup-error";

/** Connects once to the database at `url`, turning every failure into one line that says what to do. */
export async function assertReachable(url: string): Promise<void> {
  let fields: ReturnType<typeof parseDatabaseUrl>;
  try {
    fields = parseDatabaseUrl(url);
  } catch (error) {
    throw new StartupError(`DATABASE_URL is not a valid Postgres URL: ${(error as Error).message}`);
  }
  const client = new pg.Client({ ...fields, connectionTimeoutMillis: 5_000 });
  client.on("error", () => {});
  try {
    await client.connect();
    await client.query("select 1");
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    const where = `${fields.host}:${fields.port}/${fields.database}`;
    const hint =
      code === "3D000"
        ? `database "${fields.database}" does not exist: create it (createdb ${fields.database}) or fix DATABASE_URL`
        : code === "28P01" || code === "28000"
          ? "authentication failed: check the user and password in DATABASE_URL"
          : "start Postgres there, fix DATABASE_URL, or unset it to use the embedded database";
    throw new StartupError(`Cannot reach Postgres at ${where} (${code ?? (error as Error).message}): ${hint}.`);
  } finally {
    await client.end().catch(() => {});
  }
}

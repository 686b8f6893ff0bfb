import { randomUUID } from "node:crypto";
import { PrismaPg } from "@prisma/adapter-pg";
import { defineConfig } from "prisma/config";
import { createPool, parseDatabaseUrl, type PgConnectionFields } from "./lib/db/pg-pool";

// `prisma generate` runs at install time on machines with no database configured; without a URL
// it would try to download a native engine. The adapter below is what actually connects.
process.env.DATABASE_URL ??= "postgresql://postgres@127.0.0.1:5432/custodian";

type PgAdapter = Awaited<ReturnType<PrismaPg["connect"]>>;

/**
 * The adapter splits a migration script on every ";", which breaks dollar-quoted function bodies
 * (the audit log's append-only trigger). Postgres' simple query protocol runs a whole multi-statement
 * script in one round trip, so send it as it is.
 */
function runScriptsWhole(adapter: PgAdapter): PgAdapter {
  adapter.executeScript = async (script: string) => {
    await adapter.underlyingDriver().query(script);
  };
  return adapter;
}

/**
 * A driver adapter for the schema engine, built from discrete fields so that `migrate dev` can
 * create its own shadow database and drop it afterwards.
 */
class SchemaEngineAdapter extends PrismaPg {
  constructor(private readonly fields: PgConnectionFields) {
    super(createPool(fields, { max: 4, forSchemaEngine: true }), { disposeExternalPool: true });
  }

  override async connect() {
    return runScriptsWhole(await super.connect());
  }

  override async connectToShadowDb() {
    const admin = createPool(this.fields, { max: 1 });
    const database = `prisma_shadow_${randomUUID().replace(/-/g, "")}`;
    await admin.query(`CREATE DATABASE "${database}"`);
    const shadowFactory = new PrismaPg(createPool({ ...this.fields, database }, { max: 4, forSchemaEngine: true }), {
      disposeExternalPool: true,
    });
    const shadow = runScriptsWhole(await shadowFactory.connect());
    const dispose = shadow.dispose.bind(shadow);
    shadow.dispose = async () => {
      await dispose();
      await admin.query(`DROP DATABASE IF EXISTS "${database}" WITH (FORCE)`);
      await admin.end();
    };
    return shadow;
  }
}

export default defineConfig({
  experimental: { adapter: true },
  engine: "js",
  schema: "prisma/schema.prisma",
  migrations: { path: "prisma/migrations" },
  adapter: async () => new SchemaEngineAdapter(parseDatabaseUrl(process.env.DATABASE_URL!)),
});

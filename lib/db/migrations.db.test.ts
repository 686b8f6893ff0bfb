/**
 * applyMigrations stops `migrate deploy` once it has printed its result (its process would linger
 * 10 s more): a deploy that applies everything still records every migration, and one that fails
 * still fails, whatever was printed before the failure.
 */
import { randomBytes } from "node:crypto";
import { readFileSync } from "node:fs";
import path from "node:path";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { applyMigrations, committedMigrations } from "./migrations";
import { databaseUrlFor, parseDatabaseUrl } from "./pg-pool";
import { ownerDatabaseUrl } from "./test-database";

describe("applyMigrations", () => {
  const server = parseDatabaseUrl(ownerDatabaseUrl());
  const admin = new pg.Client({ ...server, database: "postgres" });
  const names: string[] = [];

  async function scratch(): Promise<string> {
    const name = `custodian_migrate_${randomBytes(4).toString("hex")}`;
    await admin.query(`create database "${name}"`);
    names.push(name);
    return name;
  }

  async function onDatabase<T>(name: string, fn: (client: pg.Client) => Promise<T>): Promise<T> {
    const client = new pg.Client({ ...server, database: name });
    await client.connect();
    try {
      return await fn(client);
    } finally {
      await client.end();
    }
  }

  beforeAll(() => admin.connect());
  afterAll(async () => {
    for (const name of names) await admin.query(`drop database if exists "${name}" with (force)`);
    await admin.end();
  });

  it("applies every committed migration to an empty database, and then finds nothing to apply", async () => {
    const name = await scratch();
    const url = databaseUrlFor({ ...server, database: name });
    await applyMigrations(url);
    const applied = async () =>
      onDatabase(name, async (c) =>
        (
          await c.query<{ migration_name: string }>(
            "select migration_name from _prisma_migrations where finished_at is not null and rolled_back_at is null order by 1",
          )
        ).rows.map((r) => r.migration_name),
      );
    expect(await applied()).toEqual(committedMigrations());
    await applyMigrations(url);
    expect(await applied()).toEqual(committedMigrations());
  }, 120_000);

  it("fails when a migration fails, naming the error", async () => {
    const name = await scratch();
    // The first migration creates this type: it cannot while one of that name is there.
    const first = committedMigrations()[0]!;
    const created = /CREATE TYPE "(\w+)"/.exec(readFileSync(path.join("prisma", "migrations", first, "migration.sql"), "utf8"));
    expect(created, "the first migration creates a type").not.toBeNull();
    await onDatabase(name, (c) => c.query(`create type "${created![1]}" as enum ('x')`));
    await expect(applyMigrations(databaseUrlFor({ ...server, database: name }))).rejects.toThrow(
      /Applying database migrations failed: .*(P\d{4}|Error)/,
    );
  }, 120_000);
});

import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { drizzle } from 'drizzle-orm/node-postgres';
import { migrate } from 'drizzle-orm/node-postgres/migrator';
import { Client } from 'pg';
import { migrationsFolder, openDatabase } from '../../src/db/database';
import { testEnv } from '../support/env';
import { createTestDatabase } from '../support/postgres';

/**
 * Replicas started at the same moment come up together (issue 32, point 12): each opens the database and applies
 * the migrations, as the image's command does, and none crashes on another's CREATE SCHEMA or CREATE TABLE
 * (unique violations in pg_namespace / pg_type before the migrations took an advisory lock). Five replicas'
 * start-up migrations, each with a pool of its own, run at once on an empty database and on one a migration
 * behind; the schema they leave is the one a single start leaves.
 */

const describePostgres = testEnv.postgresUrl ? describe : describe.skip;
if (!testEnv.postgresUrl) console.info('replicaStarts.test.ts: skipped; set TEST_DATABASE_URL to run it on PostgreSQL');

const replicas = 5;

interface Journal {
  entries: { tag: string }[];
}
const journal = JSON.parse(readFileSync(path.join(migrationsFolder, 'meta', '_journal.json'), 'utf8')) as Journal;

/** What a database's schema is: its tables' columns and types, its indexes, and the migrations it has applied. */
async function schemaOf(url: string) {
  const client = new Client({ connectionString: url });
  await client.connect();
  try {
    const columns = await client.query(`
      select table_name, column_name, data_type, is_nullable, column_default
      from information_schema.columns where table_schema = 'public' order by table_name, column_name`);
    const indexes = await client.query(
      `select indexname, indexdef from pg_indexes where schemaname = 'public' order by 1`,
    );
    const applied = await client.query(`select hash from drizzle.__drizzle_migrations order by id`);
    return { columns: columns.rows, indexes: indexes.rows, applied: applied.rows.map((row) => row.hash as string) };
  } finally {
    await client.end();
  }
}

/** `replicas` replicas opening the database at once, as they do at start-up; each failure's message. */
async function startTogether(url: string): Promise<string[]> {
  const outcomes = await Promise.allSettled(
    Array.from({ length: replicas }, async () => {
      const database = await openDatabase({ kind: 'postgres', url, poolSize: 2 });
      await database.close();
    }),
  );
  // The database's own message (a unique violation, say) is the cause of Drizzle's "Failed query".
  const reasonOf = (error: Error) =>
    `${error.message.replace(/\s+/g, ' ').slice(0, 100)}: ${(error.cause as Error | undefined)?.message}`;
  return outcomes.flatMap((outcome) => (outcome.status === 'rejected' ? [reasonOf(outcome.reason as Error)] : []));
}

describePostgres('replicas started at the same moment', () => {
  const databases: Awaited<ReturnType<typeof createTestDatabase>>[] = [];
  const newDatabase = async () => {
    const database = await createTestDatabase();
    databases.push(database);
    return database.url;
  };
  let reference: Awaited<ReturnType<typeof schemaOf>>;
  let folderBehind: string;

  beforeAll(async () => {
    // The schema one replica starting alone leaves.
    const url = await newDatabase();
    const single = await openDatabase({ kind: 'postgres', url, poolSize: 1 });
    await single.close();
    reference = await schemaOf(url);
    // The migrations as they were one migration ago: the journal cut before the last.
    folderBehind = mkdtempSync(path.join(os.tmpdir(), 'partsyard-migrations-'));
    cpSync(migrationsFolder, folderBehind, { recursive: true });
    writeFileSync(
      path.join(folderBehind, 'meta', '_journal.json'),
      JSON.stringify({ ...journal, entries: journal.entries.slice(0, -1) }),
    );
  });
  afterAll(async () => {
    if (folderBehind) rmSync(folderBehind, { recursive: true, force: true });
    for (const database of databases) await database.drop();
  });

  it(`${replicas} replicas on an empty database all start, and the schema is that of one start`, async () => {
    const url = await newDatabase();
    expect(await startTogether(url)).toEqual([]);
    const schema = await schemaOf(url);
    expect(schema.applied).toHaveLength(journal.entries.length);
    expect(schema).toEqual(reference);
  });

  it(`${replicas} replicas of a new version on a database a migration behind all start, and apply it once`, async () => {
    const url = await newDatabase();
    const client = new Client({ connectionString: url });
    await client.connect();
    await migrate(drizzle({ client }), { migrationsFolder: folderBehind });
    await client.end();
    expect((await schemaOf(url)).applied).toHaveLength(journal.entries.length - 1);

    expect(await startTogether(url)).toEqual([]);
    expect(await schemaOf(url)).toEqual(reference);
  });
});

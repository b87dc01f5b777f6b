import { randomBytes } from 'node:crypto';
import { Client } from 'pg';
import { testDatabasePrefix, testEnv } from './env';
import { alive } from './stopUnderLoad';

async function withAdmin<T>(work: (client: Client) => Promise<T>): Promise<T> {
  const client = new Client({ connectionString: testEnv.postgresUrl });
  await client.connect();
  try {
    return await work(client);
  } finally {
    await client.end();
  }
}

const urlFor = (name: string) => {
  const url = new URL(testEnv.postgresUrl as string);
  url.pathname = `/${name}`;
  return url.toString();
};

/** The run's migrated database on the test server, written by the global setup (writePostgresTemplate). */
const templateKey = 'TEST_POSTGRES_TEMPLATE';

/**
 * A new database on the test server; each suite gets its own and drops it at the end. Empty, or with `migrated`
 * a copy of the run's migrated template (CREATE DATABASE ... TEMPLATE copies its files: some 0.4 s, where running
 * the migrations on an empty one took 1-1.5 s, and a run starts some 40 apps on PostgreSQL). The app's own
 * migrations still run on it and find nothing left to apply.
 */
export async function createTestDatabase(
  options: { migrated?: boolean } = {},
): Promise<{ url: string; drop: () => Promise<void> }> {
  const name = `${testDatabasePrefix}${process.pid}_${randomBytes(4).toString('hex')}`;
  const template = options.migrated ? process.env[templateKey] : undefined;
  await withAdmin((c) => c.query(`create database "${name}"${template ? ` template "${template}"` : ''}`));
  return {
    url: urlFor(name),
    drop: () => withAdmin((c) => c.query(`drop database if exists "${name}" with (force)`)).then(() => undefined),
  };
}

/** Global setup: migrates the run's template database and tells the workers its name (dropped with the run's). */
export async function writePostgresTemplate(migrate: (url: string) => Promise<void>): Promise<void> {
  const name = `${testDatabasePrefix}${process.pid}_template`;
  await withAdmin((c) => c.query(`create database "${name}"`));
  await migrate(urlFor(name));
  // Nobody connects to it again: CREATE DATABASE refuses a template that has sessions.
  process.env[templateKey] = name;
}

/** Global teardown. */
export async function dropPostgresTemplate(): Promise<void> {
  const name = process.env[templateKey];
  if (name) await withAdmin((c) => c.query(`drop database if exists "${name}" with (force)`));
}

/**
 * Drops test databases an earlier, interrupted run left behind: those whose creating process is gone.
 * A run going on beside this one keeps its databases.
 */
export async function dropLeftoverTestDatabases(): Promise<void> {
  await withAdmin(async (c) => {
    const { rows } = await c.query<{ datname: string }>('select datname from pg_database where datname like $1', [
      `${testDatabasePrefix}%`,
    ]);
    for (const { datname } of rows) {
      const pid = Number(datname.slice(testDatabasePrefix.length).split('_')[0]);
      if (Number.isInteger(pid) && alive(pid)) continue;
      await c.query(`drop database if exists "${datname}" with (force)`);
    }
  });
}

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

/** A new, empty database on the test server; each suite gets its own and drops it at the end. */
export async function createTestDatabase(): Promise<{ url: string; drop: () => Promise<void> }> {
  const name = `${testDatabasePrefix}${process.pid}_${randomBytes(4).toString('hex')}`;
  await withAdmin((c) => c.query(`create database "${name}"`));
  return {
    url: urlFor(name),
    drop: () => withAdmin((c) => c.query(`drop database if exists "${name}" with (force)`)).then(() => undefined),
  };
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

import type { Socket } from 'node:net';
import { sql } from 'drizzle-orm';
import { drizzle } from 'drizzle-orm/node-postgres';
import type { Pool, PoolClient } from 'pg';
import { createPool } from '../../src/db/database';
import { testEnv } from '../support/env';
import { createTestDatabase } from '../support/postgres';

/**
 * The app's PostgreSQL pool keeps its capacity when a connection dies right after it was checked out for a
 * transaction (the database stopping): Drizzle's BEGIN then fails outside the block that releases the client
 * (drizzle-orm#6241), and without the pool's guard that client would stay checked out for good.
 */

const describePostgres = testEnv.postgresUrl ? describe : describe.skip;
if (!testEnv.postgresUrl) console.info('pool.test.ts: skipped; set TEST_DATABASE_URL to run it on PostgreSQL');

describePostgres('the PostgreSQL pool when a connection dies right after checkout', () => {
  let database: Awaited<ReturnType<typeof createTestDatabase>>;
  let pool: Pool;

  beforeAll(async () => {
    database = await createTestDatabase();
    // One connection: a single leaked client leaves nothing for the next request.
    pool = createPool({ kind: 'postgres', url: database.url, poolSize: 1 });
  });
  afterAll(async () => {
    await pool?.end();
    await database?.drop();
  });

  /** Destroys the socket of the next client handed out, before the caller's first statement. */
  const killNextCheckout = () =>
    pool.once('acquire', (client: PoolClient) => {
      (client as unknown as { connection: { stream: Socket } }).connection.stream.destroy();
    });

  it('a transaction whose BEGIN fails gives its client back, and the next request is served', async () => {
    const db = drizzle({ client: pool });
    await db.execute(sql`select 1`);

    killNextCheckout();
    await expect(db.transaction(async (tx) => tx.execute(sql`select 1`))).rejects.toThrow();

    // Served at once by a new connection: a leaked client would make this wait 10 s and fail.
    const started = Date.now();
    const { rows } = await db.transaction(async (tx) => tx.execute(sql`select 2 as two`));
    expect(rows).toEqual([{ two: 2 }]);
    expect(Date.now() - started).toBeLessThan(5_000);
    expect(pool.totalCount).toBe(1);
    expect(pool.idleCount).toBe(1);
  });

  it('a client released twice (by the guard and by its holder) does not throw and is counted once', async () => {
    const client = await pool.connect();
    client.release();
    expect(() => client.release()).not.toThrow();
    expect(pool.idleCount).toBe(1);
    const again = await pool.connect();
    again.release();
  });

  it('a healthy transaction keeps its connection for reuse', async () => {
    const db = drizzle({ client: pool });
    const before = await db.execute<{ pid: number }>(sql`select pg_backend_pid() as pid`);
    await db.transaction(async (tx) => tx.execute(sql`select 1`));
    const after = await db.execute<{ pid: number }>(sql`select pg_backend_pid() as pid`);
    expect(after.rows[0].pid).toBe(before.rows[0].pid);
  });
});

import path from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import { sql } from 'drizzle-orm';
import type { Logger } from 'drizzle-orm/logger';
import type { PgDatabase, PgQueryResultHKT } from 'drizzle-orm/pg-core';
import { drizzle as drizzlePglite } from 'drizzle-orm/pglite';
import { migrate as migratePglite } from 'drizzle-orm/pglite/migrator';
import { drizzle as drizzlePg } from 'drizzle-orm/node-postgres';
import { migrate as migratePg } from 'drizzle-orm/node-postgres/migrator';
import { Pool, type PoolClient } from 'pg';
import * as schema from './schema';
import type { Config } from '../config';
import { causeChain } from '../errors';

/** The Drizzle database, whichever driver is behind it. */
export type Db = PgDatabase<PgQueryResultHKT, typeof schema>;
/** A transaction handed to `db.transaction(async (tx) => ...)`. */
export type Tx = Parameters<Parameters<Db['transaction']>[0]>[0];
/** Either the database or a transaction: services accept both so they compose inside one transaction. */
export type DbOrTx = Db | Tx;

export interface Database {
  db: Db;
  kind: 'pglite' | 'postgres';
  /** Resolves when the database answers a trivial query; /readyz uses it. */
  ping(): Promise<void>;
  close(): Promise<void>;
}

export const migrationsFolder = path.resolve(__dirname, '..', '..', 'drizzle');

/**
 * A PGlite (in memory, or kept in `dataDir`) with the extensions the migrations create: pg_trgm, for the
 * catalog search's trigram index. Whatever opens the embedded data must load them.
 */
export async function createPglite(dataDir?: string): Promise<PGlite> {
  // A dynamic import: the contrib modules are typed as ES modules only.
  const { pg_trgm } = await import('@electric-sql/pglite/contrib/pg_trgm');
  return new PGlite({ dataDir, extensions: { pg_trgm } });
}

/**
 * A pool whose checked-out clients cannot leak when their connection dies. Drizzle's node-postgres
 * `transaction()` sends BEGIN before the try/finally that releases the client (drizzle-orm 0.45, upstream
 * drizzle-team/drizzle-orm#6241, open): when the connection ends right after the checkout (the database
 * stopping), BEGIN fails and the client stays checked out for good; a few of those exhaust the pool and
 * `pool.end()` never resolves. Here a checked-out client whose connection ends is released with the error
 * (pg-pool then discards it), and a second release of the same checkout is ignored.
 */
class GuardedPool extends Pool {
  override connect(): Promise<PoolClient>;
  override connect(
    callback: (err: Error | undefined, client: PoolClient | undefined, done: (release?: unknown) => void) => void,
  ): void;
  override connect(
    callback?: (err: Error | undefined, client: PoolClient | undefined, done: (release?: unknown) => void) => void,
  ) {
    // The callback form is pool.query's: it releases its client itself, whatever happens.
    if (callback) return super.connect(callback);
    return super.connect().then((client) => {
      const release = client.release.bind(client);
      let released = false;
      const releaseOnce = (error?: Error | boolean) => {
        if (released) return;
        released = true;
        client.removeListener('end', onEnd);
        release(error);
      };
      const onEnd = () => releaseOnce(new Error('the connection ended while the client was checked out'));
      client.once('end', onEnd);
      client.release = releaseOnce;
      return client;
    });
  }
}

/** The PostgreSQL pool the app uses (exported for the test of its guard). */
export function createPool(database: Extract<Config['database'], { kind: 'postgres' }>): Pool {
  const pool = new GuardedPool({
    connectionString: database.url,
    max: database.poolSize,
    // Getting a connection (a new one, or a free one of the pool) is bounded: while the server is down,
    // unreachable or saturated a request fails within 10 s, answered 503, instead of hanging.
    connectionTimeoutMillis: 10_000,
    // A server that vanished without closing its connections is noticed by the TCP keep-alive probes.
    keepAlive: true,
    keepAliveInitialDelayMillis: 10_000,
  });
  // A client losing its connection (the database restarting) must not crash the process: the pool drops
  // an idle one itself; one in use (inside a transaction, between statements) has no listener of its own,
  // fails its next statement (answered 503) and is released by the guard above.
  pool.on('error', () => undefined);
  pool.on('connect', (client) => client.on('error', () => undefined));
  return pool;
}

/**
 * Opens the configured database and applies the committed migrations. `logger` sees every statement the app
 * issues through Drizzle (the tests count them).
 */
export async function openDatabase(
  database: Config['database'],
  { logger }: { logger?: Logger } = {},
): Promise<Database> {
  if (database.kind === 'postgres') {
    const pool = createPool(database);
    const db = drizzlePg({ client: pool, schema, logger }) as unknown as Db;
    await migratePg(drizzlePg({ client: pool, schema }), { migrationsFolder });
    return {
      db,
      kind: 'postgres',
      ping: async () => {
        await db.execute(sql`select 1`);
      },
      close: () => pool.end(),
    };
  }
  const client = await createPglite(database.dataDir);
  await migratePglite(drizzlePglite({ client, schema }), { migrationsFolder });
  const db = drizzlePglite({ client, schema, logger }) as unknown as Db;
  return {
    db,
    kind: 'pglite',
    ping: async () => {
      await db.execute(sql`select 1`);
    },
    close: () => client.close(),
  };
}

/** The SQLSTATE of a database error, looking through Drizzle's wrapping. */
export function sqlState(error: unknown): string | undefined {
  for (const current of causeChain(error)) {
    const code = (current as { code?: unknown }).code;
    if (typeof code === 'string' && /^[0-9A-Z]{5}$/.test(code)) return code;
  }
  return undefined;
}

/** The constraint a database error names, if any. */
export function violatedConstraint(error: unknown): string | undefined {
  for (const current of causeChain(error)) {
    const constraint = (current as { constraint?: unknown }).constraint;
    if (typeof constraint === 'string') return constraint;
  }
  return undefined;
}

import { drizzle } from 'drizzle-orm/node-postgres';
import { migrate } from 'drizzle-orm/node-postgres/migrator';
import type { Pool } from 'pg';

/**
 * The key of the session advisory lock that replicas take around their migrations (any fixed number: advisory
 * locks belong to one database, and nothing else in the shop takes this one).
 */
const migrationsLockKey = 4_177_000_032;

/**
 * Applies the committed migrations on PostgreSQL, one replica at a time (issue 32, point 12). Replicas started
 * together each read the migrations table, find it empty (or a migration behind) and apply the same statements:
 * without a lock, one crashes on a unique violation in pg_namespace or pg_type (CREATE SCHEMA, CREATE TABLE). As
 * Flyway and Prisma do, the migrations run on one connection holding a session advisory lock; a replica that
 * waited for it finds the work done and applies nothing. The lock ends with the session, so a replica that dies
 * while holding it releases it. PGlite lives in one process and needs none.
 */
export async function migrateUnderLock(pool: Pool, migrationsFolder: string): Promise<void> {
  const client = await pool.connect();
  let broken: Error | undefined;
  try {
    await client.query('select pg_advisory_lock($1)', [migrationsLockKey]);
    try {
      await migrate(drizzle({ client }), { migrationsFolder });
    } finally {
      await client.query('select pg_advisory_unlock($1)', [migrationsLockKey]);
    }
  } catch (error) {
    // A connection left in doubt is not put back in the pool (releasing with an error discards it).
    broken = error as Error;
    throw error;
  } finally {
    client.release(broken);
  }
}

import path from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import { Column, getTableColumns, is, SQL, sql, Table } from 'drizzle-orm';
import type { Logger } from 'drizzle-orm/logger';
import { PgDialect, type PgDatabase, type PgQueryResultHKT } from 'drizzle-orm/pg-core';
import { drizzle as drizzlePglite } from 'drizzle-orm/pglite';
import { migrate as migratePglite } from 'drizzle-orm/pglite/migrator';
import { drizzle as drizzlePg } from 'drizzle-orm/node-postgres';
import { Pool, type PoolClient } from 'pg';
import { migrateUnderLock } from './migrateUnderLock';
import * as coreSchema from './schema';
import * as catalogSchema from '../catalog/catalogSchema';
import * as partLinksSchema from '../catalog/partLinksSchema';
import * as importSchema from '../imports/importSchema';
import * as inventorySchema from '../inventory/inventorySchema';
import * as garageSchema from '../garage/garageSchema';
import * as savedListsSchema from '../ordering/savedListsSchema';
import * as companiesSchema from '../companies/companiesSchema';
import * as companyPricesSchema from '../companies/companyPricesSchema';
import * as invoicingSchema from '../invoicing/invoicingSchema';
import { wordSimilarityThreshold } from '../catalog/searchSettings';
import type { Config } from '../config';
import { causeChain } from '../errors';

/** Every table Drizzle knows: the shop's core, and the domain folders' (catalog, inventory, imports, garage, ordering, companies, invoicing). */
export const allTables = {
  ...coreSchema,
  ...catalogSchema,
  ...partLinksSchema,
  ...inventorySchema,
  ...importSchema,
  ...garageSchema,
  ...savedListsSchema,
  ...companiesSchema,
  ...companyPricesSchema,
  ...invoicingSchema,
};
const schema = allTables;

/** The Drizzle database, whichever driver is behind it. */
export type Db = PgDatabase<PgQueryResultHKT, typeof schema>;
/** A transaction handed to `db.transaction(async (tx) => ...)`. */
export type Tx = Parameters<Parameters<Db['transaction']>[0]>[0];
/** Either the database or a transaction: services accept both so they compose inside one transaction. */
export type DbOrTx = Db | Tx;

export interface Database {
  db: Db;
  kind: 'pglite' | 'postgres';
  /** The PostgreSQL pool (null on PGlite): the rate limits' store and the metrics of its use. */
  pool: Pool | null;
  /** Resolves when the database answers a trivial query; /readyz uses it. */
  ping(): Promise<void>;
  close(): Promise<void>;
}

export const migrationsFolder = path.resolve(__dirname, '..', '..', 'drizzle');

/**
 * What every session of the app's database is set to: the word similarity from which the catalog's search matches
 * a word (`%>`, catalog/catalogSearch.ts), read by the trigram index, so it cannot be a function's argument.
 * PostgreSQL keeps it for pg_trgm until the extension is loaded in the session.
 */
export const sessionSettings = { setting: 'pg_trgm.word_similarity_threshold', value: wordSimilarityThreshold };

/**
 * A PGlite (in memory, or kept in `dataDir`) with the extensions the migrations create: pg_trgm, for the
 * catalog search's trigram index. Whatever opens the embedded data must load them. `from`: a data directory
 * that `dumpDataDir()` wrote, started from instead of a new cluster (PGlite's initdb: some 2 s of CPU more).
 */
export async function createPglite(dataDir?: string, from?: Blob): Promise<PGlite> {
  // A dynamic import: the contrib modules are typed as ES modules only.
  const { pg_trgm } = await import('@electric-sql/pglite/contrib/pg_trgm');
  const pglite = new PGlite({ dataDir, loadDataDir: from, extensions: { pg_trgm } });
  // PGlite is one session, kept for the process's life.
  await pglite.exec(`set ${sessionSettings.setting} = ${sessionSettings.value}`);
  return pglite;
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
    // Every connection starts with the catalog search's setting (a startup parameter: no statement of its own).
    options: `-c ${sessionSettings.setting}=${sessionSettings.value}`,
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
 * issues through Drizzle (the tests count them). `pgliteFrom`: an in-memory PGlite starts from this dump of a
 * data directory (the tests' migrated template) instead of a new cluster; the migrations still run after it.
 */
export async function openDatabase(
  database: Config['database'],
  { logger, pgliteFrom }: { logger?: Logger; pgliteFrom?: Blob } = {},
): Promise<Database> {
  if (database.kind === 'postgres') {
    const pool = createPool(database);
    const db = drizzlePg({ client: pool, schema, logger }) as unknown as Db;
    await migrateUnderLock(pool, migrationsFolder);
    return {
      db,
      kind: 'postgres',
      pool,
      ping: async () => {
        await db.execute(sql`select 1`);
      },
      close: () => pool.end(),
    };
  }
  const client = await createPglite(database.dataDir, database.dataDir ? undefined : pgliteFrom);
  await migratePglite(drizzlePglite({ client, schema }), { migrationsFolder });
  const db = drizzlePglite({ client, schema, logger }) as unknown as Db;
  return {
    db,
    kind: 'pglite',
    pool: null,
    ping: async () => {
      await db.execute(sql`select 1`);
    },
    close: () => client.close(),
  };
}

/** A selected field a light statement can decode: a column, or SQL (aliased or not) with its decoder. */
type LightField = Column | SQL | SQL.Aliased;
type Decoder = { mapFromDriverValue(value: unknown): unknown };
/** How Drizzle decodes a field's values (an SQL's decoder is internal to Drizzle's types; `.mapWith` sets it). */
const decoderOf = (field: LightField): Decoder =>
  is(field, Column) ? field : ((is(field, SQL) ? field : field.sql) as unknown as { decoder: Decoder }).decoder;

const dialect = new PgDialect();

type LightFields = Record<string, LightField | Table | Record<string, LightField>>;
const mappers = new WeakMap<LightFields, (rows: unknown[][]) => unknown[]>();

/** The row mapper of `fields` (made once for each fields object: see `prepareLight`). */
function rowMapper(fields: LightFields): (rows: unknown[][]) => unknown[] {
  const known = mappers.get(fields);
  if (known) return known;
  const cells: { key: string; inner?: string; field: LightField }[] = [];
  for (const [key, field] of Object.entries(fields)) {
    if (is(field, Column) || is(field, SQL) || is(field, SQL.Aliased)) cells.push({ key, field });
    else {
      const inners: Record<string, LightField> = is(field, Table) ? getTableColumns(field) : field;
      for (const [inner, column] of Object.entries(inners)) cells.push({ key, inner, field: column });
    }
  }
  const decoders = cells.map((cell) => decoderOf(cell.field));
  const nested = [...new Set(cells.filter((cell) => cell.inner !== undefined).map((cell) => cell.key))];
  const mapRows = (rows: unknown[][]) =>
    rows.map((row) => {
      const out: Record<string, unknown> = {};
      const found: Record<string, boolean> = {};
      for (const key of nested) {
        out[key] = {};
        found[key] = false;
      }
      for (let i = 0; i < cells.length; i++) {
        const raw = row[i];
        const value = raw === null ? null : decoders[i].mapFromDriverValue(raw);
        const { key, inner } = cells[i];
        if (inner === undefined) out[key] = value;
        else {
          (out[key] as Record<string, unknown>)[inner] = value;
          if (value !== null) found[key] = true;
        }
      }
      // An object of which nothing was found (a left join that matched no row) is null, as Drizzle makes it.
      for (const key of nested) if (!found[key]) out[key] = null;
      return out;
    });
  mappers.set(fields, mapRows);
  return mapRows;
}

/**
 * A hot statement (a list page, a part, the caller's page of orders, a step of placing an order) built once and
 * mapped by a mapper made once for its fields instead of Drizzle's general one, which asks every cell of every
 * row what kind of field it is and walks its path: a quarter of the CPU of reading a page of 20 orders (issue
 * 15). `fields` are those the statement was built with (`db.select(fields)`, `.returning(fields)`), the same
 * object each time: columns, SQL with its decoder (`.mapWith`), and one level down whole tables
 * (`{ order: orders }`) or objects of those, taken in the order Drizzle selects them. Each value is decoded by
 * its field as Drizzle decodes it; null stays null (a test compares the two mappers). `name` makes it a named
 * statement on a PostgreSQL server, parsed and planned once per connection; without one, the statement is
 * planned for its values each time (the catalog's search). Answers the statement on the database or a
 * transaction (`on(tx).execute(values)`): building it was a fifth of placing an order's CPU.
 */
export function lightStatement<T>(
  name: string | undefined,
  select: { getSQL(): SQL },
  fields: LightFields,
): (on: DbOrTx) => { execute(values?: Record<string, unknown>): Promise<T[]> } {
  const query = dialect.sqlToQuery(select.getSQL());
  const mapRows = rowMapper(fields) as (rows: unknown[][]) => T[];
  return (on) =>
    on._.session.prepareQuery<{ execute: T[]; all: unknown; values: unknown }>(query, [], name, true, mapRows);
}

/**
 * A `lightStatement` for a module of its own (a step of placing an order run in whichever transaction): `build`
 * makes it from the database or transaction it is first run on (the SQL is the same for any), once.
 */
export function lightStatementOnFirstUse<T>(
  name: string,
  build: (on: DbOrTx) => { getSQL(): SQL },
  fields: LightFields,
): (on: DbOrTx) => { execute(values?: Record<string, unknown>): Promise<T[]> } {
  let statement: ReturnType<typeof lightStatement<T>> | undefined;
  return (on) => (statement ??= lightStatement<T>(name, build(on), fields))(on);
}

/** A hot read on the database (`lightStatement`, prepared once). */
export function prepareLight<T>(
  db: Db,
  name: string | undefined,
  select: { getSQL(): SQL },
  fields: LightFields,
): { execute(values?: Record<string, unknown>): Promise<T[]> } {
  return lightStatement<T>(name, select, fields)(db);
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

/** The rows of a raw SQL statement, whichever driver runs it (both answer `{ rows }`). */
export async function rowsOf<T>(db: DbOrTx, query: SQL): Promise<T[]> {
  const result: unknown = await db.execute(query);
  return (result as { rows: T[] }).rows;
}

import { readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { drizzle } from 'drizzle-orm/pglite';
import type { Logger } from 'drizzle-orm/logger';
import { migrate } from 'drizzle-orm/pglite/migrator';
import type { Config } from '../../src/config';
import { createPglite, migrationsFolder, openDatabase, type Database } from '../../src/db/database';
import { alive } from './stopUnderLoad';

/**
 * The run's migrated PGlite data directory, dumped once by the global setup: a new in-memory PGlite runs
 * PGlite's initdb (some 3.5 s of CPU, against 1.5 s from a dump), and a run opens about 85. Every test database
 * starts from this copy; the migrations still run after it (they find nothing left to apply).
 *
 * The copy also starts a smaller PostgreSQL (`testServerSettings`): most of a start from the dump was
 * PostgreSQL setting up its shared memory for PGlite's defaults, 128 MB of buffers and 100 connections, on every
 * one of those 85 starts. A test database holds a few MB and PGlite has one connection; what the app asks and
 * what it gets back do not depend on either setting.
 */
const testServerSettings = { shared_buffers: '16MB', max_connections: '10' };
const templateFileKey = 'TEST_PGLITE_TEMPLATE';
const filePrefix = 'partsyard-pglite-template-';

/** Global setup: writes the template and tells the workers where it is; drops those of runs that were killed. */
export async function writePgliteTemplate(): Promise<void> {
  for (const name of readdirSync(tmpdir())) {
    const pid = Number(name.startsWith(filePrefix) ? name.slice(filePrefix.length, -'.tar'.length) : NaN);
    if (Number.isInteger(pid) && !alive(pid)) rmSync(path.join(tmpdir(), name), { force: true });
  }
  const client = await createPglite();
  await migrate(drizzle({ client }), { migrationsFolder });
  // Written to postgresql.auto.conf, read by each start from the dump. (One statement each: ALTER SYSTEM runs
  // outside a transaction block.)
  for (const [name, value] of Object.entries(testServerSettings))
    await client.exec(`alter system set ${name} = '${value}'`);
  const dump = await client.dumpDataDir('none');
  await client.close();
  const file = path.join(tmpdir(), `${filePrefix}${process.pid}.tar`);
  writeFileSync(file, Buffer.from(await dump.arrayBuffer()));
  process.env[templateFileKey] = file;
}

/** Global teardown. */
export function removePgliteTemplate(): void {
  const file = process.env[templateFileKey];
  if (file) rmSync(file, { force: true });
}

/**
 * The template as PGlite reads it: PGlite only asks for its bytes (`arrayBuffer()`) and copies the files out of
 * them. A Blob holding the 40 MB would stream them out in small chunks on every start (some 0.2-0.4 s of CPU);
 * this hands the bytes read once per test file, never changed.
 */
class TemplateBlob extends Blob {
  readonly #data: ArrayBuffer;

  constructor(data: ArrayBuffer) {
    super([]);
    this.#data = data;
  }

  override arrayBuffer(): Promise<ArrayBuffer> {
    return Promise.resolve(this.#data);
  }
}

let template: Blob | undefined;

/**
 * Opens `database` as the app does; an in-memory PGlite starts from the run's template (a new cluster when the
 * run has none).
 */
export function openTestDatabase(database: Config['database'], options: { logger?: Logger } = {}): Promise<Database> {
  const file = process.env[templateFileKey];
  if (!template && database.kind === 'pglite' && !database.dataDir && file) {
    const bytes = readFileSync(file);
    template = new TemplateBlob(bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength));
  }
  return openDatabase(database, { ...options, pgliteFrom: template });
}

import { spawn } from 'node:child_process';
import path from 'node:path';
import { eq, sql } from 'drizzle-orm';
import { openDatabase, rowsOf, type Database } from '../../src/db/database';
import { importJobs, importRows } from '../../src/imports/importSchema';
import { createImportService } from '../../src/imports/importService';
import { startImportWorker } from '../../src/imports/importWorker';
import { testEnv } from '../support/env';
import { createTestDatabase } from '../support/postgres';

/**
 * A server killed (SIGKILL: no handler runs) in the middle of applying an import, on PostgreSQL where the worker
 * is a process of its own among replicas: the catalog is the old one, whole; the job, "running" with a heartbeat
 * that stopped, is failed with its reason by the next worker; the same file imported again applies in full.
 * (The embedded PGlite has one process: a kill there ends the shop and the job with it; the worker's start fails it
 * the same way, imports.test.ts.)
 */

const admin = {
  userId: '00000000-0000-4000-8000-00000000000a',
  role: 'admin' as const,
  email: 'imports@partsyard.test',
};
const child = path.join(__dirname, 'runImportWorker.ts');
const root = path.resolve(__dirname, '..', '..', '..');

const onPostgres = testEnv.postgresUrl ? describe : describe.skip;

onPostgres('an import whose server is killed while it applies', () => {
  let database: Database;
  let url: string;
  let drop: () => Promise<void>;

  beforeAll(async () => {
    const created = await createTestDatabase({ migrated: true });
    ({ url, drop } = created);
    database = await openDatabase({ kind: 'postgres', url: created.url, poolSize: 4 });
    const { db } = database;
    await db.execute(
      sql`insert into users (id, email, name, role) values (${admin.userId}, ${admin.email}, 'Admin', 'admin')`,
    );
    await db.execute(sql`insert into makes (name, slug) values ('Killmake', 'killmake')`);
    await db.execute(sql`insert into models (make_id, name, slug)
      select m.id, 'Model ' || i, 'model-' || i from makes m, generate_series(1, 20) i`);
    await db.execute(
      sql`insert into vehicles (model_id, year) select mo.id, y from models mo, generate_series(1991, 2020) y`,
    );
    await db.execute(sql`insert into parts (sku, name, description, price_cents, min_order, available)
      select 'KP-' || i, 'Killed-import part ' || i, 'For the kill test', 1000, 1, 100 from generate_series(1, 200) i`);
  });
  afterAll(async () => {
    await database?.close();
    await drop?.();
  });

  /** Every part on every model's years: 200 parts x 600 vehicles at most, `rows` lines. */
  function fitmentFile(rows: number, quantity: number): Buffer {
    const lines = ['sku,make,model,year,position,quantity,note'];
    for (let i = 0; i < rows; i++) {
      const model = 1 + (i % 20);
      const year = 1991 + (Math.floor(i / 20) % 30);
      const part = 1 + (Math.floor(i / 600) % 200);
      lines.push(`KP-${part},Killmake,Model ${model},${year},front,${quantity},`);
    }
    return Buffer.from(`${lines.join('\n')}\n`);
  }

  async function stage(file: Buffer): Promise<string> {
    const imports = createImportService(database.db);
    const job = await imports.start(admin, 'fitment', 'fitment.csv');
    await imports.receiveChunk(admin, job.id, 0, file);
    await imports.finish(admin, job.id);
    return job.id;
  }

  /** What shoppers read of the fitment: how many rows, and what they say. */
  const catalogState = async () =>
    (
      await rowsOf<{ n: number; quantities: number }>(
        database.db,
        sql`select count(*)::int as n, coalesce(sum(quantity), 0)::int as quantities from fitments`,
      )
    )[0];

  const jobOf = async (id: string) => (await database.db.select().from(importJobs).where(eq(importJobs.id, id)))[0];

  it('leaves the old catalog whole, and the job failed with its reason; the same file then applies', async () => {
    // The old catalog: 2,000 fitment rows, one of each.
    const worker = startImportWorker(database.db, {
      separateConnections: true,
      pollIntervalMs: null,
      staleAfterMs: 500,
    });
    await stage(fitmentFile(2_000, 1));
    await worker.runOnce();
    const old = await catalogState();
    expect(old).toEqual({ n: 2_000, quantities: 2_000 });

    // The new file changes every row and adds more; its worker applies 500 lines a statement.
    const file = fitmentFile(20_000, 2);
    const id = await stage(file);
    const killed = spawn(process.execPath, ['--import', 'tsx', child], {
      cwd: root,
      env: { ...process.env, NODE_OPTIONS: '', DATABASE_URL: url, RANGE_LINES: '500' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    killed.stdout.on('data', (b: Buffer) => (output += b.toString()));
    killed.stderr.on('data', (b: Buffer) => (output += b.toString()));
    const exited = new Promise<NodeJS.Signals | null>((resolve) =>
      killed.on('exit', (_code, signal) => resolve(signal)),
    );

    // Killed once it has applied some ranges (written, uncommitted, in its transaction) and not all of them.
    const deadline = Date.now() + 90_000;
    let seen = await jobOf(id);
    while (!(seen.phase === 'applying' && seen.rowsDone > 0) && Date.now() < deadline) {
      if (killed.exitCode !== null) throw new Error(`the worker ended before it was killed:\n${output}`);
      await new Promise((r) => setTimeout(r, 20));
      seen = await jobOf(id);
    }
    expect({ status: seen.status, phase: seen.phase }).toEqual({ status: 'running', phase: 'applying' });
    expect(seen.rowsDone).toBeGreaterThan(0);
    expect(seen.rowsDone).toBeLessThan(20_000);
    killed.kill('SIGKILL');
    expect(await exited).toBe('SIGKILL');

    // Its transaction died with its connection: the old catalog, whole.
    expect(await catalogState()).toEqual(old);
    expect((await jobOf(id)).status).toBe('running');

    // The next worker (any replica's) finds its heartbeat stopped: failed, with why, its staged rows dropped.
    await new Promise((r) => setTimeout(r, 600));
    await worker.runOnce();
    expect(await jobOf(id)).toMatchObject({
      status: 'failed',
      error: 'The server running this import stopped before it ended: nothing of it was applied',
    });
    const [{ staged }] = await rowsOf<{ staged: number }>(
      database.db,
      sql`select count(*)::int as staged from ${importRows} where job_id = ${id}`,
    );
    expect(staged).toBe(0);

    // The same file, imported again, applies in full.
    const again = await stage(file);
    await worker.runOnce();
    expect(await jobOf(again)).toMatchObject({ status: 'succeeded', rowsRejected: 0 });
    expect(await catalogState()).toEqual({ n: 20_000, quantities: 40_000 });
    await worker.stop();
  });
});

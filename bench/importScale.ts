/**
 * The import at scale (issue 33 points 5 and 8), on a PostgreSQL database of its own: a catalog of `VEHICLES`
 * vehicles and `PARTS` parts, then a fitment file of `ROWS` rows sent in 8 MB chunks and applied; prints the
 * figures (receiving, checking and applying, rows a second). A benchmark: it measures and prints, never fails on a
 * slow machine. `DATABASE_URL` names the server (its `postgres` database creates and drops the bench's own).
 */
import { randomBytes } from 'node:crypto';
import { Client } from 'pg';
import { sql } from 'drizzle-orm';
import { openDatabase, rowsOf } from '../api/src/db/database';
import { createImportService, importLimits } from '../api/src/imports/importService';
import { startImportWorker } from '../api/src/imports/importWorker';

const server = process.env.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
const vehiclesWanted = Number(process.env.VEHICLES ?? 40_000);
const partsWanted = Number(process.env.PARTS ?? 20_000);
const rowsWanted = Number(process.env.ROWS ?? 1_000_000);

async function main() {
  const name = `partsyard_import_bench_${randomBytes(3).toString('hex')}`;
  const admin = new Client({ connectionString: server });
  await admin.connect();
  await admin.query(`create database "${name}"`);
  const url = new URL(server);
  url.pathname = `/${name}`;
  const database = await openDatabase({ kind: 'postgres', url: url.toString(), poolSize: 8 });
  const { db } = database;
  try {
    let t = Date.now();
    await db.execute(
      sql`insert into makes (name, slug) select 'Make ' || i, 'make-' || i from generate_series(1, 40) i`,
    );
    await db.execute(sql`insert into models (make_id, name, slug)
      select m.id, 'Model ' || i, 'model-' || i from makes m, generate_series(1, ${Math.ceil(vehiclesWanted / 40 / 20)}) i`);
    await db.execute(
      sql`insert into vehicles (model_id, year) select mo.id, y from models mo, generate_series(2001, 2020) y`,
    );
    await db.execute(sql`insert into parts (sku, name, description, price_cents, min_order, available)
      select 'BP-' || i, 'Bench part ' || i, 'For the import bench', 1000, 1, 100 from generate_series(1, ${partsWanted}) i`);
    const [{ n: vehicleCount }] = await rowsOf<{ n: number }>(db, sql`select count(*)::int as n from vehicles`);
    console.log(`catalog: ${vehicleCount} vehicles, ${partsWanted} parts in ${Date.now() - t} ms`);

    // The file: each row a part on a model in one year, spread over the catalog.
    const modelsPerMake = Math.ceil(vehiclesWanted / 40 / 20);
    const lines = ['sku,make,model,year,position,quantity,note'];
    for (let i = 0; i < rowsWanted; i++) {
      const make = 1 + (i % 40);
      const model = 1 + (Math.floor(i / 40) % modelsPerMake);
      const year = 2001 + (Math.floor(i / 40 / modelsPerMake) % 20);
      const part = 1 + (Math.floor(i / 40 / modelsPerMake / 20) % partsWanted);
      lines.push(`BP-${part},Make ${make},Model ${model},${year},front,1,`);
    }
    const file = Buffer.from(lines.join('\n') + '\n');
    console.log(`file: ${rowsWanted} rows, ${(file.length / 1024 / 1024).toFixed(1)} MB`);

    const imports = createImportService(db);
    const actor = {
      userId: '00000000-0000-4000-8000-000000000001',
      role: 'admin' as const,
      email: 'bench@partsyard.test',
    };
    await db.execute(
      sql`insert into users (id, email, name, role) values (${actor.userId}, ${actor.email}, 'Bench', 'admin')`,
    );
    const job = await imports.start(actor as never, 'fitment', 'bench.csv');
    t = Date.now();
    let part = 0;
    for (let at = 0; at < file.length;) {
      let end = Math.min(file.length, at + importLimits.chunkBytes);
      if (end < file.length) end = file.lastIndexOf(0x0a, end - 1) + 1;
      await imports.receiveChunk(actor as never, job.id, part++, file.subarray(at, end));
      at = end;
    }
    const receiveMs = Date.now() - t;
    console.log(`received in ${part} chunks: ${receiveMs} ms, ${Math.round(rowsWanted / (receiveMs / 1000))} rows/s`);
    await imports.finish(actor as never, job.id);
    const worker = startImportWorker(db, { separateConnections: true, pollIntervalMs: null });
    t = Date.now();
    await worker.runOnce();
    const runMs = Date.now() - t;
    const done = await imports.job(actor as never, job.id);
    console.log(
      `ran (checked and applied) in ${runMs} ms, ${Math.round(rowsWanted / (runMs / 1000))} rows/s: ${done.status}, ` +
        `${done.inserted} inserted, ${done.rowsRejected} rejected${done.error ? `, ${done.error}` : ''}`,
    );
    console.log(`whole import: ${Math.round(rowsWanted / ((receiveMs + runMs) / 1000))} rows/s`);
    await worker.stop();
  } finally {
    await database.close();
    await admin.query(`drop database "${name}" with (force)`);
    await admin.end();
  }
}

void main();

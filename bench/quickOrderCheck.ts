/**
 * Quick order's check at a moderate size (issue 34 point 6, not yet the catalog-at-scale bench): a fresh PostgreSQL
 * database with `--parts` parts (100,000 by default) and two numbers each, then a 200-line paste and a 1,000-line
 * file checked (`checkQuickOrderLines`, as the API runs it), one at a time and 8 at once on 8 connections: p50 and
 * p99 of each. A tenth of the lines are unknown numbers near real ones (suggestions), a few repeat a part (merged).
 * A measurement, not a test: it fails on nothing.
 *
 *   node --import tsx bench/quickOrderCheck.ts [--parts 100000] [--runs 40]
 *
 * PostgreSQL server: BENCH_DATABASE_URL, else TEST_DATABASE_URL, else postgres://postgres@127.0.0.1:5432/test.
 */
import { randomBytes } from 'node:crypto';
import { performance } from 'node:perf_hooks';
import { sql } from 'drizzle-orm';
import { Client } from 'pg';
import { openDatabase, type Db } from '../api/src/db/database';
import { checkQuickOrderLines, type QuickOrderLineInput } from '../api/src/ordering/quickOrderCheck';

const argument = (name: string) => {
  const at = process.argv.indexOf(`--${name}`);
  return at >= 0 ? process.argv[at + 1] : undefined;
};
const partCount = Number(argument('parts') ?? 100_000);
const runs = Number(argument('runs') ?? 40);
/** One line in this many is an unknown number (0: none). */
const unknownEvery = Number(argument('unknown-every') ?? 10);
const serverUrl =
  process.env.BENCH_DATABASE_URL ?? process.env.TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test';

async function fill(db: Db, n: number) {
  const started = performance.now();
  await db.execute(sql`insert into parts (name, description, price_cents, min_order, available, pack_size)
    select 'Part ' || g, 'A part for the bench', 100 + g % 5000, 1, 1000 + g % 50, case when g % 20 = 0 then 5 else 1 end
    from generate_series(1, ${n}) g`);
  const parts = performance.now();
  await db.execute(sql`insert into part_numbers (part_id, kind, raw)
    select id, 'oem', lpad((hashtext(id::text) & 2147483647)::text, 10, '0') || '-' || substr(sku, 4) from parts`);
  await db.execute(sql`insert into part_numbers (part_id, kind, raw)
    select id, 'manufacturer', 'MF-' || substr(md5(id::text), 1, 8) from parts`);
  const numbers = performance.now();
  if (process.argv.includes('--gist')) {
    // The same suggestions through GiST trigram indexes, which serve `order by <->` as a nearest-neighbour search.
    await db.execute(sql`drop index parts_sku_trgm_idx`);
    await db.execute(sql`drop index part_numbers_normalised_trgm_idx`);
    await db.execute(sql`create index parts_sku_trgm_idx on parts using gist (sku_normalised gist_trgm_ops)`);
    await db.execute(
      sql`create index part_numbers_normalised_trgm_idx on part_numbers using gist (normalised gist_trgm_ops)`,
    );
  }
  await db.execute(sql`analyze`);
  console.log(
    `filled: ${n} parts in ${((parts - started) / 1000).toFixed(1)} s, ${2 * n} numbers in ${((numbers - parts) / 1000).toFixed(1)} s`,
  );
}

async function linesOf(db: Db, count: number): Promise<QuickOrderLineInput[]> {
  const { rows } = (await db.execute(
    sql`select n.raw from part_numbers n tablesample system (5) limit ${count}`,
  )) as unknown as { rows: { raw: string }[] };
  return rows.map((r, i) => {
    // One line in ten: an unknown number one character off a real one (suggestions); one in fifty repeats one.
    const number =
      unknownEvery && i % unknownEvery === unknownEvery - 1
        ? `${r.raw.slice(0, -1)}Z`
        : i % 50 === 49
          ? rows[0].raw
          : r.raw;
    return { number, quantity: String(1 + (i % 9)), line: i + 1 };
  });
}

const percentile = (sorted: number[], p: number) =>
  sorted[Math.min(sorted.length - 1, Math.ceil(p * sorted.length) - 1)];

async function measure(db: Db, label: string, lines: QuickOrderLineInput[], concurrency: number) {
  const times: number[] = [];
  for (let round = 0; round < Math.ceil(runs / concurrency); round++) {
    await Promise.all(
      Array.from({ length: concurrency }, async () => {
        const started = performance.now();
        await checkQuickOrderLines(db, lines);
        times.push(performance.now() - started);
      }),
    );
  }
  times.sort((a, b) => a - b);
  console.log(
    `${label} (${lines.length} lines, ${concurrency} at once, ${times.length} checks): p50 ${percentile(times, 0.5).toFixed(0)} ms, p99 ${percentile(times, 0.99).toFixed(0)} ms`,
  );
}

async function main() {
  const name = `partsyard_quick_${randomBytes(4).toString('hex')}`;
  const admin = new Client({ connectionString: serverUrl });
  await admin.connect();
  await admin.query(`create database "${name}"`);
  const url = new URL(serverUrl);
  url.pathname = `/${name}`;
  const database = await openDatabase({ kind: 'postgres', url: url.toString(), poolSize: 8 });
  try {
    await fill(database.db, partCount);
    const paste = await linesOf(database.db, 200);
    const file = await linesOf(database.db, 1000);
    await checkQuickOrderLines(database.db, file); // warm
    await measure(database.db, 'a pasted grid', paste, 1);
    await measure(database.db, 'a file', file, 1);
    await measure(database.db, 'a pasted grid', paste, 8);
    await measure(database.db, 'a file', file, 8);
  } finally {
    await database.close();
    await admin.query(`drop database "${name}"`);
    await admin.end();
  }
}

void main().catch((error: unknown) => {
  console.error(error);
  process.exitCode = 1;
});

/**
 * Quick order's check at the catalog's scale (issue 34 point 6): a 200-line paste and a 1,000-line file checked
 * (`checkQuickOrderLines`, as the API runs it) against the catalog-at-scale data set of bench/catalogData.ts
 * (200,000 parts, 40,000 vehicles, 5,000,000 fitments, 500,000 numbers), one at a time and 8 at once on a pool of
 * 8 connections: p50, p95 and p99 of each, the CPU time per check of the bench's process (the check's own
 * JavaScript, the driver's) and of the database's server processes (from /proc), and the machine's load average:
 * on a shared machine the times follow the load, the CPU times much less. A measurement, not a test: it fails on
 * nothing.
 *
 *   npm run bench:quick-order -- [--runs 80] [--explain] [--database <name>]
 *   node --import tsx bench/quickOrderCheck.ts --parts 100000   (the earlier moderate data set, a fresh database)
 *
 * The catalog is filled once into a database of its own (`partsyard_quick_order_scale` unless `--database` names
 * another) and kept: a later run reuses it (filling takes minutes). Besides the catalog's own data, one part in ten
 * gets quantity breaks and one in twenty a pack of 5, so that the price breaks and the pack rule are read too.
 * Drop it with `dropdb partsyard_quick_order_scale` when done.
 *
 * The lines (`linesOf`): mostly known numbers of parts in stock (our SKUs, manufacturer, OEM and interchange
 * numbers, one in seven in lower case and one in seven with spaces for dashes) in amounts they can be ordered in;
 * one in ten an unknown number, a typo of a real one (a letter or digit changed, dropped, added, or two swapped);
 * one in twenty a superseded part's number; one in fifty a repeat of an earlier line (merged).
 *
 * `--explain`: EXPLAIN (ANALYZE, BUFFERS) of every statement one 1,000-line check sends, with its time.
 *
 * PostgreSQL server: BENCH_DATABASE_URL, else TEST_DATABASE_URL, else postgres://postgres@127.0.0.1:5432/test.
 */
import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import os from 'node:os';
import { performance } from 'node:perf_hooks';
import { sql } from 'drizzle-orm';
import type { Logger } from 'drizzle-orm/logger';
import { Client } from 'pg';
import { openDatabase, rowsOf, type Db } from '../api/src/db/database';
import { checkQuickOrderLines, type QuickOrderLineInput } from '../api/src/ordering/quickOrderCheck';
import { catalogAtScale, fillCatalog } from './catalogData';

const argument = (name: string) => {
  const at = process.argv.indexOf(`--${name}`);
  return at >= 0 ? process.argv[at + 1] : undefined;
};
/** `--parts n`: the earlier moderate data set (n parts, two numbers each) in a fresh database, dropped after. */
const moderateParts = argument('parts') === undefined ? undefined : Number(argument('parts'));
const runs = Number(argument('runs') ?? 80);
const explain = process.argv.includes('--explain');
const keptName = argument('database') ?? 'partsyard_quick_order_scale';
const serverUrl =
  process.env.BENCH_DATABASE_URL ?? process.env.TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test';
/** Written on the kept database once it is filled, so that a fill cut short is not mistaken for a whole one. */
const filledMark = 'quick order bench: catalog at scale, filled';

const load = () =>
  os
    .loadavg()
    .map((l) => l.toFixed(1))
    .join(' ');

async function fillModerate(db: Db, n: number) {
  const started = performance.now();
  await db.execute(sql`insert into parts (name, description, price_cents, min_order, available, pack_size)
    select 'Part ' || g, 'A part for the bench', 100 + g % 5000, 1, 1000 + g % 50, case when g % 20 = 0 then 5 else 1 end
    from generate_series(1, ${n}) g`);
  await db.execute(sql`insert into part_numbers (part_id, kind, raw)
    select id, 'oem', lpad((hashtext(id::text) & 2147483647)::text, 10, '0') || '-' || substr(sku, 4) from parts`);
  await db.execute(sql`insert into part_numbers (part_id, kind, raw)
    select id, 'manufacturer', 'MF-' || substr(md5(id::text), 1, 8) from parts`);
  await db.execute(sql`analyze`);
  console.log(`filled: ${n} parts, ${2 * n} numbers in ${((performance.now() - started) / 1000).toFixed(1)} s`);
}

/** The catalog at scale, and the quick order's own touches: quantity breaks on one part in ten, packs of 5. */
async function fillAtScale(db: Db) {
  const started = performance.now();
  await fillCatalog(db, catalogAtScale);
  await db.execute(sql`
    with p as (select id, row_number() over (order by id) as k from parts where brand_id is not null)
    update parts set
      price_tiers = case when p.k % 10 = 0 then jsonb_build_array(
                      jsonb_build_object('minUnits', 10, 'priceCents', price_cents * 9 / 10),
                      jsonb_build_object('minUnits', 50, 'priceCents', price_cents * 8 / 10))
                    else price_tiers end,
      pack_size = case when p.k % 20 = 0 then 5 else pack_size end
    from p where parts.id = p.id and (p.k % 10 = 0 or p.k % 20 = 0)`);
  await db.execute(sql`vacuum (analyze) parts`);
  console.log(`filled the catalog at scale in ${((performance.now() - started) / 1000).toFixed(1)} s`);
}

/** A typo of a number: a letter or digit changed, dropped, added, or swapped with the next (by `i`). */
function typo(raw: string, i: number): string {
  // Letters and digits only: a separator changed would still be the same number once normalised.
  const places = [...raw].flatMap((c, k) => (/[A-Za-z0-9]/.test(c) && /[A-Za-z0-9]/.test(raw[k + 1] ?? '') ? [k] : []));
  const at = places[(i * 7) % places.length] ?? 0;
  const c = raw[at];
  switch (i % 4) {
    case 0:
      return raw.slice(0, at) + (c === '7' ? '8' : '7') + raw.slice(at + 1);
    case 1:
      return raw.slice(0, at) + raw.slice(at + 1);
    case 2:
      return raw.slice(0, at) + (c === 'Q' ? 'W' : 'Q') + raw.slice(at);
    default:
      return raw.slice(0, at) + raw[at + 1] + c + raw.slice(at + 2);
  }
}

/** A known number as a buyer might write it: as printed, in lower case, or with spaces for its dashes. */
const written = (raw: string, i: number) =>
  i % 7 === 3 ? raw.toLowerCase() : i % 7 === 5 ? raw.replace(/-/g, ' ') : raw;

interface Sampled {
  raw: string;
  min_order: number;
  pack_size: number;
}

/** An amount the part can be ordered in: its minimum, rounded up to its pack, and a pack or two more on some. */
const goodAmount = (p: Sampled, i: number) =>
  Math.ceil(p.min_order / p.pack_size) * p.pack_size + p.pack_size * (i % 3);

/**
 * `count` lines of the mix above, sampled from the catalog's current parts with some stock (`seed`: the sample, the
 * same on every run of the same database, so that runs before and after a change check the same lines).
 */
async function linesOf(db: Db, count: number, seed: number): Promise<QuickOrderLineInput[]> {
  const known = await rowsOf<Sampled>(
    db,
    sql`select raw, min_order, pack_size from (
          select p.sku as raw, p.min_order, p.pack_size from parts p tablesample bernoulli (2) repeatable (${seed})
            where p.replaced_by_id is null and p.available >= 30
          union all
          select n.raw, p.min_order, p.pack_size from part_numbers n tablesample bernoulli (1) repeatable (${seed})
            join parts p on p.id = n.part_id where p.replaced_by_id is null and p.available >= 30
        ) s order by md5(raw || ${seed}) limit ${count}`,
  );
  const superseded = await rowsOf<{ raw: string }>(
    db,
    sql`select coalesce(n.raw, p.sku) as raw from parts p
          left join part_numbers n on n.part_id = p.id and n.kind = 'oem'
        where p.replaced_by_id is not null order by md5(p.id::text || ${seed}) limit ${Math.ceil(count / 20)}`,
  );
  return known.map((p, i) => {
    const line = i + 1;
    if (i % 10 === 9) return { number: typo(p.raw, i), quantity: '2', line }; // 10 %: unknown, a typo
    if (i % 20 === 4) return { number: superseded[i % superseded.length].raw, quantity: '1', line }; // 5 %
    if (i % 50 === 47) {
      const earlier = known[i % 13]; // 2 %: a repeat of an earlier line's number (merged)
      return { number: earlier.raw, quantity: String(goodAmount(earlier, i)), line };
    }
    return { number: written(p.raw, i), quantity: String(goodAmount(p, i)), line };
  });
}

const percentile = (sorted: number[], p: number) =>
  sorted[Math.min(sorted.length - 1, Math.ceil(p * sorted.length) - 1)];

/**
 * CPU time (ms) of each server process serving this database, by pid (read from /proc: the server runs on this
 * machine in the bench; empty where it does not). Clock ticks of 10 ms.
 */
async function databaseCpu(db: Db): Promise<Map<number, number>> {
  const backends = await rowsOf<{ pid: number }>(
    db,
    sql`select pid from pg_stat_activity where datname = current_database() and backend_type = 'client backend'`,
  );
  const cpu = new Map<number, number>();
  for (const { pid } of backends) {
    try {
      const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
      cpu.set(pid, (Number(fields[11]) + Number(fields[12])) * 10); // utime, stime
    } catch {
      // Not on this machine, or gone.
    }
  }
  return cpu;
}

async function measure(db: Db, label: string, lines: QuickOrderLineInput[], concurrency: number) {
  const times: number[] = [];
  const loadBefore = load();
  const databaseBefore = await databaseCpu(db);
  const cpuBefore = process.cpuUsage();
  for (let round = 0; round < Math.ceil(runs / concurrency); round++) {
    await Promise.all(
      Array.from({ length: concurrency }, async () => {
        const started = performance.now();
        await checkQuickOrderLines(db, lines);
        times.push(performance.now() - started);
      }),
    );
  }
  const cpu = process.cpuUsage(cpuBefore);
  const cpuPerCheck = (cpu.user + cpu.system) / 1000 / times.length;
  let databaseMs = 0;
  for (const [pid, ms] of await databaseCpu(db)) databaseMs += ms - (databaseBefore.get(pid) ?? 0);
  times.sort((a, b) => a - b);
  const ms = (p: number) => percentile(times, p).toFixed(0);
  console.log(
    `${label} (${lines.length} lines, ${concurrency} at once, ${times.length} checks): p50 ${ms(0.5)} ms, ` +
      `p95 ${ms(0.95)} ms, p99 ${ms(0.99)} ms; CPU a check: the bench process's ${cpuPerCheck.toFixed(0)} ms, ` +
      `the database's ${(databaseMs / times.length).toFixed(0)} ms; ` +
      `load average before ${loadBefore}, after ${load()}`,
  );
}

/** What the lines hold, as the check saw them. */
async function describe(db: Db, label: string, lines: QuickOrderLineInput[]) {
  const view = await checkQuickOrderLines(db, lines);
  const kinds = new Map<string, number>();
  for (const l of view.lines) {
    const kind = l.mergedInto !== null ? 'merged' : (l.problem?.kind ?? 'ok');
    kinds.set(kind, (kinds.get(kind) ?? 0) + 1);
  }
  const suggested = view.lines.filter((l) => l.suggestions.length).length;
  console.log(
    `${label}: ${[...kinds].map(([k, n]) => `${k} ${n}`).join(', ')}; unknown lines with suggestions: ${suggested}`,
  );
}

/** Every statement of one check, EXPLAINed (ANALYZE, BUFFERS) in one transaction (its `set local`s run as sent). */
async function explainCheck(url: string, lines: QuickOrderLineInput[]) {
  const captured: { query: string; params: unknown[] }[] = [];
  const logger: Logger = { logQuery: (query, params) => captured.push({ query, params }) };
  const logged = await openDatabase({ kind: 'postgres', url, poolSize: 1 }, { logger });
  try {
    await checkQuickOrderLines(logged.db, lines);
    const client = await logged.pool!.connect();
    try {
      await client.query('begin');
      for (const { query, params } of captured) {
        if (/^\s*(begin|commit|rollback)\b/i.test(query)) continue;
        if (/^\s*set\b/i.test(query)) {
          await client.query(query, params);
          continue;
        }
        const { rows } = await client.query<{ 'QUERY PLAN': string }>(
          `explain (analyze, buffers, costs off) ${query}`,
          params,
        );
        console.log(`\n--- ${query.replace(/\s+/g, ' ').slice(0, 160)}...`);
        // A line past 300 characters is a list of ids or numbers: cut.
        console.log(rows.map((r) => r['QUERY PLAN'].slice(0, 300)).join('\n'));
      }
      await client.query('rollback');
    } finally {
      client.release();
    }
  } finally {
    await logged.close();
  }
}

async function main() {
  const admin = new Client({ connectionString: serverUrl });
  await admin.connect();
  const fresh = moderateParts !== undefined;
  const name = fresh ? `partsyard_quick_${randomBytes(4).toString('hex')}` : keptName;
  const url = new URL(serverUrl);
  url.pathname = `/${name}`;
  const exists = (await admin.query('select 1 from pg_database where datname = $1', [name])).rowCount === 1;
  if (!exists) await admin.query(`create database "${name}"`);
  const database = await openDatabase({ kind: 'postgres', url: url.toString(), poolSize: 8 });
  try {
    if (fresh) await fillModerate(database.db, moderateParts);
    else {
      const [{ mark }] = await rowsOf<{ mark: string | null }>(
        database.db,
        sql`select shobj_description(oid, 'pg_database') as mark from pg_database where datname = current_database()`,
      );
      if (mark !== filledMark) {
        if (exists) throw new Error(`${name} exists but is not a whole fill: drop it (dropdb ${name}) and run again`);
        await fillAtScale(database.db);
        await admin.query(`comment on database "${name}" is '${filledMark}'`);
      } else console.log(`reusing ${name} (filled before)`);
    }
    const paste = await linesOf(database.db, 200, 1);
    const file = await linesOf(database.db, 1000, 2);
    await describe(database.db, 'the paste', paste);
    await describe(database.db, 'the file', file);
    if (explain) await explainCheck(url.toString(), file);
    await checkQuickOrderLines(database.db, file); // warm
    await measure(database.db, 'a pasted grid', paste, 1);
    await measure(database.db, 'a file', file, 1);
    // Each of the pool's 8 connections warm, as a running server's are: a connection's first check opens it and
    // fills its backend's catalog caches, some 300 ms that are the start's, not the check's.
    await Promise.all(Array.from({ length: 8 }, () => checkQuickOrderLines(database.db, file)));
    await measure(database.db, 'a pasted grid', paste, 8);
    await measure(database.db, 'a file', file, 8);
  } finally {
    await database.close();
    if (fresh) await admin.query(`drop database "${name}"`);
    await admin.end();
  }
}

void main().catch((error: unknown) => {
  console.error(error);
  process.exitCode = 1;
});

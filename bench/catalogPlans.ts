/**
 * The catalog's query plans at a moderate size (issue 33; docs/catalog.md "Measured plans"): a fresh PostgreSQL
 * database with `--parts` parts (50,000 by default), their categories, brands, numbers, some 5,000 vehicles and
 * ten fitments a part (the busiest bike fitting a quarter of the parts); then every statement the catalog's
 * browsing, facets and search issue is EXPLAINed (ANALYZE, BUFFERS) as the app sends it (unnamed: planned for its
 * values), and each look-up timed (median of 7, warm). Also full-text search beside the trigram search, for the
 * record of the choice. A measurement, not a test: it fails on nothing.
 *
 *   node --import tsx bench/catalogPlans.ts [--parts 50000] [--keep] [--reuse <database>]
 *
 * `--keep` keeps the filled database (its name is printed); `--reuse` measures a kept one again without filling.
 *
 * PostgreSQL server: BENCH_DATABASE_URL, else TEST_DATABASE_URL, else postgres://postgres@127.0.0.1:5432/test.
 */
import { randomBytes } from 'node:crypto';
import { performance } from 'node:perf_hooks';
import { sql } from 'drizzle-orm';
import type { Logger } from 'drizzle-orm/logger';
import { Client } from 'pg';
import { createCatalogService } from '../api/src/catalog/catalogService';
import { openDatabase, type Db } from '../api/src/db/database';

const argument = (name: string) => {
  const at = process.argv.indexOf(`--${name}`);
  return at >= 0 ? process.argv[at + 1] : undefined;
};
const partCount = Number(argument('parts') ?? 50_000);
const reuse = argument('reuse');
const keep = process.argv.includes('--keep') || reuse !== undefined;
const serverUrl =
  process.env.BENCH_DATABASE_URL ?? process.env.TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test';

interface PlanNode {
  'Node Type': string;
  'Relation Name'?: string;
  'Index Name'?: string;
  'Actual Rows'?: number;
  'Actual Loops'?: number;
  'Shared Hit Blocks'?: number;
  'Shared Read Blocks'?: number;
  Plans?: PlanNode[];
}

async function fill(db: Db, n: number) {
  const run = (query: ReturnType<typeof sql>) => db.execute(query);
  await run(sql`insert into brands (name, slug) select 'Brand ' || g, 'brand-' || g from generate_series(1, 60) g`);
  await run(sql`insert into categories (name, slug)
    select t, lower(t) from unnest(array['Brakes','Drive','Ignition','Engine','Electrics','Suspension','Exhaust',
      'Filters','Cooling','Body','Controls','Wheels']) t`);
  await run(sql`insert into categories (name, slug, parent_id)
    select c.name || ' ' || lower(s), c.slug || '-' || lower(s), c.id
    from categories c, unnest(array['Pads','Discs','Kits','Cables','Seals','Bolts','Sensors','Covers']) s`);
  await run(sql`insert into makes (name, slug)
    select m, lower(m) from unnest(array['Honda','Yamaha','Kawasaki','Suzuki','KTM','Ducati','BMW','Triumph']) m`);
  await run(sql`insert into models (make_id, name, slug)
    select mk.id, upper(left(mk.name, 2)) || (100 + g * 7), lower(left(mk.name, 2)) || (100 + g * 7)
    from makes mk, generate_series(1, 50) g`);
  await run(sql`insert into vehicles (model_id, year, variant)
    select md.id, y, v from models md, generate_series(2012, 2023) y, unnest(array['', 'ABS']) v
    where hashtext(md.id::text || y || v) % 100 < 55`);
  await run(sql`
    with c as (select id, name, row_number() over (order by slug) - 1 as k from categories where parent_id is not null),
         b as (select id, row_number() over (order by slug) - 1 as k from brands)
    insert into parts (name, description, price_cents, min_order, available, brand_id, category_id, universal, created_at)
    select (array['Sintered','Organic','Heavy duty','Racing','Standard','Premium','Sport','Touring','Off-road',
              'Reinforced','Stainless','Lightweight'])[1 + i % 12]
             || ' ' || (array['Front','Rear','Left','Right','Upper','Lower'])[1 + i / 12 % 6] || ' ' || c.name || ' '
             || (array['Set','Assembly','Kit','Pair','Unit','Pack'])[1 + i / 72 % 6] || ' ' || i % 997,
           'Fits many bikes. ' || (array['Long lasting compound','High temperature rated','OEM quality replacement',
              'Easy to fit','Corrosion resistant finish','Tested on track'])[1 + i % 6] || ', batch ' || i,
           500 + i * 37 % 20000, 1 + i % 10, case when i % 4 = 0 then 0 else i * 13 % 500 end,
           b.id, c.id, i % 33 = 0, now() - make_interval(secs => i)
    from generate_series(1, ${n}) i join c on c.k = i % 96 join b on b.k = i % 60`);
  await run(sql`insert into part_numbers (part_id, kind, raw, brand_id)
    select id, 'manufacturer', upper(substr(md5(id::text), 1, 3)) || '-' || substr(md5(id::text), 4, 5), brand_id
    from parts`);
  await run(sql`insert into part_numbers (part_id, kind, raw)
    select id, 'oem', (10000 + abs(hashtext(id::text)) % 89999)::text || '-' || upper(substr(md5(id::text || 'o'), 1, 3))
      || '-' || lpad((abs(hashtext(id::text || 'x')) % 1000)::text, 3, '0') from parts`);
  // 2 % replaced by the next part; half of those sold out (left out of the lists).
  await run(sql`
    with o as (select id, lead(id) over (order by id) as newer, row_number() over (order by id) as k from parts
               where not universal)
    update parts set replaced_by_id = o.newer, available = case when o.k % 100 = 0 then 0 else available end
    from o where parts.id = o.id and o.k % 50 = 0 and o.newer is not null`);
  await run(sql`
    with v as (select id, row_number() over (order by id) - 1 as k, count(*) over () as total from vehicles),
         p as (select id, row_number() over (order by id) as k from parts where not universal)
    insert into fitments (vehicle_id, part_id)
    select distinct v.id, p.id from p cross join generate_series(0, 9) s
    join v on v.k = (p.k * 7919 + s * 104729) % v.total`);
  await run(sql`
    insert into fitments (vehicle_id, part_id, position)
    select (select v.id from vehicles v order by v.id limit 1), p.id, 'front'
    from (select id, row_number() over (order by id) as k from parts where not universal) p where p.k % 4 = 0
    on conflict do nothing`);
  await run(sql`vacuum analyze`);
}

async function main() {
  const name = reuse ?? `partsyard_plans_${randomBytes(4).toString('hex')}`;
  const admin = new Client({ connectionString: serverUrl });
  await admin.connect();
  if (!reuse) await admin.query(`create database "${name}"`);
  const url = new URL(serverUrl);
  url.pathname = `/${name}`;
  let captured: { query: string; params: unknown[] }[] = [];
  const logger: Logger = { logQuery: (query, params) => captured.push({ query, params }) };
  const database = await openDatabase({ kind: 'postgres', url: url.toString(), poolSize: 4 }, { logger });
  const db = database.db;
  const pool = database.pool!;
  try {
    const started = performance.now();
    if (!reuse) await fill(db, partCount);
    const counts = (
      await pool.query<Record<string, string>>(`select (select count(*) from parts) as parts,
        (select count(*) from vehicles) as vehicles, (select count(*) from fitments) as fitments,
        (select count(*) from part_numbers) as numbers`)
    ).rows[0];
    console.log(`filled in ${((performance.now() - started) / 1000).toFixed(1)} s: ${JSON.stringify(counts)}\n`);

    const one = async (query: string) => (await pool.query<{ id: string }>(query)).rows[0].id;
    const busiest = await one('select vehicle_id as id from fitments group by 1 order by count(*) desc limit 1');
    const typical = await one(
      'select vehicle_id as id from fitments group by 1 order by abs(count(*) - 90), vehicle_id limit 1',
    );
    const brakes = await one(`select id from categories where slug = 'brakes'`);
    const brakePads = await one(`select id from categories where slug = 'brakes-pads'`);
    const brand = await one(`select id from brands where slug = 'brand-7'`);
    const oem = (await pool.query<{ raw: string }>(`select raw from part_numbers where kind = 'oem' limit 1`)).rows[0]
      .raw;
    const catalog = createCatalogService(db);
    const lookups: [string, Record<string, unknown>][] = [
      ['whole catalog', {}],
      ['a top category (subcategories included)', { categoryId: brakes }],
      ['a leaf category, a brand, in stock', { categoryId: brakePads, brandId: brand, inStock: true }],
      ['a typical vehicle', { vehicleId: typical }],
      ['a typical vehicle and a top category', { vehicleId: typical, categoryId: brakes }],
      ['the busiest vehicle', { vehicleId: busiest }],
      ['the busiest vehicle, a leaf category', { vehicleId: busiest, categoryId: brakePads }],
      ['search "brake pads"', { search: 'brake pads' }],
      ['search with typos "sintred brke"', { search: 'sintred brke' }],
      ['search "brake pads" for a typical vehicle', { search: 'brake pads', vehicleId: typical }],
      ['search "brake pads" for the busiest vehicle', { search: 'brake pads', vehicleId: busiest }],
      [`search an OEM number "${oem}"`, { search: oem }],
      ['search a number prefix "1234"', { search: '1234' }],
    ];
    const read = async (filter: Record<string, unknown>) => {
      const page = await catalog.catalog(filter, { limit: 20 });
      await Promise.all([page.facets(), ...page.items.map((item) => item.fit())]);
      return page;
    };
    for (const [title, filter] of lookups) {
      const times: number[] = [];
      for (let i = 0; i < 7; i++) {
        const t = performance.now();
        await read(filter);
        times.push(performance.now() - t);
      }
      captured = [];
      const page = await read(filter);
      const statements = captured;
      const total = await page.total();
      times.sort((a, b) => a - b);
      console.log(
        `## ${title}: ${total.text} parts, page and facets ${times[3].toFixed(1)} ms (median of 7), ${statements.length} statements`,
      );
      for (const { query, params } of statements) {
        const { rows } = await pool.query<{ 'QUERY PLAN': [{ Plan: PlanNode; 'Execution Time': number }] }>(
          `explain (analyze, buffers, format json) ${query}`,
          params,
        );
        const [{ Plan: plan, 'Execution Time': ms }] = rows[0]['QUERY PLAN'];
        const scans: string[] = [];
        const walk = (node: PlanNode) => {
          if (node['Relation Name']) {
            scans.push(
              `${node['Node Type']} ${node['Index Name'] ?? node['Relation Name']} (${(node['Actual Rows'] ?? 0) * (node['Actual Loops'] ?? 1)} rows)`,
            );
          }
          for (const child of node.Plans ?? []) walk(child);
        };
        walk(plan);
        const what = query.replace(/\s+/g, ' ').slice(0, 90);
        console.log(
          `- ${ms.toFixed(2)} ms, ${(plan['Shared Hit Blocks'] ?? 0) + (plan['Shared Read Blocks'] ?? 0)} buffers: ${what}...\n    ${scans.join('; ')}`,
        );
      }
      console.log('');
    }

    // Full text beside trigrams: the same words, with and without a typo (an index of each, built here).
    await pool.query(
      `create index if not exists plans_fts_idx on parts using gin (to_tsvector('simple', name || ' ' || description))`,
    );
    await pool.query('analyze parts');
    console.log('## full text (to_tsvector simple, GIN) beside trigrams (parts_search_trgm_idx, each word)');
    for (const words of [['brake', 'pads'], ['brke', 'pads'], ['sintered'], ['sintred']]) {
      const time = async (query: string, values: unknown[]) => {
        const ms: number[] = [];
        let found = 0;
        for (let i = 0; i < 7; i++) {
          const t = performance.now();
          found = Number((await pool.query<{ n: string }>(query, values)).rows[0].n);
          ms.push(performance.now() - t);
        }
        ms.sort((a, b) => a - b);
        return `${found} found in ${ms[3].toFixed(1)} ms`;
      };
      const fts = await time(
        `select count(*) as n from parts where to_tsvector('simple', name || ' ' || description) @@ plainto_tsquery('simple', $1)`,
        [words.join(' ')],
      );
      const asWritten = await time(
        `select count(*) as n from parts where ${words.map((_, i) => `lower(name || ' ' || description) like '%' || $${i + 1} || '%'`).join(' and ')}`,
        words,
      );
      const trigram = await time(
        `select count(*) as n from parts where ${words.map((_, i) => `lower(name || ' ' || description) %> $${i + 1}`).join(' and ')}`,
        words,
      );
      console.log(
        `- "${words.join(' ')}": full text ${fts}; as written (like) ${asWritten}; with typos (%>) ${trigram}`,
      );
    }
  } finally {
    await database.close();
    if (!keep) await admin.query(`drop database if exists "${name}" with (force)`);
    else console.log(`kept database ${name}`);
    await admin.end();
  }
}

main().catch((error) => {
  console.error(error);
  process.exitCode = 1;
});

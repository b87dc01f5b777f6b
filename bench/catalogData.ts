/**
 * The catalog's generated data set (issue 33), one generator for the measurements that need one:
 * bench/catalogPlans.ts (the query plans at a moderate size) and `npm run bench -- --catalog-scale` (bench/run.ts:
 * the catalog at a real wholesaler's scale). Set-based SQL only (generate_series, INSERT ... SELECT), each table
 * timed.
 *
 * What it holds: brands; a two-level category tree (12 top categories of 8 each); makes, models and vehicles (a model
 * in a year, base or ABS); parts, each with a brand and a leaf category, one in 33 universal; three numbers for
 * every two parts (manufacturer, OEM; interchange on every other part); 2 % of the parts replaced by another (half
 * of those sold out, so out of the lists); fitment rows spread over the vehicles, each part on `fitments / parts`
 * of them, some with a note or two per bike, and the busiest bike (the first vehicle by id) fitting a quarter of
 * the parts besides, a second time at the front. The data is what the app would hold: the fitments carry their
 * part's category (the column triggers keep, written here from the part in the same statement), the catalog's
 * precomputed counts are refreshed as the migration's function does (catalog_counts), and the tables are
 * analysed.
 *
 * Speed: the big tables (parts, numbers, fitments) are written without their secondary indexes, which are built
 * again afterwards exactly as they were (their definitions read from pg_indexes), and in one transaction with
 * `session_replication_role = replica`, so that no per-row trigger (the foreign keys' checks, the fitments'
 * category) runs: every id is read from the tables it refers to. That needs a superuser (the bench's server).
 */
import { performance } from 'node:perf_hooks';
import { sql, type SQL } from 'drizzle-orm';
import { rowsOf, type Db, type Tx } from '../api/src/db/database';

export interface CatalogSizes {
  parts: number;
  vehicles: number;
  /** Fitment rows in all, the busiest bike's included. */
  fitments: number;
  brands: number;
}

/** bench/catalogPlans.ts's default (docs/catalog.md, "Measured plans"). */
export const moderateCatalog = (parts = 50_000): CatalogSizes => ({
  parts,
  vehicles: 7_500,
  fitments: Math.round(parts * 10.2),
  brands: 60,
});

/** Issue 33 point 8: at least 200,000 parts, 40,000 vehicles, 5,000,000 fitments and 500,000 numbers. */
export const catalogAtScale: CatalogSizes = { parts: 200_000, vehicles: 40_000, fitments: 5_000_000, brands: 120 };

export interface FilledCatalog {
  /** Rows of each table, and the seconds each took. */
  tables: { table: string; rows: number; seconds: number }[];
  seconds: number;
  /** The vehicle that fits the most parts. */
  busiestVehicleId: string;
}

const makeNames = [
  'Honda',
  'Yamaha',
  'Kawasaki',
  'Suzuki',
  'KTM',
  'Ducati',
  'BMW',
  'Triumph',
  'Husqvarna',
  'Aprilia',
  'Harley-Davidson',
  'Royal Enfield',
  'Bajaj',
  'Hero',
  'TVS',
  'Beta',
  'Sherco',
  'GasGas',
  'Moto Guzzi',
  'Benelli',
];

/**
 * The indexes of `table` that are not constraints' own dropped (and its primary key, with `primaryKey`: a table
 * no other refers to), `work` done, then each built again as it was.
 */
async function withoutSecondaryIndexes<T>(
  tx: Tx,
  table: string,
  work: () => Promise<T>,
  { primaryKey = false } = {},
): Promise<T> {
  const indexes = await rowsOf<{ name: string; definition: string }>(
    tx,
    sql`select indexname as name, indexdef as definition from pg_indexes
        where schemaname = current_schema() and tablename = ${table}
          and indexname not in (select conname from pg_constraint where conrelid = ${table}::regclass)`,
  );
  const keys = primaryKey
    ? await rowsOf<{ name: string; definition: string }>(
        tx,
        sql`select conname as name, pg_get_constraintdef(oid) as definition from pg_constraint
            where conrelid = ${table}::regclass and contype = 'p'`,
      )
    : [];
  for (const { name } of keys) await tx.execute(sql.raw(`alter table "${table}" drop constraint "${name}"`));
  for (const { name } of indexes) await tx.execute(sql.raw(`drop index "${name}"`));
  const result = await work();
  const t = performance.now();
  for (const { name, definition } of keys) {
    await tx.execute(sql.raw(`alter table "${table}" add constraint "${name}" ${definition}`));
  }
  for (const { definition } of indexes) await tx.execute(sql.raw(definition));
  console.log(
    `catalog: ${table}: its ${keys.length + indexes.length} indexes built in ${((performance.now() - t) / 1000).toFixed(1)} s`,
  );
  return result;
}

/** Fills an empty catalog (the tables may hold other parts: those without a brand are left alone). */
export async function fillCatalog(db: Db, sizes: CatalogSizes, log = console.log): Promise<FilledCatalog> {
  const started = performance.now();
  const tables: FilledCatalog['tables'] = [];
  const makes = Math.min(makeNames.length, Math.max(1, Math.ceil(sizes.vehicles / 1_900)));
  const modelsPerMake = 50 * Math.max(1, Math.ceil(sizes.vehicles / (makes * 50 * 24 * 2 * 0.8)));
  const busiest = await db.transaction(async (tx) => {
    await tx.execute(sql`set local session_replication_role = replica`);
    await tx.execute(sql`set local maintenance_work_mem = '512MB'`);
    await tx.execute(sql`set local work_mem = '256MB'`);
    /** Runs a table's statements (with `rebuild`, its indexes dropped before and built after, in its time). */
    const step = async (table: string, statements: SQL[], counted: SQL, rebuild?: { primaryKey: boolean }) => {
      const t = performance.now();
      const run = async () => {
        for (const statement of statements) await tx.execute(statement);
      };
      if (rebuild) await withoutSecondaryIndexes(tx, table, run, rebuild);
      else await run();
      const [{ n }] = await rowsOf<{ n: number }>(tx, counted);
      const seconds = (performance.now() - t) / 1000;
      tables.push({ table, rows: n, seconds });
      log(`catalog: ${table}: ${n.toLocaleString('en-US')} rows in ${seconds.toFixed(1)} s`);
    };

    await step(
      'brands',
      [
        sql`insert into brands (name, slug)
            select 'Brand ' || g, 'brand-' || g from generate_series(1, ${sizes.brands}) g`,
      ],
      sql`select count(*)::int as n from brands`,
    );
    await step(
      'categories',
      [
        sql`insert into categories (name, slug)
            select t, lower(t) from unnest(array['Brakes','Drive','Ignition','Engine','Electrics','Suspension',
              'Exhaust','Filters','Cooling','Body','Controls','Wheels']) t`,
        sql`insert into categories (name, slug, parent_id)
            select c.name || ' ' || lower(s), c.slug || '-' || lower(s), c.id
            from categories c, unnest(array['Pads','Discs','Kits','Cables','Seals','Bolts','Sensors','Covers']) s
            where c.parent_id is null`,
      ],
      sql`select count(*)::int as n from categories`,
    );
    await step(
      'makes, models, vehicles',
      [
        sql`insert into makes (name, slug)
            select m, lower(replace(m, ' ', '-')) from unnest(${sql.param(makeNames.slice(0, makes))}::text[]) m`,
        sql`insert into models (make_id, name, slug)
            select mk.id, upper(left(mk.slug, 2)) || (100 + g * 7), left(mk.slug, 2) || (100 + g * 7)
            from makes mk, generate_series(1, ${modelsPerMake}) g`,
        // The vehicles: models x years 2000-2023 x base and ABS, as many as asked, chosen by a hash.
        sql`insert into vehicles (model_id, year, variant)
            select md.id, y, v from models md, generate_series(2000, 2023) y, unnest(array['', 'ABS']) v
            order by md5(md.id::text || y || v) limit ${sizes.vehicles}`,
      ],
      sql`select count(*)::int as n from vehicles`,
    );
    await step(
      'parts',
      [
        sql`
          with c as (select id, name, row_number() over (order by slug) - 1 as k from categories
                     where parent_id is not null),
               b as (select id, row_number() over (order by slug) - 1 as k from brands),
               nc as (select count(*) as n from c), nb as (select count(*) as n from b)
          insert into parts (name, description, price_cents, min_order, available, brand_id, category_id, universal,
                             created_at)
          select (array['Sintered','Organic','Heavy duty','Racing','Standard','Premium','Sport','Touring','Off-road',
                    'Reinforced','Stainless','Lightweight'])[1 + i % 12]
                   || ' ' || (array['Front','Rear','Left','Right','Upper','Lower'])[1 + i / 12 % 6] || ' ' || c.name
                   || ' ' || (array['Set','Assembly','Kit','Pair','Unit','Pack'])[1 + i / 72 % 6] || ' ' || i % 997,
                 'Fits many bikes. ' || (array['Long lasting compound','High temperature rated',
                    'OEM quality replacement','Easy to fit','Corrosion resistant finish','Tested on track'])[1 + i % 6]
                   || ', batch ' || i,
                 500 + i * 37 % 20000, 1 + i % 10, case when i % 4 = 0 then 0 else i * 13 % 500 end,
                 b.id, c.id, i % 33 = 0, now() - make_interval(secs => i)
          from generate_series(1, ${sizes.parts}) i cross join nc cross join nb
          join c on c.k = i % nc.n join b on b.k = i % nb.n`,
        // 2 % replaced by the next part; half of those sold out (left out of the lists).
        sql`
          with o as (select id, lead(id) over (order by id) as newer, row_number() over (order by id) as k
                     from parts where brand_id is not null and not universal)
          update parts set replaced_by_id = o.newer, available = case when o.k % 100 = 0 then 0 else available end
          from o where parts.id = o.id and o.k % 50 = 0 and o.newer is not null`,
      ],
      sql`select count(*)::int as n from parts where brand_id is not null`,
      { primaryKey: false },
    );
    await step(
      'part_numbers',
      [
        sql`insert into part_numbers (part_id, kind, raw, brand_id)
              select id, 'manufacturer', upper(substr(md5(id::text), 1, 3)) || '-' || substr(md5(id::text), 4, 5),
                     brand_id
              from parts where brand_id is not null`,
        sql`insert into part_numbers (part_id, kind, raw)
              select id, 'oem', (10000 + abs(hashtext(id::text)) % 89999)::text || '-'
                       || upper(substr(md5(id::text || 'o'), 1, 3)) || '-'
                       || lpad((abs(hashtext(id::text || 'x')) % 1000)::text, 3, '0')
              from parts where brand_id is not null`,
        // Every other part has an interchange number of another brand.
        sql`with p as (select id, row_number() over (order by id) as k from parts where brand_id is not null),
                   b as (select id, row_number() over (order by slug) - 1 as k from brands),
                   nb as (select count(*) as n from brands)
              insert into part_numbers (part_id, kind, raw, brand_id)
              select p.id, 'interchange', 'X' || upper(substr(md5(p.id::text || 'i'), 1, 7)), b.id
              from p cross join nb join b on b.k = p.k % nb.n where p.k % 2 = 0`,
      ],
      sql`select count(*)::int as n from part_numbers`,
      { primaryKey: false },
    );
    // Statistics of what is there now, so that the fitments' statement is planned on them: planned on the bench's
    // own parts' (no brand), it estimated one part and ran 691 s instead of under a minute.
    await tx.execute(sql`analyze brands, categories, vehicles, parts`);
    // The busiest bike: the first vehicle by id.
    const [{ id: busiestId }] = await rowsOf<{ id: string }>(tx, sql`select id from vehicles order by id limit 1`);
    await step(
      'fitments',
      [
        // Each part (k = 1..n, not universal) on its share of the rows: vehicles (k x 7919 + s x 104729) mod the
        // vehicles, s = 0, 1, ...: distinct for one part while 104729 (a prime) does not divide their number.
        sql`
          with v as (select id, row_number() over (order by id) - 1 as k from vehicles),
               nv as (select count(*) as n from vehicles),
               p as (select id, category_id, row_number() over (order by id) as k, count(*) over () as total
                     from parts where brand_id is not null and not universal),
               busiest as (select (count(*) / 4)::bigint as n from p)
          insert into fitments (vehicle_id, part_id, position, quantity, note, category_id)
          select v.id, p.id, '', case when (p.k + s) % 9 = 0 then 2 else 1 end,
                 case when (p.k + s) % 40 = 0 then 'with ABS only' else '' end, p.category_id
          from p cross join busiest cross join nv
          cross join lateral generate_series(0,
            (p.k * (${sizes.fitments}::bigint - busiest.n)) / p.total
              - ((p.k - 1) * (${sizes.fitments}::bigint - busiest.n)) / p.total - 1) s
          join v on v.k = (p.k * 7919 + s * 104729) % nv.n`,
        // The busiest bike fits a quarter of the parts besides, at the front.
        sql`
          insert into fitments (vehicle_id, part_id, position, category_id)
          select ${busiestId}::uuid, p.id, 'front', p.category_id
          from (select id, category_id, row_number() over (order by id) as k from parts
                where brand_id is not null and not universal) p
          where p.k % 4 = 0`,
      ],
      sql`select count(*)::int as n from fitments`,
      { primaryKey: true },
    );
    return busiestId;
  });
  const t = performance.now();
  // The precomputed counts, as the migration's refresh builds them (catalog_counts).
  const counts = await refreshCounts(db);
  if (counts) {
    const countSeconds = (performance.now() - t) / 1000;
    const [{ n: countRows }] = await rowsOf<{ n: number }>(db, sql`select count(*)::int as n from catalog_counts`);
    tables.push({ table: 'catalog_counts', rows: countRows, seconds: countSeconds });
    log(`catalog: catalog_counts: ${countRows.toLocaleString('en-US')} rows in ${countSeconds.toFixed(1)} s`);
  }
  const a = performance.now();
  await db.execute(
    sql.raw(
      `vacuum (analyze) brands, categories, makes, models, vehicles, parts, part_numbers, fitments${counts ? ', catalog_counts' : ''}`,
    ),
  );
  const analyseSeconds = (performance.now() - a) / 1000;
  tables.push({ table: 'vacuum (analyze)', rows: 0, seconds: analyseSeconds });
  log(`catalog: vacuum (analyze): ${analyseSeconds.toFixed(1)} s`);
  const seconds = (performance.now() - started) / 1000;
  log(`catalog: filled in ${seconds.toFixed(1)} s`);
  return { tables, seconds, busiestVehicleId: busiest };
}

/**
 * Rebuilds the catalog's precomputed counts from the tables (the function the migration's backfill runs), where the
 * schema has them; false where it has not (a schema before them).
 */
async function refreshCounts(db: Db): Promise<boolean> {
  const [{ present }] = await rowsOf<{ present: boolean }>(
    db,
    sql`select to_regclass('catalog_counts') is not null as present`,
  );
  if (present) {
    await db.transaction(async (tx) => {
      await tx.execute(sql`set local work_mem = '256MB'`);
      await tx.execute(sql`select catalog_counts_refresh()`);
    });
  }
  return present;
}

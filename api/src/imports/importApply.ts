import { sql, type SQL } from 'drizzle-orm';
import { rowsOf, type DbOrTx } from '../db/database';
import { slugOf } from '../catalog/slug';
import { maxChainSteps } from '../catalog/supersession';
import type { ImportKind } from './importSchema';

/**
 * What a job does with its staged rows (importFormats.ts says what each row's values are), all set-based: a
 * handful of statements whatever the file's size, never one per row.
 *
 * - `check`: rejects the rows that refer to what the catalog lacks (a part no SKU names, a vehicle it does not
 *   have), each with its line, column and reason, before anything changes.
 * - `apply`: in the job's one transaction, writes the rows of a range of lines (the job's progress goes by
 *   ranges), each record once (the file's last row wins when it names one twice): new records inserted, changed
 *   ones updated, the same ones left alone, so that importing a file twice changes nothing the second time.
 */
export interface ImportSteps {
  check(db: DbOrTx, jobId: string): Promise<unknown>;
  /** Once before the ranges, in the transaction (brands, categories, supersession's loops). */
  prepare?(db: DbOrTx, jobId: string): Promise<unknown>;
  apply(db: DbOrTx, jobId: string, fromLine: number, toLine: number): Promise<Written>;
  /** Once after the ranges, in the transaction. */
  finish?(db: DbOrTx, jobId: string): Promise<unknown>;
}

export interface Written {
  inserted: number;
  updated: number;
  /** Records the range named (each once): those neither inserted nor updated are unchanged. */
  records: number;
}

/** The row `r` was not rejected. */
const notRejected = sql`not exists (select 1 from import_rejections x where x.job_id = r.job_id and x.line = r.line)`;

/** The staged rows of a job that no check rejected, between two lines: `r.values[i]` are their values. */
const staged = (jobId: string, fromLine?: number, toLine?: number) => sql`
  import_rows r where r.job_id = ${jobId}
  ${fromLine === undefined ? sql`` : sql`and r.line between ${fromLine} and ${toLine}`}
  and ${notRejected}`;

/** Rejects the staged rows (not rejected yet) for which `bad` holds, with a column, its value and a reason. */
const reject = (db: DbOrTx, jobId: string, column: string, value: SQL, reason: SQL, bad: SQL) =>
  db.execute(sql`
    insert into import_rejections (job_id, line, "column", value, reason)
    select r.job_id, r.line, ${column}, ${value}, ${reason} from ${staged(jobId)} and ${bad}
    on conflict do nothing`);

/** The part whose SKU (normalised) the value at `index` names. */
const partBySku = (index: number) => sql`part_number_normalised(r.values[${sql.raw(String(index))}])`;
const noPart = (index: number) => sql`not exists (select 1 from parts p where p.sku_normalised = ${partBySku(index)})`;
const rejectUnknownSku = (db: DbOrTx, jobId: string, column: string, index: number) =>
  reject(
    db,
    jobId,
    column,
    sql`r.values[${sql.raw(String(index))}]`,
    sql`'No part has the SKU ' || r.values[${sql.raw(String(index))}]`,
    noPart(index),
  );

/** Counts of an `insert ... on conflict do update ... returning (xmax = 0) as inserted` over a `src` CTE. */
async function counted(db: DbOrTx, statement: SQL): Promise<Written> {
  const [row] = await rowsOf<{ inserted: number; updated: number; records: number }>(db, statement);
  return { inserted: row?.inserted ?? 0, updated: row?.updated ?? 0, records: row?.records ?? 0 };
}
const countsOf = sql`select
  (select count(*) from written where inserted)::int as inserted,
  (select count(*) from written where not inserted)::int as updated,
  (select count(*) from src)::int as records`;

/** Brands the staged rows name (value `nameIndex`, its slug at `slugIndex`) that the catalog lacks: added. */
const addBrands = (db: DbOrTx, jobId: string, nameIndex: number, slugIndex: number) =>
  db.execute(sql`
    insert into brands (name, slug)
    select distinct on (lower(r.values[${sql.raw(String(nameIndex))}]))
           r.values[${sql.raw(String(nameIndex))}], r.values[${sql.raw(String(slugIndex))}]
      from ${staged(jobId)} and r.values[${sql.raw(String(nameIndex))}] <> ''
     order by lower(r.values[${sql.raw(String(nameIndex))}]), r.line
    on conflict do nothing`);

const vehicles: ImportSteps = {
  // Nothing to refer to: makes and models are added as named.
  async check() {},
  async apply(db, jobId, from, to) {
    // values: make, model, year from, year to, variant, make slug, model slug
    await db.execute(sql`
      insert into makes (name, slug)
      select distinct on (r.values[6]) r.values[1], r.values[6] from ${staged(jobId, from, to)}
       order by r.values[6], r.line
      on conflict (slug) do nothing`);
    await db.execute(sql`
      insert into models (make_id, name, slug)
      select distinct on (m.id, r.values[7]) m.id, r.values[2], r.values[7]
        from import_rows r join makes m on m.slug = r.values[6]
       where r.job_id = ${jobId} and r.line between ${from} and ${to} and ${notRejected}
       order by m.id, r.values[7], r.line
      on conflict (make_id, slug) do nothing`);
    return counted(
      db,
      sql`with src as (
        select distinct mo.id as model_id, y::smallint as year, r.values[5] as variant
          from import_rows r
          join makes m on m.slug = r.values[6]
          join models mo on mo.make_id = m.id and mo.slug = r.values[7]
          cross join generate_series(r.values[3]::int, r.values[4]::int) y
         where r.job_id = ${jobId} and r.line between ${from} and ${to}
           and ${notRejected}
      ), written as (
        insert into vehicles (model_id, year, variant) select model_id, year, variant from src
        on conflict (model_id, year, variant) do nothing
        returning true as inserted
      ) ${countsOf}`,
    );
  },
};

/** The vehicles a fitment row names: its make and model, each year of its range, its variant (empty: every one). */
const fitmentVehicles = sql`
  join makes m on m.slug = r.values[10]
  join models mo on mo.make_id = m.id and mo.slug = r.values[11]
  join vehicles v on v.model_id = mo.id and v.year between r.values[4]::int and r.values[5]::int
   and (r.values[6] = '' or lower(v.variant) = lower(r.values[6]))`;

const fitment: ImportSteps = {
  async check(db, jobId) {
    // values: sku, make, model, year from, year to, variant, position, quantity, note, make slug, model slug
    await rejectUnknownSku(db, jobId, 'sku', 1);
    const vehicleName = sql`case when r.values[4] = r.values[5] then r.values[4] else r.values[4] || '-' || r.values[5] end
      || ' ' || r.values[2] || ' ' || r.values[3] || case when r.values[6] = '' then '' else ' ' || r.values[6] end`;
    await reject(
      db,
      jobId,
      'model',
      sql`r.values[3]`,
      sql`'No vehicle ' || ${vehicleName} || ' in the catalog (import its vehicles first)'`,
      // Written with the slugs as plain conditions (not as the joins' own), so that PostgreSQL plans it as one
      // hash anti join over the vehicles rather than three index look-ups per row (6.1 s to 2.3 s for 200,000).
      sql`not exists (select 1 from makes m join models mo on mo.make_id = m.id join vehicles v on v.model_id = mo.id
           where m.slug = r.values[10] and mo.slug = r.values[11]
             and v.year between r.values[4]::int and r.values[5]::int
             and (r.values[6] = '' or lower(v.variant) = lower(r.values[6])))`,
    );
  },
  /**
   * The fitments' category is written here from the part, read in the same statement: the per-row trigger that
   * would look it up again is skipped for this transaction (migration 0022).
   */
  prepare: (db) => db.execute(sql`select set_config('partsyard.fitments_category_given', 'on', true)`),
  apply: (db, jobId, from, to) =>
    counted(
      db,
      sql`with src as (
        select distinct on (v.id, p.id, r.values[7])
               v.id as vehicle_id, p.id as part_id, r.values[7] as position, r.values[8]::int as quantity,
               r.values[9] as note, p.category_id
          from import_rows r
          join parts p on p.sku_normalised = ${partBySku(1)}
          ${fitmentVehicles}
         where r.job_id = ${jobId} and r.line between ${from} and ${to}
           and ${notRejected}
         order by v.id, p.id, r.values[7], r.line desc
      ), written as (
        insert into fitments (vehicle_id, part_id, position, quantity, note, category_id)
        select vehicle_id, part_id, position, quantity, note, category_id from src
        on conflict (vehicle_id, part_id, position) do update
          set quantity = excluded.quantity, note = excluded.note
          where (fitments.quantity, fitments.note) is distinct from (excluded.quantity, excluded.note)
        returning (xmax = 0) as inserted
      ) ${countsOf}`,
    ),
};

const numbers: ImportSteps = {
  async check(db, jobId) {
    // values: sku, kind, number, brand, brand slug
    await rejectUnknownSku(db, jobId, 'sku', 1);
  },
  prepare: (db, jobId) => addBrands(db, jobId, 4, 5),
  apply: (db, jobId, from, to) =>
    counted(
      db,
      sql`with src as (
        select distinct on (p.id, r.values[2], part_number_normalised(r.values[3]))
               p.id as part_id, r.values[2] as kind, b.id as brand_id, r.values[3] as raw
          from import_rows r
          join parts p on p.sku_normalised = ${partBySku(1)}
          left join brands b on r.values[4] <> '' and lower(b.name) = lower(r.values[4])
         where r.job_id = ${jobId} and r.line between ${from} and ${to}
           and ${notRejected}
         order by p.id, r.values[2], part_number_normalised(r.values[3]), r.line desc
      ), written as (
        insert into part_numbers (part_id, kind, brand_id, raw)
        select part_id, kind, brand_id, raw from src
        on conflict (part_id, kind, normalised) do update
          set raw = excluded.raw, brand_id = excluded.brand_id
          where (part_numbers.raw, part_numbers.brand_id) is distinct from (excluded.raw, excluded.brand_id)
        returning (xmax = 0) as inserted
      ) ${countsOf}`,
    ),
};

/**
 * The categories the staged parts name (`Brakes > Brake pads`), found or added level by level: a name is found
 * under its parent whatever its case; a new one's slug is its name's, or its parent's and its own when that is
 * taken (`brakes-other`), numbered when even that is.
 */
async function addCategories(db: DbOrTx, jobId: string): Promise<void> {
  const paths = await rowsOf<{ path: string }>(
    db,
    sql`select distinct r.values[9] as path from ${staged(jobId)} and r.values[9] <> ''`,
  );
  const known = new Map<string, string>(); // path (lower case) -> id
  for (const { path } of paths) {
    let parentId: string | null = null;
    let parentSlug = '';
    let prefix = '';
    for (const name of path.split(' > ')) {
      prefix = prefix ? `${prefix} > ${name.toLowerCase()}` : name.toLowerCase();
      const seen = known.get(prefix);
      if (seen) {
        parentId = seen;
        parentSlug = (await rowsOf<{ slug: string }>(db, sql`select slug from categories where id = ${seen}`))[0].slug;
        continue;
      }
      const [found]: { id: string; slug: string }[] = await rowsOf<{ id: string; slug: string }>(
        db,
        sql`select id::text, slug from categories
             where lower(name) = lower(${name}) and parent_id is not distinct from ${parentId}::uuid limit 1`,
      );
      let row: { id: string; slug: string } | undefined = found;
      if (!row) {
        const base = slugOf(name) || 'category';
        const candidates = [base, slugOf(`${parentSlug} ${base}`), ...[2, 3, 4, 5].map((n) => `${base}-${n}`)];
        const taken = new Set(
          (
            await rowsOf<{ slug: string }>(
              db,
              sql`select slug from categories where slug = any(${sql.param(candidates)}::text[]) or slug like ${`${base}-%`}`,
            )
          ).map((r) => r.slug),
        );
        let slug = candidates.find((c) => c && !taken.has(c));
        for (let n = 6; !slug; n++) if (!taken.has(`${base}-${n}`)) slug = `${base}-${n}`;
        [row] = await rowsOf<{ id: string; slug: string }>(
          db,
          sql`insert into categories (parent_id, name, slug) values (${parentId}::uuid, ${name}, ${slug})
              returning id::text, slug`,
        );
      }
      known.set(prefix, row.id);
      parentId = row.id;
      parentSlug = row.slug;
    }
  }
  // The paths as the rows name them, with the category each ends at, for the parts' upsert.
  await db.execute(sql`create temporary table if not exists import_category_paths (path text primary key, id uuid)
    on commit drop`);
  const entries = [...known.entries()];
  if (entries.length) {
    await db.execute(sql`
      insert into import_category_paths (path, id)
      select path, id from unnest(${sql.param(entries.map(([p]) => p))}::text[], ${sql.param(entries.map(([, id]) => id))}::uuid[])
        as t(path, id)
      on conflict (path) do nothing`);
  }
}

const parts: ImportSteps = {
  async check(db, jobId) {
    // values: sku, name, description, price (cents), min order, pack size, stock, brand, category, universal,
    // image, brand slug. A part that has quantity breaks keeps them valid: its new price and minimum order must
    // stay above and below its first break (edit the breaks first).
    await db.execute(sql`
      insert into import_rejections (job_id, line, "column", value, reason)
      select r.job_id, r.line,
             case when r.values[5]::int > (p.price_tiers->0->>'minUnits')::int then 'min_order' else 'price' end,
             case when r.values[5]::int > (p.price_tiers->0->>'minUnits')::int then r.values[5]
                  else round(r.values[4]::numeric / 100, 2)::text end,
             'The part''s quantity breaks start at ' || (p.price_tiers->0->>'minUnits') || ' units for '
               || round((p.price_tiers->0->>'priceCents')::numeric / 100, 2)::text
               || ': its price must stay above that and its minimum order at most that (change its quantity breaks first)'
        from import_rows r join parts p on p.sku_normalised = ${partBySku(1)}
       where r.job_id = ${jobId} and ${notRejected} and jsonb_array_length(p.price_tiers) > 0
         and (r.values[4]::int <= (p.price_tiers->0->>'priceCents')::int
              or r.values[5]::int > (p.price_tiers->0->>'minUnits')::int)
      on conflict do nothing`);
  },
  async prepare(db, jobId) {
    await addBrands(db, jobId, 8, 12);
    await addCategories(db, jobId);
  },
  apply: (db, jobId, from, to) =>
    counted(
      db,
      sql`with src as (
        select distinct on (${partBySku(1)})
               r.values[1] as sku, r.values[2] as name, r.values[3] as description, r.values[4]::int as price_cents,
               r.values[5]::int as min_order, r.values[6]::int as pack_size, r.values[7]::int as available,
               b.id as brand_id, c.id as category_id, r.values[10]::boolean as universal, r.values[11] as image
          from import_rows r
          left join brands b on r.values[8] <> '' and lower(b.name) = lower(r.values[8])
          left join import_category_paths c on c.path = lower(r.values[9])
         where r.job_id = ${jobId} and r.line between ${from} and ${to}
           and ${notRejected}
         order by ${partBySku(1)}, r.line desc
      ), written as (
        insert into parts (sku, name, description, price_cents, min_order, pack_size, available, brand_id,
                           category_id, universal, image)
        select sku, name, description, price_cents, min_order, pack_size, available, brand_id, category_id,
               universal, image from src
        on conflict (sku_normalised) do update
          set name = excluded.name, description = excluded.description, price_cents = excluded.price_cents,
              min_order = excluded.min_order, pack_size = excluded.pack_size, brand_id = excluded.brand_id,
              category_id = excluded.category_id, universal = excluded.universal, image = excluded.image
          where (parts.name, parts.description, parts.price_cents, parts.min_order, parts.pack_size, parts.brand_id,
                 parts.category_id, parts.universal, parts.image)
            is distinct from (excluded.name, excluded.description, excluded.price_cents, excluded.min_order,
                 excluded.pack_size, excluded.brand_id, excluded.category_id, excluded.universal, excluded.image)
        returning (xmax = 0) as inserted
      ) ${countsOf}`,
    ),
  // Our own numbering goes on after the highest PY- number a file brought.
  finish: (db) =>
    db.execute(sql`
      select setval('parts_sku_seq', greatest(s.last_value, coalesce(
        (select max(substring(sku from '^PY-(\\d{1,15})$')::bigint) from parts), 1)))
        from parts_sku_seq s`),
};

const supersessions: ImportSteps = {
  async check(db, jobId) {
    // values: sku, replaced by
    await rejectUnknownSku(db, jobId, 'sku', 1);
    await rejectUnknownSku(db, jobId, 'replaced_by', 2);
  },
  /**
   * Under the lock every change of supersession takes (catalog/supersession.ts), the rows that would close a loop
   * (with each other or with the catalog's chains) are rejected, naming the loop's SKUs: none of them is applied.
   */
  async prepare(db, jobId) {
    await db.execute(sql`select pg_advisory_xact_lock(hashtext('parts.replaced_by_id'))`);
    const edges = await rowsOf<{ line: number; from_id: string; to_id: string }>(
      db,
      sql`select distinct on (p.id) r.line, p.id::text as from_id, n.id::text as to_id
            from import_rows r
            join parts p on p.sku_normalised = ${partBySku(1)}
            join parts n on n.sku_normalised = ${partBySku(2)}
           where r.job_id = ${jobId}
             and ${notRejected}
           order by p.id, r.line desc`,
    );
    if (!edges.length) return;
    // The catalog's chains as the file leaves them: its own replacements, and the others of the parts it reaches.
    const next = new Map<string, { to: string; line: number | null }>();
    for (const e of edges) next.set(e.from_id, { to: e.to_id, line: e.line });
    let frontier = [...new Set(edges.map((e) => e.to_id))].filter((id) => !next.has(id));
    for (let step = 0; frontier.length && step < maxChainSteps; step++) {
      const rows = await rowsOf<{ id: string; to_id: string }>(
        db,
        sql`select id::text, replaced_by_id::text as to_id from parts
             where id = any(${sql.param(frontier)}::uuid[]) and replaced_by_id is not null`,
      );
      for (const row of rows) if (!next.has(row.id)) next.set(row.id, { to: row.to_id, line: null });
      frontier = rows.map((r) => r.to_id).filter((id) => !next.has(id));
    }
    const looping = new Map<number, string[]>(); // line -> the loop's part ids
    for (const start of edges) {
      const path = [start.from_id];
      let at = next.get(start.from_id)?.to;
      while (at && !path.includes(at) && path.length <= maxChainSteps * 2) {
        path.push(at);
        at = next.get(at)?.to;
      }
      if (at !== start.from_id) continue;
      for (const id of path) {
        const line = next.get(id)?.line;
        if (line != null && !looping.has(line)) looping.set(line, path);
      }
    }
    if (!looping.size) return;
    const ids = [...new Set([...looping.values()].flat())];
    const skus = new Map(
      (
        await rowsOf<{ id: string; sku: string }>(
          db,
          sql`select id::text, sku from parts where id = any(${sql.param(ids)}::uuid[])`,
        )
      ).map((r) => [r.id, r.sku]),
    );
    const lines = [...looping.keys()];
    const reasons = lines.map((line) => {
      const loop = looping.get(line) as string[];
      const names = [...loop, loop[0]].map((id) => skus.get(id) ?? id);
      return `This would make a loop of replacements: ${names.join(' is replaced by ')}`;
    });
    await db.execute(sql`
      insert into import_rejections (job_id, line, "column", value, reason)
      select ${jobId}, t.line, 'replaced_by', r.values[2], t.reason
        from unnest(${sql.param(lines)}::int[], ${sql.param(reasons)}::text[]) as t(line, reason)
        join import_rows r on r.job_id = ${jobId} and r.line = t.line
      on conflict do nothing`);
  },
  apply: (db, jobId, from, to) =>
    counted(
      db,
      sql`with src as (
        select distinct on (p.id) p.id as part_id, n.id as replaced_by_id
          from import_rows r
          join parts p on p.sku_normalised = ${partBySku(1)}
          join parts n on n.sku_normalised = ${partBySku(2)}
         where r.job_id = ${jobId} and r.line between ${from} and ${to}
           and ${notRejected}
         order by p.id, r.line desc
      ), written as (
        update parts set replaced_by_id = src.replaced_by_id from src
         where parts.id = src.part_id and parts.replaced_by_id is distinct from src.replaced_by_id
        returning false as inserted
      ) ${countsOf}`,
    ),
};

/**
 * The catalog's precomputed counts (catalog_counts, docs/catalog.md "Precomputed counts") are kept by triggers on
 * fitments and parts, statement by statement. An import that moves them defers those triggers for its
 * transaction, and counts what it touched again once, at its end (`catalog_counts_refresh`: the vehicles of a
 * fitment file; everything for parts and supersessions, which move universal parts, categories and what is
 * listed), before its transaction commits: shoppers see the old counts or the new ones, as they see the catalog.
 */
function countedOnce(steps: ImportSteps, refresh: (db: DbOrTx, jobId: string) => Promise<unknown>): ImportSteps {
  return {
    ...steps,
    async prepare(db, jobId) {
      await db.execute(sql`select set_config('partsyard.catalog_counts_deferred', 'on', true)`);
      await steps.prepare?.(db, jobId);
    },
    async finish(db, jobId) {
      await steps.finish?.(db, jobId);
      await refresh(db, jobId);
    },
  };
}

const refreshAll = (db: DbOrTx) => db.execute(sql`select catalog_counts_refresh()`);

export const importSteps: Record<ImportKind, ImportSteps> = {
  vehicles,
  parts: countedOnce(parts, refreshAll),
  numbers,
  fitment: countedOnce(fitment, (db, jobId) =>
    db.execute(sql`select catalog_counts_refresh(array(
      select distinct v.id from import_rows r ${fitmentVehicles} where r.job_id = ${jobId} and ${notRejected}))`),
  ),
  supersessions: countedOnce(supersessions, refreshAll),
};

import { rowsOf, type Tx } from '../db/database';
import { parts, type PartRow } from '../db/schema';
import { brands, categories, makes, models, vehicles } from './catalogSchema';
import { fitments, partNumbers } from './partLinksSchema';
import { demoCatalog, type DemoVehicle } from './demo/demoCatalog';
import { demoBrands, demoCategories, demoMakes } from './demo/demoCatalogData';
import { slugOf } from './slug';
import { setReplacement } from './supersession';
import { eq, sql } from 'drizzle-orm';

/**
 * The demo catalog (issue 33), small enough to read at a glance: brands, a two-level category tree, numbers on the
 * demo parts (one of them replacing an older design), and a few bikes they fit. `demo` are the seeded parts, in
 * the order of seed.ts's demoParts.
 */
export async function seedCatalog(tx: Tx, demo: PartRow[]): Promise<void> {
  const [ebc, did, ngk] = await tx
    .insert(brands)
    .values([
      { name: 'EBC', slug: 'ebc' },
      { name: 'DID', slug: 'did' },
      { name: 'NGK', slug: 'ngk' },
    ])
    .returning();
  const [brakes, drive, ignition] = await tx
    .insert(categories)
    .values([
      { name: 'Brakes', slug: 'brakes' },
      { name: 'Drive', slug: 'drive' },
      { name: 'Ignition', slug: 'ignition' },
    ])
    .returning();
  const [pads, chains, sprockets, plugs] = await tx
    .insert(categories)
    .values([
      { name: 'Brake pads', slug: 'brake-pads', parentId: brakes.id },
      { name: 'Chains', slug: 'chains', parentId: drive.id },
      { name: 'Sprockets', slug: 'sprockets', parentId: drive.id },
      { name: 'Spark plugs', slug: 'spark-plugs', parentId: ignition.id },
    ])
    .returning();
  const [brakePads, chain, sprocket, plug] = demo;
  const [, , , , , , , clutchCable] = demo;
  const set = (part: PartRow, values: Partial<typeof parts.$inferInsert>) =>
    tx.update(parts).set(values).where(eq(parts.id, part.id));
  await set(brakePads, { brandId: ebc.id, categoryId: pads.id });
  await set(chain, { brandId: did.id, categoryId: chains.id });
  await set(sprocket, { categoryId: sprockets.id });
  await set(plug, { brandId: ngk.id, categoryId: plugs.id });
  await set(clutchCable, { universal: true });
  await tx.insert(partNumbers).values([
    { partId: brakePads.id, kind: 'manufacturer', brandId: ebc.id, raw: 'FA185HH' },
    { partId: brakePads.id, kind: 'oem', raw: '06455-MEN-A71' },
    { partId: chain.id, kind: 'manufacturer', brandId: did.id, raw: '520VX3-120' },
    { partId: plug.id, kind: 'manufacturer', brandId: ngk.id, raw: 'CR9EIX' },
    { partId: plug.id, kind: 'ean', raw: '087295136657' },
  ]);
  // An older design of the pads, replaced by the current one: its number finds the current pads.
  const [oldPads] = await tx
    .insert(parts)
    .values({
      name: 'Sintered Front Brake Pads, earlier design',
      description: 'Replaced by the current sintered pads; kept so its numbers still find them.',
      image: brakePads.image,
      priceCents: brakePads.priceCents,
      minOrder: brakePads.minOrder,
      available: 0,
      brandId: ebc.id,
      categoryId: pads.id,
      createdAt: new Date(Date.now() - 86_400_000),
    })
    .returning();
  await tx.insert(partNumbers).values({ partId: oldPads.id, kind: 'oem', raw: '06455-MEN-305' });
  await setReplacement(tx, oldPads.id, brakePads.id);

  const [honda, yamaha] = await tx
    .insert(makes)
    .values([
      { name: 'Honda', slug: 'honda' },
      { name: 'Yamaha', slug: 'yamaha' },
    ])
    .returning();
  const [crf, yz] = await tx
    .insert(models)
    .values([
      { makeId: honda.id, name: 'CRF450R', slug: 'crf450r' },
      { makeId: yamaha.id, name: 'YZ450F', slug: 'yz450f' },
    ])
    .returning();
  const bikes = await tx
    .insert(vehicles)
    .values(
      [2018, 2019, 2020].flatMap((year) => [
        { modelId: crf.id, year },
        { modelId: yz.id, year },
      ]),
    )
    .returning();
  const hondas = bikes.filter((b) => b.modelId === crf.id);
  await tx
    .insert(fitments)
    .values([
      ...hondas.map((b) => ({ vehicleId: b.id, partId: brakePads.id, position: 'front' })),
      ...bikes.map((b) => ({ vehicleId: b.id, partId: chain.id, note: b.year === 2018 ? 'cut to 114 links' : '' })),
      ...hondas.map((b) => ({ vehicleId: b.id, partId: plug.id })),
    ]);
  await seedDemoCatalog(tx);
}

const vehicleKey = (v: DemoVehicle) => `${v.make}|${v.model}|${v.year}|${v.variant}`;

/**
 * Runs `load` with the fitments' per-row category look-up skipped, as the fitment import skips it (migration 0022,
 * `partsyard.fitments_category_given`, for this transaction only): `load` writes each fitment's category from its
 * part, as the trigger would. The foreign keys are checked as for any other writer.
 */
async function withCategoriesGiven(tx: Tx, load: () => Promise<void>): Promise<void> {
  await tx.execute(sql`select set_config('partsyard.fitments_category_given', 'on', true)`);
  try {
    await load();
  } finally {
    await tx.execute(sql`select set_config('partsyard.fitments_category_given', '', true)`);
  }
}

/**
 * Inserts `rows` (by column name; `columns` gives each column's type) in one statement with one parameter, a JSON
 * array read as a set of records: the grown demo's rows hold some 30,000 values, and PGlite took seconds to bind them
 * as as many parameters. Answers the `returning` columns of the rows.
 */
async function insertRows<T>(
  tx: Tx,
  table: string,
  columns: Record<string, string>,
  rows: Record<string, unknown>[],
  returning?: string,
): Promise<T[]> {
  const names = Object.keys(columns).join(', ');
  const types = Object.entries(columns)
    .map(([name, type]) => `${name} ${type}`)
    .join(', ');
  return rowsOf<T>(
    tx,
    sql`insert into ${sql.raw(table)} (${sql.raw(names)})
      select ${sql.raw(names)} from jsonb_to_recordset(${JSON.stringify(rows)}::jsonb) as r(${sql.raw(types)})
      ${returning ? sql.raw(`returning ${returning}`) : sql``}`,
  );
}

/**
 * The grown demo catalog (demoCatalog.ts) beside the rows above: set-based, a statement per table (the demo seeds at
 * every first start of the embedded default and in every browser test's shop), the rows above reused by name. Its
 * parts are older than the demo's first ones, so lists newest first still open with those.
 */
async function seedDemoCatalog(tx: Tx): Promise<void> {
  const catalog = demoCatalog();
  const byName = <T extends { id: string; name: string }>(rows: T[]) => new Map(rows.map((r) => [r.name, r.id]));

  await tx
    .insert(brands)
    .values(demoBrands.map((b) => ({ name: b.name, slug: slugOf(b.name) })))
    .onConflictDoNothing();
  const brandIds = byName(await tx.select().from(brands));
  await tx
    .insert(categories)
    .values(demoCategories.map((c) => ({ name: c.name, slug: slugOf(c.name) })))
    .onConflictDoNothing();
  const tops = byName(await tx.select().from(categories));
  await tx
    .insert(categories)
    .values(
      demoCategories.flatMap((c) =>
        c.children.map((name) => ({ name, slug: slugOf(name), parentId: tops.get(c.name) })),
      ),
    )
    .onConflictDoNothing();
  const categoryIds = byName(await tx.select().from(categories));
  await tx
    .insert(makes)
    .values(demoMakes.map((name) => ({ name, slug: slugOf(name) })))
    .onConflictDoNothing();
  const makeIds = byName(await tx.select().from(makes));

  await withCategoriesGiven(tx, async () => {
    const modelRows = await insertRows<{ id: string; make_id: string; name: string }>(
      tx,
      'models',
      { make_id: 'uuid', name: 'text', slug: 'text' },
      [...new Set(catalog.vehicles.map((v) => `${v.make}|${v.model}`))].map((key) => {
        const [make, name] = key.split('|');
        return { make_id: makeIds.get(make), name, slug: slugOf(name) };
      }),
      'id, make_id, name',
    );
    const makeNames = new Map([...makeIds].map(([name, id]) => [id, name]));
    const modelIds = new Map(modelRows.map((m) => [`${makeNames.get(m.make_id)}|${m.name}`, m.id]));
    const vehicleRows = await insertRows<{ id: string; model_id: string; year: number; variant: string }>(
      tx,
      'vehicles',
      { model_id: 'uuid', year: 'smallint', variant: 'text' },
      catalog.vehicles.map((v) => ({
        model_id: modelIds.get(`${v.make}|${v.model}`),
        year: v.year,
        variant: v.variant,
      })),
      'id, model_id, year, variant',
    );
    const modelKeys = new Map([...modelIds].map(([key, id]) => [id, key]));
    const vehicleIds = new Map(vehicleRows.map((v) => [`${modelKeys.get(v.model_id)}|${v.year}|${v.variant}`, v.id]));

    const now = Date.now();
    const partRows = await insertRows<{ id: string; name: string }>(
      tx,
      'parts',
      {
        name: 'text',
        description: 'text',
        image: 'text',
        price_cents: 'bigint',
        min_order: 'integer',
        available: 'integer',
        pack_size: 'integer',
        price_tiers: 'jsonb',
        brand_id: 'uuid',
        category_id: 'uuid',
        created_at: 'timestamptz',
      },
      catalog.parts.map((p, i) => ({
        name: p.name,
        description: p.description,
        image: p.image,
        price_cents: p.priceCents,
        min_order: p.minOrder,
        available: p.available,
        pack_size: p.packSize,
        price_tiers: p.priceTiers,
        brand_id: brandIds.get(p.brand),
        category_id: categoryIds.get(p.category),
        created_at: new Date(now - 2 * 86_400_000 - i * 60_000).toISOString(),
      })),
      'id, name',
    );
    const partIds = byName(partRows);
    await insertRows(
      tx,
      'part_numbers',
      { part_id: 'uuid', kind: 'text', raw: 'text', brand_id: 'uuid' },
      catalog.parts.flatMap((p) =>
        p.numbers.map((n) => ({
          part_id: partIds.get(p.name),
          kind: n.kind,
          raw: n.raw,
          brand_id: n.brand ? brandIds.get(n.brand) : null,
        })),
      ),
    );
    await insertRows(
      tx,
      'fitments',
      { vehicle_id: 'uuid', part_id: 'uuid', position: 'text', quantity: 'integer', note: 'text', category_id: 'uuid' },
      catalog.parts.flatMap((p) =>
        p.fitments.map((f) => ({
          vehicle_id: vehicleIds.get(vehicleKey(f.vehicle)),
          part_id: partIds.get(p.name),
          position: f.position,
          quantity: f.quantity,
          note: f.note,
          // The part's category, as the fitments_category_from_part trigger (migration 0017) writes it.
          category_id: categoryIds.get(p.category),
        })),
      ),
    );
  });

  // Supersessions through the catalog's own rule (a chain never loops), the checks on.
  const ids = byName(await tx.select({ id: parts.id, name: parts.name }).from(parts));
  for (const p of catalog.parts) {
    if (p.replacedBy) await setReplacement(tx, ids.get(p.name) as string, ids.get(p.replacedBy) as string);
  }
}

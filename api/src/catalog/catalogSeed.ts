import type { Tx } from '../db/database';
import { parts, type PartRow } from '../db/schema';
import { brands, categories, makes, models, vehicles } from './catalogSchema';
import { fitments, partNumbers } from './partLinksSchema';
import { setReplacement } from './supersession';
import { eq } from 'drizzle-orm';

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
}

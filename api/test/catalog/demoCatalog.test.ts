import { randomBytes } from 'node:crypto';
import { normalisePartNumber, partNumberProblem } from '@partsyard/common';
import { sql } from 'drizzle-orm';
import { Client } from 'pg';
import { demoCatalog, type DemoPart } from '../../src/catalog/demo/demoCatalog';
import { openDatabase, rowsOf, type Db } from '../../src/db/database';
import { demoParts, seedDemo } from '../../src/db/seed';
import type { Identity } from '../../src/identity/firebaseIdentity';
import { databaseKinds, testEnv } from '../support/env';
import { createTestDatabase } from '../support/postgres';
import { startTestApp, type TestApp } from '../support/testApp';

/**
 * Issue 33 point 7: the embedded default's demo is a small realistic catalog (demoCatalog.ts), beside the demo's
 * first parts and bikes (catalogSeed.ts), which it leaves as they were: browser tests are written against those.
 */

/** The demo's first parts: the storefront's fourteen and the pads' earlier design. */
const firstParts = [...demoParts.map((p) => p.name), 'Sintered Front Brake Pads, earlier design'];

const countIn = async (db: Db, query: ReturnType<typeof sql>) => Number((await rowsOf<{ n: string }>(db, query))[0].n);
const count = (app: TestApp, query: ReturnType<typeof sql>) => countIn(app.server.database.db, query);

/** Every row of the catalog's tables, and the fitments whose category is not their part's. */
const catalogRows = sql`select (select count(*) from parts) + (select count(*) from vehicles)
  + (select count(*) from fitments) + (select count(*) from part_numbers) + (select count(*) from brands)
  + (select count(*) from categories) + (select count(*) from models) as n`;
const strayCategories = sql`select count(*) as n from fitments f join parts p on p.id = f.part_id
  where f.category_id is distinct from p.category_id`;

/** An identity that knows the demo accounts by a fixed uid (the seed asks it again on every start). */
const sameIdentity: Identity = {
  ensureAccount: async (email) => `demo-test:${email}`,
  verifyIdToken: () => Promise.reject(new Error('not used')),
  lookupAccount: async () => null,
  deleteAccount: async () => {},
  close: async () => {},
};

describe('the demo catalog, as generated', () => {
  it('is the same on every call (a seeded generator), with unique names', () => {
    const first = demoCatalog();
    expect(demoCatalog()).toEqual(first);
    expect(new Set(first.parts.map((p) => p.name)).size).toBe(first.parts.length);
    expect(first.parts.filter((p) => firstParts.includes(p.name))).toEqual([]);
  });

  it('is a few hundred parts on some 350 bikes, each bike with parts of many kinds', () => {
    const { parts, vehicles } = demoCatalog();
    expect(parts.length).toBeGreaterThanOrEqual(300);
    expect(vehicles.length).toBeGreaterThanOrEqual(150);
    expect(vehicles.length).toBeLessThanOrEqual(400);
    for (const vehicle of vehicles) {
      const kinds = new Set(parts.filter((p) => p.fitments.some((f) => f.vehicle === vehicle)).map((p) => p.category));
      expect([vehicle, kinds.size >= 6]).toEqual([vehicle, true]);
    }
  });
});

describe.each(databaseKinds)('the demo seeded on %s', (kind) => {
  let app: TestApp;
  const generated = demoCatalog();
  beforeAll(async () => {
    app = await startTestApp(kind, { seedDemo: true });
  });
  afterAll(() => app?.close());

  it('holds a few makes, dozens of models, some 350 vehicles and a few hundred parts of 15+ brands', async () => {
    expect(await count(app, sql`select count(*) as n from makes`)).toBeGreaterThanOrEqual(6);
    expect(await count(app, sql`select count(*) as n from models`)).toBeGreaterThanOrEqual(40);
    const vehicles = await count(app, sql`select count(*) as n from vehicles`);
    expect(vehicles).toBeGreaterThanOrEqual(150);
    expect(vehicles).toBeLessThanOrEqual(400);
    expect(await count(app, sql`select count(*) as n from parts`)).toBe(firstParts.length + generated.parts.length);
    expect(await count(app, sql`select count(*) as n from brands`)).toBeGreaterThanOrEqual(15);
    // Two levels: every category is at the top or under one that is.
    expect(await count(app, sql`select count(*) as n from categories where parent_id is null`)).toBeGreaterThanOrEqual(
      5,
    );
    expect(
      await count(
        app,
        sql`select count(*) as n from categories c join categories parent on parent.id = c.parent_id
          where parent.parent_id is null`,
      ),
    ).toBeGreaterThanOrEqual(12);
    expect(
      await count(
        app,
        sql`select count(*) as n from categories c join categories parent on parent.id = c.parent_id
          where parent.parent_id is not null`,
      ),
    ).toBe(0);
  });

  it('gives every part it adds a brand and a category of the second level; the first parts keep theirs', async () => {
    const rows = await rowsOf<{ name: string; brand: string | null; category: string | null; parent: string | null }>(
      app.server.database.db,
      sql`select p.name, b.name as brand, c.name as category, top.name as parent from parts p
        left join brands b on b.id = p.brand_id left join categories c on c.id = p.category_id
        left join categories top on top.id = c.parent_id`,
    );
    const added = rows.filter((r) => !firstParts.includes(r.name));
    expect(added).toHaveLength(generated.parts.length);
    expect(added.filter((r) => !r.brand || !r.category || !r.parent)).toEqual([]);
    const first = new Map(rows.filter((r) => firstParts.includes(r.name)).map((r) => [r.name, [r.brand, r.category]]));
    expect(first.get('Sintered Front Brake Pads (Pair)')).toEqual(['EBC', 'Brake pads']);
    expect(first.get('O-Ring Drive Chain 520 x 120 Links')).toEqual(['DID', 'Chains']);
    expect(first.get('Iridium Spark Plug CR9EIX')).toEqual(['NGK', 'Spark plugs']);
    expect(first.get('Steel Rear Sprocket 520 – 42T')).toEqual([null, 'Sprockets']);
    expect(first.get('Universal Clutch Cable 120 cm')).toEqual([null, null]);
  });

  it("numbers the parts in the shop's own SKU scheme, each SKU once", async () => {
    const skus = await rowsOf<{ sku: string }>(app.server.database.db, sql`select sku from parts`);
    expect(skus.filter((s) => !/^PY-\d{6}$/.test(s.sku))).toEqual([]);
    expect(new Set(skus.map((s) => normalisePartNumber(s.sku))).size).toBe(skus.length);
  });

  it('holds only numbers the catalog keeps, normalised by its one rule, none starting like the first parts’ numbers', async () => {
    const numbers = await rowsOf<{ kind: string; raw: string; normalised: string; name: string }>(
      app.server.database.db,
      sql`select n.kind, n.raw, n.normalised, p.name from part_numbers n join parts p on p.id = n.part_id`,
    );
    expect(numbers.length).toBeGreaterThanOrEqual(generated.parts.length * 2);
    expect(numbers.filter((n) => partNumberProblem(n.raw) !== null)).toEqual([]);
    expect(numbers.filter((n) => n.normalised !== normalisePartNumber(n.raw))).toEqual([]);
    expect(numbers.filter((n) => n.kind === 'ean' && !/^\d{12,13}$/.test(n.normalised))).toEqual([]);
    // Every kind, and the separators the trade writes (BMW's spaces, Honda's hyphens, JT's dots).
    expect(new Set(numbers.map((n) => n.kind))).toEqual(new Set(['manufacturer', 'oem', 'interchange', 'ean']));
    expect(numbers.some((n) => / \d{3} \d{3}$/.test(n.raw))).toBe(true);
  });

  it('finds by the first parts’ numbers, whole or their start, those parts alone, as before', async () => {
    const numbers = [
      ['FA185HH', 'FA185'],
      ['06455-MEN-A71', '06455-MEN'],
      ['06455-MEN-305', '06455 MEN 3'],
      ['520VX3-120', '520VX3'],
      ['CR9EIX', 'CR9E'],
      ['087295136657', '087295'],
    ];
    for (const [whole, start] of numbers) {
      for (const typed of [whole, start]) {
        const { data } = await app.gql<{ partsByNumber: { part: { name: string } }[] }>(
          'query($n: String!) { partsByNumber(number: $n) { part { name } } }',
          { n: typed },
        );
        const names = data?.partsByNumber.map((hit) => hit.part.name) ?? [];
        expect([typed, names.length > 0, names.filter((name) => !firstParts.includes(name))]).toEqual([
          typed,
          true,
          [],
        ]);
      }
    }
  });

  it('fits parts to bikes with positions, quantities and notes, each fitment carrying its part’s category', async () => {
    const db = app.server.database.db;
    // The seed writes the fitments' categories itself (the per-row look-up skipped): they and the keys hold.
    expect(
      await count(
        app,
        sql`select count(*) as n from fitments f left join parts p on p.id = f.part_id
          left join vehicles v on v.id = f.vehicle_id where p.id is null or v.id is null`,
      ),
    ).toBe(0);
    expect(await count(app, strayCategories)).toBe(0);
    expect(
      await count(
        app,
        sql`select count(*) as n from part_numbers n left join parts p on p.id = n.part_id
          left join brands b on b.id = n.brand_id where p.id is null or (n.brand_id is not null and b.id is null)`,
      ),
    ).toBe(0);
    expect(
      await count(
        app,
        sql`select count(*) as n from vehicles v left join models m on m.id = v.model_id
          left join makes k on k.id = m.make_id where k.id is null`,
      ),
    ).toBe(0);
    const fits = await rowsOf<{ position: string; quantity: number; note: string }>(
      db,
      sql`select position, quantity, note from fitments`,
    );
    expect(fits.length).toBeGreaterThanOrEqual(3000);
    expect(new Set(fits.map((f) => f.position))).toEqual(new Set(['', 'front', 'rear']));
    expect(fits.some((f) => f.quantity > 1)).toBe(true);
    expect(fits.some((f) => f.note === 'with ABS only')).toBe(true);
  });

  it('leaves the first bikes as they were: their parts only, the clutch cable the one universal part', async () => {
    const rows = await rowsOf<{ bike: string; part: string; position: string; note: string }>(
      app.server.database.db,
      sql`select v.year || ' ' || m.name as bike, p.name as part, f.position, f.note from fitments f
        join vehicles v on v.id = f.vehicle_id join models m on m.id = v.model_id join parts p on p.id = f.part_id
        where m.name in ('CRF450R', 'YZ450F') order by m.name, v.year, p.name`,
    );
    const pads = 'Sintered Front Brake Pads (Pair)';
    const chain = 'O-Ring Drive Chain 520 x 120 Links';
    const plug = 'Iridium Spark Plug CR9EIX';
    expect(rows).toEqual(
      [2018, 2019, 2020]
        .flatMap((year) => [
          { bike: `${year} CRF450R`, part: plug, position: '', note: '' },
          { bike: `${year} CRF450R`, part: chain, position: '', note: year === 2018 ? 'cut to 114 links' : '' },
          { bike: `${year} CRF450R`, part: pads, position: 'front', note: '' },
        ])
        .concat(
          [2018, 2019, 2020].map((year) => ({
            bike: `${year} YZ450F`,
            part: chain,
            position: '',
            note: year === 2018 ? 'cut to 114 links' : '',
          })),
        ),
    );
    const universal = await rowsOf<{ name: string }>(
      app.server.database.db,
      sql`select name from parts where universal`,
    );
    expect(universal).toEqual([{ name: 'Universal Clutch Cable 120 cm' }]);
    const variants = await rowsOf<{ variant: string }>(
      app.server.database.db,
      sql`select distinct v.variant from vehicles v join models m on m.id = v.model_id where m.name in ('CRF450R', 'YZ450F')`,
    );
    expect(variants).toEqual([{ variant: '' }]);
  });

  it('lists the first parts first, newest first, as before', async () => {
    const { data } = await app.gql<{ parts: { items: { name: string }[] } }>('{ parts(limit: 15) { items { name } } }');
    expect(data?.parts.items.map((p) => p.name)).toEqual([
      ...demoParts.map((p) => p.name).reverse(),
      firstParts.at(-1),
    ]);
  });

  it('finds the current part by a replaced number, down a chain of two, and says what it replaces', async () => {
    const replaced = generated.parts.filter((p) => p.replacedBy);
    const byName = new Map(generated.parts.map((p) => [p.name, p]));
    const currentOf = (p: DemoPart): DemoPart => (p.replacedBy ? currentOf(byName.get(p.replacedBy) as DemoPart) : p);
    expect(replaced.length).toBeGreaterThanOrEqual(3);
    expect(replaced.some((p) => byName.get(p.replacedBy as string)?.replacedBy)).toBe(true);
    for (const old of replaced) {
      const number = old.numbers[0].raw;
      const { data, errors } = await app.gql<{
        partsByNumber: { match: string; reason: string; part: { name: string }; replaces: { name: string } | null }[];
      }>('query($n: String!) { partsByNumber(number: $n) { match reason part { name } replaces { name } } }', {
        n: number,
      });
      expect(errors).toBeUndefined();
      const [hit] = data?.partsByNumber ?? [];
      expect([number, hit.match, hit.part.name, hit.replaces?.name]).toEqual([
        number,
        'EXACT',
        currentOf(old).name,
        old.name,
      ]);
      expect(hit.reason).toContain('replaced by');
    }
  });

  it('seeds once: a second start adds nothing', async () => {
    const before = await count(app, catalogRows);
    await seedDemo(app.server.database.db, sameIdentity);
    expect(await count(app, catalogRows)).toBe(before);
  });
});

(testEnv.postgresUrl ? describe : describe.skip)(
  "the demo seeded by a role that is not a superuser (a production database's app role)",
  () => {
    it('loads the same catalog', async () => {
      const created = await createTestDatabase({ migrated: true });
      const role = `partsyard_t_seed_${randomBytes(4).toString('hex')}`;
      const owner = new Client({ connectionString: created.url });
      await owner.connect();
      try {
        await owner.query(`create role "${role}" login nosuperuser`);
        // What the app's own start asks: its migrations' schema and table (found there), then the catalog's tables.
        await owner.query(`grant create on database "${new URL(created.url).pathname.slice(1)}" to "${role}"`);
        for (const grant of [
          'usage, create on schema',
          'all on all tables in schema',
          'all on all sequences in schema',
        ]) {
          await owner.query(`grant ${grant} public, drizzle to "${role}"`);
        }
        const url = new URL(created.url);
        url.username = role;
        const database = await openDatabase({ kind: 'postgres', url: url.toString(), poolSize: 2 });
        try {
          await seedDemo(database.db, sameIdentity);
          const { db } = database;
          expect(await countIn(db, sql`select count(*) as n from parts`)).toBe(
            firstParts.length + demoCatalog().parts.length,
          );
          expect(await countIn(db, sql`select count(*) as n from fitments`)).toBeGreaterThanOrEqual(3000);
          expect(await countIn(db, strayCategories)).toBe(0);
          expect(await countIn(db, sql`select count(*) as n from parts where replaced_by_id is not null`)).toBe(
            1 + demoCatalog().parts.filter((p) => p.replacedBy).length,
          );
        } finally {
          await database.close();
        }
      } finally {
        await owner.end();
        await created.drop();
        const admin = new Client({ connectionString: testEnv.postgresUrl });
        await admin.connect();
        await admin.query(`drop role if exists "${role}"`).finally(() => admin.end());
      }
    });
  },
);

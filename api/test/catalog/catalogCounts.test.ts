import { eq, sql } from 'drizzle-orm';
import { categories, makes, models, vehicles } from '../../src/catalog/catalogSchema';
import { fitments, noKey } from '../../src/catalog/partLinksSchema';
import { parts } from '../../src/db/schema';
import { databaseKinds } from '../support/env';
import { startTestApp, type TestApp, type TestUser } from '../support/testApp';
import { insertPart, uniqueCode } from './catalogSupport';

jest.setTimeout(180_000);

/**
 * The catalog's precomputed counts (migration 0023, docs/catalog.md "Precomputed counts"): after every kind of
 * change that moves them (fitment rows written and removed, at two positions, by SQL, by the admin's edit and by
 * the import; a part's category, universal flag and replacement; a replaced part selling out and restocked; parts
 * and vehicles removed), `catalog_counts` holds what the rule counts from the tables, and a vehicle's facets over
 * the bound read it.
 */
describe.each(databaseKinds)("the catalog's precomputed counts on %s", (kind) => {
  let app: TestApp;
  let admin: TestUser;
  const code = uniqueCode();
  const slug = code.toLowerCase();
  let top: string;
  let leaves: string[];
  let bikes: string[];
  let make: string;
  let model: string;

  beforeAll(async () => {
    app = await startTestApp(kind);
    admin = await app.signUp({ admin: true });
    const db = app.server.database.db;
    [{ id: top }] = await db
      .insert(categories)
      .values({ name: `Counted ${code}`, slug: `counted-${slug}` })
      .returning();
    leaves = (
      await db
        .insert(categories)
        .values(
          ['a', 'b'].map((leaf) => ({ name: `Leaf ${leaf} ${code}`, slug: `leaf-${leaf}-${slug}`, parentId: top })),
        )
        .returning()
    ).map((c) => c.id);
    make = `Countmake ${code}`;
    model = `CM${code}`;
    const [makeRow] = await db
      .insert(makes)
      .values({ name: make, slug: `countmake-${slug}` })
      .returning();
    const [modelRow] = await db
      .insert(models)
      .values({ makeId: makeRow.id, name: model, slug: `cm${slug}` })
      .returning();
    bikes = (
      await db
        .insert(vehicles)
        .values([2018, 2019].map((year) => ({ modelId: modelRow.id, year })))
        .returning()
    ).map((v) => v.id);
  });
  afterAll(() => app?.close());

  const db = () => app.server.database.db;
  const ours = () => [top, ...leaves];

  /** The rows of `catalog_counts` of this test's categories (those above 0), as "vehicle category n". */
  async function kept(): Promise<string[]> {
    const rows = await db().execute(sql`select vehicle_id::text as v, category_id::text as c, parts as n
      from catalog_counts where parts > 0 and category_id in (${sql.join(
        ours().map((id) => sql`${id}::uuid`),
        sql`, `,
      )})`);
    return (rows as unknown as { rows: { v: string; c: string; n: number }[] }).rows
      .map((r) => `${r.v} ${r.c} ${r.n}`)
      .sort();
  }

  /**
   * What the rule counts from the tables now, written here on its own: distinct listed parts (not a replaced part
   * out of stock) a vehicle fits by fitment, not universal; and each category's listed universal parts.
   */
  async function counted(): Promise<string[]> {
    const ids = sql.join(
      ours().map((id) => sql`${id}::uuid`),
      sql`, `,
    );
    const rows = await db().execute(sql`
      select f.vehicle_id::text as v, p.category_id::text as c, count(distinct p.id)::int as n
        from fitments f join parts p on p.id = f.part_id
       where p.category_id in (${ids}) and not p.universal and (p.replaced_by_id is null or p.available > 0)
       group by 1, 2
      union all
      select ${noKey}, p.category_id::text, count(*)::int from parts p
       where p.category_id in (${ids}) and p.universal and (p.replaced_by_id is null or p.available > 0)
       group by 2`);
    return (rows as unknown as { rows: { v: string; c: string; n: number }[] }).rows
      .map((r) => `${r.v} ${r.c} ${r.n}`)
      .sort();
  }

  const expectCurrent = async () => expect(await kept()).toEqual(await counted());

  const update = `mutation($id: ID!, $patch: PartPatch!) { updatePart(id: $id, patch: $patch) { id } }`;
  async function edit(id: string, patch: Record<string, unknown>) {
    const answer = await app.gql<{ updatePart: { id: string } }>(update, { id, patch }, admin.token);
    expect(answer.errors).toBeUndefined();
  }

  it('stay what the tables say after SQL writes, edits, stock and removals', async () => {
    const [a, b] = leaves;
    const one = await insertPart(db(), `Counted one ${code}`, { categoryId: a });
    const two = await insertPart(db(), `Counted two ${code}`, { categoryId: a });
    const universal = await insertPart(db(), `Counted universal ${code}`, { categoryId: b, universal: true });
    await expectCurrent();
    expect(await kept()).toEqual([`${noKey} ${b} 1`]);

    // Two positions of one part on one bike count it once.
    await db()
      .insert(fitments)
      .values([
        { vehicleId: bikes[0], partId: one.id, position: 'front' },
        { vehicleId: bikes[0], partId: one.id, position: 'rear' },
        { vehicleId: bikes[0], partId: two.id },
        { vehicleId: bikes[1], partId: two.id },
        // A universal part's fitment row: it counts as universal, once.
        { vehicleId: bikes[0], partId: universal.id },
      ]);
    await expectCurrent();
    expect(await kept()).toContain(`${bikes[0]} ${a} 2`);
    await db()
      .delete(fitments)
      .where(sql`${fitments.partId} = ${one.id} and ${fitments.position} = 'rear'`);
    await expectCurrent();
    expect(await kept()).toContain(`${bikes[0]} ${a} 2`);

    // The admin's edits: fitment added and removed, the category changed, made universal and back.
    await edit(one.id, { addFitment: [{ vehicleId: bikes[1], position: 'left' }] });
    await expectCurrent();
    expect(await kept()).toContain(`${bikes[1]} ${a} 2`);
    await edit(two.id, { removeFitment: [{ vehicleId: bikes[1] }] });
    await expectCurrent();
    await edit(one.id, { categoryId: b });
    await expectCurrent();
    expect(await kept()).toContain(`${bikes[0]} ${b} 1`);
    await edit(two.id, { universal: true });
    await expectCurrent();
    expect(await kept()).toContain(`${noKey} ${a} 1`);
    await edit(two.id, { universal: false });
    await expectCurrent();

    // A replaced part leaves the counts once it sells out (as it leaves the lists), and comes back restocked.
    await edit(one.id, { replacedById: two.id });
    await expectCurrent();
    await db().update(parts).set({ available: 0 }).where(eq(parts.id, one.id));
    await expectCurrent();
    expect((await kept()).some((row) => row.startsWith(`${bikes[0]} ${b} `))).toBe(false);
    await db().update(parts).set({ available: 7 }).where(eq(parts.id, one.id));
    await expectCurrent();
    expect(await kept()).toContain(`${bikes[0]} ${b} 1`);
    // An order taking stock that leaves some runs nothing of it (the trigger's condition is false).
    await db()
      .update(parts)
      .set({ available: sql`${parts.available} - 1` })
      .where(eq(parts.id, one.id));
    await expectCurrent();

    // Removed: a part (its fitment rows go with it), a vehicle (its own).
    await db().delete(parts).where(eq(parts.id, universal.id));
    await expectCurrent();
    await db().delete(parts).where(eq(parts.id, one.id));
    await expectCurrent();
    await db().delete(vehicles).where(eq(vehicles.id, bikes[1]));
    await expectCurrent();
    expect((await kept()).some((row) => row.startsWith(bikes[1]))).toBe(false);
  });

  it('stay what the tables say after imports, counted once at their end', async () => {
    const job = async (fileKind: string, csv: string) => {
      const started = await app.rest<{ id: string }>(
        'POST',
        '/imports',
        { kind: fileKind, fileName: `${fileKind}.csv` },
        admin.token,
      );
      await app.rest('PUT', `/imports/${started.body.id}/chunks/0`, csv, admin.token, { 'content-type': 'text/csv' });
      await app.rest('POST', `/imports/${started.body.id}/finish`, undefined, admin.token);
      await app.server.imports.runOnce();
      return (await app.rest<{ status: string }>('GET', `/imports/${started.body.id}`, undefined, admin.token)).body;
    };
    const leafName = (leaf: string) => `Counted ${code} > Leaf ${leaf} ${code}`;
    expect(
      await job(
        'parts',
        'sku,name,description,price,min_order,pack_size,stock,brand,category,universal\n' +
          `CNT-${code}-1,Imported one ${code},,10,1,1,5,,${leafName('a')},no\n` +
          `CNT-${code}-2,Imported two ${code},,10,1,1,5,,${leafName('a')},yes\n` +
          `CNT-${code}-3,Imported three ${code},,10,1,1,0,,${leafName('b')},no\n`,
      ),
    ).toMatchObject({ status: 'succeeded' });
    await expectCurrent();
    expect(
      await job(
        'fitment',
        'sku,make,model,year,variant,position,quantity,note\n' +
          `CNT-${code}-1,${make},${model},2018,,Front,1,\n` +
          `CNT-${code}-1,${make},${model},2018,,Rear,1,\n` +
          `CNT-${code}-3,${make},${model},2018,,,,\n`,
      ),
    ).toMatchObject({ status: 'succeeded' });
    await expectCurrent();
    // Leaf a: part one (front and rear, once) beside the first test's part two.
    expect(await kept()).toEqual(
      expect.arrayContaining([`${bikes[0]} ${leaves[0]} 2`, `${bikes[0]} ${leaves[1]} 1`, `${noKey} ${leaves[0]} 1`]),
    );
    // Part 3 (no stock) replaced by part 1: out of the lists, and of the counts.
    expect(await job('supersessions', `sku,replaced_by\nCNT-${code}-3,CNT-${code}-1\n`)).toMatchObject({
      status: 'succeeded',
    });
    await expectCurrent();
    expect((await kept()).some((row) => row.startsWith(`${bikes[0]} ${leaves[1]} `))).toBe(false);
    // A category moved by the parts file: its fitment rows move their counts.
    expect(
      await job(
        'parts',
        'sku,name,description,price,min_order,pack_size,stock,brand,category,universal\n' +
          `CNT-${code}-1,Imported one ${code},,10,1,1,5,,${leafName('b')},no\n`,
      ),
    ).toMatchObject({ status: 'succeeded' });
    await expectCurrent();
    expect(await kept()).toEqual(expect.arrayContaining([`${bikes[0]} ${leaves[0]} 1`, `${bikes[0]} ${leaves[1]} 1`]));
  });

  it("give a vehicle's facets over the bound, exact below it", async () => {
    const [a, b] = leaves;
    await db().execute(sql`insert into parts (name, description, price_cents, min_order, available, category_id)
      select 'Counted bulk ' || i, 'for the counts test', 100, 1, 1, ${a}::uuid from generate_series(1, 1005) i`);
    const small = await insertPart(db(), `Counted small ${code}`, { categoryId: b });
    await db().execute(sql`insert into fitments (vehicle_id, part_id, position)
      select ${bikes[0]}::uuid, id, pos from parts, unnest(array['', 'rear']) pos
      where category_id = ${a}::uuid and name like 'Counted bulk %'`);
    await db().insert(fitments).values({ vehicleId: bikes[0], partId: small.id });
    await expectCurrent();
    const answer = await app.gql<{
      catalog: { totalText: string; facets: { categories: { category: { id: string }; count: { text: string } }[] } };
    }>(
      `query($filter: CatalogFilter) { catalog(filter: $filter, limit: 1) { totalText
        facets { categories { category { id } count { text } } } } }`,
      { filter: { vehicleId: bikes[0], categoryId: top } },
    );
    expect(answer.data?.catalog.totalText).toBe('1,000+');
    const facets = new Map(answer.data?.catalog.facets.categories.map((f) => [f.category.id, f.count.text]));
    // Leaf b holds what this suite's other tests left on this bike and category besides the small part: its count
    // is the table's, exact.
    const [{ n }] = (
      (await db().execute(sql`select parts as n from catalog_counts
        where vehicle_id = ${bikes[0]}::uuid and category_id = ${b}::uuid`)) as unknown as { rows: { n: number }[] }
    ).rows;
    const [{ u }] = (
      (await db().execute(sql`select coalesce(sum(parts), 0)::int as u from catalog_counts
        where vehicle_id = ${noKey}::uuid and category_id = ${b}::uuid`)) as unknown as { rows: { u: number }[] }
    ).rows;
    expect([facets.get(a), facets.get(b)]).toEqual(['1,000+', String(n + u)]);
  });
});

import { sql } from 'drizzle-orm';
import { brands, categories, makes, models, vehicles } from '../../src/catalog/catalogSchema';
import { fitments } from '../../src/catalog/partLinksSchema';
import { setReplacement } from '../../src/catalog/supersession';
import type { Db } from '../../src/db/database';
import { databaseKinds } from '../support/env';
import { startTestApp, type TestApp } from '../support/testApp';
import { addNumber, insertPart, uniqueCode } from './catalogSupport';

jest.setTimeout(180_000);

interface Count {
  count: number;
  isLowerBound: boolean;
  text: string;
}
interface Item {
  part: { id: string; name: string };
  universal: boolean;
  fit: { verdict: string; message: string } | null;
  match: string | null;
  reason: string | null;
  replaces: { id: string } | null;
}
interface CatalogAnswer {
  items: Item[];
  total: number;
  totalIsLowerBound: boolean;
  totalText: string;
  limitedToVehicle: boolean;
  vehicle: { name: string } | null;
  search: string | null;
  facets: {
    categories: { category: { id: string; name: string }; count: Count }[];
    brands: { brand: { id: string; name: string }; count: Count }[];
    complete: boolean;
    inStock: Count;
  };
}

const catalogQuery = `query($filter: CatalogFilter, $offset: Int, $limit: Int) {
  catalog(filter: $filter, offset: $offset, limit: $limit) {
    items { part { id name } universal fit { verdict message } match reason replaces { id } }
    total totalIsLowerBound totalText limitedToVehicle vehicle { name } search
    facets {
      categories { category { id name } count { count isLowerBound text } }
      brands { brand { id name } count { count isLowerBound text } }
      complete
      inStock { count isLowerBound text }
    }
  }
}`;

const exact = (count: number): Count => ({ count, isLowerBound: false, text: String(count) });

/**
 * A small catalog of its own (a category tree, two brands, two bikes) in the suite's database, so that its counts
 * are the test's whatever other tests add: every query is within `top`.
 */
async function smallCatalog(db: Db) {
  const code = uniqueCode();
  const slug = code.toLowerCase();
  const [brandA, brandB] = await db
    .insert(brands)
    .values([
      { name: `Alpha ${code}`, slug: `alpha-${slug}` },
      { name: `Beta ${code}`, slug: `beta-${slug}` },
    ])
    .returning();
  const [top] = await db
    .insert(categories)
    .values({ name: `Top ${code}`, slug: `top-${slug}` })
    .returning();
  const [pads, chains] = await db
    .insert(categories)
    .values([
      { name: `Pads ${code}`, slug: `pads-${slug}`, parentId: top.id },
      { name: `Chains ${code}`, slug: `chains-${slug}`, parentId: top.id },
    ])
    .returning();
  const [rearPads] = await db
    .insert(categories)
    .values({ name: `Rear pads ${code}`, slug: `rear-pads-${slug}`, parentId: pads.id })
    .returning();
  const [make] = await db
    .insert(makes)
    .values({ name: 'Honda', slug: `honda-${slug}` })
    .returning();
  const [model] = await db.insert(models).values({ makeId: make.id, name: 'CRF450R', slug: 'crf450r' }).returning();
  const [bike, otherBike] = await db
    .insert(vehicles)
    .values([
      { modelId: model.id, year: 2019 },
      { modelId: model.id, year: 2019, variant: 'ABS Euro' },
    ])
    .returning();

  const frontPads = await insertPart(db, 'Sintered Front Brake Pads', {
    brandId: brandA.id,
    categoryId: pads.id,
    available: 10,
    description: 'Sintered compound for wet weather',
  });
  const backPads = await insertPart(db, 'Organic Rear Brake Pads', {
    brandId: brandB.id,
    categoryId: rearPads.id,
    available: 0,
    description: 'Quiet organic compound',
  });
  const chain = await insertPart(db, 'Drive Chain 520', { brandId: brandA.id, categoryId: chains.id, available: 5 });
  const lube = await insertPart(db, 'Chain Lube Spray', {
    brandId: brandB.id,
    categoryId: chains.id,
    available: 3,
    universal: true,
    description: 'Keeps any drive chain running, for every bike',
  });
  // Replaced and out of stock: left out of the lists, its number still finds the current pads.
  const oldPads = await insertPart(db, 'Sintered Front Brake Pads, earlier design', {
    brandId: brandA.id,
    categoryId: pads.id,
    available: 0,
  });
  // Replaced, still in stock: listed until it is sold out.
  const oldChain = await insertPart(db, 'Drive Chain 520, earlier design', {
    brandId: brandA.id,
    categoryId: chains.id,
    available: 2,
  });
  await setReplacement(db, oldPads.id, frontPads.id);
  await setReplacement(db, oldChain.id, chain.id);
  await addNumber(db, frontPads.id, 'oem', `22201-${code}-000`, 'Honda');
  await addNumber(db, oldPads.id, 'oem', `22201-${code}-OLD`);
  await db.insert(fitments).values([
    { vehicleId: bike.id, partId: frontPads.id, position: 'front' },
    { vehicleId: bike.id, partId: backPads.id, position: 'rear', note: 'with steel lines only' },
    { vehicleId: bike.id, partId: oldPads.id, position: 'front' },
    { vehicleId: otherBike.id, partId: chain.id },
    { vehicleId: otherBike.id, partId: oldChain.id },
  ]);
  return {
    code,
    brandA,
    brandB,
    top,
    pads,
    chains,
    rearPads,
    make,
    model,
    bike,
    otherBike,
    frontPads,
    backPads,
    chain,
    lube,
    oldPads,
    oldChain,
  };
}

describe.each(databaseKinds)('the catalog: filters, facets and search on %s', (kind) => {
  let app: TestApp;
  let db: Db;
  let c: Awaited<ReturnType<typeof smallCatalog>>;
  beforeAll(async () => {
    app = await startTestApp(kind);
    db = app.server.database.db;
    c = await smallCatalog(db);
  });
  afterAll(() => app?.close());

  const catalog = async (filter: Record<string, unknown>, paging: { offset?: number; limit?: number } = {}) => {
    const answer = await app.gql<{ catalog: CatalogAnswer }>(catalogQuery, { filter, ...paging });
    expect(answer.errors).toBeUndefined();
    return answer.data?.catalog as CatalogAnswer;
  };
  const names = (answer: CatalogAnswer) => answer.items.map((item) => item.part.name);

  it('counts the facets of a category over the whole list: its subcategories, brands and stock', async () => {
    const answer = await catalog({ categoryId: c.top.id });
    // By name; the replaced pads without stock are left out, the replaced chain with stock is not.
    expect(names(answer)).toEqual([
      'Chain Lube Spray',
      'Drive Chain 520',
      'Drive Chain 520, earlier design',
      'Organic Rear Brake Pads',
      'Sintered Front Brake Pads',
    ]);
    expect([answer.total, answer.totalIsLowerBound, answer.totalText]).toEqual([5, false, '5']);
    expect(answer.limitedToVehicle).toBe(false);
    expect(answer.items.every((item) => item.match === null && item.reason === null && item.fit === null)).toBe(true);
    expect(answer.facets.categories.map((f) => [f.category.name, f.count])).toEqual([
      [c.chains.name, exact(3)],
      [c.pads.name, exact(2)], // the rear pads are in a category below Pads
    ]);
    expect(answer.facets.brands.map((f) => [f.brand.name, f.count])).toEqual([
      [c.brandA.name, exact(3)],
      [c.brandB.name, exact(2)],
    ]);
    expect(answer.facets.complete).toBe(true);
    expect(answer.facets.inStock).toEqual(exact(4));

    // A page of it: the total and facets are still the whole list's.
    const second = await catalog({ categoryId: c.top.id }, { offset: 4, limit: 2 });
    expect(names(second)).toEqual(['Sintered Front Brake Pads']);
    expect(second.total).toBe(5);
  });

  it('includes the categories below the one chosen, and narrows by brand and stock', async () => {
    const pads = await catalog({ categoryId: c.pads.id });
    expect(names(pads)).toEqual(['Organic Rear Brake Pads', 'Sintered Front Brake Pads']);
    expect(pads.facets.categories.map((f) => [f.category.name, f.count.count])).toEqual([[c.rearPads.name, 1]]);
    expect(names(await catalog({ categoryId: c.rearPads.id }))).toEqual(['Organic Rear Brake Pads']);
    expect(names(await catalog({ categoryId: c.top.id, brandId: c.brandB.id }))).toEqual([
      'Chain Lube Spray',
      'Organic Rear Brake Pads',
    ]);
    const inStock = await catalog({ categoryId: c.top.id, inStock: true });
    expect(names(inStock)).toEqual([
      'Chain Lube Spray',
      'Drive Chain 520',
      'Drive Chain 520, earlier design',
      'Sintered Front Brake Pads',
    ]);
    expect(inStock.facets.inStock).toEqual(exact(4));
  });

  it('with a vehicle lists what fits it and universal parts, says which, and leaves out what does not fit', async () => {
    const answer = await catalog({ categoryId: c.top.id, vehicleId: c.bike.id });
    expect(answer.items.map((i) => [i.part.name, i.universal, i.fit])).toEqual([
      ['Chain Lube Spray', true, { verdict: 'FITS', message: 'Fits your 2019 Honda CRF450R (a universal part)' }],
      [
        'Organic Rear Brake Pads',
        false,
        { verdict: 'FITS_WITH_NOTE', message: 'Fits your 2019 Honda CRF450R with a note: rear: with steel lines only' },
      ],
      ['Sintered Front Brake Pads', false, { verdict: 'FITS', message: 'Fits your 2019 Honda CRF450R' }],
    ]);
    expect(answer.limitedToVehicle).toBe(true);
    expect(answer.vehicle).toEqual({ name: '2019 Honda CRF450R' });
    expect(answer.total).toBe(3);
    expect(answer.facets.categories.map((f) => [f.category.name, f.count.count])).toEqual([
      [c.chains.name, 1],
      [c.pads.name, 2],
    ]);
    const other = await catalog({ categoryId: c.top.id, vehicleId: c.otherBike.id });
    expect(names(other)).toEqual(['Chain Lube Spray', 'Drive Chain 520', 'Drive Chain 520, earlier design']);
    // A category below: the vehicle's fitments of it, and universal parts of it.
    expect(names(await catalog({ categoryId: c.pads.id, vehicleId: c.otherBike.id }))).toEqual([]);
  });

  it('ranks an exact number first, then numbers starting with the text, then names, each saying why', async () => {
    const code = uniqueCode();
    const [cat] = await db
      .insert(categories)
      .values({ name: `Rank ${code}`, slug: `rank-${code.toLowerCase()}` })
      .returning();
    const exactPart = await insertPart(db, 'Clutch lever', { categoryId: cat.id });
    const prefixPart = await insertPart(db, 'Brake lever', { categoryId: cat.id });
    const namePart = await insertPart(db, `Lever kit PX${code}`, { categoryId: cat.id });
    await addNumber(db, exactPart.id, 'manufacturer', `PX-${code}`, 'Acme');
    await addNumber(db, prefixPart.id, 'interchange', `PX${code}-2`);
    const answer = await catalog({ categoryId: cat.id, search: `px${code}` });
    expect(answer.items.map((i) => [i.part.id, i.match, i.reason])).toEqual([
      [exactPart.id, 'EXACT_NUMBER', `Acme Manufacturer number PX-${code}`],
      [prefixPart.id, 'NUMBER_PREFIX', `Interchange number PX${code}-2 (starts with what you typed)`],
      [namePart.id, 'NAME', `Name contains "px${code}"`],
    ]);
    expect(answer.total).toBe(3);
    expect(answer.search).toBe(`px${code}`);
    // Paged across the tiers.
    const second = await catalog({ categoryId: cat.id, search: `px${code}` }, { offset: 1, limit: 1 });
    expect(second.items.map((i) => i.part.id)).toEqual([prefixPart.id]);
    const third = await catalog({ categoryId: cat.id, search: `px${code}` }, { offset: 2, limit: 5 });
    expect(third.items.map((i) => i.part.id)).toEqual([namePart.id]);
  });

  it('finds names with a typo, whole phrases first, and descriptions after names', async () => {
    const typo = await catalog({ categoryId: c.top.id, search: 'brke pads' });
    expect(typo.items.map((i) => [i.part.name, i.match, i.reason])).toEqual([
      ['Organic Rear Brake Pads', 'NAME', 'Name matches "brke pads"'],
      ['Sintered Front Brake Pads', 'NAME', 'Name matches "brke pads"'],
    ]);
    const phrase = await catalog({ categoryId: c.top.id, search: 'Front Brake' });
    expect(phrase.items.map((i) => [i.part.name, i.reason])).toEqual([
      ['Sintered Front Brake Pads', 'Name contains "Front Brake"'],
    ]);
    const described = await catalog({ categoryId: c.top.id, search: 'chain' });
    expect(described.items.map((i) => [i.part.name, i.match])).toEqual([
      ['Chain Lube Spray', 'NAME'],
      ['Drive Chain 520', 'NAME'],
      ['Drive Chain 520, earlier design', 'NAME'],
    ]);
    // Typo tolerance when the words as written find nothing: "chainn" is "chain".
    const doubled = await catalog({ categoryId: c.top.id, search: 'chainn' });
    expect(names(doubled)).toEqual(names(described));
    expect(doubled.items.map((i) => i.reason)).toEqual([
      'Name matches "chainn"',
      'Name matches "chainn"',
      'Name matches "chainn"',
    ]);
    const wet = await catalog({ categoryId: c.top.id, search: 'wet weathr' });
    expect(wet.items.map((i) => [i.part.name, i.match, i.reason])).toEqual([
      ['Sintered Front Brake Pads', 'DESCRIPTION', 'Description matches "wet weathr"'],
    ]);
  });

  it('finds the current part by a replaced number, and says so', async () => {
    const answer = await catalog({ search: `22201 ${c.code.toLowerCase()} old` });
    expect(answer.items[0]).toMatchObject({
      part: { id: c.frontPads.id },
      match: 'EXACT_NUMBER',
      replaces: { id: c.oldPads.id },
    });
    expect(answer.items[0].reason).toBe(
      `OEM number 22201-${c.code}-OLD, of ${c.oldPads.sku} (Sintered Front Brake Pads, earlier design): replaced by ${c.frontPads.sku} (Sintered Front Brake Pads)`,
    );
  });

  it('limits a search to what fits the vehicle, and says so', async () => {
    const all = await catalog({ categoryId: c.top.id, search: 'chain' });
    expect(all.limitedToVehicle).toBe(false);
    const fitting = await catalog({ categoryId: c.top.id, search: 'chain', vehicleId: c.bike.id });
    expect(names(fitting)).toEqual(['Chain Lube Spray']);
    expect([fitting.limitedToVehicle, fitting.vehicle?.name, fitting.items[0].universal]).toEqual([
      true,
      '2019 Honda CRF450R',
      true,
    ]);
    // A number hit that does not fit is left out too.
    const byNumber = await catalog({ search: `22201-${c.code}-000`, vehicleId: c.otherBike.id });
    expect(byNumber.items).toEqual([]);
    const fitsByNumber = await catalog({ search: `22201-${c.code}-000`, vehicleId: c.bike.id });
    expect(fitsByNumber.items.map((i) => i.part.id)).toEqual([c.frontPads.id]);
  });

  it('answers any text with results or a clear message, never a server error', async () => {
    const hostile = [
      '%',
      '_',
      '%_%',
      '\\',
      "'",
      '"',
      "'; drop table parts; --",
      'brake%',
      '\u0000pads',
      'pa\u0000ds',
      '\ud800',
      'pads \udfff',
      '🏍️🏍️',
      'ñandú',
      '中文 刹车片',
      'מעצור',
      'e\u0301',
      '\u202e\u200b\ufeff',
      'a',
      '   ',
      '%%%%%%%%%%%%%%%%%%%%%%%%%%%%%%%%%%%%%%',
      'x'.repeat(200),
    ];
    for (const search of hostile) {
      const answer = await app.gql<{ catalog: CatalogAnswer }>(catalogQuery, { filter: { search } });
      expect({ search, status: answer.status, errors: answer.errors }).toEqual({
        search,
        status: 200,
        errors: undefined,
      });
    }
    const refusals: [string, string][] = [
      ['x'.repeat(10_000), 'Search with at most 200 characters'],
      ['y'.repeat(201), 'Search with at most 200 characters'],
      ['a b c d e f g h i j k', 'Search with at most 10 words'],
    ];
    for (const [search, message] of refusals) {
      const answer = await app.gql(catalogQuery, { filter: { search } });
      expect(answer.errors?.[0].extensions).toEqual({ code: 'BAD_USER_INPUT', fields: { search: message } });
    }
    for (const q of ['%', "'; drop table parts; --", '\u0000', '🏍️']) {
      const rest = await app.rest('GET', `/search?q=${encodeURIComponent(q)}`);
      expect({ q, status: rest.status }).toEqual({ q, status: 200 });
    }
    const long = await app.rest<{ errors: Record<string, string> }>('GET', `/search?q=${'z'.repeat(10_000)}`);
    expect([long.status, long.body.errors]).toEqual([400, { q: 'Search with at most 200 characters' }]);
    const empty = await app.rest<{ errors: Record<string, string> }>('GET', '/search?q=%20');
    expect([empty.status, empty.body.errors]).toEqual([
      400,
      { q: 'Type a part number, a name or a few words to search for' },
    ]);
    // The parts are still there.
    expect((await catalog({ categoryId: c.top.id })).total).toBe(5);
  });

  it('refuses ids that name nothing, on their own fields', async () => {
    const cases: [Record<string, unknown>, Record<string, string>][] = [
      [{ vehicleId: 'nope' }, { vehicleId: 'No such vehicle' }],
      [{ vehicleId: '00000000-0000-4000-8000-000000000000' }, { vehicleId: 'No such vehicle' }],
      [{ categoryId: '00000000-0000-4000-8000-000000000000' }, { categoryId: 'No such category' }],
      [{ brandId: "1' or 1=1" }, { brandId: 'No such brand' }],
    ];
    for (const [filter, fields] of cases) {
      const answer = await app.gql(catalogQuery, { filter });
      expect(answer.errors?.[0].extensions).toEqual({ code: 'BAD_USER_INPUT', fields });
    }
    const rest = await app.rest<{ errors: Record<string, string> }>('GET', '/catalog?vehicle=nope&limit=5');
    expect([rest.status, rest.body.errors]).toEqual([400, { vehicle: 'No such vehicle' }]);
    const badSlug = await app.rest<{ errors: Record<string, string> }>('GET', '/catalog?category=no-such-slug');
    expect([badSlug.status, badSlug.body.errors]).toEqual([400, { category: 'No such category' }]);
    const badStock = await app.rest<{ errors: Record<string, string> }>('GET', '/catalog?inStock=maybe');
    expect([badStock.status, badStock.body.errors]).toEqual([400, { inStock: 'Must be true or false' }]);
    const tooMany = await app.gql(catalogQuery, { filter: {}, limit: 101 });
    expect(tooMany.errors?.[0].extensions).toEqual({
      code: 'BAD_USER_INPUT',
      fields: { limit: 'Must be a whole number from 1 to 100' },
    });
  });

  it('answers the same through REST, by slugs too', async () => {
    const rest = await app.rest<{
      items: {
        part: { _id: string; sku: string; name: string };
        universal: boolean;
        fit: { verdict: string } | null;
      }[];
      total: number;
      totalText: string;
      limitedToVehicle: boolean;
      vehicle: { name: string; variantSlug: string };
      facets: { categories: { name: string; count: number }[]; inStock: { count: number } };
    }>('GET', `/catalog?category=${c.top.slug}&vehicle=${c.bike.id}&inStock=true`);
    expect(rest.status).toBe(200);
    expect(
      rest.body.items.map((i) => [i.part.name, i.part.sku.startsWith('PY-'), i.universal, i.fit?.verdict]),
    ).toEqual([
      ['Chain Lube Spray', true, true, 'fits'],
      ['Sintered Front Brake Pads', true, false, 'fits'],
    ]);
    expect([rest.body.total, rest.body.totalText, rest.body.limitedToVehicle]).toEqual([2, '2', true]);
    expect(rest.body.vehicle).toMatchObject({ name: '2019 Honda CRF450R', variantSlug: '' });
    expect(rest.body.facets.categories.map((f) => [f.name, f.count])).toEqual([
      [c.chains.name, 1],
      [c.pads.name, 1],
    ]);
    const search = await app.rest<{ items: { part: { _id: string }; match: string }[]; facets?: unknown }>(
      'GET',
      `/search?q=${encodeURIComponent(`22201-${c.code}-000`)}&category=${c.top.id}`,
    );
    expect(search.body.items.map((i) => [i.part._id, i.match])).toEqual([[c.frontPads.id, 'exactNumber']]);
    expect(search.body.facets).toBeUndefined();
  });

  it('answers visitors cacheably, like the parts list', async () => {
    const ask = (query: string, variables: Record<string, unknown>) =>
      fetch(`${app.server.url}/graphql`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ query, variables }),
      });
    const page = await ask(catalogQuery, { filter: { vehicleId: c.bike.id, search: 'pads' } });
    expect([page.status, page.headers.get('cache-control')]).toEqual([200, 'public, max-age=0, s-maxage=10']);
    const bySlug = await ask('query($s: String!) { category(slug: $s) { id name children { id } } }', {
      s: c.top.slug,
    });
    expect(bySlug.headers.get('cache-control')).toBe('public, max-age=0, s-maxage=60');
  });

  it('looks categories, brands and vehicles up by their address names', async () => {
    const answer = await app.gql<{
      category: { id: string } | null;
      brand: { id: string } | null;
      base: { id: string; variantSlug: string } | null;
      abs: { id: string; name: string; variantSlug: string } | null;
      none: { id: string } | null;
      vehicle: { name: string } | null;
    }>(
      `query($cat: String!, $brand: String!, $make: String!, $id: ID!) {
        category(slug: $cat) { id }
        brand(slug: $brand) { id }
        base: vehicleBySlugs(make: $make, model: "crf450r", year: 2019) { id variantSlug }
        abs: vehicleBySlugs(make: $make, model: "crf450r", year: 2019, variant: "abs-euro") { id name variantSlug }
        none: vehicleBySlugs(make: $make, model: "crf450r", year: 2020) { id }
        vehicle(id: $id) { name }
      }`,
      { cat: c.rearPads.slug, brand: c.brandB.slug, make: c.make.slug, id: c.otherBike.id },
    );
    expect(answer.errors).toBeUndefined();
    expect(answer.data).toEqual({
      category: { id: c.rearPads.id },
      brand: { id: c.brandB.id },
      base: { id: c.bike.id, variantSlug: '' },
      abs: { id: c.otherBike.id, name: '2019 Honda CRF450R ABS Euro', variantSlug: 'abs-euro' },
      none: null,
      vehicle: { name: '2019 Honda CRF450R ABS Euro' },
    });
    const odd = await app.gql<{ category: null; vehicle: null }>(
      'query($s: String!) { category(slug: $s) { id } vehicle(id: "x") { id } }',
      { s: '\u0000'.repeat(3) + 'x'.repeat(300) },
    );
    expect(odd.data).toEqual({ category: null, vehicle: null });
  });

  it('stops counting at 1,000: "1,000+", each facet counted on its own up to the bound', async () => {
    const code = uniqueCode();
    const slug = code.toLowerCase();
    const [top] = await db
      .insert(categories)
      .values({ name: `Many ${code}`, slug: `many-${slug}` })
      .returning();
    const [big, small] = await db
      .insert(categories)
      .values([
        { name: `Big ${code}`, slug: `big-${slug}`, parentId: top.id },
        { name: `Small ${code}`, slug: `small-${slug}`, parentId: top.id },
      ])
      .returning();
    await db.execute(sql`insert into parts (name, description, price_cents, min_order, available, category_id)
      select 'Bulk part ' || i, 'for the count test', 100, 1, case when i <= 3 then 0 else 1 end, ${big.id}::uuid
      from generate_series(1, 1003) i`);
    await insertPart(db, 'Small part one', { categoryId: small.id });
    await insertPart(db, 'Small part two', { categoryId: small.id, available: 0 });
    const answer = await catalog({ categoryId: top.id }, { limit: 3 });
    expect([answer.total, answer.totalIsLowerBound, answer.totalText]).toEqual([1000, true, '1,000+']);
    expect(answer.facets.categories.map((f) => [f.category.name, f.count])).toEqual([
      [big.name, { count: 1000, isLowerBound: true, text: '1,000+' }],
      [small.name, exact(2)],
    ]);
    expect(answer.facets.inStock).toEqual({ count: 1000, isLowerBound: true, text: '1,000+' });
    expect(answer.facets.complete).toBe(false);
    const narrow = await catalog({ categoryId: small.id });
    expect([narrow.total, narrow.totalIsLowerBound, narrow.facets.inStock]).toEqual([2, false, exact(1)]);

    // A bike that fits them all: its page is read by name, each part asked whether it fits (over the bound).
    const [bike] = await db.insert(vehicles).values({ modelId: c.model.id, year: 2007 }).returning();
    await db.execute(sql`insert into fitments (vehicle_id, part_id)
      select ${bike.id}::uuid, id from parts where category_id in (${big.id}::uuid, ${small.id}::uuid)`);
    const busy = await catalog({ vehicleId: bike.id, categoryId: top.id }, { limit: 3 });
    expect(names(busy)).toEqual(['Bulk part 1', 'Bulk part 10', 'Bulk part 100']);
    expect([busy.totalText, busy.limitedToVehicle]).toEqual(['1,000+', true]);
    expect(busy.facets.categories.map((f) => [f.category.name, f.count.text])).toEqual([
      [big.name, '1,000+'],
      [small.name, '2'],
    ]);
    // Its last page, and past it.
    const last = await catalog({ vehicleId: bike.id, categoryId: top.id }, { offset: 1003, limit: 5 });
    expect(names(last)).toEqual(['Small part one', 'Small part two']);
    expect((await catalog({ vehicleId: bike.id, categoryId: top.id }, { offset: 2000 })).items).toEqual([]);

    // A search over the bound: its facets are those of the first 1,001 parts read, each a lower bound.
    const searched = await catalog({ categoryId: top.id, search: 'bulk part' }, { limit: 2 });
    expect([searched.totalText, searched.facets.complete]).toEqual(['1,000+', false]);
    expect(searched.items.map((i) => i.reason)).toEqual(['Name contains "bulk part"', 'Name contains "bulk part"']);
    expect(searched.facets.categories.map((f) => [f.category.name, f.count.isLowerBound])).toEqual([[big.name, true]]);
  });
});

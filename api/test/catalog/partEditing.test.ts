import { messages, pricingMessages } from '@partsyard/common';
import { asc, eq } from 'drizzle-orm';
import { brands, categories, makes, models, vehicles } from '../../src/catalog/catalogSchema';
import { partEditMessages } from '../../src/catalog/partEditing';
import { fitments, partNumbers } from '../../src/catalog/partLinksSchema';
import type { Db } from '../../src/db/database';
import { parts } from '../../src/db/schema';
import { dataOf, expectBadInput, expectForbidden, expectNotFound, unknownId } from '../graphql/helpers';
import { databaseKinds } from '../support/env';
import { addPart, placeOrder } from '../support/fixtures';
import { startTestApp, type TestApp, type TestUser } from '../support/testApp';
import { uniqueCode } from './catalogSupport';

/**
 * Issue 33 point 5: every field of a part is editable through the API (updatePart, PATCH /api/parts/:id), checked
 * by the rules that add one; a bad field refuses the whole edit with a message naming it, and nothing changes.
 */
jest.setTimeout(120_000);

const partQuery = `query($id: ID!) { part(id: $id) {
  id name description image price minOrder available priceTiers { minUnits price } packSize sku universal
  brand { id } category { id } replacedBy { id } numbers { kind raw brand { id } }
  fitment(limit: 100) { total items { vehicle { id } position quantity note } }
} }`;
const update = `mutation($id: ID!, $patch: PartPatch!) { updatePart(id: $id, patch: $patch) { id } }`;

interface PartView {
  id: string;
  name: string;
  description: string;
  image: string;
  price: number;
  minOrder: number;
  available: number;
  priceTiers: { minUnits: number; price: number }[];
  packSize: number;
  sku: string;
  universal: boolean;
  brand: { id: string } | null;
  category: { id: string } | null;
  replacedBy: { id: string } | null;
  numbers: { kind: string; raw: string; brand: { id: string } | null }[];
  fitment: { total: number; items: { vehicle: { id: string }; position: string; quantity: number; note: string }[] };
}

describe.each(databaseKinds)('editing a part on %s', (kind) => {
  let app: TestApp;
  let db: Db;
  let admin: TestUser;
  let customer: TestUser;
  let brandId: string;
  let categoryId: string;
  let bikes: string[];

  beforeAll(async () => {
    app = await startTestApp(kind);
    db = app.server.database.db;
    [admin, customer] = await Promise.all([app.signUp({ admin: true }), app.signUp()]);
    const code = uniqueCode().toLowerCase();
    [{ id: brandId }] = await db
      .insert(brands)
      .values({ name: `EBC ${code}`, slug: `ebc-${code}` })
      .returning();
    [{ id: categoryId }] = await db
      .insert(categories)
      .values({ name: `Brake pads ${code}`, slug: `brake-pads-${code}` })
      .returning();
    const [make] = await db
      .insert(makes)
      .values({ name: 'Honda', slug: `honda-${code}` })
      .returning();
    const [model] = await db.insert(models).values({ makeId: make.id, name: 'CRF450R', slug: 'crf450r' }).returning();
    bikes = (
      await db
        .insert(vehicles)
        .values([2018, 2019, 2020].map((year) => ({ modelId: model.id, year })))
        .returning()
    ).map((v) => v.id);
  });
  afterAll(() => app?.close());

  const newPart = (overrides: Record<string, unknown> = {}) =>
    addPart(app, admin.token, { price: 12.5, minOrder: 10, available: 100, ...overrides });
  const read = async (id: string) => dataOf(await app.gql<{ part: PartView }>(partQuery, { id })).part;
  const edit = (id: string, patch: Record<string, unknown>, token = admin.token) =>
    app.gql<{ updatePart: { id: string } }>(update, { id, patch }, token);

  it('changes each field it is sent, and only those', async () => {
    const replacement = await newPart({ name: 'Newer pads' });
    const [{ sku: replacementSku }] = await db.select().from(parts).where(eq(parts.id, replacement));
    const cases: [Record<string, unknown>, Partial<PartView>][] = [
      [{ name: '  Sintered pads, HH  ' }, { name: 'Sintered pads, HH' }],
      [{ description: 'For twin-disc calipers, sintered.' }, { description: 'For twin-disc calipers, sintered.' }],
      [{ image: '/images/parts/chain.svg' }, { image: '/images/parts/chain.svg' }],
      [{ image: '' }, { image: '/images/parts/default.svg' }],
      [{ price: 11.25 }, { price: 11.25 }],
      [{ minOrder: 20 }, { minOrder: 20 }],
      [
        { priceTiers: [{ minUnits: 50, price: 10 }], packSize: 5 },
        { priceTiers: [{ minUnits: 50, price: 10 }], packSize: 5 },
      ],
      [{ universal: true }, { universal: true }],
      [{ brandId }, { brand: { id: brandId } }],
      [{ categoryId }, { category: { id: categoryId } }],
      [{ replacedById: replacement }, { replacedBy: { id: replacement } }],
      [
        { brandId: null, categoryId: null, replacedById: null },
        { brand: null, category: null, replacedBy: null },
      ],
      // The replacement by its SKU too (as an admin reads it), written any way it normalises to.
      [{ replacedBySku: replacementSku.toLowerCase().replace('-', ' ') }, { replacedBy: { id: replacement } }],
      [{ replacedBySku: '' }, { replacedBy: null }],
      [
        {
          numbers: [
            { kind: 'OEM', raw: ' 06455-MEN-A71 ' },
            { kind: 'MANUFACTURER', raw: 'FA185HH', brandId },
          ],
        },
        {
          numbers: [
            { kind: 'MANUFACTURER', raw: 'FA185HH', brand: { id: brandId } },
            { kind: 'OEM', raw: '06455-MEN-A71', brand: null },
          ],
        },
      ],
      [{ numbers: [] }, { numbers: [] }],
    ];
    const id = await newPart();
    let expected = await read(id);
    for (const [patch, changes] of cases) {
      dataOf(await edit(id, patch));
      expected = { ...expected, ...changes };
      expect({ patch, part: await read(id) }).toEqual({ patch, part: expected });
    }
    // The SKU too: ours, unique once normalised.
    const sku = `PY-EDIT-${uniqueCode()}`;
    dataOf(await edit(id, { sku }));
    expect((await read(id)).sku).toBe(sku);
  });

  it('adds, changes and removes fitment rows, and a part in a new category carries it into its fitment', async () => {
    const id = await newPart();
    dataOf(
      await edit(id, {
        addFitment: [
          { vehicleId: bikes[0], position: 'front', quantity: 2, note: 'with ABS only' },
          { vehicleId: bikes[1] },
          { vehicleId: bikes[2], position: 'rear' },
        ],
      }),
    );
    const rows = (await read(id)).fitment;
    expect(rows.total).toBe(3);
    expect(rows.items).toEqual(
      expect.arrayContaining([
        { vehicle: { id: bikes[0] }, position: 'front', quantity: 2, note: 'with ABS only' },
        { vehicle: { id: bikes[1] }, position: '', quantity: 1, note: '' },
      ]),
    );
    // The same vehicle and position again: the row takes the new quantity and note.
    dataOf(
      await edit(id, {
        addFitment: [{ vehicleId: bikes[0], position: 'front', quantity: 1, note: '' }],
        removeFitment: [{ vehicleId: bikes[1] }, { vehicleId: bikes[2], position: 'front' }],
      }),
    );
    const after = (await read(id)).fitment;
    expect(after.items).toEqual(
      expect.arrayContaining([
        { vehicle: { id: bikes[0] }, position: 'front', quantity: 1, note: '' },
        { vehicle: { id: bikes[2] }, position: 'rear', quantity: 1, note: '' },
      ]),
    );
    expect(after.total).toBe(2);
    dataOf(await edit(id, { categoryId }));
    const copied = await db.select({ categoryId: fitments.categoryId }).from(fitments).where(eq(fitments.partId, id));
    expect(copied).toEqual([{ categoryId }, { categoryId }]);
  });

  it('refuses bad fields with a message naming each, and changes nothing', async () => {
    const other = await newPart();
    const [{ sku: otherSku, name: otherName }] = await db.select().from(parts).where(eq(parts.id, other));
    const id = await newPart({ priceTiers: [{ minUnits: 50, price: 11 }] });
    dataOf(
      await edit(id, {
        numbers: [{ kind: 'OEM', raw: '22201-166-000' }],
        addFitment: [{ vehicleId: bikes[0], position: 'front' }],
      }),
    );
    const before = await read(id);
    const tooMany = Array.from({ length: 501 }, () => ({ vehicleId: bikes[1] }));
    const cases: [Record<string, unknown>, Record<string, string>][] = [
      [{ name: '   ' }, { name: messages.partNameRequired }],
      [{ price: -1 }, { price: messages.priceNegative }],
      [{ price: 0.001 }, { price: messages.priceTooLow }],
      [{ minOrder: 0 }, { minOrder: messages.minOrderTooSmall }],
      [{ image: 'javascript:alert(1)' }, { image: messages.imageUrlInvalid }],
      // The breaks stay consistent with a new price and minimum order, sent or not.
      [{ price: 10 }, { 'priceTiers.0.price': pricingMessages.tierPriceNotLower }],
      [{ minOrder: 60 }, { 'priceTiers.0.minUnits': pricingMessages.tierUnitsTooFew(60) }],
      [{ packSize: 0 }, { packSize: pricingMessages.packSizeTooSmall }],
      [
        { sku: otherSku.toLowerCase().replace('-', ' ') },
        { sku: partEditMessages.skuTaken({ sku: otherSku, name: otherName }) },
      ],
      [{ sku: '--' }, { sku: 'Enter a number with letters or digits, not only separators' }],
      [{ brandId: unknownId() }, { brandId: partEditMessages.noSuchBrand }],
      [{ categoryId: 'not-an-id' }, { categoryId: partEditMessages.noSuchCategory }],
      [{ replacedById: unknownId() }, { replacedById: partEditMessages.noSuchPart }],
      [{ replacedById: id }, { replacedById: `${before.sku} (${before.name}) cannot replace itself` }],
      [{ replacedBySku: 'PY-NONE' }, { replacedBySku: partEditMessages.noSuchSku('PY-NONE') }],
      [{ replacedBySku: otherSku, replacedById: other }, { replacedBySku: partEditMessages.replacementTwice }],
      [
        {
          numbers: [
            { kind: 'OEM', raw: '22201-166-000' },
            { kind: 'OEM', raw: '22201 166 000' },
          ],
        },
        { 'numbers.1.raw': partEditMessages.numberTwice('oem', '22201 166 000', 0) },
      ],
      [
        { numbers: [{ kind: 'EAN', raw: 'x'.repeat(101) }] },
        { 'numbers.0.raw': 'A part number is at most 100 characters' },
      ],
      [
        { numbers: [{ kind: 'EAN', raw: '1', brandId: unknownId() }] },
        { 'numbers.0.brandId': partEditMessages.noSuchBrand },
      ],
      [{ addFitment: [{ vehicleId: unknownId() }] }, { 'addFitment.0.vehicleId': partEditMessages.noSuchVehicle }],
      [{ addFitment: [{ vehicleId: bikes[1], quantity: 0 }] }, { 'addFitment.0.quantity': partEditMessages.quantity }],
      [
        { addFitment: [{ vehicleId: bikes[1] }, { vehicleId: bikes[1], position: '' }] },
        { 'addFitment.1.vehicleId': partEditMessages.fitmentTwice(0) },
      ],
      [{ addFitment: tooMany }, { addFitment: partEditMessages.tooManyFitmentRows }],
      // Several at once: each named, none applied (the good name neither).
      [
        { name: 'A good new name', price: -5, brandId: unknownId() },
        { price: messages.priceNegative, brandId: partEditMessages.noSuchBrand },
      ],
    ];
    for (const [patch, fields] of cases) {
      const answer = await edit(id, patch);
      expect({ patch, fields: answer.errors?.[0]?.extensions?.fields }).toEqual({ patch, fields });
      expectBadInput(answer, fields);
    }
    expect(await read(id)).toEqual(before);
    // Through REST the same, and the stock is no field of an edit.
    const rest = await app.rest('PATCH', `/parts/${id}`, { available: 5, price: 'cheap' }, admin.token);
    expect(rest).toEqual({
      status: 400,
      body: {
        message: expect.any(String),
        errors: { available: partEditMessages.stockByAdjustment, price: messages.priceRequired },
      },
    });
    expect(await read(id)).toEqual(before);
    expect(
      await db.select().from(partNumbers).where(eq(partNumbers.partId, id)).orderBy(asc(partNumbers.raw)),
    ).toHaveLength(1);
  });

  it('a sold-out part can still be renamed and have its minimum order raised before the next delivery', async () => {
    const id = await newPart({ minOrder: 1, available: 5 });
    await db.update(parts).set({ available: 0 }).where(eq(parts.id, id)); // sold out
    dataOf(await edit(id, { name: 'Sold out lever', minOrder: 25 }));
    expect(await read(id)).toMatchObject({ name: 'Sold out lever', minOrder: 25, available: 0 });
  });

  it('answers unknown parts with 404 and customers with 403, in GraphQL and REST', async () => {
    expectNotFound(await edit(unknownId(), { name: 'Ghost' }));
    expectForbidden(await edit(await newPart(), { price: 1 }, customer.token));
    expect((await app.rest('PATCH', `/parts/${unknownId()}`, { name: 'Ghost' }, admin.token)).status).toBe(404);
    expect((await app.rest('PATCH', `/parts/not-an-id`, { name: 'Ghost' }, admin.token)).status).toBe(404);
    expect((await app.rest('PATCH', `/parts/${await newPart()}`, { price: 1 }, customer.token)).status).toBe(403);
    expect((await app.rest('PATCH', `/parts/${await newPart()}`, { price: 1 })).status).toBe(401);
  });

  it('REST says whether anything changed; a changed price shows at once to visitors (a refused edit drops no cached answer), and the next order pays it', async () => {
    const id = await newPart({ price: 12.5, minOrder: 1 });
    // A visitor's answer is kept in the public answer cache...
    const price = async () =>
      (await app.gql<{ part: { price: number } }>('query($id: ID!) { part(id: $id) { price } }', { id })).data?.part
        .price;
    expect(await price()).toBe(12.5);
    expect(await price()).toBe(12.5);
    // ...which a refused edit (no right, bad input) leaves there: a price changed behind the app's back is not
    // seen yet. An edit that changed the price drops it: the next visitor reads the new price.
    await db.update(parts).set({ priceCents: 1100 }).where(eq(parts.id, id));
    expect((await app.rest('PATCH', `/parts/${id}`, { price: 9.5 }, customer.token)).status).toBe(403);
    expect((await app.rest('PATCH', `/parts/${id}`, { price: -9.5 }, admin.token)).status).toBe(400);
    expectForbidden(await edit(id, { price: 9.5 }, customer.token));
    expect(await price()).toBe(12.5);
    const changed = await app.rest('PATCH', `/parts/${id}`, { price: 9.5 }, admin.token);
    expect(changed).toEqual({ status: 200, body: { acknowledged: true, matchedCount: 1, modifiedCount: 1 } });
    expect(await price()).toBe(9.5);
    const again = await app.rest('PATCH', `/parts/${id}`, { price: 9.5, name: undefined }, admin.token);
    expect(again.body).toEqual({ acknowledged: true, matchedCount: 1, modifiedCount: 0 });
    const order = await placeOrder(app, customer.token, id, { orderAmount: 2 });
    expect(order.price).toBe(19);
  });
});

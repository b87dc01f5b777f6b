import { messages } from '@partsyard/common';
import { adapterDatabaseKinds } from '../support/env';
import { addPart, partInput, payOrder, placeOrder } from '../support/fixtures';
import type { TestUser } from '../support/testApp';
import {
  dataOf,
  expectBadInput,
  expectForbidden,
  expectNotFound,
  expectUnauthenticated,
  orderFields,
  partFields,
  readOrder,
  readPart,
  startHarness,
  tag,
  unknownId,
  type Harness,
  type OrderData,
  type PartData,
} from './helpers';

// Starting an app and signing users up takes seconds; jest's 5 s default is too short.
jest.setTimeout(120_000);

interface PartPage {
  items: PartData[];
  total: number;
  offset: number;
  limit: number;
}

describe.each(adapterDatabaseKinds)('parts over GraphQL on %s', (kind) => {
  let h: Harness;
  let admin: TestUser;
  let customer: TestUser;
  let otherCustomer: TestUser;

  beforeAll(async () => {
    h = await startHarness(kind);
    admin = await h.signUp({ admin: true });
    customer = await h.signUp();
    otherCustomer = await h.signUp();
  });
  afterAll(() => h?.app.close());

  const listParts = (variables: Record<string, unknown>, token?: string) =>
    h.app.gql<{ parts: PartPage }>(
      `query($search: String, $offset: Int, $limit: Int) {
        parts(search: $search, offset: $offset, limit: $limit) { items { ${partFields} } total offset limit }
      }`,
      variables,
      token,
    );
  const popular = (limit?: number) =>
    h.app.gql<{ popularParts: PartData[] }>(
      `query($limit: Int) { popularParts(limit: $limit) { ${partFields} } }`,
      limit === undefined ? {} : { limit },
    );
  const addPartAs = (input: Record<string, unknown>, token?: string) =>
    h.app.gql<{ addPart: PartData }>(
      `mutation($input: PartInput!) { addPart(input: $input) { ${partFields} } }`,
      { input },
      token,
    );
  const deletePartAs = (id: string, token?: string) =>
    h.app.gql<{ deletePart: string }>('mutation($id: ID!) { deletePart(id: $id) }', { id }, token);
  const countNamed = async (name: string) => dataOf(await listParts({ search: name })).parts.total;

  describe('Query.parts', () => {
    it('is open to everyone: a visitor, a customer, an admin, and a caller with a bad token', async () => {
      const name = `Chain Guard ${tag()}`;
      const id = await addPart(h.app, admin.token, { name });
      for (const token of [undefined, customer.token, admin.token, h.badTokens.random]) {
        const page = dataOf(await listParts({ search: name }, token)).parts;
        expect(page.total).toBe(1);
        expect(page.items.map((p) => p.id)).toEqual([id]);
      }
    });

    it('answers prices in dollars and pages newest first, with the total of all matches', async () => {
      const t = tag();
      const first = await addPart(h.app, admin.token, { name: `Clutch Plate ${t} A`, price: 10.25 });
      const second = await addPart(h.app, admin.token, { name: `Clutch Plate ${t} B`, price: 0.99 });
      const third = await addPart(h.app, admin.token, { name: `Clutch Plate ${t} C`, price: 1234.5 });

      const page1 = dataOf(await listParts({ search: t, offset: 0, limit: 2 })).parts;
      expect(page1).toMatchObject({ total: 3, offset: 0, limit: 2 });
      expect(page1.items.map((p) => [p.id, p.price])).toEqual([
        [third, 1234.5],
        [second, 0.99],
      ]);
      const page2 = dataOf(await listParts({ search: t, offset: 2, limit: 2 })).parts;
      expect(page2).toMatchObject({ total: 3, offset: 2, limit: 2 });
      expect(page2.items.map((p) => [p.id, p.price])).toEqual([[first, 10.25]]);
    });

    it('uses offset 0 and limit 20 when none are given', async () => {
      const page = dataOf(await listParts({})).parts;
      expect({ offset: page.offset, limit: page.limit }).toEqual({ offset: 0, limit: 20 });
      expect(page.items.length).toBe(Math.min(20, page.total));
    });

    it('searches by part of the name, ignoring case, and never by description', async () => {
      const t = tag();
      const id = await addPart(h.app, admin.token, {
        name: `Iridium Spark Plug ${t}`,
        description: `Also fits the Z-${t}-X racer.`,
      });
      expect(dataOf(await listParts({ search: `sPARK plug ${t.toUpperCase()}` })).parts.items.map((p) => p.id)).toEqual(
        [id],
      );
      expect(dataOf(await listParts({ search: `Z-${t}-X` })).parts.total).toBe(0);
    });

    it('takes % and _ in a search literally', async () => {
      const t = tag();
      const id = await addPart(h.app, admin.token, { name: `Fork Seal 100% ${t}` });
      expect(dataOf(await listParts({ search: `100% ${t}` })).parts.items.map((p) => p.id)).toEqual([id]);
      expect(dataOf(await listParts({ search: `Fork_Seal ${t}` })).parts.total).toBe(0);
      expect(dataOf(await listParts({ search: `%${t}` })).parts.total).toBe(0);
    });

    it('refuses a limit above 100, a limit below 1 and a negative offset', async () => {
      expectBadInput(await listParts({ limit: 101 }), { limit: 'Must be a whole number from 1 to 100' });
      expectBadInput(await listParts({ limit: 0 }), { limit: 'Must be a whole number from 1 to 100' });
      expectBadInput(await listParts({ offset: -1 }), { offset: 'Must be a whole number of 0 or more' });
    });

    it('refuses a search longer than 200 characters', async () => {
      expectBadInput(await listParts({ search: 'x'.repeat(201) }), { search: messages.tooLong(200) });
    });
  });

  describe('Query.part', () => {
    it('answers one part to anyone, with its price in dollars', async () => {
      const input = partInput({ name: `Brake Lever ${tag()}`, price: 19.99, minOrder: 5, available: 40 });
      const id = await addPart(h.app, admin.token, input);
      const expected = {
        id,
        name: input.name,
        description: input.description,
        image: '/images/parts/default.svg',
        price: 19.99,
        minOrder: 5,
        available: 40,
        sold: 0,
      };
      for (const token of [undefined, customer.token, admin.token, h.badTokens.random]) {
        const result = await h.app.gql<{ part: PartData }>(
          `query($id: ID!) { part(id: $id) { ${partFields} } }`,
          { id },
          token,
        );
        expect(dataOf(result).part).toEqual(expected);
      }
    });

    it('answers null, not an error, for an unknown or malformed id', async () => {
      for (const id of [unknownId(), 'not-an-id']) {
        const result = await h.app.gql('query($id: ID!) { part(id: $id) { id } }', { id });
        expect({ data: result.data, errors: result.errors }).toEqual({ data: { part: null }, errors: undefined });
      }
    });
  });

  describe('Query.popularParts', () => {
    // First in this app: no order has been placed yet.
    it('while nothing has sold, answers the newest parts, 6 by default, to anyone', async () => {
      for (let i = 0; i < 6; i++) await addPart(h.app, admin.token);
      const newest = dataOf(await listParts({ limit: 6 })).parts.items.map((p) => p.id);
      const result = await h.app.gql<{ popularParts: PartData[] }>('{ popularParts { id } }', {}, h.badTokens.random);
      expect(dataOf(result).popularParts.map((p) => p.id)).toEqual(newest);
    });

    it('ranks the parts that sold by units sold, most first, and leaves out the ones that did not', async () => {
      // Far more units than any other test of this app orders, so these two lead the ranking.
      const runnerUp = await addPart(h.app, admin.token, { minOrder: 1, available: 100_000 });
      const leader = await addPart(h.app, admin.token, { minOrder: 1, available: 100_000 });
      await addPart(h.app, admin.token); // newer, never sold
      await placeOrder(h.app, customer.token, runnerUp, { orderAmount: 6000 });
      const big = await placeOrder(h.app, customer.token, leader, { orderAmount: 9000 });

      expect(dataOf(await popular()).popularParts.map((p) => [p.id, p.sold])).toEqual([
        [leader, 9000],
        [runnerUp, 6000],
      ]);

      // A cancelled order stops counting; a part back at 0 sold is no best seller.
      dataOf(await h.app.gql('mutation($id: ID!) { cancelOrder(id: $id) }', { id: big.id }, customer.token));
      expect(dataOf(await popular()).popularParts.map((p) => [p.id, p.sold])).toEqual([[runnerUp, 6000]]);
      expect((await readPart(h.app, leader))?.sold).toBe(0);
    });

    it('refuses a limit above 24 or below 1', async () => {
      expectBadInput(await popular(25), { limit: 'Must be a whole number from 1 to 24' });
      expectBadInput(await popular(0), { limit: 'Must be a whole number from 1 to 24' });
    });
  });

  describe('Mutation.addPart', () => {
    it('lets an admin add a part, answered in dollars, with the default image when none is given', async () => {
      const input = partInput({ name: `Air Filter ${tag()}`, price: 7.35, image: '', minOrder: 3, available: 90 });
      const part = dataOf(await addPartAs(input, admin.token)).addPart;
      expect(part).toEqual({
        id: expect.any(String),
        name: input.name,
        description: input.description,
        image: '/images/parts/default.svg',
        price: 7.35,
        minOrder: 3,
        available: 90,
        sold: 0,
      });
      expect(await readPart(h.app, part.id)).toEqual(part);
    });

    it("keeps an http(s) image address or one of the shop's /images files", async () => {
      for (const image of ['https://images.example.test/pads.png', '/images/parts/pads.svg']) {
        expect(dataOf(await addPartAs(partInput({ image }), admin.token)).addPart.image).toBe(image);
      }
    });

    it('is refused to a visitor (401) and to a customer (403), and adds nothing', async () => {
      const name = `Refused Part ${tag()}`;
      expectUnauthenticated(await addPartAs(partInput({ name })));
      expectForbidden(await addPartAs(partInput({ name }), customer.token));
      expectUnauthenticated(await addPartAs(partInput({ name }), h.badTokens.expired(admin)));
      expect(await countNamed(name)).toBe(0);
    });

    it.each([
      ['an empty name', { name: '' }, { name: "The part's name is required" }],
      ['a blank name', { name: '   ' }, { name: "The part's name is required" }],
      ['a negative price', { price: -1 }, { price: messages.priceNegative }],
      ['a minimum order of 0', { minOrder: 0 }, { minOrder: messages.minOrderTooSmall }],
      ['a negative available amount', { available: -1 }, { available: messages.availableNegative }],
      [
        'a minimum order above the available stock',
        { minOrder: 41, available: 40 },
        { minOrder: messages.minOrderAboveAvailable(40) },
      ],
      ['an empty description', { description: '' }, { description: "Order can't be empty" }],
      [
        'an image that is no http(s) address',
        { image: 'ftp://example.test/a.png' },
        { image: messages.imageUrlInvalid },
      ],
      [
        'several bad fields at once',
        { name: '', price: -5, description: '  ' },
        { name: "The part's name is required", price: messages.priceNegative, description: "Order can't be empty" },
      ],
    ])("refuses %s with the spec's message and adds nothing", async (_case, overrides, fields) => {
      const marker = `Bad Part ${tag()}`;
      const input = partInput({ description: marker, ...overrides });
      const before = dataOf(await listParts({})).parts.total;
      expectBadInput(await addPartAs(input, admin.token), fields);
      expect(dataOf(await listParts({})).parts.total).toBe(before);
    });
  });

  describe('Mutation.deletePart', () => {
    it('lets an admin delete a part: it is gone, its unpaid orders are cancelled, paid ones are kept', async () => {
      const name = `Exhaust Gasket ${tag()}`;
      const id = await addPart(h.app, admin.token, { name, available: 100, minOrder: 10 });
      const unpaid = await placeOrder(h.app, customer.token, id, { orderAmount: 10 });
      const paid = await placeOrder(h.app, otherCustomer.token, id, { orderAmount: 20 });
      await payOrder(h.app, otherCustomer.token, paid.id);

      expect(dataOf(await deletePartAs(id, admin.token))).toEqual({ deletePart: id });

      expect(await readPart(h.app, id)).toBeNull();
      expect(await countNamed(name)).toBe(0);
      expectNotFound(await readOrder(h.app, unpaid.id, admin.token));
      const kept = dataOf(await readOrder(h.app, paid.id, otherCustomer.token)).order;
      expect(kept).toMatchObject({ partId: null, partName: name, status: 'PAID', paid: true, price: 250 });
      const mine = dataOf(
        await h.app.gql<{ myOrders: { items: OrderData[] } }>(
          `{ myOrders(limit: 200) { items { ${orderFields} } } }`,
          {},
          customer.token,
        ),
      ).myOrders.items;
      expect(mine.map((o) => o.id)).not.toContain(unpaid.id);
    });

    it('is refused to a visitor (401) and to a customer (403), and the part stays', async () => {
      const id = await addPart(h.app, admin.token);
      expectUnauthenticated(await deletePartAs(id));
      expectForbidden(await deletePartAs(id, customer.token));
      expectUnauthenticated(await deletePartAs(id, h.badTokens.forged(admin)));
      expect(await readPart(h.app, id)).not.toBeNull();
    });

    it('answers NOT_FOUND for an unknown or malformed id, and for a part deleted already', async () => {
      expectNotFound(await deletePartAs(unknownId(), admin.token));
      expectNotFound(await deletePartAs('not-an-id', admin.token));
      const id = await addPart(h.app, admin.token);
      dataOf(await deletePartAs(id, admin.token));
      expectNotFound(await deletePartAs(id, admin.token));
    });
  });
});

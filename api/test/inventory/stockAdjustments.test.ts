import { stockMessages } from '@partsyard/common';
import { asc, eq } from 'drizzle-orm';
import type { Db } from '../../src/db/database';
import { parts } from '../../src/db/schema';
import { stockMovements } from '../../src/inventory/inventorySchema';
import { dataOf, expectBadInput, expectForbidden, expectNotFound, unknownId } from '../graphql/helpers';
import { databaseKinds, type DatabaseKind } from '../support/env';
import { addPart, orderInput } from '../support/fixtures';
import { startTestApp, type TestApp, type TestUser } from '../support/testApp';

/**
 * Issue 33 point 5: a part's stock changes by adjustments with a reason, kept in a stock history (who, when, why,
 * before, after), and never races the orders taking stock: an adjustment holds the part's row as an order's stock
 * update does, so on PostgreSQL (separate connections at once) and PGlite (one at a time, any order) the final
 * stock is exactly what the orders and adjustments that went through add up to, and never below zero.
 */
jest.setTimeout(180_000);

const adjust = `mutation($id: ID!, $input: StockAdjustmentInput!) {
  adjustStock(partId: $id, input: $input) { movement { id reason delta before after note actor { name email } createdAt } part { id available } }
}`;
const history = `query($id: ID!, $offset: Int, $limit: Int) {
  stockHistory(partId: $id, offset: $offset, limit: $limit) { total offset limit items { reason delta before after note actor { email } } }
}`;

interface Movement {
  reason: string;
  delta: number;
  before: number;
  after: number;
  note: string;
  actor: { email: string } | null;
}

const title = (kind: DatabaseKind) => (kind === 'postgres' ? 'PostgreSQL (concurrent connections)' : 'PGlite');

describe.each(databaseKinds)('stock adjustments on %s', (kind) => {
  let app: TestApp;
  let db: Db;
  let admin: TestUser;
  let customer: TestUser;

  beforeAll(async () => {
    app = await startTestApp(kind);
    db = app.server.database.db;
    [admin, customer] = await Promise.all([app.signUp({ admin: true, name: 'Stock Keeper' }), app.signUp()]);
  });
  afterAll(() => app?.close());

  const newPart = (available = 10) => addPart(app, admin.token, { price: 2, minOrder: 1, available });
  const stockOf = async (id: string) =>
    (await db.select({ available: parts.available }).from(parts).where(eq(parts.id, id)))[0].available;
  const historyOf = async (id: string, offset = 0, limit = 20) =>
    dataOf(
      await app.gql<{ stockHistory: { total: number; offset: number; limit: number; items: Movement[] } }>(
        history,
        { id, offset, limit },
        admin.token,
      ),
    ).stockHistory;

  it('each reason changes the stock and is kept in the history, newest first, with who and before/after', async () => {
    const id = await newPart(10);
    const steps: [Record<string, unknown>, number][] = [
      [{ reason: 'RECEIVED', delta: 40, note: 'Delivery 1187' }, 50],
      [{ reason: 'DAMAGED', delta: -3, note: 'Bent in the rack' }, 47],
      [{ reason: 'RETURNED', delta: 2 }, 49],
      [{ reason: 'COUNTED', countedTo: 45, note: 'Stocktake' }, 45],
      [{ reason: 'OTHER', delta: -5, note: 'Sample for the show' }, 40],
      [{ reason: 'COUNTED', countedTo: 40 }, 40], // a count that agrees is kept too
    ];
    for (const [input, available] of steps) {
      const answer = dataOf(
        await app.gql<{ adjustStock: { movement: Movement & { createdAt: string }; part: { available: number } } }>(
          adjust,
          { id, input },
          admin.token,
        ),
      ).adjustStock;
      expect(answer.part.available).toBe(available);
      expect(answer.movement).toMatchObject({
        reason: input.reason,
        after: available,
        actor: { name: 'Stock Keeper', email: admin.email },
      });
    }
    const all = await historyOf(id);
    expect(all.total).toBe(6);
    expect(all.items.map((m) => [m.reason, m.delta, m.before, m.after, m.note])).toEqual([
      ['COUNTED', 0, 40, 40, ''],
      ['OTHER', -5, 45, 40, 'Sample for the show'],
      ['COUNTED', -4, 49, 45, 'Stocktake'],
      ['RETURNED', 2, 47, 49, ''],
      ['DAMAGED', -3, 50, 47, 'Bent in the rack'],
      ['RECEIVED', 40, 10, 50, 'Delivery 1187'],
    ]);
    const second = await historyOf(id, 2, 2);
    expect(second).toMatchObject({ total: 6, offset: 2, limit: 2 });
    expect(second.items.map((m) => m.reason)).toEqual(['COUNTED', 'RETURNED']);

    // REST: the same history, in documents, and an adjustment answers the stock before and after it.
    const posted = await app.rest<{ acknowledged: boolean; insertedId: string; before: number; after: number }>(
      'POST',
      `/parts/${id}/stock`,
      { reason: 'received', delta: 10, note: 'Delivery 1190' },
      admin.token,
    );
    expect(posted).toEqual({
      status: 200,
      body: { acknowledged: true, insertedId: expect.any(String), before: 40, after: 50 },
    });
    const listed = await app.rest<{ reason: string; after: number; actor: { email: string } }[]>(
      'GET',
      `/parts/${id}/stock?limit=2`,
      undefined,
      admin.token,
    );
    expect(listed.status).toBe(200);
    expect(listed.body.map((m) => [m.reason, m.after, m.actor.email])).toEqual([
      ['received', 50, admin.email],
      ['counted', 40, admin.email],
    ]);
    expect(await stockOf(id)).toBe(50);
  });

  it('refuses what would take the stock below zero, or a change that does not fit its reason, and changes nothing', async () => {
    const id = await newPart(4);
    const cases: [Record<string, unknown>, Record<string, string>][] = [
      [{ reason: 'DAMAGED', delta: -5 }, { delta: stockMessages.belowZero(4) }],
      [{ reason: 'COUNTED', countedTo: -1 }, { countedTo: stockMessages.countedToRequired }],
      [{ reason: 'COUNTED' }, { countedTo: stockMessages.countedToRequired }],
      [{ reason: 'COUNTED', countedTo: 3, delta: 1 }, { delta: stockMessages.countNotChange }],
      [{ reason: 'DAMAGED', delta: 3 }, { delta: stockMessages.damagedNegative }],
      [{ reason: 'RECEIVED', delta: 0 }, { delta: stockMessages.receivedPositive }],
      [{ reason: 'RECEIVED' }, { delta: stockMessages.deltaRequired }],
      [{ reason: 'RECEIVED', delta: 2, countedTo: 6 }, { countedTo: stockMessages.changeNotCount }],
      [{ reason: 'RECEIVED', delta: 1_000_000 }, { delta: stockMessages.aboveMax(4) }],
      [{ reason: 'RECEIVED', delta: 2_000_000 }, { delta: stockMessages.tooLarge }],
      [{ reason: 'OTHER', delta: 1 }, { note: stockMessages.noteRequired }],
      [{ reason: 'OTHER', delta: 1, note: 'x'.repeat(501) }, { note: stockMessages.noteTooLong }],
    ];
    for (const [input, fields] of cases) {
      const answer = await app.gql(adjust, { id, input }, admin.token);
      expect({ input, fields: answer.errors?.[0]?.extensions?.fields }).toEqual({ input, fields });
      expectBadInput(answer, fields);
    }
    const rest = await app.rest('POST', `/parts/${id}/stock`, { reason: 'lost', delta: -1 }, admin.token);
    expect(rest).toEqual({
      status: 400,
      body: { message: stockMessages.reasonRequired, errors: { reason: stockMessages.reasonRequired } },
    });
    expect(await stockOf(id)).toBe(4);
    expect(await db.select().from(stockMovements).where(eq(stockMovements.partId, id))).toEqual([]);
  });

  it('is for admins only, and knows no unknown part', async () => {
    const id = await newPart();
    expectForbidden(await app.gql(adjust, { id, input: { reason: 'RECEIVED', delta: 1 } }, customer.token));
    expectForbidden(await app.gql(history, { id }, customer.token));
    expect(
      (await app.rest('POST', `/parts/${id}/stock`, { reason: 'received', delta: 1 }, customer.token)).status,
    ).toBe(403);
    expect((await app.rest('GET', `/parts/${id}/stock`)).status).toBe(401);
    expectNotFound(await app.gql(adjust, { id: unknownId(), input: { reason: 'RECEIVED', delta: 1 } }, admin.token));
    expectNotFound(await app.gql(history, { id: unknownId() }, admin.token));
    expect((await app.rest('GET', `/parts/not-an-id/stock`, undefined, admin.token)).status).toBe(404);
    expect(await stockOf(id)).toBe(10);
  });

  describe(`racing orders on ${title(kind)}`, () => {
    let customers: TestUser[];
    beforeAll(async () => {
      customers = await Promise.all(Array.from({ length: 8 }, () => app.signUp()));
    });

    it('orders and adjustments at once: the final stock is exact, every movement consistent, never below zero', async () => {
      // 30 units; 16 orders of 3 (48 asked) and 8 damaged adjustments of -2 (16) race 6 deliveries of +4 (24):
      // some of the takes must be refused, whichever order they land in.
      const id = await newPart(30);
      const orders = Array.from({ length: 16 }, (_, i) =>
        app.gql<{ placeOrder: { id: string } }>(
          'mutation($input: PlaceOrderInput!) { placeOrder(input: $input) { id } }',
          { input: orderInput(id, { orderAmount: 3 }) },
          customers[i % customers.length].token,
        ),
      );
      const adjustments = [
        ...Array.from({ length: 8 }, () => ({ reason: 'DAMAGED', delta: -2 })),
        ...Array.from({ length: 6 }, () => ({ reason: 'RECEIVED', delta: 4 })),
      ].map((input) => app.gql<{ adjustStock: { movement: Movement } }>(adjust, { id, input }, admin.token));
      const [placed, adjusted] = await Promise.all([Promise.all(orders), Promise.all(adjustments)]);

      const ordersPlaced = placed.filter((r) => r.data?.placeOrder).length;
      const orderRefusals = placed.filter((r) => r.errors).map((r) => r.errors?.[0]?.extensions?.code);
      const applied = adjusted.filter((r) => r.data?.adjustStock).map((r) => r.data!.adjustStock.movement);
      const adjustRefusals = adjusted.filter((r) => r.errors).map((r) => r.errors?.[0]?.extensions?.fields);
      // Every refusal is a clear one: an order short of stock, a damage larger than the stock left.
      expect(orderRefusals.filter((code) => code !== 'BAD_USER_INPUT')).toEqual([]);
      for (const fields of adjustRefusals)
        expect(fields).toEqual({ delta: expect.stringMatching(/^Only \d+ units? (is|are) in stock now/) });
      // More was asked than there ever was (64 units taken, 54 at most): some takes were refused.
      expect(orderRefusals.length + adjustRefusals.length).toBeGreaterThan(0);
      // Deliveries never fail; all 14 adjustments answered.
      expect(applied.filter((m) => m.reason === 'RECEIVED')).toHaveLength(6);
      expect(applied.length + adjustRefusals.length).toBe(14);

      const final = await stockOf(id);
      const moved = applied.reduce((sum, m) => sum + m.delta, 0);
      expect(final).toBe(30 + moved - 3 * ordersPlaced);
      expect(final).toBeGreaterThanOrEqual(0);
      const [{ sold }] = await db.select({ sold: parts.sold }).from(parts).where(eq(parts.id, id));
      expect(sold).toBe(3 * ordersPlaced);

      // The history agrees: each movement's after is its before plus its change, never below zero, and in the
      // order they were made, between two of them (and before the first, after the last) only orders moved the
      // stock: down, by whole orders of 3. A change made on a stock read before an order took from it would
      // show here as a gap that is no whole number of orders, or one going up.
      const rows = await db
        .select()
        .from(stockMovements)
        .where(eq(stockMovements.partId, id))
        .orderBy(asc(stockMovements.createdAt), asc(stockMovements.id));
      expect(rows).toHaveLength(applied.length);
      for (const row of rows) {
        expect(row.after).toBe(row.before + row.delta);
        expect(row.after).toBeGreaterThanOrEqual(0);
      }
      const stockLine = [30, ...rows.flatMap((row) => [row.before, row.after]), final];
      const takenByOrders = [];
      for (let i = 0; i < stockLine.length; i += 2) takenByOrders.push(stockLine[i] - stockLine[i + 1]);
      expect(takenByOrders.every((taken) => taken >= 0 && taken % 3 === 0)).toBe(true);
      expect(takenByOrders.reduce((sum, taken) => sum + taken, 0)).toBe(3 * ordersPlaced);
    });
  });
});

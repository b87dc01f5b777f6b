import { eq, sql } from 'drizzle-orm';
import { orders } from '../src/db/schema';
import type { Actor } from '../src/services/actor';
import { tooManyUnpaidOrders } from '../src/services/ordersService';
import { actorOf, addPartAs, expectAppError, partRow, placeOrderAs, signUp } from './services/helpers';
import { databaseKinds } from './support/env';
import { orderInput, payOrder } from './support/fixtures';
import { captureLogs } from './support/logs';
import { startTestApp, type TestApp, type TestUser } from './support/testApp';

/**
 * A customer holds at most UNPAID_ORDERS_PER_CUSTOMER unpaid orders (issue 11): the next is refused with 409
 * and a message saying to pay or cancel one first, and nothing is written. Two orders at once cannot both slip
 * past the cap: placing an order holds the customer's row, so their orders are counted one at a time.
 */

describe.each(databaseKinds)('the cap on unpaid orders per customer (%s)', (kind) => {
  let app: TestApp;
  let admin: Actor;

  beforeAll(async () => {
    app = await startTestApp(kind, { orders: { unpaidExpiryMs: 3_600_000, unpaidPerCustomer: 3 } });
    admin = await actorOf(app, await signUp(app, { admin: true }));
  });
  afterAll(() => app?.close());

  const newPart = () => addPartAs(app, admin, { price: 4, minOrder: 1, available: 500 });
  const unpaidOf = async (userId: string) =>
    (await app.server.database.db.select().from(orders).where(eq(orders.userId, userId))).filter(
      (o) => o.status === 'unpaid',
    ).length;
  const placeGraphql = (user: TestUser, partId: string) =>
    app.gql<{ placeOrder: { id: string } }>(
      'mutation($input: PlaceOrderInput!) { placeOrder(input: $input) { id } }',
      { input: orderInput(partId, { orderAmount: 2 }) },
      user.token,
    );

  it('the 4th unpaid order is refused with 409 and a clear message (GraphQL and REST); nothing is written', async () => {
    const user = await signUp(app);
    const part = await newPart();
    for (let i = 0; i < 3; i++) expect((await placeGraphql(user, part.id)).data?.placeOrder.id).toBeDefined();
    const stock = (await partRow(app, part.id)).available;
    const refused = await placeGraphql(user, part.id);
    expect(refused.errors?.[0]).toMatchObject({
      message: tooManyUnpaidOrders(3),
      extensions: { code: 'CONFLICT' },
    });
    expect(tooManyUnpaidOrders(3)).toBe(
      'You have 3 unpaid orders, the most one customer may hold: pay or cancel one of them before placing another',
    );
    const rest = await app.rest('POST', '/orders', orderInput(part.id, { orderAmount: 2 }), user.token);
    expect(rest).toEqual({ status: 409, body: { message: tooManyUnpaidOrders(3) } });
    expect((await partRow(app, part.id)).available).toBe(stock);
    expect(await unpaidOf(user.userId)).toBe(3);
    // Another customer is not held back by it.
    const other = await signUp(app);
    expect((await placeGraphql(other, part.id)).data?.placeOrder.id).toBeDefined();
  });

  it('paying, cancelling or the expiry of one frees a place', async () => {
    const user = await signUp(app);
    const customer = await actorOf(app, user);
    const part = await newPart();
    const placed = [];
    for (let i = 0; i < 3; i++) placed.push(await placeOrderAs(app, customer, part.id, { orderAmount: 2 }));
    await expectAppError(placeOrderAs(app, customer, part.id, { orderAmount: 2 }), 'CONFLICT');

    await payOrder(app, user.token, placed[0].id);
    const fourth = await placeOrderAs(app, customer, part.id, { orderAmount: 2 });
    await expectAppError(placeOrderAs(app, customer, part.id, { orderAmount: 2 }), 'CONFLICT');

    await app.server.services.orders.cancelOrder(customer, placed[1].id);
    await placeOrderAs(app, customer, part.id, { orderAmount: 2 });
    await expectAppError(placeOrderAs(app, customer, part.id, { orderAmount: 2 }), 'CONFLICT');

    // Due (time passed): no longer held against the cap, even before the sweep has run.
    await app.server.database.db
      .update(orders)
      .set({ expiresAt: sql`now() - interval '1 second'` })
      .where(eq(orders.id, fourth.id));
    const logs = captureLogs();
    try {
      await placeOrderAs(app, customer, part.id, { orderAmount: 2 });
    } finally {
      logs.restore();
    }
    await expectAppError(placeOrderAs(app, customer, part.id, { orderAmount: 2 }), 'CONFLICT');
  });

  it('orders placed at the same moment cannot slip past the cap together', async () => {
    const part = await newPart();
    for (let round = 0; round < 4; round++) {
      const user = await signUp(app);
      const answers = await Promise.all(
        Array.from({ length: 10 }, (_, i) =>
          i % 2
            ? placeGraphql(user, part.id).then((r) => (r.data ? 'placed' : r.errors?.[0].extensions?.code))
            : app
                .rest('POST', '/orders', orderInput(part.id, { orderAmount: 2 }), user.token)
                .then((r) => (r.status === 200 ? 'placed' : r.status)),
        ),
      );
      expect(answers.filter((a) => a === 'placed')).toHaveLength(3);
      for (const refused of answers.filter((a) => a !== 'placed')) expect([409, 'CONFLICT']).toContain(refused);
      expect(await unpaidOf(user.userId)).toBe(3);
    }
    expect((await partRow(app, part.id)).available).toBe(500 - 4 * 3 * 2);
  });
});

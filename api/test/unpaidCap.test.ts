import { eq, sql } from 'drizzle-orm';
import { orders } from '../src/db/schema';
import type { Actor } from '../src/services/actor';
import type { AppError } from '../src/errors';
import { tooManyUnpaidOrders, tooMuchHeldUnpaid } from '../src/services/ordersService';
import { actorOf, addPartAs, expectAppError, partRow, placeOrderAs, signUp } from './services/helpers';
import { databaseKinds } from './support/env';
import { orderInput, payOrder } from './support/fixtures';
import { captureLogs } from './support/logs';
import { generousOrderLimits, startTestApp, type TestApp, type TestUser } from './support/testApp';

const contact = { name: 'Rider One', phone: '01712345678', address: 'Road 5, Dhaka' };

/**
 * A customer holds at most UNPAID_ORDERS_PER_CUSTOMER unpaid orders (issue 11): the next is refused with 409
 * and a message saying to pay or cancel one first, and nothing is written. Two orders at once cannot both slip
 * past the cap: placing an order holds the customer's row, so their orders are counted one at a time.
 */

describe.each(databaseKinds)('the cap on unpaid orders per customer (%s)', (kind) => {
  let app: TestApp;
  let admin: Actor;

  beforeAll(async () => {
    app = await startTestApp(kind, { orders: { ...generousOrderLimits, unpaidPerCustomer: 3 } });
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

/**
 * Issue 32: what one customer's unpaid orders may cost together (UNPAID_VALUE_PER_CUSTOMER), so that one account
 * cannot keep a catalog off sale with a few checkouts of many lines. Paid orders do not count: a buyer who pays as
 * they go still buys a part's whole stock. Counted with the customer's row held, as the cap above is.
 */
describe.each(databaseKinds)('the bound on what one customer holds unpaid (%s)', (kind) => {
  let app: TestApp;
  let admin: Actor;

  beforeAll(async () => {
    // $100 unpaid at most.
    app = await startTestApp(kind, { orders: { ...generousOrderLimits, unpaidValuePerCustomerCents: 10_000 } });
    admin = await actorOf(app, await signUp(app, { admin: true }));
  });
  afterAll(() => app?.close());

  /** A part at $4 a unit: its whole stock of 60 costs $240. */
  const newPart = () => addPartAs(app, admin, { price: 4, minOrder: 1, available: 60 });
  const place = (user: TestUser, partId: string, orderAmount: number) =>
    app.gql<{ placeOrder: { id: string } }>(
      'mutation($input: PlaceOrderInput!) { placeOrder(input: $input) { id } }',
      { input: orderInput(partId, { orderAmount }) },
      user.token,
    );

  it('an order past it is refused with 409 saying what to do; paying frees it, so paying as you go buys the whole stock', async () => {
    const user = await signUp(app);
    const part = await newPart();
    const tooBig = await place(user, part.id, 30);
    expect(tooBig.errors?.[0]).toMatchObject({
      message: tooMuchHeldUnpaid(0, 12_000, 10_000),
      extensions: { code: 'CONFLICT' },
    });
    expect(tooMuchHeldUnpaid(0, 12_000, 10_000)).toBe(
      'One customer may hold at most $100.00 unpaid, and this costs $120.00: order less now, pay for it, then order the rest',
    );
    expect((await partRow(app, part.id)).available).toBe(60);
    // Exactly the bound is allowed; one unit more is not, by GraphQL or REST, and nothing is written.
    const first = await place(user, part.id, 25);
    expect(first.errors).toBeUndefined();
    const more = await app.rest('POST', '/orders', orderInput(part.id, { orderAmount: 1 }), user.token);
    expect(more).toEqual({ status: 409, body: { message: tooMuchHeldUnpaid(10_000, 400, 10_000) } });
    expect(tooMuchHeldUnpaid(10_000, 400, 10_000)).toBe(
      'Your unpaid orders already come to $100.00, and one customer may hold at most $100.00 unpaid: pay or cancel them before ordering $4.00 more',
    );
    expect((await partRow(app, part.id)).available).toBe(35);
    // Paying as they go, the same customer buys every unit.
    await payOrder(app, user.token, first.data?.placeOrder.id ?? '');
    const second = await place(user, part.id, 25);
    await payOrder(app, user.token, second.data?.placeOrder.id ?? '');
    const last = await place(user, part.id, 10);
    await payOrder(app, user.token, last.data?.placeOrder.id ?? '');
    expect((await partRow(app, part.id)).available).toBe(0);
    const mine = await app.server.database.db.select().from(orders).where(eq(orders.userId, user.userId));
    expect(mine.map((o) => o.status)).toEqual(['paid', 'paid', 'paid']);
  });

  it('a checkout past it is refused, and the cart says so before; cancelling or the expiry frees what was held', async () => {
    const user = await signUp(app);
    const buyer = await actorOf(app, user);
    const [a, b] = [await newPart(), await newPart()];
    const cart = app.server.services.cart;
    await cart.addToCart(buyer, a.id, 15);
    const full = await cart.addToCart(buyer, b.id, 15);
    expect(full).toMatchObject({ ready: false, problem: tooMuchHeldUnpaid(0, 12_000, 10_000) });
    const refused = await expectAppError(cart.checkout(buyer, contact), 'CONFLICT');
    expect(refused.message).toBe(tooMuchHeldUnpaid(0, 12_000, 10_000));
    expect((await partRow(app, a.id)).available).toBe(60);
    await cart.setCartLineAmount(buyer, b.id, 10);
    const { orders: placed } = await cart.checkout(buyer, contact);
    // $100 held: nothing more until it is paid, cancelled or due.
    await expectAppError(placeOrderAs(app, buyer, a.id, { orderAmount: 1 }), 'CONFLICT');
    await app.server.services.orders.cancelOrder(buyer, placed[1].id);
    await placeOrderAs(app, buyer, a.id, { orderAmount: 10 });
    await expectAppError(placeOrderAs(app, buyer, a.id, { orderAmount: 1 }), 'CONFLICT');
    await app.server.database.db
      .update(orders)
      .set({ expiresAt: sql`now() - interval '1 second'` })
      .where(eq(orders.userId, buyer.userId));
    const logs = captureLogs();
    try {
      await placeOrderAs(app, buyer, a.id, { orderAmount: 25 });
    } finally {
      logs.restore();
    }
  });

  it('orders and a checkout of one customer at once cannot slip past it together', async () => {
    const part = await newPart();
    const other = await newPart();
    for (let round = 0; round < 3; round++) {
      const user = await signUp(app);
      const buyer = await actorOf(app, user);
      await app.server.services.cart.addToCart(buyer, other.id, 10);
      // Six at once, each $40, against $100: two fit.
      const answers = await Promise.all([
        app.server.services.cart.checkout(buyer, contact).then(
          () => 'placed',
          (error: AppError) => error.code,
        ),
        ...Array.from({ length: 5 }, (_, i) =>
          i % 2
            ? place(user, part.id, 10).then((r) => (r.data ? 'placed' : r.errors?.[0].extensions?.code))
            : app
                .rest('POST', '/orders', orderInput(part.id, { orderAmount: 10 }), user.token)
                .then((r) => (r.status === 200 ? 'placed' : r.status)),
        ),
      ]);
      expect(answers.filter((a) => a === 'placed')).toHaveLength(2);
      for (const refused of answers.filter((a) => a !== 'placed')) expect([409, 'CONFLICT']).toContain(refused);
      const held = (await app.server.database.db.select().from(orders).where(eq(orders.userId, user.userId))).filter(
        (o) => o.status === 'unpaid',
      );
      expect(held.reduce((sum, o) => sum + o.totalCents, 0)).toBe(8_000);
    }
  });
});

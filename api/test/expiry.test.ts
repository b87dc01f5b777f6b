import { eq, inArray, sql } from 'drizzle-orm';
import { openDatabase, type Database } from '../src/db/database';
import { orders, outbox, testPaymentIntents } from '../src/db/schema';
import { startServer, type RunningServer } from '../src/server';
import type { Actor } from '../src/services/actor';
import { expireDueOrdersIn } from '../src/services/expiry';
import { orderExpiredMessage } from '../src/services/ordersService';
import { unpayableMessages } from '../src/services/paymentsService';
import {
  actorOf,
  addPartAs,
  expectAppError,
  orderRow,
  partRow,
  placeOrderAs,
  signUp,
  testCard,
} from './services/helpers';
import { databaseKinds } from './support/env';
import { captureLogs } from './support/logs';
import { generousOrderLimits, startTestApp, testConfig, type TestApp, type TestUser } from './support/testApp';

/**
 * Reservations that expire (issue 11): an unpaid order holds its stock for UNPAID_ORDER_EXPIRY, then becomes
 * EXPIRED, its stock goes back exactly once and it can no longer be paid. The clock is the database's: a test
 * moves an order's `expires_at` into the past, which is what time passing does to it (and one test waits for
 * a short setting and the timer instead).
 */

const orderFields = 'id status paid expiresAt createdAt';

describe.each(databaseKinds)('unpaid orders expire (%s)', (kind) => {
  let app: TestApp;
  let admin: Actor;
  let customerUser: TestUser;
  let customer: Actor;

  beforeAll(async () => {
    app = await startTestApp(kind, {
      orders: { ...generousOrderLimits, unpaidExpiryMs: 90_000, unpaidPerCustomer: 1000 },
    });
    admin = await actorOf(app, await signUp(app, { admin: true }));
    customerUser = await signUp(app);
    customer = await actorOf(app, customerUser);
  });
  afterAll(() => app?.close());

  const db = () => app.server.database.db;
  const services = () => app.server.services;
  /** Time passes for these orders: their reservation ran out a second ago. */
  const makeDue = (...ids: string[]) =>
    db()
      .update(orders)
      .set({ expiresAt: sql`now() - interval '1 second'` })
      .where(inArray(orders.id, ids));
  const sweep = () => services().orders.expireDueOrders();
  const quietly = async <T>(work: () => Promise<T>): Promise<T> => {
    const logs = captureLogs();
    try {
      return await work();
    } finally {
      logs.restore();
    }
  };

  async function unpaidOrder(available = 100, orderAmount = 10) {
    const part = await addPartAs(app, admin, { price: 2.5, minOrder: 1, available });
    const order = await placeOrderAs(app, customer, part.id, { orderAmount });
    return { part, order };
  }

  it('an order holds its stock until now + UNPAID_ORDER_EXPIRY, shown as expiresAt (the time to pay by)', async () => {
    const { order } = await unpaidOrder();
    expect(order.expiresAt.getTime() - order.createdAt.getTime()).toBe(90_000);
    const read = await app.gql<{ order: { status: string; expiresAt: string } }>(
      `query($id: ID!) { order(id: $id) { ${orderFields} } }`,
      { id: order.id },
      customerUser.token,
    );
    expect(read.data?.order).toMatchObject({ status: 'UNPAID', expiresAt: order.expiresAt.toISOString() });
    const rest = await app.rest<{ status: string; expiresAt: string }>(
      'GET',
      `/order/${order.id}`,
      undefined,
      customerUser.token,
    );
    expect(rest.body).toMatchObject({ status: 'unpaid', paid: false, expiresAt: order.expiresAt.toISOString() });
    // Not due yet: the sweep leaves it alone.
    expect(await sweep()).toBe(0);
    expect((await orderRow(app, order.id))?.status).toBe('unpaid');
  });

  it('once due, the sweep expires it and gives its stock (and sold count) back, exactly once', async () => {
    const { part, order } = await unpaidOrder(100, 30);
    expect((await partRow(app, part.id)).available).toBe(70);
    await makeDue(order.id);
    const logs = captureLogs();
    try {
      expect(await sweep()).toBe(1);
      expect(await sweep()).toBe(0);
    } finally {
      logs.restore();
    }
    expect(await partRow(app, part.id)).toMatchObject({ available: 100, sold: 0 });
    expect(logs.events('order_expired')).toEqual([
      expect.objectContaining({ orderId: order.id, partId: part.id, orderAmount: 30, totalCents: 7500 }),
    ]);
    const read = await app.gql<{ order: { status: string; paid: boolean; expiresAt: string } }>(
      `query($id: ID!) { order(id: $id) { ${orderFields} } }`,
      { id: order.id },
      customerUser.token,
    );
    expect(read.data?.order).toMatchObject({ status: 'EXPIRED', paid: false });
    expect(read.data?.order.expiresAt).toEqual(expect.any(String));
    const rest = await app.rest('GET', `/order/${order.id}`, undefined, customerUser.token);
    expect(rest.body).toMatchObject({ status: 'expired', paid: false });
  });

  it('two sweeps racing (and a third, and a fourth) give each order’s stock back once', async () => {
    // More orders than one sweep transaction takes, over a few parts, all due at once.
    const shelf = await Promise.all(
      [1, 2, 3].map(() => addPartAs(app, admin, { price: 1, minOrder: 1, available: 1000 })),
    );
    const placed: string[] = [];
    for (let i = 0; i < 240; i++) {
      placed.push((await placeOrderAs(app, customer, shelf[i % 3].id, { orderAmount: 1 + (i % 4) })).id);
    }
    const taken = await Promise.all(shelf.map(async (p) => 1000 - (await partRow(app, p.id)).available));
    expect(taken.reduce((a, b) => a + b)).toBe(placed.reduce((sum, _, i) => sum + 1 + (i % 4), 0));
    await makeDue(...placed);
    const counts = await quietly(() => Promise.all([sweep(), sweep(), sweep(), sweep()]));
    expect(counts.reduce((a, b) => a + b)).toBe(240);
    for (const p of shelf) expect(await partRow(app, p.id)).toMatchObject({ available: 1000, sold: 0 });
    const rows = await db().select({ status: orders.status }).from(orders).where(inArray(orders.id, placed));
    expect(new Set(rows.map((r) => r.status))).toEqual(new Set(['expired']));
    expect(await quietly(sweep)).toBe(0);
  });

  it('an expired order cannot be paid: createPaymentIntent answers 409 on GraphQL and REST', async () => {
    const { order } = await unpaidOrder();
    await makeDue(order.id);
    await quietly(sweep);
    const graphql = await app.gql(
      'mutation($id: ID!) { createPaymentIntent(orderId: $id) { id } }',
      { id: order.id },
      customerUser.token,
    );
    expect(graphql.errors?.[0]).toMatchObject({ message: orderExpiredMessage, extensions: { code: 'CONFLICT' } });
    const rest = await app.rest('POST', '/create-payment-intent', { orderId: order.id }, customerUser.token);
    expect(rest).toEqual({ status: 409, body: { message: orderExpiredMessage } });
  });

  it('an order due but not swept yet is expired by the payment page itself (409), its stock back at once', async () => {
    const { part, order } = await unpaidOrder(100, 10);
    await makeDue(order.id);
    const refused = await quietly(() =>
      expectAppError(services().payments.createPaymentIntent(customer, order.id), 'CONFLICT'),
    );
    expect(refused.message).toBe(orderExpiredMessage);
    expect((await orderRow(app, order.id))?.status).toBe('expired');
    expect((await partRow(app, part.id)).available).toBe(100);
    expect(await sweep()).toBe(0);
    expect((await partRow(app, part.id)).available).toBe(100);
  });

  it('an intent created before the expiry cannot be paid with the test card after it (409, not charged)', async () => {
    const { order } = await unpaidOrder();
    const intent = await services().payments.createPaymentIntent(customer, order.id);
    await makeDue(order.id);
    await quietly(sweep);
    const refused = await expectAppError(
      services().payments.payWithTestCard(customer, intent.id, testCard()),
      'CONFLICT',
    );
    expect(refused.message).toBe(orderExpiredMessage);
    const [row] = await db().select().from(testPaymentIntents).where(eq(testPaymentIntents.id, intent.id));
    expect(row.status).toBe('requires_payment_method');
  });

  it('a card charged between the intent and the confirmation, the order expiring meanwhile: refunded once, 409 saying so', async () => {
    const { part, order } = await unpaidOrder(100, 10);
    const intent = await services().payments.createPaymentIntent(customer, order.id);
    await services().payments.payWithTestCard(customer, intent.id, testCard());
    await makeDue(order.id);
    const logs = captureLogs();
    try {
      // The confirmation finds the order due: it expires it (stock back) and refunds the charge.
      const first = await expectAppError(services().payments.confirmPayment(customer, order.id, intent.id), 'CONFLICT');
      expect(first.message).toBe(unpayableMessages.order_expired.refunded);
      const again = await expectAppError(services().payments.confirmPayment(customer, order.id, intent.id), 'CONFLICT');
      expect(again.message).toBe(unpayableMessages.order_expired.refunded);
      expect(await sweep()).toBe(0);
    } finally {
      logs.restore();
    }
    const [row] = await db().select().from(testPaymentIntents).where(eq(testPaymentIntents.id, intent.id));
    expect(row.refundedAt).toBeInstanceOf(Date);
    expect(logs.events('payment_refunded')).toEqual([
      expect.objectContaining({ orderId: order.id, reason: 'order_expired', amountCents: 2500 }),
    ]);
    expect(logs.events('order_expired')).toHaveLength(1);
    expect(await orderRow(app, order.id)).toMatchObject({ status: 'expired', transactionId: null });
    expect((await partRow(app, part.id)).available).toBe(100);
  });

  it('expiring between the intent and the payment: 409 on GraphQL and REST, the card not charged or the charge refunded', async () => {
    const card = testCard();
    const intentRow = async (id: string) =>
      (await db().select().from(testPaymentIntents).where(eq(testPaymentIntents.id, id)))[0];
    /** An unpaid order, its intent, the card charged or not, then the reservation runs out (not swept yet). */
    async function expiring(charged: boolean) {
      const { part, order } = await unpaidOrder(100, 10);
      const intent = await services().payments.createPaymentIntent(customer, order.id);
      if (charged) await services().payments.payWithTestCard(customer, intent.id, card);
      await makeDue(order.id);
      return { part, order, intent };
    }
    const logs = captureLogs();
    try {
      // The card offered after the expiry: refused with 409, never charged.
      const cardGraphql = await expiring(false);
      const paidGraphql = await app.gql(
        'mutation($id: ID!, $card: TestCardInput!) { payWithTestCard(paymentIntentId: $id, card: $card) { succeeded } }',
        { id: cardGraphql.intent.id, card },
        customerUser.token,
      );
      expect(paidGraphql.errors?.[0]).toMatchObject({ message: orderExpiredMessage, extensions: { code: 'CONFLICT' } });
      const cardRest = await expiring(false);
      const paidRest = await app.rest(
        'POST',
        '/test-gateway/pay',
        { paymentIntentId: cardRest.intent.id, card },
        customerUser.token,
      );
      expect(paidRest).toEqual({ status: 409, body: { message: orderExpiredMessage } });
      for (const { intent } of [cardGraphql, cardRest])
        expect((await intentRow(intent.id)).status).not.toBe('succeeded');

      // Charged before the expiry, confirmed after it: 409 saying the payment was refunded.
      const confirmGraphql = await expiring(true);
      const confirmedGraphql = await app.gql(
        'mutation($id: ID!, $intent: ID!) { confirmPayment(orderId: $id, paymentIntentId: $intent) { status } }',
        { id: confirmGraphql.order.id, intent: confirmGraphql.intent.id },
        customerUser.token,
      );
      expect(confirmedGraphql.errors?.[0]).toMatchObject({
        message: unpayableMessages.order_expired.refunded,
        extensions: { code: 'CONFLICT' },
      });
      const confirmRest = await expiring(true);
      const confirmedRest = await app.rest(
        'PATCH',
        `/order/${confirmRest.order.id}`,
        { transactionId: confirmRest.intent.id },
        customerUser.token,
      );
      expect(confirmedRest).toEqual({ status: 409, body: { message: unpayableMessages.order_expired.refunded } });
      for (const { intent } of [confirmGraphql, confirmRest]) {
        expect((await intentRow(intent.id)).refundedAt).toBeInstanceOf(Date);
      }

      // Every one of them expired, its stock back once, nothing paid.
      for (const { part, order } of [cardGraphql, cardRest, confirmGraphql, confirmRest]) {
        expect(await orderRow(app, order.id)).toMatchObject({ status: 'expired', transactionId: null });
        expect((await partRow(app, part.id)).available).toBe(100);
      }
      expect(await sweep()).toBe(0);
    } finally {
      logs.restore();
    }
  });

  it('an expired order may be deleted (no stock moves); deleting it twice is 404', async () => {
    const { part, order } = await unpaidOrder(100, 10);
    await makeDue(order.id);
    await quietly(sweep);
    await services().orders.cancelOrder(customer, order.id);
    expect(await orderRow(app, order.id)).toBeUndefined();
    expect((await partRow(app, part.id)).available).toBe(100);
    await expectAppError(services().orders.cancelOrder(customer, order.id), 'NOT_FOUND');
  });

  it('deleting a customer deletes their expired orders too; only their unpaid ones give stock back', async () => {
    const leaving = await actorOf(app, await signUp(app));
    const part = await addPartAs(app, admin, { price: 1, minOrder: 1, available: 100 });
    const expired = await placeOrderAs(app, leaving, part.id, { orderAmount: 10 });
    const unpaid = await placeOrderAs(app, leaving, part.id, { orderAmount: 20 });
    await makeDue(expired.id);
    await quietly(sweep);
    expect((await partRow(app, part.id)).available).toBe(80);
    await services().users.deleteUser(admin, leaving.userId);
    expect(await orderRow(app, expired.id)).toBeUndefined();
    expect(await orderRow(app, unpaid.id)).toBeUndefined();
    expect((await partRow(app, part.id)).available).toBe(100);
  });

  it('a cancel racing the expiry gives the stock back once', async () => {
    for (let round = 0; round < 6; round++) {
      const { part, order } = await unpaidOrder(100, 10);
      await makeDue(order.id);
      const outcomes = await quietly(() =>
        Promise.allSettled(
          round % 2
            ? [sweep(), services().orders.cancelOrder(customer, order.id)]
            : [services().orders.cancelOrder(customer, order.id), sweep()],
        ),
      );
      for (const o of outcomes) expect(o.status).toBe('fulfilled');
      expect(await orderRow(app, order.id)).toBeUndefined();
      expect((await partRow(app, part.id)).available).toBe(100);
    }
  });

  it('an order short of stock first takes back what due, unswept orders of that part hold', async () => {
    const { part, order } = await unpaidOrder(40, 40);
    const other = await actorOf(app, await signUp(app));
    await expectAppError(placeOrderAs(app, other, part.id, { orderAmount: 5 }), 'BAD_USER_INPUT');
    await makeDue(order.id);
    const placed = await quietly(() => placeOrderAs(app, other, part.id, { orderAmount: 5 }));
    expect(placed.status).toBe('unpaid');
    expect((await orderRow(app, order.id))?.status).toBe('expired');
    expect((await partRow(app, part.id)).available).toBe(35);
  });

  describe('a checkout expires as one: every order in one transaction, one email', () => {
    const contact = { name: 'Rider Two', phone: '01712345678', address: 'Road 7, Dhaka' };
    /** A new customer's checkout of Pads, Chain and Filter, taking all the Pads there are; then time passes. */
    async function dueCheckout() {
      const buyerUser = await signUp(app);
      const buyer = await actorOf(app, buyerUser);
      const shelf = await Promise.all(
        ['Pads', 'Chain', 'Filter'].map((name) =>
          addPartAs(app, admin, { name, price: 2, minOrder: 1, available: 50 }),
        ),
      );
      const lines = shelf.map((p, i) => ({ partId: p.id, orderAmount: i === 0 ? 50 : 5 }));
      const placed = await services().orders.placeCheckout(buyer, contact, lines);
      await makeDue(...placed.map((o) => o.id));
      return { buyer, email: buyerUser.email, shelf, placed };
    }
    /** The checkout's orders: their status, and the transaction that last wrote each (PostgreSQL's xmin). */
    const written = (ids: string[]) =>
      db()
        .select({ status: orders.status, by: sql<string>`${orders}.xmin::text` })
        .from(orders)
        .where(inArray(orders.id, ids));
    const expiredMail = (to: string) =>
      db()
        .select()
        .from(outbox)
        .where(sql`${outbox.kind} = 'order_expired' and ${outbox.toAddress} = ${to}`);

    it('an order of one of its parts, placed after the expiry, expires the whole checkout (then the sweep finds none)', async () => {
      const { email, shelf, placed } = await dueCheckout();
      // The Pads are sold out until the checkout's hold is given back: this order expires what is due of them.
      const other = await actorOf(app, await signUp(app));
      await quietly(() => placeOrderAs(app, other, shelf[0].id, { orderAmount: 5 }));
      expect(await quietly(sweep)).toBe(0);
      const rows = await written(placed.map((o) => o.id));
      expect(rows.map((r) => r.status)).toEqual(['expired', 'expired', 'expired']);
      expect(new Set(rows.map((r) => r.by)).size).toBe(1);
      const mail = await expiredMail(email);
      expect(mail).toHaveLength(1);
      expect(mail[0].subject).toBe('3 of your PartsYard orders expired unpaid');
      for (const line of ['Pads: 50 x', 'Chain: 5 x', 'Filter: 5 x']) expect(mail[0].text).toContain(line);
      expect((await Promise.all(shelf.map((p) => partRow(app, p.id)))).map((p) => p.available)).toEqual([45, 50, 50]);
    });

    it('the payment page finding one of its orders due expires the whole checkout (409)', async () => {
      const { buyer, email, shelf, placed } = await dueCheckout();
      const refused = await quietly(() =>
        expectAppError(services().payments.createPaymentIntent(buyer, placed[1].id), 'CONFLICT'),
      );
      expect(refused.message).toBe(orderExpiredMessage);
      const rows = await written(placed.map((o) => o.id));
      expect(rows.map((r) => r.status)).toEqual(['expired', 'expired', 'expired']);
      expect(new Set(rows.map((r) => r.by)).size).toBe(1);
      expect(await expiredMail(email)).toHaveLength(1);
      for (const p of shelf) expect((await partRow(app, p.id)).available).toBe(50);
    });

    it('a batch limit never cuts a checkout in half: its other orders come with it', async () => {
      const { email, placed } = await dueCheckout();
      const expired = await quietly(() =>
        db().transaction((tx) => expireDueOrdersIn(tx, eq(orders.id, placed[2].id), 1)),
      );
      expect(expired.map((o) => o.id).sort()).toEqual(placed.map((o) => o.id).sort());
      expect(await expiredMail(email)).toHaveLength(1);
    });
  });

  it('admins list expired orders by status (GraphQL and REST ?status=), and a bad status is 400', async () => {
    const { order } = await unpaidOrder();
    await makeDue(order.id);
    await quietly(sweep);
    const adminUser = await signUp(app, { admin: true });
    const listed = await app.gql<{ orders: { items: { id: string; status: string }[] } }>(
      'query { orders(status: EXPIRED, limit: 200) { items { id status } } }',
      {},
      adminUser.token,
    );
    expect(listed.data?.orders.items.map((o) => o.id)).toContain(order.id);
    expect(new Set(listed.data?.orders.items.map((o) => o.status))).toEqual(new Set(['EXPIRED']));
    const unpaid = await app.gql<{ orders: { items: { id: string }[] } }>(
      'query { orders(status: UNPAID, limit: 200) { items { id } } }',
      {},
      adminUser.token,
    );
    expect(unpaid.data?.orders.items.map((o) => o.id)).not.toContain(order.id);
    const rest = await app.rest<{ _id: string; status: string }[]>(
      'GET',
      '/orders?status=expired',
      undefined,
      adminUser.token,
    );
    expect(rest.status).toBe(200);
    expect(rest.body.map((o) => o._id)).toContain(order.id);
    expect(new Set(rest.body.map((o) => o.status))).toEqual(new Set(['expired']));
    const bad = await app.rest('GET', '/orders?status=lost', undefined, adminUser.token);
    expect(bad).toEqual({
      status: 400,
      body: {
        message: 'Must be one of unpaid, paid, shipped, expired, awaiting_approval, declined',
        errors: { status: 'Must be one of unpaid, paid, shipped, expired, awaiting_approval, declined' },
      },
    });
    // Rights come first: a customer asking with a bad status is refused as a customer.
    expect((await app.rest('GET', '/orders?status=lost', undefined, customerUser.token)).status).toBe(403);
  });
});

describe.each(databaseKinds)('the sweep runs by itself, on one replica or ten (%s)', (kind) => {
  const replicas: RunningServer[] = [];
  let app: TestApp | undefined;

  /** A short setting: orders expire 2 s after they are placed; each replica sweeps every second. */
  const settings = {
    orders: { ...generousOrderLimits, unpaidExpiryMs: 2000, unpaidPerCustomer: 1000 },
    sweepIntervalMs: 1000,
  };

  afterEach(async () => {
    for (const replica of replicas.splice(0)) await replica.close();
    await app?.close();
    app = undefined;
  });

  /** Waits until `check` holds, polling; fails after `ms`. */
  async function eventually(check: () => Promise<boolean>, ms: number): Promise<number> {
    const start = Date.now();
    for (;;) {
      if (await check()) return Date.now() - start;
      if (Date.now() - start > ms) throw new Error(`not within ${ms} ms`);
      await new Promise((r) => setTimeout(r, 100));
    }
  }

  it('one replica: the stock of an unpaid order is back within seconds of its expiry, with nothing asked', async () => {
    const logs = captureLogs();
    try {
      const one = await startTestApp(kind, settings);
      app = one;
      const admin = await actorOf(one, await signUp(one, { admin: true }));
      const customer = await actorOf(one, await signUp(one));
      const part = await addPartAs(one, admin, { price: 3, minOrder: 1, available: 50 });
      const order = await placeOrderAs(one, customer, part.id, { orderAmount: 20 });
      expect((await partRow(one, part.id)).available).toBe(30);
      const waited = await eventually(async () => (await partRow(one, part.id)).available === 50, 10_000);
      expect(waited).toBeGreaterThanOrEqual(1000);
      expect((await orderRow(one, order.id))?.status).toBe('expired');
    } finally {
      logs.restore();
    }
  });

  it('ten replicas on one database, each with its timer: every order expires once and the stock adds up', async () => {
    const main = await startTestApp(kind, { ...settings, sweepIntervalMs: null });
    app = main;
    const admin = await actorOf(main, await signUp(main, { admin: true }));
    const customers = await Promise.all([1, 2, 3, 4].map(async () => actorOf(main, await signUp(main))));
    const { database } = main.server;
    const shelf = await Promise.all(
      [1, 2].map(() => addPartAs(main, admin, { price: 1, minOrder: 1, available: 500 })),
    );
    const logs = captureLogs();
    try {
      for (let i = 0; i < 10; i++) {
        // On PostgreSQL each replica has its own pool, as separate processes would; PGlite is one connection
        // in this process, which the replicas share.
        const own: Database =
          main.config.database.kind === 'postgres'
            ? await openDatabase({ ...main.config.database, poolSize: 2 })
            : { ...database, close: async () => undefined };
        replicas.push(
          await startServer(testConfig({ ...settings, database: main.config.database }), { database: own }),
        );
      }
      const placed: string[] = [];
      for (let i = 0; i < 40; i++) {
        placed.push((await placeOrderAs(main, customers[i % 4], shelf[i % 2].id, { orderAmount: 3 })).id);
      }
      await eventually(async () => {
        const rows = await database.db.select({ status: orders.status }).from(orders).where(inArray(orders.id, placed));
        return rows.every((r) => r.status === 'expired');
      }, 20_000);
      // A little longer, for a sweep that would wrongly give stock back a second time.
      await new Promise((r) => setTimeout(r, 1500));
    } finally {
      logs.restore();
    }
    for (const p of shelf) expect(await partRow(main, p.id)).toMatchObject({ available: 500, sold: 0 });
    const expiredLines = logs.events('order_expired');
    expect(expiredLines).toHaveLength(40);
    expect(new Set(expiredLines.map((l) => l.orderId)).size).toBe(40);
  });
});

import { eq, inArray, sql } from 'drizzle-orm';
import { orders, outbox, parts, payments } from '../../src/db/schema';
import { AppError } from '../../src/errors';
import type { Actor } from '../../src/services/actor';
import { unpayableMessages } from '../../src/services/paymentsService';
import { databaseKinds, type DatabaseKind } from '../support/env';
import { addPart, orderInput } from '../support/fixtures';
import { captureLogs } from '../support/logs';
import { startTestApp, type TestApp, type TestUser } from '../support/testApp';
import { deliverWebhook, FakeStripe, stripeSettings } from '../services/fakeStripe';

/**
 * A payment racing the expiry of its order (issue 11), in Stripe mode against the local Stripe-compatible
 * server: the card is charged, and the expiry sweeps (two replicas' worth), the client's confirmation (GraphQL
 * and REST) and Stripe's webhook all arrive at once, around the moment the reservation runs out. On
 * PostgreSQL they run on separate connections at the same time; on PGlite they serialize in any order.
 * Whatever the order, the order ends paid (one payment, no refund, its stock sold) or expired (no payment,
 * refunded exactly once, its stock back exactly once), never both, and no answer is a 5xx.
 */

const title = (kind: DatabaseKind) =>
  kind === 'postgres' ? 'on PostgreSQL (concurrent connections)' : 'on PGlite (one connection: they serialize)';

describe.each(databaseKinds)('a payment racing the expiry of its order %s', (kind) => {
  let fake: FakeStripe;
  let app: TestApp;
  let admin: TestUser;
  let customer: TestUser;

  beforeAll(async () => {
    fake = new FakeStripe();
    await fake.start();
    app = await startTestApp(kind, { stripe: stripeSettings(fake.port) });
    admin = await app.signUp({ admin: true });
    customer = await app.signUp();
  });
  afterAll(async () => {
    await app?.close();
    await fake?.close();
  });

  const db = () => app.server.database.db;

  /** An unpaid order of 10 units of a new part with 100, its Stripe intent charged (the client then waits). */
  async function chargedOrder() {
    const partId = await addPart(app, admin.token, { price: 3.25, minOrder: 1, available: 100 });
    const placed = await app.gql<{ placeOrder: { id: string } }>(
      'mutation($input: PlaceOrderInput!) { placeOrder(input: $input) { id } }',
      { input: orderInput(partId, { orderAmount: 10 }) },
      customer.token,
    );
    const orderId = placed.data?.placeOrder.id ?? '';
    const intent = await app.gql<{ createPaymentIntent: { id: string } }>(
      'mutation($orderId: ID!) { createPaymentIntent(orderId: $orderId) { id } }',
      { orderId },
      customer.token,
    );
    const intentId = intent.data?.createPaymentIntent.id ?? '';
    fake.succeed(intentId);
    return { partId, orderId, intentId };
  }

  const confirmGraphql = (orderId: string, intentId: string) =>
    app
      .gql<{ confirmPayment: { status: string } }>(
        'mutation($orderId: ID!, $intentId: ID!) { confirmPayment(orderId: $orderId, paymentIntentId: $intentId) { status } }',
        { orderId, intentId },
        customer.token,
      )
      .then((r) => ({
        status: r.status,
        paid: r.data?.confirmPayment.status === 'PAID',
        message: r.errors?.[0].message,
      }));
  const confirmRest = (orderId: string, intentId: string) =>
    app
      .rest<{ message?: string }>('PATCH', `/order/${orderId}`, { transactionId: intentId }, customer.token)
      .then((r) => ({ status: r.status, paid: r.status === 200, message: r.body.message }));
  const sweep = () => app.server.services.orders.expireDueOrders().then(() => ({ status: 200 }));

  it(`ends paid or expired, never both: stock back once, a losing charge refunded once (${title(kind)})`, async () => {
    const outcomes = { paid: 0, expired: 0 };
    const logs = captureLogs();
    try {
      for (let round = 0; round < 24; round++) {
        const { partId, orderId, intentId } = await chargedOrder();
        // Due a moment ago, due right about now, or not due for a while: every outcome gets its turn.
        const offsetMs = [-1000, 0, 3, 10, 60_000][round % 5];
        await db()
          .update(orders)
          .set({ expiresAt: sql`now() + make_interval(secs => ${offsetMs / 1000})` })
          .where(eq(orders.id, orderId));
        const racers = [
          () => sweep(),
          () => confirmGraphql(orderId, intentId),
          () => deliverWebhook(app, fake.intents.get(intentId)),
          () => sweep(),
          () => confirmRest(orderId, intentId),
        ];
        const shift = round % racers.length;
        const answers = await Promise.all([...racers.slice(shift), ...racers.slice(0, shift)].map((race) => race()));
        for (const answer of answers) expect(answer.status).toBeLessThan(500);

        const [order] = await db().select().from(orders).where(eq(orders.id, orderId));
        const recorded = await db().select().from(payments).where(eq(payments.orderId, orderId));
        const [part] = await db().select().from(parts).where(eq(parts.id, partId));
        const refunds = fake.refundsOf(intentId);
        if (order.status === 'paid') {
          outcomes.paid += 1;
          expect(recorded).toHaveLength(1);
          expect(refunds).toEqual([]);
          expect(part).toMatchObject({ available: 90, sold: 10 });
        } else {
          outcomes.expired += 1;
          expect(order).toMatchObject({ status: 'expired', transactionId: null });
          expect(recorded).toEqual([]);
          expect(refunds).toHaveLength(1);
          expect(part).toMatchObject({ available: 100, sold: 0 });
          const refused = answers.filter((a): a is { status: number; paid: boolean; message: string } =>
            Boolean('message' in a && a.message),
          );
          for (const a of refused) {
            expect([
              unpayableMessages.order_expired.refunded,
              'This order expired before it was paid and its items went back on sale: place a new order',
            ]).toContain(a.message);
          }
        }
        // Nothing is left for a later sweep to change.
        await app.server.services.orders.expireDueOrders();
        expect((await db().select().from(parts).where(eq(parts.id, partId)))[0].available).toBe(part.available);
      }
    } finally {
      logs.restore();
    }
    expect(outcomes.paid + outcomes.expired).toBe(24);
    expect(outcomes.paid).toBeGreaterThan(0);
    expect(outcomes.expired).toBeGreaterThan(0);
    // One line per expired order, however many sweeps ran.
    const expiredLines = logs.events('order_expired');
    expect(new Set(expiredLines.map((l) => l.orderId)).size).toBe(expiredLines.length);
    expect(expiredLines).toHaveLength(outcomes.expired);
  });
});

/**
 * A checkout expires as one (issue 32): its lines due at about the same moment, while two sweeps, orders of each
 * of its parts (sold out by it, so each asks for that part's due orders first) and its payment page race. Every
 * round the checkout ends with all its orders expired by one transaction and one "expired" email.
 */
describe.each(databaseKinds)('a checkout racing its expiry %s', (kind) => {
  let app: TestApp;
  let admin: TestUser;
  let otherActor: Actor;

  beforeAll(async () => {
    app = await startTestApp(kind);
    admin = await app.signUp({ admin: true });
    otherActor = await actorOf(await app.signUp());
  });
  afterAll(() => app?.close());

  const db = () => app.server.database.db;
  const actorOf = async (user: TestUser) => {
    const actor = await app.server.services.users.actorFor(user.userId, user.firebaseUid);
    if (!actor) throw new Error('no actor');
    return actor;
  };
  const contact = { name: 'Rider One', phone: '01712345678', address: 'Road 5, Dhaka' };

  it(`expires every order of the checkout in one transaction, with one email (${title(kind)})`, async () => {
    const logs = captureLogs();
    try {
      for (let round = 0; round < 12; round++) {
        const buyer = await app.signUp();
        const buyerActor = await actorOf(buyer);
        const shelf = await Promise.all(
          [0, 1, 2].map(() => addPart(app, admin.token, { price: 2, minOrder: 1, available: 20 })),
        );
        const placed = await app.server.services.orders.placeCheckout(
          buyerActor,
          contact,
          shelf.map((partId) => ({ partId, orderAmount: 20 })),
        );
        const ids = placed.map((o) => o.id);
        const offsetMs = [-1000, 0, 8][round % 3];
        await db()
          .update(orders)
          .set({ expiresAt: sql`now() + make_interval(secs => ${offsetMs / 1000})` })
          .where(inArray(orders.id, ids));
        const { orders: ordersService, payments: paymentsService } = app.server.services;
        // Called on the services, not over HTTP, so that none of them has a head start on the others.
        const racers: (() => Promise<unknown>)[] = [
          () => ordersService.expireDueOrders(),
          ...shelf.map((partId) => () => ordersService.placeOrder(otherActor, orderInput(partId, { orderAmount: 1 }))),
          () => ordersService.expireDueOrders(),
          () => paymentsService.createPaymentIntent(buyerActor, ids[1]),
        ];
        // Staggered starts, a few milliseconds apart, in an order that turns each round: each goes first in turn.
        const startAfter = (i: number) => ((i + round) % racers.length) * 4;
        // Refusals are answers (409 expired, 400 sold out); anything else fails the test.
        const answers = await Promise.all(
          racers.map((race, i) =>
            new Promise((r) => setTimeout(r, startAfter(i)))
              .then(() => race())
              .then(
                () => 'ok',
                (error: unknown) => {
                  if (error instanceof AppError) return error.code;
                  throw error;
                },
              ),
          ),
        );
        for (const answer of answers) expect(['ok', 'CONFLICT', 'BAD_USER_INPUT']).toContain(answer);
        // Whatever was not due during the race is by now, and the sweep takes it.
        await new Promise((r) => setTimeout(r, 20));
        await app.server.services.orders.expireDueOrders();

        const rows = await db()
          .select({ status: orders.status, by: sql<string>`${orders}.xmin::text` })
          .from(orders)
          .where(inArray(orders.id, ids));
        expect(rows.map((r) => r.status)).toEqual(['expired', 'expired', 'expired']);
        expect(new Set(rows.map((r) => r.by)).size).toBe(1);
        const mail = await db()
          .select()
          .from(outbox)
          .where(sql`${outbox.kind} = 'order_expired' and ${outbox.toAddress} = ${buyer.email}`);
        expect(mail).toHaveLength(1);
        expect(mail[0].subject).toBe('3 of your PartsYard orders expired unpaid');
        // Each part's stock came back once: what is not on sale is held by the other customer's orders.
        for (const partId of shelf) {
          const [part] = await db().select().from(parts).where(eq(parts.id, partId));
          const held = await db()
            .select({ amount: orders.orderAmount })
            .from(orders)
            .where(sql`${orders.partId} = ${partId} and ${orders.status} = 'unpaid'`);
          expect(part.available + held.reduce((sum, o) => sum + o.amount, 0)).toBe(20);
        }
      }
    } finally {
      logs.restore();
    }
  });
});

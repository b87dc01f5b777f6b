import { eq, sql } from 'drizzle-orm';
import { orders, parts, payments } from '../../src/db/schema';
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

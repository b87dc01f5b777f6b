import { eq, inArray, sql } from 'drizzle-orm';
import { gatewayIntents, orders, testPaymentIntents } from '../../src/db/schema';
import type { Actor } from '../../src/services/actor';
import { databaseKinds } from '../support/env';
import { captureLogs } from '../support/logs';
import { startTestApp, type TestApp } from '../support/testApp';
import { deliverWebhook, FakeStripe, stripeSettings } from './fakeStripe';
import { actorOf, addPartAs, orderRow, partRow, paymentsOfOrder, placeOrderAs, signUp, testCard } from './helpers';

/**
 * Reconciliation (issue 11): the shop records every intent it creates (`gateway_intents`), and a sweep asks
 * the gateway about the open ones that are due: a charge whose payer never came back to confirm is recorded
 * (its order can still be paid) or refunded (it expired, was cancelled or paid otherwise); an intent never
 * charged whose order can no longer be paid is cancelled at the gateway. Every money event is one structured
 * log line with the order and the amounts, never a card or a secret.
 */

/** A sweep as the timer runs it once time has passed for these intents (due now), its log lines captured. */
async function reconcileNow(app: TestApp, ...intentIds: string[]) {
  if (intentIds.length) {
    await app.server.database.db
      .update(gatewayIntents)
      .set({ nextCheckAt: sql`now()` })
      .where(inArray(gatewayIntents.id, intentIds));
  }
  const logs = captureLogs();
  try {
    return { outcome: await app.server.services.payments.reconcile(), logs };
  } finally {
    logs.restore();
  }
}

const ledgerRow = async (app: TestApp, intentId: string) =>
  (await app.server.database.db.select().from(gatewayIntents).where(eq(gatewayIntents.id, intentId)))[0];

const expireNow = async (app: TestApp, orderId: string) => {
  await app.server.database.db
    .update(orders)
    .set({ expiresAt: sql`now() - interval '1 second'` })
    .where(eq(orders.id, orderId));
  const logs = captureLogs();
  try {
    await app.server.services.orders.expireDueOrders();
  } finally {
    logs.restore();
  }
};

describe.each(databaseKinds)('reconciliation on the test gateway (%s)', (kind) => {
  let app: TestApp;
  let admin: Actor;
  let customer: Actor;

  beforeAll(async () => {
    app = await startTestApp(kind);
    admin = await actorOf(app, await signUp(app, { admin: true }));
    customer = await actorOf(app, await signUp(app));
  });
  afterAll(() => app?.close());

  const payments_ = () => app.server.services.payments;
  /** 5 units at $7.00: an order of $35.00 and its intent. */
  async function orderWithIntent() {
    const part = await addPartAs(app, admin, { price: 7, minOrder: 1, available: 100 });
    const order = await placeOrderAs(app, customer, part.id, { orderAmount: 5 });
    const intent = await payments_().createPaymentIntent(customer, order.id);
    return { part, order, intent };
  }
  const testIntent = async (id: string) =>
    (await app.server.database.db.select().from(testPaymentIntents).where(eq(testPaymentIntents.id, id)))[0];

  it('every intent created is noted open, first due a minute later', async () => {
    const { order, intent } = await orderWithIntent();
    const row = await ledgerRow(app, intent.id);
    expect(row).toMatchObject({ orderId: order.id, gateway: 'test', amountCents: 3500, status: 'open', checks: 0 });
    expect(row.nextCheckAt.getTime() - row.createdAt.getTime()).toBeGreaterThanOrEqual(59_000);
    // Not due yet: the sweep leaves it alone.
    expect(await payments_().reconcile()).toEqual({ checked: 0, recorded: 0, refunded: 0, canceled: 0 });
  });

  it('a card charged whose payer never confirmed (the client died): the sweep records the payment', async () => {
    const { order, intent } = await orderWithIntent();
    await payments_().payWithTestCard(customer, intent.id, testCard());
    expect((await orderRow(app, order.id))?.status).toBe('unpaid');
    const { outcome, logs } = await reconcileNow(app, intent.id);
    expect(outcome).toMatchObject({ checked: 1, recorded: 1 });
    expect(await orderRow(app, order.id)).toMatchObject({ status: 'paid', transactionId: intent.id });
    expect(await paymentsOfOrder(app, order.id)).toEqual([expect.objectContaining({ amountCents: 3500 })]);
    expect(await ledgerRow(app, intent.id)).toMatchObject({ status: 'recorded' });
    expect(logs.events('payment_recorded')).toEqual([
      expect.objectContaining({
        orderId: order.id,
        paymentIntentId: intent.id,
        amountCents: 3500,
        via: 'reconciliation',
      }),
    ]);
    // The payer comes back after all: the same payment, nothing new.
    expect(await payments_().confirmPaymentOutcome(customer, order.id, intent.id)).toMatchObject({ recorded: false });
    expect((await reconcileNow(app, intent.id)).outcome.checked).toBe(0);
  });

  it('a card charged for an order that expired before anyone confirmed: refunded once by the sweep', async () => {
    const { part, order, intent } = await orderWithIntent();
    await payments_().payWithTestCard(customer, intent.id, testCard());
    await expireNow(app, order.id);
    expect((await partRow(app, part.id)).available).toBe(100);
    // The expiry made its intent due at once.
    const { outcome, logs } = await reconcileNow(app);
    expect(outcome).toMatchObject({ checked: 1, refunded: 1 });
    expect((await testIntent(intent.id)).refundedAt).toBeInstanceOf(Date);
    expect(await ledgerRow(app, intent.id)).toMatchObject({ status: 'refunded' });
    expect(logs.events('payment_refunded')).toEqual([
      expect.objectContaining({ orderId: order.id, amountCents: 3500, reason: 'order_expired', via: 'reconciliation' }),
    ]);
    expect(await orderRow(app, order.id)).toMatchObject({ status: 'expired', transactionId: null });
    expect((await reconcileNow(app, intent.id)).outcome.checked).toBe(0);
  });

  it('an intent never charged whose order expired (or was cancelled) is cancelled at the gateway', async () => {
    const expired = await orderWithIntent();
    const cancelled = await orderWithIntent();
    await expireNow(app, expired.order.id);
    await app.server.services.orders.cancelOrder(customer, cancelled.order.id);
    // The expiry and the cancel made their intents due at once.
    const { outcome } = await reconcileNow(app);
    expect(outcome).toMatchObject({ checked: 2, canceled: 2 });
    for (const { intent } of [expired, cancelled]) {
      expect((await testIntent(intent.id)).status).toBe('canceled');
      expect(await ledgerRow(app, intent.id)).toMatchObject({ status: 'canceled' });
    }
  });

  it('an open intent of an order still unpaid stays open, asked again within five minutes or at the expiry', async () => {
    const { order, intent } = await orderWithIntent();
    const { outcome } = await reconcileNow(app, intent.id);
    expect(outcome).toMatchObject({ checked: 1, recorded: 0, refunded: 0, canceled: 0 });
    const row = await ledgerRow(app, intent.id);
    expect(row.status).toBe('open');
    expect(row.checks).toBe(1);
    expect(row.nextCheckAt.getTime()).toBeLessThanOrEqual(
      Math.min(Date.now() + 5 * 60_000 + 1000, order.expiresAt.getTime()),
    );
    expect((await testIntent(intent.id)).status).toBe('requires_payment_method');
  });

  it('two sweeps at once (two replicas) ask about each intent once', async () => {
    const charged = await Promise.all([1, 2, 3, 4, 5, 6].map(() => orderWithIntent()));
    for (const { intent } of charged) await payments_().payWithTestCard(customer, intent.id, testCard());
    await app.server.database.db
      .update(gatewayIntents)
      .set({ nextCheckAt: sql`now()` })
      .where(
        inArray(
          gatewayIntents.id,
          charged.map((c) => c.intent.id),
        ),
      );
    const logs = captureLogs();
    let outcomes;
    try {
      outcomes = await Promise.all([payments_().reconcile(), payments_().reconcile(), payments_().reconcile()]);
    } finally {
      logs.restore();
    }
    expect(outcomes.reduce((sum, o) => sum + o.recorded, 0)).toBe(6);
    expect(outcomes.reduce((sum, o) => sum + o.checked, 0)).toBe(6);
    const rows = await app.server.database.db
      .select()
      .from(gatewayIntents)
      .where(
        inArray(
          gatewayIntents.id,
          charged.map((c) => c.intent.id),
        ),
      );
    for (const row of rows) expect(row).toMatchObject({ status: 'recorded', checks: 1 });
    expect(logs.events('payment_recorded')).toHaveLength(6);
  });

  it('one log line per money event, with order id and amounts, and never a card, a client secret or a key', async () => {
    const logs = captureLogs();
    let order, intent;
    try {
      ({ order, intent } = await orderWithIntent());
      // Asked again, the open intent is handed again: nothing is created or logged (issue 32).
      expect((await payments_().createPaymentIntent(customer, order.id)).id).toBe(intent.id);
      await payments_().payWithTestCard(customer, intent.id, testCard('4000 0000 0000 0002')); // declined
      await payments_().payWithTestCard(customer, intent.id, testCard());
      await payments_().payWithTestCard(customer, intent.id, testCard());
      await payments_().confirmPayment(customer, order.id, intent.id);
      await payments_().confirmPayment(customer, order.id, intent.id);
    } finally {
      logs.restore();
    }
    const mine = logs.events().filter((l) => l.orderId === order.id);
    expect(mine.map((l) => l.event)).toEqual(['payment_intent_created', 'payment_succeeded', 'payment_recorded']);
    for (const line of mine) {
      expect(line).toMatchObject({ orderId: order.id, amountCents: 3500, currency: 'usd', gateway: 'test' });
      expect(typeof line.paymentIntentId).toBe('string');
    }
    expect(mine[0]).toMatchObject({ paymentIntentId: intent.id, orderTotalCents: 3500 });
    expect(mine[1]).toMatchObject({ paymentIntentId: intent.id, via: 'test card' });
    expect(mine[2]).toMatchObject({ paymentIntentId: intent.id, orderTotalCents: 3500, via: 'confirmation' });
    const written = logs.raw.join('\n');
    expect(written).not.toContain(intent.clientSecret);
    expect(written).not.toMatch(/_secret_/);
    expect(written).not.toMatch(/4242\s?4242|4000\s?0000/);
    expect(written).not.toMatch(/"cvc"|"number"/);
  });
});

describe.each(databaseKinds)('reconciliation with Stripe (a local Stripe-compatible API, %s)', (kind) => {
  let fake: FakeStripe;
  let app: TestApp;
  let admin: Actor;
  let customer: Actor;

  beforeAll(async () => {
    fake = new FakeStripe();
    await fake.start();
    app = await startTestApp(kind, { stripe: stripeSettings(fake.port) });
    admin = await actorOf(app, await signUp(app, { admin: true }));
    customer = await actorOf(app, await signUp(app));
  });
  afterAll(async () => {
    await app?.close();
    await fake?.close();
  });

  const payments_ = () => app.server.services.payments;
  /** 2 units at $45.50 = $91.00, and its Stripe intent. */
  async function orderWithIntent() {
    const part = await addPartAs(app, admin, { price: 45.5, minOrder: 1, available: 50 });
    const order = await placeOrderAs(app, customer, part.id, { orderAmount: 2 });
    const intent = await payments_().createPaymentIntent(customer, order.id);
    return { part, order, intent };
  }

  it('charged at Stripe, never confirmed and no webhook: the sweep retrieves it and records the payment', async () => {
    const { order, intent } = await orderWithIntent();
    fake.succeed(intent.id);
    const { outcome, logs } = await reconcileNow(app, intent.id);
    expect(outcome).toMatchObject({ checked: 1, recorded: 1 });
    expect(await orderRow(app, order.id)).toMatchObject({ status: 'paid', transactionId: intent.id });
    expect(await paymentsOfOrder(app, order.id)).toEqual([
      expect.objectContaining({ amountCents: 9100, gateway: 'stripe' }),
    ]);
    expect(logs.events().map((l) => l.event)).toEqual(['payment_succeeded', 'payment_recorded']);
    // The webhook arriving late, and replayed: acknowledged, and it does not claim to record anything.
    expect((await deliverWebhook(app, fake.intents.get(intent.id))).body).toEqual({ received: true, recorded: false });
    expect(await paymentsOfOrder(app, order.id)).toHaveLength(1);
  });

  it('charged at Stripe for an order that expired: refunded at Stripe once, however the news arrives', async () => {
    const { order, intent } = await orderWithIntent();
    const charged = fake.succeed(intent.id);
    await expireNow(app, order.id);
    const { outcome, logs } = await reconcileNow(app);
    expect(outcome).toMatchObject({ checked: 1, refunded: 1 });
    const webhook = await deliverWebhook(app, charged);
    expect(webhook.body).toEqual({ received: true, recorded: false, refunded: true });
    expect(fake.refundsOf(intent.id)).toEqual([
      expect.objectContaining({ amount: 9100, reason: 'requested_by_customer', metadata: { reason: 'order_expired' } }),
    ]);
    expect(logs.events('payment_refunded')).toHaveLength(1);
    expect((await orderRow(app, order.id))?.status).toBe('expired');
  });

  it('charged at Stripe for another amount, never confirmed: the sweep refunds it and logs it as mismatched', async () => {
    const { order, intent } = await orderWithIntent();
    fake.succeed(intent.id, { amount: 100 });
    const { outcome, logs } = await reconcileNow(app, intent.id);
    expect(outcome).toMatchObject({ checked: 1, recorded: 0, refunded: 1 });
    expect(fake.refundsOf(intent.id)).toEqual([
      expect.objectContaining({ amount: 100, metadata: { reason: 'amount_mismatch' } }),
    ]);
    expect(logs.events('payment_mismatched')).toEqual([
      expect.objectContaining({
        level: 'error',
        orderId: order.id,
        paymentIntentId: intent.id,
        amountCents: 100,
        orderTotalCents: 9100,
        via: 'reconciliation',
      }),
    ]);
    expect(logs.events('payment_refunded')).toEqual([
      expect.objectContaining({
        orderId: order.id,
        amountCents: 100,
        reason: 'amount_mismatch',
        via: 'reconciliation',
      }),
    ]);
    expect(await ledgerRow(app, intent.id)).toMatchObject({ status: 'refunded', succeededAt: expect.any(Date) });
    expect((await orderRow(app, order.id))?.status).toBe('unpaid');
    expect(await paymentsOfOrder(app, order.id)).toEqual([]);
    expect((await reconcileNow(app, intent.id)).outcome.checked).toBe(0);
  });

  it('never charged and its order expired: cancelled at Stripe, so it can no longer be paid', async () => {
    const { order, intent } = await orderWithIntent();
    await expireNow(app, order.id);
    const { outcome } = await reconcileNow(app);
    expect(outcome).toMatchObject({ checked: 1, canceled: 1 });
    expect(fake.intents.get(intent.id)?.status).toBe('canceled');
    expect(fake.requestsFor('POST', `/v1/payment_intents/${intent.id}/cancel`)).toHaveLength(1);
    expect(await ledgerRow(app, intent.id)).toMatchObject({ status: 'canceled' });
  });

  it('a refund Stripe fails stays open and is retried by the next sweep until it goes through', async () => {
    const { order, intent } = await orderWithIntent();
    fake.succeed(intent.id);
    await app.server.services.orders.cancelOrder(customer, order.id);
    fake.refundsFail = true;
    try {
      const failed = await reconcileNow(app);
      expect(failed.outcome).toMatchObject({ checked: 1, refunded: 0 });
      expect(failed.logs.events('payment_refund_failed')).toEqual([
        expect.objectContaining({ level: 'error', orderId: order.id, paymentIntentId: intent.id, amountCents: 9100 }),
      ]);
      expect(await ledgerRow(app, intent.id)).toMatchObject({ status: 'open' });
    } finally {
      fake.refundsFail = false;
    }
    const retried = await reconcileNow(app, intent.id);
    expect(retried.outcome).toMatchObject({ refunded: 1 });
    expect(fake.refundsOf(intent.id)).toHaveLength(1);
    expect(await ledgerRow(app, intent.id)).toMatchObject({ status: 'refunded' });
  });

  it('Stripe failing: the sweep logs a warning, changes nothing, and the intent is asked again after its lease', async () => {
    const { order, intent } = await orderWithIntent();
    fake.succeed(intent.id);
    fake.down = true;
    try {
      const failed = await reconcileNow(app, intent.id);
      expect(failed.outcome).toMatchObject({ checked: 1, recorded: 0 });
      expect(failed.logs.lines).toContainEqual(
        expect.objectContaining({ level: 'warn', paymentIntentId: intent.id, orderId: order.id }),
      );
      const row = await ledgerRow(app, intent.id);
      expect(row.status).toBe('open');
      expect(row.nextCheckAt.getTime()).toBeGreaterThan(Date.now() + 60_000);
      expect((await orderRow(app, order.id))?.status).toBe('unpaid');
    } finally {
      fake.down = false;
    }
    expect((await reconcileNow(app, intent.id)).outcome).toMatchObject({ checked: 1, recorded: 1 });
  });
});

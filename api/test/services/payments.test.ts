import { eq } from 'drizzle-orm';
import { gatewayIntents, payments, testPaymentIntents } from '../../src/db/schema';
import type { GatewayIntent } from '../../src/payments/paymentGateway';
import { createStripeGateway, shopTagOf } from '../../src/payments/stripeGateway';
import { notATestCard, passesLuhn, testCardDecision } from '../../src/payments/testCards';
import type { Actor } from '../../src/services/actor';
import { unpayableMessages } from '../../src/services/paymentsService';
import { databaseKinds } from '../support/env';
import { captureLogs } from '../support/logs';
import { startTestApp, type TestApp, type TestUser } from '../support/testApp';
import { deliverWebhook, FakeStripe, stripeSettings } from './fakeStripe';
import {
  actorOf,
  addPartAs,
  anotherTestIntent,
  expectAppError,
  orderRow,
  paymentsOfOrder,
  placeOrderAs,
  signUp,
  testCard,
} from './helpers';

const now = new Date('2026-03-15T12:00:00Z');

const card = (number: string, overrides: Partial<{ expMonth: number; expYear: number; cvc: string }> = {}) => ({
  number,
  expMonth: 12,
  expYear: 2028,
  cvc: '123',
  ...overrides,
});

describe('the test gateway answers like Stripe for its test cards', () => {
  it.each(['4242 4242 4242 4242', '4242424242424242', '4242-4242-4242-4242', '5555 5555 5555 4444'])(
    '%s succeeds',
    (number) => {
      expect(testCardDecision(card(number), now)).toBeNull();
    },
  );

  it.each([
    ['4000 0000 0000 0002', 'Your card was declined.'],
    ['4000 0000 0000 9995', 'Your card has insufficient funds.'],
    ['4000 0000 0000 0069', 'Your card has expired.'],
    ['4000 0000 0000 0127', "Your card's security code is incorrect."],
  ])('%s is refused with "%s"', (number, message) => {
    expect(testCardDecision(card(number), now)).toBe(message);
  });

  it.each(['4242 4242 4242 4241', '4000 0000 0000 0001', '1234 5678 9012 3456', 'abcd', '', '4242'])(
    "'%s' (failing the Luhn check or not a card number) is 'Your card number is invalid.'",
    (number) => {
      expect(testCardDecision(card(number), now)).toBe('Your card number is invalid.');
    },
  );

  it.each(['4111 1111 1111 1111', '4012 8888 8888 1881', '5500 0000 0000 0004'])(
    '%s passes the Luhn check but is refused as not a test card',
    (number) => {
      expect(passesLuhn(number.replace(/ /g, ''))).toBe(true);
      expect(testCardDecision(card(number), now)).toBe(notATestCard);
      expect(notATestCard).toMatch(/test mode/);
    },
  );

  it('refuses an expiry date in the past, and accepts this month', () => {
    expect(testCardDecision(card('4242424242424242', { expMonth: 2, expYear: 2026 }), now)).toBe(
      "Your card's expiration date is in the past.",
    );
    expect(testCardDecision(card('4242424242424242', { expMonth: 3, expYear: 2026 }), now)).toBeNull();
    expect(testCardDecision(card('4242424242424242', { expMonth: 12, expYear: 25 }), now)).toBe(
      "Your card's expiration date is in the past.",
    );
  });

  it('refuses an impossible expiry month and a missing security code', () => {
    expect(testCardDecision(card('4242424242424242', { expMonth: 13 }), now)).toBe(
      "Your card's expiration month is invalid.",
    );
    expect(testCardDecision(card('4242424242424242', { cvc: '12' }), now)).toBe(
      "Your card's security code is incomplete.",
    );
  });
});

describe.each(databaseKinds)('paying an order on the test gateway (%s)', (kind) => {
  let app: TestApp;
  let admin: Actor;
  let customerUser: TestUser;
  let customer: Actor;
  let stranger: Actor;

  beforeAll(async () => {
    app = await startTestApp(kind);
    admin = await actorOf(app, await signUp(app, { admin: true }));
    customerUser = await signUp(app);
    customer = await actorOf(app, customerUser);
    stranger = await actorOf(app, await signUp(app));
  });
  afterAll(() => app?.close());

  const payments_ = () => app.server.services.payments;

  /** A fresh unpaid order of the customer: 4 units at $12.50 = $50.00. */
  async function newOrder(owner: Actor = customer) {
    const part = await addPartAs(app, admin, { price: 12.5, minOrder: 1, available: 100 });
    return placeOrderAs(app, owner, part.id, { orderAmount: 4 });
  }

  it("creates an intent for the order's total, in cents, for that order", async () => {
    const order = await newOrder();
    const intent = await payments_().createPaymentIntent(customer, order.id);
    expect(intent).toMatchObject({
      amountCents: 5000,
      currency: 'usd',
      orderId: order.id,
      status: 'requires_payment_method',
    });
    expect(intent.id).toMatch(/^pi_test_/);
    expect(intent.clientSecret).toMatch(new RegExp(`^${intent.id}_secret_`));
    const viaGraphql = await app.gql<{ createPaymentIntent: { amount: number; currency: string } }>(
      'mutation($orderId: ID!) { createPaymentIntent(orderId: $orderId) { amount currency } }',
      { orderId: order.id },
      customerUser.token,
    );
    expect(viaGraphql.data?.createPaymentIntent).toEqual({ amount: 50, currency: 'usd' });
  });

  it('confirming before the card is charged is BAD_USER_INPUT and the order stays unpaid', async () => {
    const order = await newOrder();
    const intent = await payments_().createPaymentIntent(customer, order.id);
    const result = await app.gql(
      'mutation($orderId: ID!, $intentId: ID!) { confirmPayment(orderId: $orderId, paymentIntentId: $intentId) { status } }',
      { orderId: order.id, intentId: intent.id },
      customerUser.token,
    );
    expect(result.errors?.[0].extensions?.code).toBe('BAD_USER_INPUT');
    expect((await orderRow(app, order.id))?.status).toBe('unpaid');
    expect(await paymentsOfOrder(app, order.id)).toHaveLength(0);
  });

  it('a declined card reports Stripe’s message and confirming afterwards is refused', async () => {
    const order = await newOrder();
    const intent = await payments_().createPaymentIntent(customer, order.id);
    const outcome = await payments_().payWithTestCard(customer, intent.id, testCard('4000 0000 0000 0002'));
    expect(outcome).toEqual({ succeeded: false, paymentIntentId: intent.id, error: 'Your card was declined.' });
    await expectAppError(payments_().confirmPayment(customer, order.id, intent.id), 'BAD_USER_INPUT');
    expect((await orderRow(app, order.id))?.status).toBe('unpaid');
  });

  it('a succeeded card payment, once confirmed, marks the order paid with the intent as its transaction id', async () => {
    const order = await newOrder();
    const intent = await payments_().createPaymentIntent(customer, order.id);
    expect((await payments_().payWithTestCard(customer, intent.id, testCard())).succeeded).toBe(true);
    // Paying alone does not mark the order: the server only trusts its own check of the intent.
    expect((await orderRow(app, order.id))?.status).toBe('unpaid');
    const paid = await payments_().confirmPayment(customer, order.id, intent.id);
    expect(paid).toMatchObject({ status: 'paid', transactionId: intent.id });
    const [payment] = await paymentsOfOrder(app, order.id);
    expect(payment).toMatchObject({
      transactionId: intent.id,
      amountCents: 5000,
      email: customer.email,
      userId: customer.userId,
      gateway: 'test',
    });
    const mine = await payments_().myPayments(customer);
    expect(mine.map((p) => p.transactionId)).toContain(intent.id);
  });

  it('a paid order is not charged again through another of its intents (409, that card not charged); its own answers as before', async () => {
    const order = await newOrder();
    const paidWith = await payments_().createPaymentIntent(customer, order.id);
    const another = await anotherTestIntent(app, order);
    await payments_().payWithTestCard(customer, paidWith.id, testCard());
    await payments_().confirmPayment(customer, order.id, paidWith.id);
    const refused = await expectAppError(payments_().payWithTestCard(customer, another.id, testCard()), 'CONFLICT');
    expect(refused.message).toBe('This order is already paid');
    const intentRow = async (id: string) =>
      (await app.server.database.db.select().from(testPaymentIntents).where(eq(testPaymentIntents.id, id)))[0];
    expect((await intentRow(another.id)).status).toBe('requires_payment_method');
    expect((await payments_().payWithTestCard(customer, paidWith.id, testCard())).succeeded).toBe(true);
    expect((await paymentsOfOrder(app, order.id)).map((p) => p.transactionId)).toEqual([paidWith.id]);
  });

  it('the succeeded intent of another order does not pay this order', async () => {
    const order = await newOrder();
    const otherOrder = await newOrder();
    const otherIntent = await payments_().createPaymentIntent(customer, otherOrder.id);
    await payments_().payWithTestCard(customer, otherIntent.id, testCard());
    const refused = await expectAppError(
      payments_().confirmPayment(customer, order.id, otherIntent.id),
      'BAD_USER_INPUT',
    );
    expect(refused.fields).toEqual({ paymentIntentId: 'The payment is not for this order' });
    expect((await orderRow(app, order.id))?.status).toBe('unpaid');
    // The intent still pays the order it was made for.
    await expect(payments_().confirmPayment(customer, otherOrder.id, otherIntent.id)).resolves.toMatchObject({
      status: 'paid',
    });
  });

  it('an unknown intent id is refused', async () => {
    const order = await newOrder();
    await expectAppError(payments_().confirmPayment(customer, order.id, 'pi_test_nope'), 'BAD_USER_INPUT');
    await expectAppError(payments_().confirmPayment(customer, order.id, 'x'.repeat(300)), 'BAD_USER_INPUT');
  });

  it('nobody but the owner may create an intent for, pay or confirm an order (admins included)', async () => {
    const order = await newOrder();
    await expectAppError(payments_().createPaymentIntent(stranger, order.id), 'FORBIDDEN');
    await expectAppError(payments_().createPaymentIntent(admin, order.id), 'FORBIDDEN');
    await expectAppError(payments_().createPaymentIntent(null, order.id), 'UNAUTHENTICATED');
    const intent = await payments_().createPaymentIntent(customer, order.id);
    await expectAppError(payments_().payWithTestCard(stranger, intent.id, testCard()), 'FORBIDDEN');
    await payments_().payWithTestCard(customer, intent.id, testCard());
    await expectAppError(payments_().confirmPayment(stranger, order.id, intent.id), 'FORBIDDEN');
    expect((await orderRow(app, order.id))?.status).toBe('unpaid');
  });

  it('confirming twice records one payment row', async () => {
    const order = await newOrder();
    const intent = await payments_().createPaymentIntent(customer, order.id);
    await payments_().payWithTestCard(customer, intent.id, testCard());
    const first = await payments_().confirmPayment(customer, order.id, intent.id);
    const second = await payments_().confirmPayment(customer, order.id, intent.id);
    expect(second).toMatchObject({ status: 'paid', transactionId: intent.id });
    expect(second.paidAt).toEqual(first.paidAt);
    expect(await paymentsOfOrder(app, order.id)).toHaveLength(1);
  });

  it('confirming many times at once records one payment row', async () => {
    const order = await newOrder();
    const intent = await payments_().createPaymentIntent(customer, order.id);
    await payments_().payWithTestCard(customer, intent.id, testCard());
    const results = await Promise.allSettled(
      Array.from({ length: 8 }, () => payments_().confirmPayment(customer, order.id, intent.id)),
    );
    for (const r of results) expect(r).toMatchObject({ status: 'fulfilled', value: { status: 'paid' } });
    expect(await paymentsOfOrder(app, order.id)).toHaveLength(1);
  });

  it('a paid order cannot be paid again, neither with a new intent nor with another succeeded intent', async () => {
    const order = await newOrder();
    const first = await payments_().createPaymentIntent(customer, order.id);
    const spare = await anotherTestIntent(app, order);
    await payments_().payWithTestCard(customer, first.id, testCard());
    await payments_().payWithTestCard(customer, spare.id, testCard());
    await payments_().confirmPayment(customer, order.id, first.id);
    await expectAppError(payments_().createPaymentIntent(customer, order.id), 'CONFLICT');
    await expectAppError(payments_().confirmPayment(customer, order.id, spare.id), 'CONFLICT');
    const succeededSpare: GatewayIntent = { ...spare, status: 'succeeded' };
    await expectAppError(payments_().recordSucceededIntent(succeededSpare), 'CONFLICT');
    const rows = await paymentsOfOrder(app, order.id);
    expect(rows.map((r) => r.transactionId)).toEqual([first.id]);
    expect((await orderRow(app, order.id))?.transactionId).toBe(first.id);
  });

  const refundedAt = async (intentId: string) =>
    (await app.server.database.db.select().from(testPaymentIntents).where(eq(testPaymentIntents.id, intentId)))[0]
      ?.refundedAt;

  it('a card charged for an order cancelled meanwhile is refunded: CONFLICT saying so, nothing recorded, refunded once', async () => {
    const order = await newOrder();
    const intent = await payments_().createPaymentIntent(customer, order.id);
    await payments_().payWithTestCard(customer, intent.id, testCard());
    await app.server.services.orders.cancelOrder(customer, order.id);
    const logs = captureLogs();
    try {
      const first = await expectAppError(payments_().confirmPayment(customer, order.id, intent.id), 'CONFLICT');
      expect(first.message).toBe(unpayableMessages.order_cancelled.refunded);
      const when = await refundedAt(intent.id);
      expect(when).toBeInstanceOf(Date);
      // Told again (a retry, or the REST confirmation): the same answer, the same single refund.
      const again = await expectAppError(payments_().confirmPayment(customer, order.id, intent.id), 'CONFLICT');
      expect(again.message).toBe(unpayableMessages.order_cancelled.refunded);
      expect(await refundedAt(intent.id)).toEqual(when);
    } finally {
      logs.restore();
    }
    expect(await paymentsOfOrder(app, order.id)).toHaveLength(0);
    expect(logs.lines.filter((l) => l.level === 'error')).toEqual([]);
    expect(logs.lines.find((l) => l.paymentIntentId === intent.id)).toMatchObject({
      level: 'warn',
      reason: 'order_cancelled',
      gateway: 'test',
      amountCents: 5000,
    });
  });

  it('a cancelled order whose card was not charged answers NOT_FOUND and refunds nothing', async () => {
    const order = await newOrder();
    const intent = await payments_().createPaymentIntent(customer, order.id);
    await app.server.services.orders.cancelOrder(customer, order.id);
    await expectAppError(payments_().confirmPayment(customer, order.id, intent.id), 'NOT_FOUND');
    expect(await refundedAt(intent.id)).toBeNull();
  });

  it('a second payment of an order paid with another one is refunded (CONFLICT); the first stays', async () => {
    const order = await newOrder();
    const first = await payments_().createPaymentIntent(customer, order.id);
    const second = await anotherTestIntent(app, order);
    const uncharged = await anotherTestIntent(app, order);
    await payments_().payWithTestCard(customer, first.id, testCard());
    await payments_().payWithTestCard(customer, second.id, testCard());
    await payments_().confirmPayment(customer, order.id, first.id);
    const logs = captureLogs();
    try {
      const refused = await expectAppError(payments_().confirmPayment(customer, order.id, second.id), 'CONFLICT');
      expect(refused.message).toBe(unpayableMessages.duplicate.refunded);
      // An intent of the order that was never charged is refused as before, with nothing to refund.
      const plain = await expectAppError(payments_().confirmPayment(customer, order.id, uncharged.id), 'CONFLICT');
      expect(plain.message).toBe('This order is already paid');
    } finally {
      logs.restore();
    }
    expect(await refundedAt(second.id)).toBeInstanceOf(Date);
    expect(await refundedAt(first.id)).toBeNull();
    expect(await refundedAt(uncharged.id)).toBeNull();
    expect((await paymentsOfOrder(app, order.id)).map((p) => p.transactionId)).toEqual([first.id]);
  });

  describe('recordSucceededIntent checks the intent against the order', () => {
    async function intentFor() {
      const order = await newOrder();
      const intent = await payments_().createPaymentIntent(customer, order.id);
      return { order, intent: { ...intent, status: 'succeeded' } satisfies GatewayIntent };
    }

    it("refunds a charge of another amount than the order's total, once, and leaves the order unpaid", async () => {
      const { order, intent } = await intentFor();
      await payments_().payWithTestCard(customer, intent.id, testCard());
      const logs = captureLogs();
      try {
        for (const amountCents of [4999, 5001, 1, 500000]) {
          const error = await expectAppError(payments_().recordSucceededIntent({ ...intent, amountCents }), 'CONFLICT');
          expect(error.message).toBe(unpayableMessages.amount_mismatch.refunded);
        }
      } finally {
        logs.restore();
      }
      expect(await refundedAt(intent.id)).toBeInstanceOf(Date);
      expect(logs.events('payment_refunded')).toHaveLength(1);
      expect((await orderRow(app, order.id))?.status).toBe('unpaid');
      expect(await paymentsOfOrder(app, order.id)).toHaveLength(0);
    });

    it('refuses another currency (refunding the charge)', async () => {
      const { order, intent } = await intentFor();
      await payments_().payWithTestCard(customer, intent.id, testCard());
      const logs = captureLogs();
      try {
        const error = await expectAppError(
          payments_().recordSucceededIntent({ ...intent, currency: 'eur' }),
          'CONFLICT',
        );
        expect(error.message).toBe(unpayableMessages.amount_mismatch.refunded);
      } finally {
        logs.restore();
      }
      expect((await orderRow(app, order.id))?.status).toBe('unpaid');
    });

    it("refuses a mismatched amount the gateway never charged, with the field's message", async () => {
      const { order, intent } = await intentFor();
      const error = await expectAppError(
        payments_().recordSucceededIntent({ ...intent, amountCents: 4999, status: 'requires_payment_method' }),
        'BAD_USER_INPUT',
      );
      expect(error.fields).toEqual({ paymentIntentId: 'The payment has not succeeded' });
      expect((await orderRow(app, order.id))?.status).toBe('unpaid');
    });

    it('refuses an intent that has not succeeded', async () => {
      const { order, intent } = await intentFor();
      for (const status of ['requires_payment_method', 'processing', 'canceled', 'requires_action']) {
        await expectAppError(payments_().recordSucceededIntent({ ...intent, status }), 'BAD_USER_INPUT');
      }
      expect((await orderRow(app, order.id))?.status).toBe('unpaid');
    });

    it('refuses an intent that names no order, or an order that does not exist', async () => {
      const { intent } = await intentFor();
      await expectAppError(payments_().recordSucceededIntent({ ...intent, orderId: undefined }), 'BAD_USER_INPUT');
      await expectAppError(payments_().recordSucceededIntent({ ...intent, orderId: 'not-an-id' }), 'BAD_USER_INPUT');
      // Nothing was charged on it (the gateway has it unpaid): a plain NOT_FOUND, and nothing to refund.
      await expectAppError(
        payments_().recordSucceededIntent({
          ...intent,
          status: 'requires_payment_method',
          orderId: '00000000-0000-4000-8000-000000000000',
        }),
        'NOT_FOUND',
      );
    });

    it('records the right amount exactly once, however often it is told', async () => {
      const { order, intent } = await intentFor();
      await payments_().recordSucceededIntent(intent);
      await payments_().recordSucceededIntent(intent);
      const rows = await app.server.database.db.select().from(payments).where(eq(payments.transactionId, intent.id));
      expect(rows).toHaveLength(1);
      expect(rows[0]).toMatchObject({ orderId: order.id, amountCents: 5000 });
    });
  });
});

describe.each(databaseKinds)('paying through Stripe (a local Stripe-compatible API, %s)', (kind) => {
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

  /** 3 units at $19.99 = $59.97. */
  async function newOrder() {
    const part = await addPartAs(app, admin, { price: 19.99, minOrder: 1, available: 100 });
    return placeOrderAs(app, customer, part.id, { orderAmount: 3 });
  }

  /** A webhook delivery as Stripe would send it, signed with `secret`. */
  const webhook = (intent: object, secret = 'whsec_test', type = 'payment_intent.succeeded') =>
    deliverWebhook(app, intent, { secret, type });

  it('reports Stripe mode and its publishable key', () => {
    expect(payments_().paymentSettings()).toEqual({ mode: 'stripe', publishableKey: 'pk_test_x' });
  });

  it("creates the intent at Stripe for the order's total in cents, with metadata.orderId", async () => {
    const order = await newOrder();
    const intent = await payments_().createPaymentIntent(customer, order.id);
    expect(intent).toMatchObject({ amountCents: 5997, currency: 'usd', orderId: order.id });
    const [request] = fake
      .requestsFor('POST', '/v1/payment_intents')
      .filter((r) => r.form['metadata[orderId]'] === order.id);
    expect(request.form).toMatchObject({
      amount: '5997',
      currency: 'usd',
      'metadata[orderId]': order.id,
      'metadata[shop]': shopTagOf('whsec_test'),
    });
    expect(request.form['metadata[shop]']).not.toContain('whsec');
    expect(request.headers.authorization).toBe('Bearer sk_test_x');
    expect(fake.intents.get(intent.id)).toMatchObject({ amount: 5997, metadata: { orderId: order.id } });
  });

  it('opening the payment page again hands the open intent again: Stripe is asked to create one, even once its idempotency keys are forgotten (issue 32)', async () => {
    const order = await newOrder();
    const first = await payments_().createPaymentIntent(customer, order.id);
    const second = await payments_().createPaymentIntent(customer, order.id);
    fake.forgetIdempotencyKeys();
    const third = await payments_().createPaymentIntent(customer, order.id);
    expect([second, third]).toEqual([first, first]);
    const creates = fake
      .requestsFor('POST', '/v1/payment_intents')
      .filter((r) => r.form['metadata[orderId]'] === order.id);
    expect(creates).toHaveLength(1);
  });

  it('an open intent Stripe has cancelled is not handed again: a new one is made', async () => {
    const order = await newOrder();
    const first = await payments_().createPaymentIntent(customer, order.id);
    const cancelled = fake.intents.get(first.id);
    if (cancelled) cancelled.status = 'canceled';
    fake.forgetIdempotencyKeys();
    const next = await payments_().createPaymentIntent(customer, order.id);
    expect(next.id).not.toBe(first.id);
    const [row] = await app.server.database.db.select().from(gatewayIntents).where(eq(gatewayIntents.id, first.id));
    expect(row.status).toBe('canceled');
  });

  it('an open intent that succeeded unconfirmed is recorded when the page is opened again: the order is paid (409), no second intent', async () => {
    const order = await newOrder();
    const first = await payments_().createPaymentIntent(customer, order.id);
    fake.succeed(first.id);
    await expectAppError(payments_().createPaymentIntent(customer, order.id), 'CONFLICT');
    expect(await orderRow(app, order.id)).toMatchObject({ status: 'paid', transactionId: first.id });
    expect(
      fake.requestsFor('POST', '/v1/payment_intents').filter((r) => r.form['metadata[orderId]'] === order.id),
    ).toHaveLength(1);
  });

  it('the card form of the test gateway is not offered in Stripe mode', async () => {
    const order = await newOrder();
    const intent = await payments_().createPaymentIntent(customer, order.id);
    await expectAppError(payments_().payWithTestCard(customer, intent.id, testCard()), 'BAD_USER_INPUT');
  });

  it('confirming is refused while Stripe says the intent has not succeeded', async () => {
    const order = await newOrder();
    const intent = await payments_().createPaymentIntent(customer, order.id);
    await expectAppError(payments_().confirmPayment(customer, order.id, intent.id), 'BAD_USER_INPUT');
    expect((await orderRow(app, order.id))?.status).toBe('unpaid');
  });

  it('confirming asks Stripe (retrieve) and marks the order paid once the intent succeeded', async () => {
    const order = await newOrder();
    const intent = await payments_().createPaymentIntent(customer, order.id);
    fake.succeed(intent.id);
    const before = fake.requestsFor('GET', `/v1/payment_intents/${intent.id}`).length;
    const paid = await payments_().confirmPayment(customer, order.id, intent.id);
    expect(paid).toMatchObject({ status: 'paid', transactionId: intent.id });
    expect(fake.requestsFor('GET', `/v1/payment_intents/${intent.id}`).length).toBe(before + 1);
    const rows = await paymentsOfOrder(app, order.id);
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ transactionId: intent.id, amountCents: 5997, gateway: 'stripe' });
  });

  it("a succeeded intent for another amount than the order's total is refunded and logged as mismatched", async () => {
    const order = await newOrder();
    const intent = await payments_().createPaymentIntent(customer, order.id);
    fake.succeed(intent.id, { amount: 100 });
    const logs = captureLogs();
    try {
      const error = await expectAppError(payments_().confirmPayment(customer, order.id, intent.id), 'CONFLICT');
      expect(error.message).toBe(unpayableMessages.amount_mismatch.refunded);
    } finally {
      logs.restore();
    }
    expect(fake.refundsOf(intent.id)).toEqual([expect.objectContaining({ amount: 100 })]);
    expect(logs.events('payment_mismatched')).toEqual([
      expect.objectContaining({
        orderId: order.id,
        paymentIntentId: intent.id,
        amountCents: 100,
        orderTotalCents: 5997,
      }),
    ]);
    expect((await orderRow(app, order.id))?.status).toBe('unpaid');
    expect(await paymentsOfOrder(app, order.id)).toHaveLength(0);
  });

  it('a succeeded intent made for another order (or none) is refused', async () => {
    const order = await newOrder();
    const foreign = fake.addIntent({ amount: 5997, status: 'succeeded', metadata: {} });
    await expectAppError(payments_().confirmPayment(customer, order.id, foreign.id), 'BAD_USER_INPUT');
    const otherOrder = await newOrder();
    const other = fake.addIntent({ amount: 5997, status: 'succeeded', metadata: { orderId: otherOrder.id } });
    await expectAppError(payments_().confirmPayment(customer, order.id, other.id), 'BAD_USER_INPUT');
    expect((await orderRow(app, order.id))?.status).toBe('unpaid');
  });

  it('an intent Stripe does not know is refused', async () => {
    const order = await newOrder();
    const error = await expectAppError(payments_().confirmPayment(customer, order.id, 'pi_unknown'), 'BAD_USER_INPUT');
    expect(error.fields).toEqual({ paymentIntentId: 'No such payment' });
  });

  it('a webhook with a bad or missing signature is refused with 400 and changes nothing', async () => {
    const order = await newOrder();
    const intent = await payments_().createPaymentIntent(customer, order.id);
    const succeeded = fake.succeed(intent.id);
    const forged = await webhook(succeeded, 'whsec_someone_else');
    expect(forged.status).toBe(400);
    const unsigned = await app.rest('POST', '/stripe/webhook', JSON.stringify({ type: 'payment_intent.succeeded' }));
    expect(unsigned.status).toBe(400);
    const garbage = await app.rest('POST', '/stripe/webhook', '{}', undefined, { 'stripe-signature': 't=1,v1=abc' });
    expect(garbage.status).toBe(400);
    expect((await orderRow(app, order.id))?.status).toBe('unpaid');
    expect(await paymentsOfOrder(app, order.id)).toHaveLength(0);
  });

  it('a correctly signed payment_intent.succeeded marks the order paid; replays and the client’s confirmation record exactly one payment', async () => {
    const order = await newOrder();
    const intent = await payments_().createPaymentIntent(customer, order.id);
    const succeeded = fake.succeed(intent.id);

    const delivered = await webhook(succeeded);
    expect(delivered.status).toBe(200);
    expect(delivered.body).toMatchObject({ received: true, recorded: true });
    expect(await orderRow(app, order.id)).toMatchObject({ status: 'paid', transactionId: intent.id });

    const replayed = await webhook(succeeded);
    expect(replayed.status).toBe(200);
    // Nothing new was recorded by the replay, and it says so.
    expect(replayed.body).toEqual({ received: true, recorded: false });

    const confirmed = await payments_().confirmPayment(customer, order.id, intent.id);
    expect(confirmed).toMatchObject({ status: 'paid', transactionId: intent.id });

    const rows = await paymentsOfOrder(app, order.id);
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ transactionId: intent.id, amountCents: 5997 });
  });

  it('webhook and confirmation racing each other still record one payment', async () => {
    const order = await newOrder();
    const intent = await payments_().createPaymentIntent(customer, order.id);
    const succeeded = fake.succeed(intent.id);
    const results = await Promise.allSettled([
      webhook(succeeded),
      payments_().confirmPayment(customer, order.id, intent.id),
      webhook(succeeded),
      payments_().confirmPayment(customer, order.id, intent.id),
    ]);
    for (const r of results) expect(r.status).toBe('fulfilled');
    expect(await paymentsOfOrder(app, order.id)).toHaveLength(1);
    expect((await orderRow(app, order.id))?.status).toBe('paid');
  });

  it('a signed webhook for a wrong amount is acknowledged, refunded once and logged; the order stays unpaid', async () => {
    const order = await newOrder();
    const intent = await payments_().createPaymentIntent(customer, order.id);
    const tampered = fake.succeed(intent.id, { amount: 1 });
    const logs = captureLogs();
    let delivered, replayed;
    try {
      delivered = await webhook(tampered);
      replayed = await webhook(tampered);
    } finally {
      logs.restore();
    }
    expect(delivered.status).toBe(200);
    expect(delivered.body).toEqual({ received: true, recorded: false, refunded: true });
    expect(replayed.body).toEqual({ received: true, recorded: false, refunded: true });
    expect(fake.refundsOf(intent.id)).toHaveLength(1);
    expect(logs.events('payment_mismatched')).toEqual([
      expect.objectContaining({
        level: 'error',
        orderId: order.id,
        paymentIntentId: intent.id,
        amountCents: 1,
        orderTotalCents: 5997,
        via: 'webhook',
      }),
    ]);
    expect(logs.events('payment_refunded')).toEqual([
      expect.objectContaining({ orderId: order.id, amountCents: 1, reason: 'amount_mismatch', via: 'webhook' }),
    ]);
    // On the shop's books: the intent succeeded (for 1 cent) and was refunded.
    const [ledger] = await app.server.database.db.select().from(gatewayIntents).where(eq(gatewayIntents.id, intent.id));
    expect(ledger).toMatchObject({ orderId: order.id, status: 'refunded', succeededAt: expect.any(Date) });
    expect((await orderRow(app, order.id))?.status).toBe('unpaid');
    expect(await paymentsOfOrder(app, order.id)).toHaveLength(0);
  });

  it('other signed events are acknowledged and ignored', async () => {
    const order = await newOrder();
    const intent = await payments_().createPaymentIntent(customer, order.id);
    const delivered = await webhook(fake.succeed(intent.id), 'whsec_test', 'payment_intent.created');
    expect(delivered.status).toBe(200);
    expect(delivered.body).toMatchObject({ received: true, recorded: false });
    expect((await orderRow(app, order.id))?.status).toBe('unpaid');
  });

  describe('a payment that arrives for an order cancelled meanwhile is refunded at Stripe', () => {
    /** An order of the customer, its intent charged at Stripe, then the order cancelled. */
    async function chargedThenCancelled() {
      const order = await newOrder();
      const intent = await payments_().createPaymentIntent(customer, order.id);
      const charged = fake.succeed(intent.id);
      await app.server.services.orders.cancelOrder(customer, order.id);
      return { order, intent: charged };
    }

    it('once, however many times the confirmation and the webhook arrive, even together', async () => {
      const { order, intent } = await chargedThenCancelled();
      const logs = captureLogs();
      let answers: PromiseSettledResult<unknown>[];
      try {
        answers = await Promise.allSettled([
          payments_().confirmPayment(customer, order.id, intent.id),
          webhook(intent),
          payments_().confirmPayment(customer, order.id, intent.id),
          webhook(intent),
        ]);
      } finally {
        logs.restore();
      }
      for (const i of [0, 2]) {
        expect(answers[i]).toMatchObject({
          status: 'rejected',
          reason: { code: 'CONFLICT', message: unpayableMessages.order_cancelled.refunded },
        });
      }
      for (const i of [1, 3]) {
        expect(answers[i]).toMatchObject({
          status: 'fulfilled',
          value: { status: 200, body: { received: true, recorded: false, refunded: true } },
        });
      }
      const [refund, ...more] = fake.refundsOf(intent.id);
      expect(more).toEqual([]);
      expect(refund).toMatchObject({
        amount: 5997,
        reason: 'requested_by_customer',
        metadata: { reason: 'order_cancelled' },
      });
      const asked = fake.requestsFor('POST', '/v1/refunds').filter((r) => r.form.payment_intent === intent.id);
      expect(asked.length).toBeGreaterThanOrEqual(1);
      for (const r of asked) expect(r.headers['idempotency-key']).toBe(`refund-${intent.id}`);
      expect(await paymentsOfOrder(app, order.id)).toHaveLength(0);
      expect(logs.lines.filter((l) => l.level === 'error')).toEqual([]);
    });

    it('while Stripe fails the refund: the confirmation says it will be refunded, the webhook answers 503 (Stripe sends it again) and the error names the intent; the next delivery refunds it', async () => {
      const { order, intent } = await chargedThenCancelled();
      const logs = captureLogs();
      try {
        fake.refundsFail = true;
        const refused = await expectAppError(payments_().confirmPayment(customer, order.id, intent.id), 'CONFLICT');
        expect(refused.message).toBe(unpayableMessages.order_cancelled.pending);
        const failed = await webhook(intent);
        expect(failed.status).toBe(503);
        expect(fake.refundsOf(intent.id)).toEqual([]);
        const errors = logs.lines.filter((l) => l.level === 'error' && l.paymentIntentId === intent.id);
        expect(errors).toHaveLength(2);
        for (const e of errors) expect(e).toMatchObject({ orderId: order.id, amountCents: 5997, gateway: 'stripe' });

        fake.refundsFail = false;
        const redelivered = await webhook(intent);
        expect(redelivered.status).toBe(200);
        expect(redelivered.body).toMatchObject({ received: true, recorded: false, refunded: true });
        const confirmed = await expectAppError(payments_().confirmPayment(customer, order.id, intent.id), 'CONFLICT');
        expect(confirmed.message).toBe(unpayableMessages.order_cancelled.refunded);
      } finally {
        fake.refundsFail = false;
        logs.restore();
      }
      expect(fake.refundsOf(intent.id)).toHaveLength(1);
    });

    it('an intent this shop did not create (another shop on the Stripe account) is never refunded', async () => {
      const order = await newOrder();
      await app.server.services.orders.cancelOrder(customer, order.id);
      const foreign = fake.addIntent({ amount: 5997, status: 'succeeded', metadata: { orderId: order.id } });
      const logs = captureLogs();
      try {
        const delivered = await webhook(foreign);
        expect(delivered.status).toBe(200);
        expect(delivered.body).toEqual({ received: true, recorded: false });
        await expectAppError(payments_().confirmPayment(customer, order.id, foreign.id), 'NOT_FOUND');
      } finally {
        logs.restore();
      }
      expect(fake.refundsOf(foreign.id)).toEqual([]);
      expect(logs.lines.some((l) => l.level === 'error' && l.paymentIntentId === foreign.id)).toBe(true);
    });

    it('asked again after Stripe forgot the idempotency key, the gateway answers the first refund', async () => {
      const { intent } = await chargedThenCancelled();
      const gateway = createStripeGateway(stripeSettings(fake.port));
      const first = await gateway.refundIntent(intent.id, 'order_cancelled');
      fake.forgetIdempotencyKeys();
      const second = await gateway.refundIntent(intent.id, 'order_cancelled');
      expect(second).toEqual(first);
      expect(fake.refundsOf(intent.id)).toHaveLength(1);
    });
  });
});

import { randomBytes } from 'node:crypto';
import { and, asc, eq, like } from 'drizzle-orm';
import { outbox, type OrderRow } from '../../src/db/schema';
import type { Actor } from '../../src/services/actor';
import { spreadRefund } from '../../src/services/refunds';
import { databaseKinds } from '../support/env';
import { addPart, placeCheckout } from '../support/fixtures';
import { startTestApp, type TestApp, type TestUser } from '../support/testApp';
import { deliverWebhook, FakeStripe, stripeSettings } from './fakeStripe';
import { actorOf, addPartAs, orderRow, placeOrderAs, signUp } from './helpers';

jest.setTimeout(120_000);

describe('a refund spread over the orders of one payment', () => {
  const group = [
    { id: 'a', totalCents: 1000 },
    { id: 'b', totalCents: 500 },
  ];
  it('covers the oldest line first, each up to its total, and adds up to what came back', () => {
    expect(spreadRefund(group, 1200)).toEqual([
      { id: 'a', refundedCents: 1000 },
      { id: 'b', refundedCents: 200 },
    ]);
    expect(spreadRefund(group, 1500).map((s) => s.refundedCents)).toEqual([1000, 500]);
    expect(spreadRefund(group, 300).map((s) => s.refundedCents)).toEqual([300, 0]);
  });
});

/**
 * Issue 32: a refund made in Stripe's dashboard, or a dispute, used to leave the order paid and say nothing. The
 * webhook's `charge.refunded`, `charge.dispute.created` and `charge.dispute.closed` are now applied to the orders
 * of that payment, once per Stripe event, shown to the customer and the admin, and mailed to the customer once.
 */
describe.each(databaseKinds)('refunds and disputes reported by Stripe (%s)', (kind) => {
  let fake: FakeStripe;
  let app: TestApp;
  let adminUser: TestUser;
  let admin: Actor;
  let customerUser: TestUser;
  let customer: Actor;

  beforeAll(async () => {
    fake = new FakeStripe();
    await fake.start();
    app = await startTestApp(kind, { stripe: stripeSettings(fake.port) });
    adminUser = await signUp(app, { admin: true });
    admin = await actorOf(app, adminUser);
    customerUser = await signUp(app);
    customer = await actorOf(app, customerUser);
  });
  afterAll(async () => {
    await app?.close();
    await fake?.close();
  });

  const payments_ = () => app.server.services.payments;

  /** An order of 3 units at $19.99 = $59.97, paid through Stripe and confirmed. */
  async function paidOrder(): Promise<{ order: OrderRow; intentId: string }> {
    const part = await addPartAs(app, admin, { price: 19.99, minOrder: 1, available: 100 });
    const order = await placeOrderAs(app, customer, part.id, { orderAmount: 3 });
    const intent = await payments_().createPaymentIntent(customer, order.id);
    fake.succeed(intent.id);
    await payments_().confirmPayment(customer, order.id, intent.id);
    return { order, intentId: intent.id };
  }

  /** Stripe's charge of an intent, after `refunded` cents of it came back. */
  const charge = (intentId: string, amount: number, refunded: number) => ({
    id: `ch_${randomBytes(8).toString('hex')}`,
    object: 'charge',
    amount,
    amount_refunded: refunded,
    refunded: refunded >= amount,
    currency: 'usd',
    payment_intent: intentId,
    status: 'succeeded',
  });
  /** Stripe's dispute of an intent's charge, in `status`. */
  const dispute = (intentId: string, status: string) => ({
    id: `dp_${randomBytes(8).toString('hex')}`,
    object: 'dispute',
    amount: 5997,
    currency: 'usd',
    charge: 'ch_x',
    payment_intent: intentId,
    reason: 'fraudulent',
    status,
  });
  const eventId = () => `evt_${randomBytes(8).toString('hex')}`;

  /** The emails of `kind` queued for the customer about `intentId`. */
  /** In the order they were queued (PostgreSQL answers an unordered select in any order). */
  const emailsAbout = async (kind: string, intentId: string) =>
    app.server.database.db
      .select()
      .from(outbox)
      .where(and(eq(outbox.kind, kind), like(outbox.text, `%${intentId}%`)))
      .orderBy(asc(outbox.createdAt));

  const customerOrder = (id: string) =>
    app.gql<{
      order: { status: string; paid: boolean; price: number; refundedAmount: number; dispute: string | null };
    }>('query($id: ID!) { order(id: $id) { status paid price refundedAmount dispute } }', { id }, customerUser.token);
  const adminOrders = async () =>
    (
      await app.gql<{ orders: { items: { id: string; refundedAmount: number; dispute: string | null }[] } }>(
        '{ orders(limit: 200) { items { id refundedAmount dispute } } }',
        {},
        adminUser.token,
      )
    ).data?.orders.items ?? [];
  const restOrder = async (id: string) =>
    (await app.rest<Record<string, unknown>>('GET', `/order/${id}`, undefined, customerUser.token)).body;

  it('a refund made in Stripe’s dashboard marks the order refunded for the customer and the admin, and emails the customer once, however often the event is delivered', async () => {
    const { order, intentId } = await paidOrder();
    const id = eventId();
    const first = await deliverWebhook(app, charge(intentId, 5997, 5997), { type: 'charge.refunded', id });
    const again = await deliverWebhook(app, charge(intentId, 5997, 5997), { type: 'charge.refunded', id });
    expect([first.status, first.body.recorded, again.status, again.body.recorded]).toEqual([200, true, 200, false]);

    expect(await orderRow(app, order.id)).toMatchObject({ status: 'paid', refundedCents: 5997 });
    expect((await customerOrder(order.id)).data?.order).toEqual({
      status: 'PAID',
      paid: true,
      price: 59.97,
      refundedAmount: 59.97,
      dispute: null,
    });
    expect((await adminOrders()).find((o) => o.id === order.id)).toEqual({
      id: order.id,
      refundedAmount: 59.97,
      dispute: null,
    });
    expect(await restOrder(order.id)).toMatchObject({ _id: order.id, paid: true, refunded: 59.97 });

    const mails = await emailsAbout('payment_refunded', intentId);
    expect(mails).toHaveLength(1);
    expect(mails[0]).toMatchObject({
      toAddress: order.email,
      subject: 'PartsYard: your payment of $59.97 has been refunded',
    });
    expect(mails[0].text).toContain('We have refunded your payment of $59.97 in full.');
  });

  it('an order refunded in full is not shipped; one refunded in part still is', async () => {
    const ship = (id: string) =>
      app.gql<{ markOrderShipped: { status: string } }>(
        'mutation($id: ID!) { markOrderShipped(id: $id) { status } }',
        { id },
        adminUser.token,
      );
    const whole = await paidOrder();
    await deliverWebhook(app, charge(whole.intentId, 5997, 5997), { type: 'charge.refunded' });
    const refused = await ship(whole.order.id);
    expect(refused.errors?.[0]).toMatchObject({
      message: 'This order was refunded in full, so it is not shipped',
      extensions: { code: 'CONFLICT' },
    });
    expect(await orderRow(app, whole.order.id)).toMatchObject({ status: 'paid', shippedAt: null });

    const part = await paidOrder();
    await deliverWebhook(app, charge(part.intentId, 5997, 1000), { type: 'charge.refunded' });
    expect((await ship(part.order.id)).data?.markOrderShipped.status).toBe('SHIPPED');
  });

  it('a partial refund shows its amount; a later one the new total; an older total delivered late changes nothing', async () => {
    const { order, intentId } = await paidOrder();
    await deliverWebhook(app, charge(intentId, 5997, 1000), { type: 'charge.refunded' });
    expect((await customerOrder(order.id)).data?.order.refundedAmount).toBe(10);
    expect((await emailsAbout('payment_refunded', intentId)).map((m) => m.subject)).toEqual([
      'PartsYard: $10.00 of your payment has been refunded',
    ]);

    await deliverWebhook(app, charge(intentId, 5997, 2500), { type: 'charge.refunded' });
    const late = await deliverWebhook(app, charge(intentId, 5997, 1000), { type: 'charge.refunded' });
    expect(late.body).toEqual({ received: true, recorded: false });
    expect((await orderRow(app, order.id))?.refundedCents).toBe(2500);
    expect(await emailsAbout('payment_refunded', intentId)).toHaveLength(2);
  });

  it("a checkout's refund is spread over its orders, oldest line first", async () => {
    const parts = [
      await addPart(app, adminUser.token, { price: 10, minOrder: 1 }),
      await addPart(app, adminUser.token, { price: 5, minOrder: 1 }),
    ];
    const { orderIds } = await placeCheckout(app, customerUser.token, parts, { amount: 2 });
    const intent = await payments_().createPaymentIntent(customer, orderIds[0]);
    fake.succeed(intent.id);
    await payments_().confirmPayment(customer, orderIds[0], intent.id);
    await deliverWebhook(app, charge(intent.id, 3000, 2500), { type: 'charge.refunded' });
    // In the order the checkout lists its lines (Order.checkout): the first covered up to its total, then the next.
    const first = await orderRow(app, orderIds[0]);
    const lines = (first && (await app.server.services.orders.checkoutOf(first)))?.orders ?? [];
    const [a, b] = lines.map((o) => o.totalCents);
    expect(lines.map((o) => [o.totalCents, o.refundedCents])).toEqual([
      [a, Math.min(a, 2500)],
      [b, 2500 - Math.min(a, 2500)],
    ]);
    expect(lines.map((o) => o.totalCents).sort()).toEqual([1000, 2000]);
    expect(await emailsAbout('payment_refunded', intent.id)).toHaveLength(1);
  });

  it('a dispute shows as open, then its outcome; each change emailed once, a repeated or late event changes nothing', async () => {
    const { order, intentId } = await paidOrder();
    const opened = eventId();
    for (let i = 0; i < 2; i++) {
      await deliverWebhook(app, dispute(intentId, 'needs_response'), { type: 'charge.dispute.created', id: opened });
    }
    expect((await customerOrder(order.id)).data?.order.dispute).toBe('OPEN');
    expect(await restOrder(order.id)).toMatchObject({ dispute: 'open' });
    expect((await emailsAbout('payment_disputed', intentId)).map((m) => m.subject)).toEqual([
      'PartsYard: your payment is disputed',
    ]);

    const closed = eventId();
    for (let i = 0; i < 2; i++) {
      await deliverWebhook(app, dispute(intentId, 'won'), { type: 'charge.dispute.closed', id: closed });
    }
    // A `created` arriving after the close does not reopen it.
    await deliverWebhook(app, dispute(intentId, 'needs_response'), { type: 'charge.dispute.created' });
    expect((await adminOrders()).find((o) => o.id === order.id)?.dispute).toBe('WON');
    const mails = await emailsAbout('payment_disputed', intentId);
    expect(mails).toHaveLength(2);
    expect(mails[1].text).toContain('the bank decided that the payment stands');
  });

  it('a dispute lost says the bank returned the payment', async () => {
    const { order, intentId } = await paidOrder();
    await deliverWebhook(app, dispute(intentId, 'lost'), { type: 'charge.dispute.closed' });
    expect((await customerOrder(order.id)).data?.order.dispute).toBe('LOST');
    expect((await emailsAbout('payment_disputed', intentId))[0]?.text).toContain(
      'your bank has returned the payment to you',
    );
  });

  it('a refund of a payment no order holds (one the shop refunded itself) is acknowledged and changes nothing', async () => {
    const { order } = await paidOrder();
    const stray = fake.addIntent({ amount: 5997, status: 'succeeded', metadata: { orderId: order.id } });
    const answer = await deliverWebhook(app, charge(stray.id, 5997, 5997), { type: 'charge.refunded' });
    expect(answer.body).toEqual({ received: true, recorded: false });
    expect((await orderRow(app, order.id))?.refundedCents).toBe(0);
    expect(await emailsAbout('payment_refunded', stray.id)).toHaveLength(0);
  });
});

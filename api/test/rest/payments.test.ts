import { adapterDatabaseKinds } from '../support/env';
import { placeCheckout } from '../support/fixtures';
import type { TestApp, TestUser } from '../support/testApp';
import {
  expectRefusal,
  goodCard,
  paymentSpecKeys,
  restAddPart,
  restCreateIntent,
  restOrder,
  restPayOrder,
  restPlaceOrder,
  startRestApp,
  unknownId,
  uuidPattern,
  type CardOutcome,
  type Inserted,
  type PaymentDoc,
  type PaymentIntentAnswer,
  type Updated,
} from './restSupport';

describe.each(adapterDatabaseKinds)(
  'REST payments (create-payment-intent, test gateway, PATCH /api/order/{id}) on %s',
  (kind) => {
    let app: TestApp;
    let admin: TestUser;
    let customer: TestUser;
    let other: TestUser;

    beforeAll(async () => {
      app = await startRestApp(kind);
      admin = await app.signUp({ admin: true });
      customer = await app.signUp();
      other = await app.signUp();
    });
    afterAll(() => app?.close());

    const paymentsOf = async (user: TestUser) =>
      (await app.rest<PaymentDoc[]>('GET', `/payments/filter?email=${user.email}`, undefined, user.token)).body;
    const unpaidOrder = async (user: TestUser = customer, overrides: Record<string, unknown> = {}) =>
      restPlaceOrder(app, user.token, await restAddPart(app, admin.token, overrides), {});
    const pay = (token: string, paymentIntentId: string, card: Record<string, unknown> = goodCard) =>
      app.rest<CardOutcome>('POST', '/test-gateway/pay', { paymentIntentId, card }, token);
    const confirm = (token: string | undefined, orderId: string, transactionId: unknown) =>
      app.rest<Updated>('PATCH', `/order/${orderId}`, { transactionId }, token);

    it('pays an order end to end: order, intent, test card, confirmation; the order is paid and listed as a payment', async () => {
      const partId = await restAddPart(app, admin.token, { name: 'Chain Sprocket Kit', price: 12.5 });
      const placed = await app.rest<Inserted>(
        'POST',
        '/orders',
        { partId, name: 'Rider One', phone: '01712345678', orderAmount: 12, address: 'Dhaka' },
        customer.token,
      );
      expect(placed.status).toBe(200);
      const orderId = placed.body.insertedId;

      const intent = await app.rest<PaymentIntentAnswer>('POST', '/create-payment-intent', { orderId }, customer.token);
      expect(intent.status).toBe(200);
      expect(intent.body).toEqual({
        clientSecret: expect.stringContaining('_secret_'),
        paymentIntentId: expect.stringMatching(/^pi_test_/),
        amount: 150,
        currency: 'usd',
      });
      const intentId = intent.body.paymentIntentId;

      const card = await pay(customer.token, intentId);
      expect(card.status).toBe(200);
      expect(card.body).toEqual({ succeeded: true, paymentIntentId: intentId, error: null });

      const patched = await confirm(customer.token, orderId, intentId);
      expect(patched.status).toBe(200);
      expect(patched.body).toEqual({ acknowledged: true, matchedCount: 1, modifiedCount: 1 });

      const order = await restOrder(app, customer.token, orderId);
      expect(order.body).toMatchObject({
        _id: orderId,
        paid: true,
        status: 'paid',
        transactionId: intentId,
        price: 150,
      });

      const payments = await app.rest<PaymentDoc[]>(
        'GET',
        `/payments/filter?email=${customer.email}`,
        undefined,
        customer.token,
      );
      expect(payments.status).toBe(200);
      const payment = payments.body.find((p) => p.transactionId === intentId);
      expect(payment).toBeDefined();
      expect(Object.keys(payment as PaymentDoc)).toEqual(expect.arrayContaining(paymentSpecKeys));
      expect(payment).toMatchObject({
        partId,
        partName: 'Chain Sprocket Kit',
        email: customer.email,
        transactionId: intentId,
        orderId,
        amount: 150,
      });
      expect(typeof payment?._id).toBe('string');
    });

    describe('PATCH /api/order/{id} (confirming a payment)', () => {
      it('is idempotent: the same transaction id again answers modifiedCount 0 and records one payment', async () => {
        const orderId = await unpaidOrder();
        const intentId = await restPayOrder(app, customer.token, orderId);
        const again = await confirm(customer.token, orderId, intentId);
        expect(again.status).toBe(200);
        expect(again.body).toEqual({ acknowledged: true, matchedCount: 1, modifiedCount: 0 });
        expect((await paymentsOf(customer)).filter((p) => p.transactionId === intentId)).toHaveLength(1);
      });

      it('refuses another transaction id for a paid order with 409; the order keeps its first one', async () => {
        const orderId = await unpaidOrder();
        const intentId = await restPayOrder(app, customer.token, orderId);
        const secondOrder = await unpaidOrder();
        const otherIntent = await restCreateIntent(app, customer.token, secondOrder);
        expectRefusal(await confirm(customer.token, orderId, otherIntent), 409);
        expect((await restOrder(app, customer.token, orderId)).body.transactionId).toBe(intentId);
      });

      it('refuses a missing transactionId with 400 {message, errors}', async () => {
        const orderId = await unpaidOrder();
        expectRefusal(await app.rest('PATCH', `/order/${orderId}`, {}, customer.token), 400, {
          transactionId: 'transactionId is required',
        });
        expect((await restOrder(app, customer.token, orderId)).body.paid).toBe(false);
      });

      it('refuses an intent the gateway does not know, or one for another order, with 400; nothing is paid', async () => {
        const orderId = await unpaidOrder();
        expectRefusal(await confirm(customer.token, orderId, 'pi_test_doesnotexist'), 400, {
          paymentIntentId: 'No such payment',
        });
        const elsewhere = await unpaidOrder();
        const elsewhereIntent = await restCreateIntent(app, customer.token, elsewhere);
        expect((await pay(customer.token, elsewhereIntent)).body.succeeded).toBe(true);
        expectRefusal(await confirm(customer.token, orderId, elsewhereIntent), 400, {
          paymentIntentId: 'The payment is not for this order',
        });
        expect((await restOrder(app, customer.token, orderId)).body.paid).toBe(false);
        expect((await paymentsOf(customer)).map((p) => p.orderId)).not.toContain(orderId);
      });

      it('refuses an intent that has not succeeded with 400; the order stays unpaid', async () => {
        const orderId = await unpaidOrder();
        const intentId = await restCreateIntent(app, customer.token, orderId);
        expectRefusal(await confirm(customer.token, orderId, intentId), 400, {
          paymentIntentId: 'The payment has not succeeded',
        });
        expect((await restOrder(app, customer.token, orderId)).body.paid).toBe(false);
      });

      it("refuses a visitor (401), another customer (403) and an admin paying a customer's order (403); nothing is paid", async () => {
        const orderId = await unpaidOrder();
        const intentId = await restCreateIntent(app, customer.token, orderId);
        expect((await pay(customer.token, intentId)).body.succeeded).toBe(true);
        expectRefusal(await confirm(undefined, orderId, intentId), 401);
        expectRefusal(await confirm(other.token, orderId, intentId), 403);
        expectRefusal(await confirm(admin.token, orderId, intentId), 403);
        expect((await restOrder(app, customer.token, orderId)).body.paid).toBe(false);
        expect((await paymentsOf(customer)).map((p) => p.transactionId)).not.toContain(intentId);
      });

      it('answers 404 for an unknown order', async () => {
        expectRefusal(await confirm(customer.token, unknownId, 'pi_test_x'), 404, 'Order not found');
      });

      it("answers a stranger 404 for another customer's checkout id, as for an unknown id: nothing recorded, before and after it is paid (issue 32)", async () => {
        const victim = await app.signUp();
        const parts = [await restAddPart(app, admin.token, {}), await restAddPart(app, admin.token, {})];
        const { checkoutId, orderIds } = await placeCheckout(app, victim.token, parts, {
          name: 'Victim Rider',
          address: '12 Secret Lane, Dhaka',
        });
        const intentId = await restCreateIntent(app, victim.token, orderIds[0]);
        expect((await pay(victim.token, intentId)).body.succeeded).toBe(true);

        for (const stranger of [other, admin]) {
          const answer = await confirm(stranger.token, checkoutId, intentId);
          expectRefusal(answer, 404, 'Order not found');
          expect(JSON.stringify(answer.body)).not.toMatch(/Victim Rider|Secret Lane/);
        }
        for (const id of orderIds) expect((await restOrder(app, victim.token, id)).body.paid).toBe(false);
        expect(await paymentsOf(victim)).toEqual([]);

        expect((await confirm(victim.token, orderIds[1], intentId)).body).toEqual({
          acknowledged: true,
          matchedCount: 1,
          modifiedCount: 1,
        });
        expectRefusal(await confirm(other.token, checkoutId, intentId), 404, 'Order not found');
        // The owner may name the checkout: it is paid already, so nothing changes.
        expect((await confirm(victim.token, checkoutId, intentId)).body).toMatchObject({ modifiedCount: 0 });
      });
    });

    describe('POST /api/create-payment-intent', () => {
      it("accepts the client's price when it is the order's total", async () => {
        const orderId = await unpaidOrder(customer, { price: 2.5 });
        const result = await app.rest<PaymentIntentAnswer>(
          'POST',
          '/create-payment-intent',
          { orderId, price: 25 },
          customer.token,
        );
        expect(result.status).toBe(200);
        expect(result.body.amount).toBe(25);
      });

      it("refuses a price other than the order's total with 400 {message, errors}", async () => {
        const orderId = await unpaidOrder(customer, { price: 2.5 });
        expectRefusal(await app.rest('POST', '/create-payment-intent', { orderId, price: 1 }, customer.token), 400, {
          price: "The price does not match the order's total",
        });
      });

      it('refuses a missing orderId with 400', async () => {
        expectRefusal(await app.rest('POST', '/create-payment-intent', { price: 10 }, customer.token), 400, {
          orderId: 'orderId is required',
        });
      });

      it("refuses a visitor (401), another customer (403) and an admin for a customer's order (403)", async () => {
        const orderId = await unpaidOrder();
        expectRefusal(await app.rest('POST', '/create-payment-intent', { orderId }), 401);
        expectRefusal(await app.rest('POST', '/create-payment-intent', { orderId }, other.token), 403);
        expectRefusal(await app.rest('POST', '/create-payment-intent', { orderId }, admin.token), 403);
      });

      it('answers 404 for an unknown order', async () => {
        expectRefusal(
          await app.rest('POST', '/create-payment-intent', { orderId: unknownId }, customer.token),
          404,
          'Order not found',
        );
      });

      it('refuses to pay a paid order again with 409', async () => {
        const orderId = await unpaidOrder();
        await restPayOrder(app, customer.token, orderId);
        expectRefusal(await app.rest('POST', '/create-payment-intent', { orderId }, customer.token), 409);
      });
    });

    describe('POST /api/test-gateway/pay', () => {
      it.each([
        ['4000 0000 0000 0002', 'Your card was declined.'],
        ['4000 0000 0000 9995', 'Your card has insufficient funds.'],
        ['4000 0000 0000 0069', 'Your card has expired.'],
        ['4000 0000 0000 0127', "Your card's security code is incorrect."],
        ['4242 4242 4242 4241', 'Your card number is invalid.'],
      ])('answers card %s with succeeded false and "%s"; the order stays unpaid', async (number, error) => {
        const orderId = await unpaidOrder();
        const intentId = await restCreateIntent(app, customer.token, orderId);
        const result = await pay(customer.token, intentId, { ...goodCard, number });
        expect(result.status).toBe(200);
        expect(result.body).toEqual({ succeeded: false, paymentIntentId: intentId, error });
        expectRefusal(await confirm(customer.token, orderId, intentId), 400, {
          paymentIntentId: 'The payment has not succeeded',
        });
        expect((await restOrder(app, customer.token, orderId)).body.paid).toBe(false);
      });

      it('refuses a visitor (401) and another customer (403); the intent stays unpaid', async () => {
        const orderId = await unpaidOrder();
        const intentId = await restCreateIntent(app, customer.token, orderId);
        expectRefusal(await app.rest('POST', '/test-gateway/pay', { paymentIntentId: intentId, card: goodCard }), 401);
        expectRefusal(await pay(other.token, intentId), 403);
        expectRefusal(await confirm(customer.token, orderId, intentId), 400, {
          paymentIntentId: 'The payment has not succeeded',
        });
      });

      it('answers 404 for an unknown payment intent', async () => {
        expectRefusal(await pay(customer.token, 'pi_test_unknown'), 404);
      });
    });

    describe('GET /api/payments/filter?email=', () => {
      it("answers the user's own payments to them and to an admin, with spec §3's fields", async () => {
        const orderId = await unpaidOrder(other);
        const intentId = await restPayOrder(app, other.token, orderId);
        for (const token of [other.token, admin.token]) {
          const result = await app.rest<PaymentDoc[]>('GET', `/payments/filter?email=${other.email}`, undefined, token);
          expect(result.status).toBe(200);
          expect(result.body.map((p) => p.transactionId)).toContain(intentId);
          expect(result.body.every((p) => p.email === other.email)).toBe(true);
          for (const payment of result.body) {
            expect(Object.keys(payment)).toEqual(expect.arrayContaining(paymentSpecKeys));
            expect(payment._id).toMatch(uuidPattern);
          }
        }
      });

      it("refuses a missing or malformed email with 400 and spec §5's message, as /api/orders/filter does", async () => {
        expectRefusal(await app.rest('GET', '/payments/filter', undefined, admin.token), 400, {
          email: 'Email is required',
        });
        expectRefusal(await app.rest('GET', '/payments/filter?email=not-an-email', undefined, admin.token), 400, {
          email: 'Provide a valid email',
        });
      });

      it("refuses another customer's payments with 403 and a visitor with 401", async () => {
        expectRefusal(await app.rest('GET', `/payments/filter?email=${other.email}`, undefined, customer.token), 403);
        expectRefusal(await app.rest('GET', `/payments/filter?email=${customer.email}`), 401);
      });
    });
  },
);
